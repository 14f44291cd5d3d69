// The GenP rule: counterexamples, the exhaustive 2^24-point check, the partially-checked
// information beyond the budget, the `slow` category and cancellation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../../server/src/check/index.js';
import { rules } from '../../../server/src/check/rules/index.js';

const antidiag = 'if i + j < n then (i + j) * (i + j + 1) / 2 + i else n * n - (2 * n - i - j - 1) * (2 * n - i - j) / 2 + (n - 1 - j)';

function genp(text: string, options: Parameters<typeof analyze>[1] = {}) {
  const a = analyze(text, options);
  return { cancelled: a.cancelled, diagnostics: a.diagnostics.filter((d) => d.code.startsWith('genp/')) };
}

test('a collision names both indices, the shared position, and points at the body', () => {
  const text = 'perm antidiag2(n)[i, j] = (i + j) * (i + j + 1) / 2 + i * (1 - j)\nlayout A = OrderBy(GenP([3, 3], antidiag2(3))).GroupBy([9])\n';
  const a = analyze(text);
  const [d] = a.diagnostics.filter((x) => x.code.startsWith('genp/'));
  const use = text.indexOf('antidiag2(3)');
  const perm = a.file.decls[0];
  assert.equal(perm.kind, 'Perm');
  assert.deepEqual(d, {
    code: 'genp/not-bijective',
    severity: 'error',
    message: 'antidiag2(3): [0, 2] and [1, 1] both map to 3',
    range: { start: use, end: use + 'antidiag2(3)'.length },
    related: [{ message: 'the body of antidiag2', range: perm.kind === 'Perm' ? perm.body.range : undefined }],
  });
});

test('out-of-range and inverse-mismatch counterexamples', () => {
  const oor = genp('perm s(n)[i, j] = i * n + j + 1\nlayout A = OrderBy(GenP([3, 3], s(3))).GroupBy([9])\n').diagnostics;
  assert.deepEqual(oor.map((d) => [d.code, d.message]), [['genp/out-of-range', 's(3): [2, 2] maps to 9, outside [0, 9)']]);
  const text = 'perm t(n)[i, j] = j * n + i inverse(x) = [x / n, x % n]\nlayout A = OrderBy(GenP([2, 3], t(2))).GroupBy([6])\n';
  const inv = genp(text).diagnostics;
  // [0, 1] maps to 2 (j * n + i); the inverse gives [1, 0] for 2
  assert.deepEqual(inv.map((d) => [d.code, d.message]), [['genp/inverse-mismatch', 't(2): the inverse maps 2 to [1, 0], but [0, 1] maps to 2']]);
  const at = text.indexOf('inverse');
  assert.deepEqual(inv[0].related, [{ message: 'the inverse of t', range: { start: at, end: text.indexOf('\n') } }]);
});

test('a 2^24-point GenP is checked exhaustively, down to its very last point', () => {
  const n = 4096; // 4096 * 4096 = 2^24 points, the default budget
  const ok = `perm a(n)[i, j] = ${antidiag}\nlayout A = OrderBy(GenP([${n}, ${n}], a(${n}))).GroupBy([${n * n}])\n`;
  assert.deepEqual(genp(ok).diagnostics, []);
  // only the last point collides: finding it proves every point was enumerated
  const bad = `perm b(n)[i, j] = if i == n - 1 and j == n - 1 then 0 else i * n + j\nlayout B = OrderBy(GenP([${n}, ${n}], b(${n}))).GroupBy([${n * n}])\n`;
  assert.deepEqual(genp(bad).diagnostics.map((d) => d.message), [`b(${n}): [0, 0] and [${n - 1}, ${n - 1}] both map to 0`]);
});

test('a GenP over the budget is not enumerated; an information diagnostic says so', () => {
  const text = `perm a(n)[i, j] = ${antidiag}\nlayout A = OrderBy(GenP([4097, 4097], a(4097))).GroupBy([16785409])\n`;
  assert.deepEqual(genp(text).diagnostics.map((d) => [d.code, d.severity, d.message]), [[
    'genp/partially-checked', 'information',
    'a(4097) is a bijection only as far as checked: not checked (16785409 points): over the check budget of 16777216 points (65536 probed points, small coordinates, boundaries and random samples, found no collision)',
  ]]);
});

test('the budget is an option; sizes within it are checked, those beyond are listed', () => {
  const text = 'param N = 10 in [8, 11]\nperm r(n)[i, j] = i * n + j\nlayout A = OrderBy(GenP([N, N], r(N))).GroupBy([N * N])\n';
  assert.deepEqual(genp(text, { budget: 100 }).diagnostics.map((d) => d.message), [
    'r(N) is a bijection only as far as checked: checked exhaustively at N = 10 (100 points), at N = 8 (a candidate of N) (64 points); ' +
      'not checked at N = 11 (a candidate of N) (121 points): over the check budget of 100 points (100 probed points, small coordinates, boundaries and random samples, found no collision); other sizes are not checked',
  ]);
});

test('GenP checks are slow rules: `slow: false` skips them', () => {
  assert.equal(rules.find((r) => r.family === 'genp')?.category, 'slow');
  assert.ok(rules.filter((r) => r.family !== 'genp').every((r) => r.category === 'fast'));
  const text = 'perm s(n)[i, j] = i * n + j + 1\nlayout A = OrderBy(GenP([3, 3], s(3))).GroupBy([9])\n';
  assert.deepEqual(genp(text, { slow: false }), { cancelled: false, diagnostics: [] });
  assert.equal(genp(text, { slow: true }).diagnostics.length, 1);
});

test('shouldStop returning true stops the check early with a cancelled result', () => {
  const n = 4096;
  const text = `perm b(n)[i, j] = if i == n - 1 and j == n - 1 then 0 else i * n + j\nlayout B = OrderBy(GenP([${n}, ${n}], b(${n}))).GroupBy([${n * n}])\n` +
    'perm s(n)[i, j] = i * n + j + 1\nlayout A = OrderBy(GenP([3, 3], s(3))).GroupBy([9])\n';
  let polls = 0;
  const r = genp(text, { shouldStop: () => (polls++, true) });
  assert.equal(r.cancelled, true);
  // stopped at the first poll: neither the big GenP's collision nor the later GenP is reported
  assert.equal(polls, 1);
  assert.deepEqual(r.diagnostics, []);
  // the fast rules still ran
  assert.equal(analyze(text, { shouldStop: () => true }).diagnostics.length, 0);
  // never stopping finds both problems
  let calls = 0;
  const full = genp(text, { shouldStop: () => (calls++, false) });
  assert.equal(full.cancelled, false);
  assert.equal(full.diagnostics.length, 2);
  assert.ok(calls >= 255, `polled ${calls} times`); // every 65536 of 2^24 points
});

test('the same perm at the same size is enumerated once', () => {
  const n = 2048;
  const text = `perm a(n)[i, j] = ${antidiag}\n` +
    Array.from({ length: 4 }, (_, k) => `layout A${k} = OrderBy(GenP([${n}, ${n}], a(${n}))).GroupBy([${n * n}])\n`).join('');
  let calls = 0;
  genp(text, { shouldStop: () => (calls++, false) });
  assert.equal(calls, (n * n) / 65536 - 1);
});
