// Quick fixes as data: applying a fix's edits gives the expected text, and re-analysing that
// text is clean (no diagnostic at all, unless the test says which remain).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../../server/src/check/index.js';
import type { Diagnostic, Fix } from '../../../grammar/src/diagnostic.js';

/** Applies non-overlapping edits (any order) to `text`. */
export function applyFix(text: string, fix: Fix): string {
  const edits = [...fix.edits].sort((a, b) => b.range.start - a.range.start || b.range.end - a.range.end);
  for (let i = 1; i < edits.length; i++) assert.ok(edits[i].range.end <= edits[i - 1].range.start, `edits of '${fix.title}' overlap`);
  let out = text;
  for (const e of edits) out = out.slice(0, e.range.start) + e.newText + out.slice(e.range.end);
  return out;
}

function only(text: string, code: string): Diagnostic[] {
  return analyze(text).diagnostics.filter((d) => d.code === code);
}

function codes(text: string): string[] {
  return analyze(text).diagnostics.map((d) => `${d.code}: ${d.message}`);
}

test('applyFix rejects overlapping edits (so a broken fix cannot pass)', () => {
  assert.throws(() => applyFix('abcdef', { title: 't', edits: [{ range: { start: 0, end: 3 }, newText: 'x' }, { range: { start: 2, end: 4 }, newText: 'y' }] }), /overlap/);
  assert.equal(applyFix('abcdef', { title: 't', edits: [{ range: { start: 4, end: 6 }, newText: 'Z' }, { range: { start: 0, end: 1 }, newText: 'Y' }] }), 'YbcdZ');
});

test('regp: the 1-based fix rewrites each literal in place and re-analysis is clean', () => {
  const text = 'layout B = OrderBy(RegP([2, 3, 2, 3], [1,3, 2,  4])).GroupBy([6, 6])\n';
  const [d] = only(text, 'regp/not-a-permutation');
  assert.equal(d.fixes?.length, 1);
  assert.equal(d.fixes![0].title, 'Convert to 0-based: [0, 2, 1, 3]');
  const fixed = applyFix(text, d.fixes![0]);
  assert.equal(fixed, 'layout B = OrderBy(RegP([2, 3, 2, 3], [0,2, 1,  3])).GroupBy([6, 6])\n');
  assert.deepEqual(codes(fixed), []);
});

test('regp: a 1-based permutation with a computed entry is replaced as a whole list', () => {
  const text = 'param P = 2\nlayout B = OrderBy(RegP([2, 2], (P, 1))).GroupBy([4])\n';
  const [d] = only(text, 'regp/not-a-permutation');
  const fixed = applyFix(text, d.fixes![0]);
  assert.equal(fixed, 'param P = 2\nlayout B = OrderBy(RegP([2, 2], (1, 0))).GroupBy([4])\n');
  // P is no longer used
  assert.deepEqual(codes(fixed), ['unused/param: param P is never used']);
});

const brief = 'param M = 100\nlayout A = OrderBy(Row(M, 64)).TileBy([M/32, 2], [32, 32])\n';

test('tile: the brief example offers the two nearest dividing sizes and ExpandBy', () => {
  const [d] = only(brief, 'tile/not-divisible');
  assert.equal(d.message, '32 does not divide M = 100');
  assert.deepEqual(d.fixes!.map((f) => f.title), [
    'Use 25, which divides M = 100',
    'Use 50, which divides M = 100',
    'Wrap in ExpandBy (pad M to 128)',
  ]);
  // the tile size is changed where it divides and where it is the inner level's extent
  const use25 = applyFix(brief, d.fixes![0]);
  assert.equal(use25, 'param M = 100\nlayout A = OrderBy(Row(M, 64)).TileBy([M/25, 2], [25, 32])\n');
  assert.deepEqual(codes(use25), []);
  const use50 = applyFix(brief, d.fixes![1]);
  assert.equal(use50, 'param M = 100\nlayout A = OrderBy(Row(M, 64)).TileBy([M/50, 2], [50, 32])\n');
  assert.deepEqual(codes(use50), []);
});

test('tile: wrap in ExpandBy pads the tiled extent with a floor division and keeps the original shape', () => {
  const [d] = only(brief, 'tile/not-divisible');
  const fixed = applyFix(brief, d.fixes![2]);
  assert.equal(fixed, 'param M = 100\nlayout A = ExpandBy(OrderBy(Row((M + 31)//32*32, 64)).TileBy([(M + 31)//32, 2], [32, 32]), [M, 64])\n');
  assert.deepEqual(codes(fixed), []);
});

test('tile: ExpandBy pads every non-dividing dimension of the TileBy at once, with named tiles', () => {
  const text = 'param M = 100, K = 50, BM = 32, BK = 16\nlayout A = OrderBy(Row(M, K)).TileBy([M / BM, K / BK], [BM, BK])\n';
  const ds = only(text, 'tile/not-divisible');
  assert.deepEqual(ds.map((d) => d.message), ['BM = 32 does not divide M = 100', 'BK = 16 does not divide K = 50']);
  const expand = ds[0].fixes!.find((f) => f.title.startsWith('Wrap'))!;
  assert.equal(expand.title, 'Wrap in ExpandBy (pad M to 128, K to 64)');
  const fixed = applyFix(text, expand);
  assert.equal(fixed, 'param M = 100, K = 50, BM = 32, BK = 16\nlayout A = ExpandBy(OrderBy(Row((M + BM - 1)//BM*BM, (K + BK - 1)//BK*BK)).TileBy([(M + BM - 1)//BM, (K + BK - 1)//BK], [BM, BK]), [M, K])\n');
  assert.deepEqual(codes(fixed), []);
});

test('tile: a param divisor is fixed at its declaration', () => {
  const text = 'param M = 100, BM = 48\nlet n = M / BM\nlayout L = OrderBy(Row(n, 4)).GroupBy([n * 4])\n';
  const [d] = only(text, 'tile/not-divisible');
  assert.deepEqual(d.fixes!.map((f) => f.title), ['Use 25, which divides M = 100', 'Use 50, which divides M = 100']);
  const fixed = applyFix(text, d.fixes![1]);
  assert.equal(fixed, 'param M = 100, BM = 50\nlet n = M / BM\nlayout L = OrderBy(Row(n, 4)).GroupBy([n * 4])\n');
  assert.deepEqual(codes(fixed), []);
});

test('tile: a failing candidate is replaced by the nearest dividing values not already listed', () => {
  const text = 'param M = 4096, BM = 128 in [64, 96, 128]\nlet n = M / BM\nlayout L = OrderBy(Row(n, 4)).GroupBy([n * 4])\n';
  const [d] = only(text, 'tile/not-divisible');
  assert.equal(d.message, 'BM = 96 (a candidate of BM) does not divide M = 4096');
  assert.deepEqual(d.related, [{ message: 'the candidate 96 of BM', range: { start: text.indexOf(' 96') + 1, end: text.indexOf(' 96') + 3 } }]);
  // 64 and 128 are candidates already: the next dividing values are 32 and 256
  assert.deepEqual(d.fixes!.map((f) => f.title), ['Use 32, which divides M = 4096', 'Use 256, which divides M = 4096']);
  const fixed = applyFix(text, d.fixes![1]);
  assert.equal(fixed, 'param M = 4096, BM = 128 in [64, 256, 128]\nlet n = M / BM\nlayout L = OrderBy(Row(n, 4)).GroupBy([n * 4])\n');
  assert.deepEqual(codes(fixed), []);
});

test('tile: no dividing-size fix for a computed divisor, and no ExpandBy outside a TileBy', () => {
  const text = 'param M = 100, S = 2\nlet n = M / (S * 16)\nlayout L = OrderBy(Row(n, 4)).GroupBy([n * 4])\n';
  const [d] = only(text, 'tile/not-divisible');
  assert.deepEqual(d.fixes, []);
});
