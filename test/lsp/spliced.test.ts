// chunks.ts `spliced`: the per-version lists of a chunked parse (chunk starts and texts, line starts,
// the file's declarations, comments and diagnostics) are the last version's with a middle part
// replaced, the part after it moved by a constant; against the obvious construction, for both of its
// paths (as many new elements as old ones: one copy changed in place; otherwise slices and concat).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { spliced } from '../../server/src/service/chunk-lists.js';

function naive(src: readonly number[], from: number, mid: readonly number[], to: number, by: number, end: number, more: number[]): number[] {
  return [...src.slice(0, from), ...mid, ...src.slice(to, end).map((x) => x + by), ...more];
}

test('spliced equals the naive construction, and leaves its source alone', () => {
  fc.assert(fc.property(
    fc.array(fc.integer({ min: -1000, max: 1000 }), { maxLength: 40 }),
    fc.nat(), fc.nat(), fc.nat(),
    fc.array(fc.integer(), { maxLength: 8 }),
    fc.integer({ min: -50, max: 50 }),
    fc.array(fc.integer(), { maxLength: 3 }),
    fc.boolean(),
    (src, i, j, e, mid0, by, more, sameCount) => {
      const from = Math.min(i, j) % (src.length + 1);
      const to = Math.max(from, Math.max(i, j) % (src.length + 1));
      const end = to + (e % (src.length - to + 1));
      // half of the cases take the in-place path: as many new elements as replaced ones, to the end
      const mid = sameCount ? Array.from({ length: to - from }, (_, k) => mid0[k % Math.max(1, mid0.length)] ?? k) : mid0;
      const useEnd = sameCount ? src.length : end;
      const extra = sameCount ? [] : more;
      const copy = [...src];
      assert.deepEqual(spliced(src, from, mid, to, by, useEnd, ...extra), naive(src, from, mid, to, by, useEnd, extra));
      assert.deepEqual(src, copy);
    },
  ), { numRuns: 2000 });
});
