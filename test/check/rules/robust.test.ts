// Never crash, never hang on bad input: the rules run on random edits of every fixture (the
// half-typed text an editor sends) without throwing, without an internal error, and with every
// range inside the text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { analyze } from '../../../server/src/check/index.js';

const root = join(import.meta.dirname, '../fixtures/rules');
function fixtures(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? fixtures(p) : n.endsWith('.layout') ? [readFileSync(p, 'utf8')] : [];
  });
}
const texts = fixtures(root);

const pieces = ['(', ')', '[', ']', ',', '/', '//', '%', '0', '1', '-1', '99999999999999999999', 'M', 'n', '.', ':', 'GroupBy', 'TileBy(', 'OrderBy(', 'GenP(', 'RegP(', '\n', ' ', 'inverse(x) = [x]', 'if', 'then', 'else', '#'];

const edit = fc.record({
  text: fc.constantFrom(...texts),
  ops: fc.array(fc.record({ at: fc.nat(), del: fc.nat({ max: 12 }), ins: fc.constantFrom(...pieces) }), { minLength: 1, maxLength: 4 }),
});

function apply(text: string, ops: { at: number; del: number; ins: string }[]): string {
  let t = text;
  for (const o of ops) {
    const at = o.at % (t.length + 1);
    t = t.slice(0, at) + o.ins + t.slice(at + o.del);
  }
  return t;
}

test('rules survive random edits of every fixture', () => {
  assert.ok(texts.length > 10);
  fc.assert(
    fc.property(edit, ({ text, ops }) => {
      const t = apply(text, ops);
      const a = analyze(t, { slow: true, budget: 1 << 12 });
      for (const d of a.diagnostics) {
        assert.notEqual(d.code, 'check/internal-error', `${d.message}\n--- text ---\n${t}`);
        assert.ok(d.range.start >= 0 && d.range.start <= d.range.end && d.range.end <= t.length, `${d.code} range ${JSON.stringify(d.range)}`);
        for (const f of d.fixes ?? []) for (const e of f.edits) assert.ok(e.range.start >= 0 && e.range.start <= e.range.end && e.range.end <= t.length);
      }
    }),
    { numRuns: 400, seed: 20250101 },
  );
});

test('huge and degenerate sizes neither hang nor throw', () => {
  const cases = [
    'param M = 99999999999999999999\nlayout A = OrderBy(Row(M, 3)).TileBy([M / 7], [7])\n',
    'param M = 0\nlayout A = OrderBy(Row(M)).TileBy([M / 0], [0])\nlet x = 5 / 0\n',
    'perm p(n)[i, j] = i * n + j\nlayout A = OrderBy(GenP([9007199254740993, 2], p(2))).GroupBy([4])\n',
    'param N = 3 in [' + Array.from({ length: 200 }, (_, k) => k + 1).join(', ') + ']\nperm p(n)[i] = i\nlayout A = OrderBy(GenP([N], p(N))).GroupBy([N])\n',
    'param M = 4096, BM = 4095\nlet n = M / BM\nlet m = n * 2\nlayout A = OrderBy(Row(M)).TileBy([M / BM], [BM])\n',
    // lets that use themselves (name/... errors) inside sizes: the size rules follow lets and must stop
    'let a = a / 2\nlayout A = OrderBy(Row(a, 4)).TileBy([2, 2], [a, 2])\n',
    'let a = b / 3\nlet b = a / 2\nlayout A = OrderBy(Row(a, b)).TileBy([a / 2, b], [2, 1]).GroupBy([a, b])\n',
  ];
  for (const t of cases) {
    const a = analyze(t, { slow: true });
    assert.ok(!a.diagnostics.some((d) => d.code === 'check/internal-error'), JSON.stringify(a.diagnostics));
  }
});
