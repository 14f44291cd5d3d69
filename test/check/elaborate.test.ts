// The elaborator: models of the examples (values, layouts, queries) and every `elab/...`
// diagnostic with its exact range; it never throws on broken input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { parse, resolve } from '../../grammar/src/index.js';
import { elaborate, queryExpr, queryText, type ElaborateOptions } from '../../server/src/check/elaborate.js';
import { analyze } from '../../server/src/check/index.js';
import * as A from '../../server/src/algebra/index.js';

function elab(text: string, options?: ElaborateOptions) {
  const p = parse(text);
  const r = resolve(p.file, p.lines);
  const { model, diagnostics } = elaborate(p.file, r, options);
  return { model, diagnostics, shown: diagnostics.map((d) => `${d.code} ${JSON.stringify(text.slice(d.range.start, d.range.end))}: ${d.message}`) };
}
const example = (name: string) => readFileSync(new URL(`../../examples/${name}.layout`, import.meta.url), 'utf8');
const E = new Map<string, bigint>();

test('figure6.layout: both layouts compute the reference values', () => {
  const { model, diagnostics } = elab(example('figure6'));
  assert.deepEqual(diagnostics, []);
  const fig6 = model.layouts.get('fig6')!.layout!;
  assert.equal(A.applyNum(fig6, [4n, 2n], model.env), 15n);
  assert.deepEqual(A.invNum(fig6, 15n, model.env), [4n, 2n]);
  assert.deepEqual(A.applyTable(fig6, E), [0, 1, 3, 18, 19, 21, 2, 4, 6, 20, 22, 24, 5, 7, 8, 23, 25, 26, 9, 10, 12, 27, 28, 30, 11, 13, 15, 29, 31, 33, 14, 16, 17, 32, 34, 35]);
  assert.equal(A.applyNum(model.layouts.get('only_b')!.layout!, [4n, 2n], E), 23n);
  const g = A.blocksOf(fig6).find((b) => b.kind === 'GenP')!;
  assert.deepEqual(A.checkGenP(g as A.GenP, E), { kind: 'bijective', checked: 9 });
});

test('matmul.layout: params, lets (kept by name), queries as LEGO prints them', () => {
  const text = example('matmul');
  const { model, diagnostics } = elab(text);
  assert.deepEqual(diagnostics, []);
  assert.equal(model.params.get('BM')!.value, 128n);
  assert.deepEqual(model.params.get('BM')!.candidates, [64n, 128n, 256n]);
  assert.equal(model.lets.get('num_pid_m')!.value, 32n);
  assert.equal(model.env.get('num_pid_n'), 16n);
  const q = [...model.queries.values()];
  assert.deepEqual(q.map((x) => [x.kind, x.layoutName]), [['inv', 'Pid'], ['apply', 'A'], ['apply', 'B'], ['apply', 'C']]);
  const t = queryText(model, q[1].node, 'triton');
  assert.deepEqual(t, { ok: true, kind: 'apply', texts: ['BK*k + K*(BM*pid_m + ((tl.arange(0, BM))[:, None])) + ((tl.arange(0, BK))[None, :])'], ops: [6] });
  const inv = queryText(model, q[0].node, 'python');
  assert.ok(inv.ok);
  assert.deepEqual(inv.texts, ['pid % min(GM, num_pid_m) + (((pid)//(num_pid_n*min(GM, num_pid_m))) % max(1, ((num_pid_m)//(GM))))*min(GM, num_pid_m)', '((pid % (num_pid_n*min(GM, num_pid_m)))//(min(GM, num_pid_m)))']);
  const inlined = queryExpr(model, q[0].node, { inlineLets: true });
  assert.ok(inlined.ok && inlined.exprs.every((e) => !e.key.includes('num_pid') && e.key.includes('BM')));
});

test('nw, softmax, transpose: query strings', () => {
  const nw = elab(example('nw'));
  assert.deepEqual(nw.diagnostics, []);
  const [nq] = nw.model.queries.keys();
  const c = queryText(nw.model, nq, 'c');
  assert.ok(c.ok && c.texts[0].startsWith('((i + j - n <= -1) ? ('), c.ok ? c.texts[0] : c.message);
  const sm = elab(example('softmax'));
  const [sq] = sm.model.queries.keys();
  assert.deepEqual(queryText(sm.model, sq, 'triton'), { ok: true, kind: 'apply', texts: ['n_cols*row_idx + tl.arange(0, BLOCK_SIZE)'], ops: [2] });
  const tr = elab(example('transpose'));
  assert.deepEqual(tr.diagnostics, []);
  const texts = [...tr.model.queries.keys()].map((k) => { const r = queryText(tr.model, k, 'c'); return r.ok ? r.texts[0] : r.message; });
  assert.deepEqual(texts, ['32*bx + n*(32*by + jj + ty) + tx', '32*by + jj + n*(32*bx + tx) + ty', '32*bx + n*(32*by + jj + ty) + tx', '33*jj + tx + 33*ty', 'jj + 33*tx + ty', '32*by + n*(32*bx + jj + ty) + tx']);
});

test('overrides replace param values; lets follow', () => {
  const { model } = elab(example('matmul'), { overrides: new Map([['BM', 64n]]) });
  assert.equal(model.env.get('num_pid_m'), 64n);
});

test('an override beyond 2^53 is an error at the param, never a rounded value', () => {
  const r = elab('param M = 4\nlet x = M + 1', { overrides: new Map([['M', 2n ** 53n + 1n]]) });
  assert.deepEqual(r.shown, ['elab/eval-error "4": M is set to 9007199254740993, which exceeds 2^53 in magnitude; values are exact only up to 2^53']);
  assert.equal(r.model.env.has('M'), false);
  assert.equal(elab('param M = 4', { overrides: new Map([['M', 2n ** 53n]]) }).model.env.get('M'), 2n ** 53n);
});

const cases: [string, string[]][] = [
  ['layout L = RegP([2, 3])', ['elab/arity "([2, 3])": RegP (a list of dims and a permutation) takes 2 arguments, got 1']],
  ['layout L = RegP(2, [0])', ['elab/argument-kind "2": RegP\'s dims must be a list, e.g. [M, K]; found a number']],
  ['layout L = OrderBy(Row(2, 3)).Foo(1)', ['elab/unknown-method "Foo": .Foo(...) is not a layout method; the methods are .OrderBy, .TileOrderBy, .GroupBy, .TileBy, .ExpandBy, .apply, .inv']],
  ['layout L = OrderBy(Row(2, 3)).GroupBi([6])', ['elab/unknown-method "GroupBi": .GroupBi(...) is not a layout method (did you mean .GroupBy?); the methods are .OrderBy, .TileOrderBy, .GroupBy, .TileBy, .ExpandBy, .apply, .inv']],
  ['let x = Row(2, 3) + 1', ['elab/expected-number "Row(2, 3)": expected a number, found a layout (RegP)']],
  ['layout L = 3', ['elab/expected-layout "3": expected a layout, found a number']],
  ['param N = 4 / 0', ['elab/eval-error "0": division by zero: this evaluates to 0 at the param values']],
  ['param N = 4294967296 * 4294967296', ['elab/eval-error "4294967296 * 4294967296": this value exceeds 2^53 in magnitude; values are exact only up to 2^53']],
  ['param N = 4\nlayout L = RegP([2, 2], [N, 0])', ['elab/not-constant "N": RegP\'s permutation entries must be integer constants (0-based dimension positions)']],
  ['layout L = OrderBy(Row(2, 3), 5)', ['elab/argument-kind "5": OrderBy takes blocks (RegP, GenP, Row, Col); found a number']],
  ['layout L = OrderBy(Row(6)).OrderBy(Row(6))', ['elab/expected-layout "OrderBy(Row(6)).OrderBy(Row(6))": a chain of 2 OrderBys is not a layout yet: finish it with .GroupBy(...) or .TileBy(...)']],
  ['layout L = GroupBy([6], Row(6))', ['elab/argument-kind "Row(6)": .GroupBy(...) applies to OrderBy(...) or a chain of OrderBys, not to a layout (RegP)']],
  ['perm p(n)[i] = i\nlayout L = OrderBy(GenP([3], p(1, 2)))', ['elab/arity "(1, 2)": perm p takes 1 argument, got 2']],
  ['perm p(n)[i] = i\nlayout L = OrderBy(GenP([3], 3))', ['elab/argument-kind "3": GenP\'s second argument is a perm applied to its sizes, e.g. antidiag(3); found a number']],
  ['layout L = TileOrderBy([2, 2], [3])', ['elab/argument-kind "[3]": every TileOrderBy level must have rank 2 (the first level\'s), this one has 1']],
  ['param M = BM\nparam BM = 4', []],
  ['let a = a + 1', []],
  ['layout L = OrderBy(Row(4)).GroupBy([4])\nlet x = L[1] * 2 + L.apply(2)', []],
  // sizes that are not positive, or layouts too large to evaluate exactly, at the param values
  ['layout L = OrderBy(Row(0, 4)).GroupBy([0, 4])', [
    'elab/bad-size "0": this dimension is 0 at the param values; dimensions must be positive',
    'elab/bad-size "0": this dimension is 0 at the param values; dimensions must be positive',
  ]],
  ['param M = -2\nlet h = M / 2\nlayout L = OrderBy(Col(h, 4)).TileBy([2, 2], [h, 2])', [
    'elab/bad-size "h": this dimension is -1 at the param values; dimensions must be positive',
    'elab/bad-size "h": this dimension is -1 at the param values; dimensions must be positive',
  ]],
  ['param M = 4294967296\nlayout L = OrderBy(Row(M, M)).GroupBy([M, M])', [
    'elab/bad-size "OrderBy(Row(M, M)).GroupBy([M, M])": L has 18446744073709551616 elements; a layout must have fewer than 2^53 (values are exact only up to 2^53)',
  ]],
  ['layout L = OrderBy(Row(9007199254740992)).GroupBy([9007199254740992])', [
    'elab/bad-size "9007199254740992": this dimension is 9007199254740992 at the param values; dimensions must be below 2^53',
    'elab/bad-size "9007199254740992": this dimension is 9007199254740992 at the param values; dimensions must be below 2^53',
  ]],
  ['layout L = OrderBy(RegP([2, 3], [1, 0]), GenP([1], q())).GroupBy([6])\nperm q()[i] = i', []],
];
for (const [text, want] of cases) {
  test(`diagnostics: ${JSON.stringify(text)}`, () => {
    assert.deepEqual(elab(text).shown, want);
  });
}

test('analyze runs elaboration and returns the model', () => {
  const a = analyze('layout L = RegP([2, 3])', { slow: false });
  assert.deepEqual(a.diagnostics.filter((d) => d.code.startsWith('elab/')).map((d) => d.code), ['elab/arity']);
  assert.ok(a.model.layouts.has('L'));
});

test("a misspelled method's quick fix belongs to its own diagnostic, also where the elaborator is quiet (a schedule's arguments)", () => {
  // reported: the fix travels with the diagnostic
  const loud = elab('layout L = OrderBy(Row(2, 3)).GroupBi([6])').diagnostics;
  assert.deepEqual(loud.map((d) => [d.code, d.fixes]), [['elab/unknown-method', [{ title: "Change to 'GroupBy'", edits: [{ range: { start: 30, end: 37 }, newText: 'GroupBy' }] }]]]);
  // inside a schedule step the elaborator reports nothing (the schedule checks do): the fix was set
  // on the diagnostic before it (a TileBy error on L, whose quick fix then edited the schedule), or,
  // with none before, the elaboration failed (a fuzz campaign's elab/internal-error)
  const text = 'param M = 64, N = 64, K = 64\nlayout A = Row(M, N).TileBy([2, 2])\nschedule s for linalg.matmul(M, N, K) on sm_90 {\n  mm = findOp("linalg.matmul")\n  tileForGrids(mm, [32, 32].aply())\n  parallelizeForThreads(mm, [16, 16])\n}\n';
  const a = analyze(text);
  assert.deepEqual(a.diagnostics.map((d) => [d.code, text.slice(d.range.start, d.range.end), d.fixes ?? null]), [
    ['unused/layout', 'A', null],
    ['elab/argument-kind', 'Row(M, N)', null],
    ['schedule/missing-step', 's', null],
    ['schedule/arg-type', '[32, 32].aply()', null],
  ]);
  assert.equal(a.diagnostics[2].message, 'schedule `s` does not bufferize(); the generated script bufferizes at the end');
  const alone = analyze(text.replace('layout A = Row(M, N).TileBy([2, 2])\n', ''));
  assert.deepEqual(alone.diagnostics.map((d) => d.code), ['schedule/missing-step', 'schedule/arg-type']);
});

test('a let using a query evaluates it', () => {
  const { model } = elab('layout L = OrderBy(Row(4)).GroupBy([4])\nlet x = L[1] * 2 + L.apply(2)');
  assert.equal(model.lets.get('x')!.value, 4n);
});

test('never throws: random cuts and splices of the examples elaborate, every query evaluates or says why', () => {
  const texts = ['figure6', 'matmul', 'nw', 'softmax', 'transpose'].map(example);
  fc.assert(fc.property(fc.nat(texts.length - 1), fc.nat(), fc.nat(), fc.nat(40), (k, a, b, len) => {
    const t = texts[k];
    const i = a % t.length, j = b % t.length;
    const mutated = t.slice(0, i) + t.slice(j, j + len) + t.slice(Math.min(t.length, i + len));
    const { model } = elab(mutated);
    for (const node of model.queries.keys()) {
      const r = queryText(model, node, 'c');
      assert.equal(typeof (r.ok ? r.texts[0] : r.message), 'string');
    }
  }), { numRuns: 150 });
});
