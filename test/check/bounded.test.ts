// Bounded analysis (issue 10, section 4): inputs whose size used to reach the call stack give
// diagnostics instead of "Maximum call stack size exceeded".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/check/index.js';
import { ChunkedParser } from '../../server/src/service/chunks.js';
import { parse, MAX_CALL_CHAIN } from '../../grammar/src/index.js';

test('4,000 chained .OrderBy(...) calls: parse/too-complex at the first call past the limit, nothing else', () => {
  const text = 'layout L = OrderBy(Row(4, 4))' + '.OrderBy(Row(4, 4))'.repeat(4000) + '.GroupBy([4, 4])\n';
  const a = analyze(text);
  const at = 'layout L = OrderBy(Row(4, 4))'.length + '.OrderBy(Row(4, 4))'.length * (MAX_CALL_CHAIN);
  assert.deepEqual(a.diagnostics.map((d) => [d.code, d.message, d.range.start]), [
    ['parse/too-complex', "more than 256 method calls ('.') in one declaration or statement; it is not analysed", at],
  ]);
  // the same through the editor's chunked parser
  assert.deepEqual(new ChunkedParser().parse(text).diagnostics, parse(text).diagnostics);
});

test('a chain at the limit is analysed', () => {
  const text = 'layout L = OrderBy(Row(4, 4))' + '.OrderBy(Row(4, 4))'.repeat(MAX_CALL_CHAIN - 1) + '.GroupBy([4, 4])\n';
  const a = analyze(text);
  assert.ok(!a.diagnostics.some((d) => d.code === 'parse/too-complex' || d.code.endsWith('internal-error')), a.diagnostics.map((d) => d.message).join('\n'));
});

test('150,000 param lines: one diagnostic each (unused), no internal error', () => {
  const n = 150_000;
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(`param p${i} = ${i}`);
  const a = analyze(lines.join('\n') + '\n');
  assert.equal(a.diagnostics.length, n);
  assert.ok(a.diagnostics.every((d) => d.code === 'unused/param'));
  assert.equal(a.diagnostics[n - 1].message, `param p${n - 1} is never used`);
});

test('chunks report positions of the whole file in their messages', () => {
  const text = 'param a = 1\nparam b = 2\nlayout L = OrderBy(Row(4, 4).GroupBy([4, 4]\n';
  const chunked = new ChunkedParser().parse(text);
  assert.deepEqual(chunked.diagnostics, parse(text).diagnostics);
  assert.match(chunked.diagnostics[0].message, /opened at 3:37/);
});

test('L.inv(N) over OrderBy(Row(N, N, 4)): the query budget stops it with a message (CLI expr and kernel bindings)', async () => {
  const { runExpr } = await import('../../server/src/cli/expr.js');
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'layout-budget-'));
  try {
    const file = join(dir, 'inv.layout');
    writeFileSync(file, 'param N = 64\nlayout L = OrderBy(Row(N, N, 4))\n');
    const out: string[] = [];
    const err: string[] = [];
    const code = runExpr(file, 'L.inv(N)', {}, { out: (t) => out.push(t), err: (l) => err.push(l) });
    assert.deepEqual({ code, out, err }, { code: 1, out: [], err: ["layout: this query's expressions grow too large to simplify (more than 200,000 steps); it was stopped"] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const { buildEmitModel, emitBlock } = await import('../../server/src/codegen/index.js');
  const src = 'param N = 64\nlayout L = OrderBy(Row(N, N, 4))\nkernel k target cuda template "t.cu" {\n  a, b, c = L.inv(N)\n}\n';
  const r = emitBlock(buildEmitModel(src, '/ws/k.layout'), 'k', undefined, { readTemplate: () => '{{ a }} {{ b }} {{ c }}', templateRoot: '/ws' });
  assert.deepEqual(r.diagnostics.map((d) => [d.code, d.message, src.slice(d.range.start, d.range.end)]), [
    ['kernel/cannot-evaluate', "cannot generate code for this binding: this query's expressions grow too large to simplify (more than 200,000 steps); it was stopped", 'L.inv(N)'],
  ]);
});

test('withBudget: spending past the budget throws, budgets nest, nothing is counted outside', async () => {
  const { withBudget, spend, BudgetError } = await import('../../server/src/expr/index.js');
  spend(1e12); // outside any budget: free
  assert.equal(withBudget(10, () => { spend(10); return 'ok'; }), 'ok');
  assert.throws(() => withBudget(10, () => spend(11)), (e: unknown) => e instanceof BudgetError && e.budget === 10);
  // the inner budget is the smaller of its own and what the outer has left; its spending counts outside
  assert.throws(() => withBudget(10, () => { spend(6); withBudget(100, () => spend(4)); spend(1); }), BudgetError);
  assert.throws(() => withBudget(10, () => { spend(6); withBudget(100, () => spend(5)); }), BudgetError);
});

test('a GenP beyond the exhaustive budget is still searched: i + j on 2^20 x 2^20 is reported non-bijective', () => {
  const n = 1 << 20;
  const text = `perm s(n)[i, j] = i + j\nlayout S = OrderBy(GenP([${n}, ${n}], s(${n}))).GroupBy([${n * n}])\n`;
  const a = analyze(text);
  assert.deepEqual(a.diagnostics.filter((d) => d.code.startsWith('genp/')).map((d) => [d.code, d.message]), [
    ['genp/not-bijective', `s(${n}): [0, 1] and [1, 0] both map to 1`],
  ]);
  // a value past the end, found at a boundary probe
  const out = `perm t(n)[i, j] = i * n + j + (if i == n - 1 and j == n - 1 then 1 else 0)\nlayout T = OrderBy(GenP([${n}, ${n}], t(${n}))).GroupBy([${n * n}])\n`;
  assert.deepEqual(analyze(out).diagnostics.filter((d) => d.code.startsWith('genp/')).map((d) => [d.code, d.message]), [
    ['genp/out-of-range', `t(${n}): [${n - 1}, ${n - 1}] maps to ${n * n}, outside [0, ${n * n})`],
  ]);
});

test('searchBeyondBudget: a bijection finds nothing, and says how many points it probed', async () => {
  const { searchBeyondBudget } = await import('../../server/src/algebra/genp-check.js');
  const n = 3000;
  const r = searchBeyondBudget((x) => x[0] * n + x[1], undefined, [n, n], n * n, 5000);
  assert.deepEqual(r, { kind: 'budget-exceeded', checked: 5000, size: n * n });
  // a collision only between two far-apart random-looking points is not promised; a swap of two boundary rows is found
  const swapped = searchBeyondBudget((x) => (x[0] === n - 1 ? 0 : x[0]) * n + x[1], undefined, [n, n], n * n, 5000);
  assert.deepEqual(swapped, { kind: 'collision', a: [0, 0], b: [n - 1, 0], value: 0 });
});

test('did-you-mean is bounded: names over 64 characters get none, shorter ones still do', async () => {
  const { suggest } = await import('../../grammar/src/resolve.js');
  const long = 'a'.repeat(1000);
  assert.equal(suggest(long + 'b', [long + 'c', long]), undefined);
  const n64 = 'x'.repeat(63);
  assert.equal(suggest(n64 + 'y', [n64 + 'z', 'other']), n64 + 'z');
  // a file of 2,000 long names, 100 misspelt uses: analysed, each use reported without a suggestion
  const decls = Array.from({ length: 2000 }, (_, i) => `param ${'n'.repeat(900)}${i} = ${i}`);
  const uses = Array.from({ length: 100 }, (_, i) => `let u${i} = ${'n'.repeat(900)}x${i}`);
  const a = analyze([...decls, ...uses].join('\n') + '\n');
  const undef = a.diagnostics.filter((d) => d.code === 'name/undefined');
  assert.equal(undef.length, 100);
  assert.ok(undef.every((d) => !d.message.includes('did you mean')));
});
