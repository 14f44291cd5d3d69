// Stated facts (`assume`, `where`): parsed, resolved (free names are index symbols), used by the
// simplifier in the queries they cover, and checked against the param values and candidates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, resolve } from '../../grammar/src/index.js';
import { elaborate, queryText } from '../../server/src/check/elaborate.js';
import { analyze } from '../../server/src/check/index.js';
import { evaluate, type Expr } from '../../server/src/expr/index.js';
import { queryExpr } from '../../server/src/check/elaborate.js';

function elab(text: string) {
  const p = parse(text);
  const r = resolve(p.file, p.lines);
  const { model, diagnostics } = elaborate(p.file, r);
  const shown = [...p.diagnostics, ...r.diagnostics, ...diagnostics].map((d) => `${d.code} ${JSON.stringify(text.slice(d.range.start, d.range.end))}: ${d.message}`);
  return { model, shown };
}
/** the texts and op counts of the first binding of kernel `k` */
function binding(text: string, k = 'k', lang: 'c' | 'python' = 'c') {
  const { model, shown } = elab(text);
  const b = model.kernels.get(k)!.bindings[0].binding.value;
  return { r: queryText(model, b, lang), q: queryExpr(model, b), shown };
}

const LUD_LAYOUT = 'param R = 4, T = 16 in [8, 16, 32]\nlayout L = OrderBy(Row(R * T, R * T)).GroupBy([(R, R), (T, T)])\n';
const LUD_QUERY = '  i, j, tx, ty = L.inv((ii * R + jj) * T * T + tid)\n';

test("LUD's inverse is LEGO's `ii, jj, tid / T, tid % T` (2 operations) with the facts, 14 without (46 before the div-mod rule)", () => {
  const forms = [
    LUD_LAYOUT + 'assume ii < R, jj < R, tid < T * T\nkernel k target cuda builtin none {\n' + LUD_QUERY + '}\n',
    LUD_LAYOUT + 'kernel k target cuda builtin none where ii < R, jj < R, tid < T * T {\n' + LUD_QUERY + '}\n',
    LUD_LAYOUT.replace('GroupBy([(R, R), (T, T)])', 'GroupBy([(R, R), (T, T)]) where ii < R and R > jj, tid <= T * T - 1') + 'kernel k target cuda builtin none {\n' + LUD_QUERY + '}\n',
  ];
  for (const text of forms) {
    const { r, shown, q } = binding(text);
    assert.deepEqual(shown, []);
    assert.ok(r.ok);
    assert.deepEqual(r.texts, ['ii', 'jj', '((tid)/(T))', 'tid % T']);
    assert.deepEqual(r.ops, [0, 0, 1, 1]);
    // equal to the raw inverse at in-range points
    assert.ok(q.ok);
    for (const [ii, jj, tid] of [[0, 0, 0], [3, 2, 255], [1, 3, 17], [2, 0, 128]]) {
      const env = new Map([['R', 4n], ['T', 16n], ['ii', BigInt(ii)], ['jj', BigInt(jj)], ['tid', BigInt(tid)]]);
      assert.deepEqual(q.exprs.map((e: Expr) => evaluate(e, env)), [ii, jj, Math.floor(tid / 16), tid % 16].map(BigInt));
    }
  }
  const none = binding(LUD_LAYOUT + 'kernel k target cuda builtin none {\n' + LUD_QUERY + '}\n');
  assert.ok(none.r.ok);
  assert.equal(none.r.ops.reduce((a, b) => a + b, 0), 14);
  // a kernel's facts do not leak into another kernel
  const two = LUD_LAYOUT + 'kernel a target cuda builtin none where tid < T * T, ii < R, jj < R {\n' + LUD_QUERY + '}\nkernel k target cuda builtin none {\n' + LUD_QUERY + '}\n';
  const other = binding(two);
  assert.ok(other.r.ok);
  assert.equal(other.r.ops.reduce((a, b) => a + b, 0), 14);
});

test('facts on the parts of an index expression: inv(i*BK + j) is i, j with `assume j < BK, i < K / BK`', () => {
  const base = 'param K = 256, BK = 64\nlayout L = OrderBy(Row(K / BK, BK)).GroupBy([K / BK, BK])\n';
  const q = 'kernel k target cuda builtin none {\n  x, y = L.inv(i * BK + j)\n}\n';
  const without = binding(base + q);
  const withFact = binding(base + 'assume j < BK, i < K / BK\n' + q);
  assert.ok(without.r.ok && withFact.r.ok);
  assert.deepEqual(without.r.ops, [2, 1]);
  assert.deepEqual(withFact.shown, []);
  assert.deepEqual(withFact.r.texts, ['i', 'j']);
});

test('facts are checked at the param values and for each tuning candidate (assume/false), and must be conditions', () => {
  const { shown } = elab(
    'param N = 128 in [64, 96], T = 16 in [0, 8]\n' +
      'assume N % 64 == 0, N > 100, T\n' +
      'layout L = OrderBy(Row(N)).GroupBy([N]) where tid < T * T, u >= 0\n' +
      'assume v < N - 128\n',
  );
  assert.deepEqual(shown, [
    'assume/false "N % 64 == 0": this fact is false for the tuning candidate N = 96 (N = 96)',
    'assume/false "N > 100": this fact is false for the tuning candidate N = 64 (N = 64)',
    'assume/not-a-condition "T": a fact must be a condition, e.g. tid < T * T or N % 64 == 0',
    'assume/false "tid < T * T": no value of tid satisfies this for the tuning candidate T = 0 (T = 0)',
    'assume/false "v < N - 128": no value of v satisfies this at the param values (N = 128)',
  ]);
});

test('analyze reports the facts diagnostics; a file with true facts is clean; assume/where are reserved words', () => {
  const a = analyze('param N = 128\nassume N % 64 == 0, N % 3 == 0\n');
  assert.deepEqual(a.diagnostics.map((d) => [d.code, d.range.start, d.range.end]), [['assume/false', 34, 44]]);
  const p = parse('let where = 1\n');
  assert.ok(p.diagnostics.length > 0);
});

test('property: with the facts, LUD inverse components equal the numeric inverse at random sizes and in-range points', async () => {
  const fc = (await import('fast-check')).default;
  const A = await import('../../server/src/algebra/index.js');
  const { q, model } = (() => {
    const text = LUD_LAYOUT + 'assume ii < R, jj < R, tid < T * T\nkernel k target cuda builtin none {\n' + LUD_QUERY + '}\n';
    const e = elab(text);
    return { q: queryExpr(e.model, e.model.kernels.get('k')!.bindings[0].binding.value), model: e.model };
  })();
  assert.ok(q.ok);
  const L = model.layouts.get('L')!.layout!;
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 7 }), fc.nat(), fc.nat(), fc.nat(), (R, T, a, b, c) => {
      const [ii, jj, tid] = [a % R, b % R, c % (T * T)];
      const env = new Map([['R', BigInt(R)], ['T', BigInt(T)], ['ii', BigInt(ii)], ['jj', BigInt(jj)], ['tid', BigInt(tid)]]);
      const x = BigInt((ii * R + jj) * T * T + tid);
      assert.deepEqual(q.exprs.map((e: Expr) => evaluate(e, env)), A.invNum(L, x, env));
    }),
    { numRuns: 300, seed: 14 },
  );
});

test('a divisibility fact through lets: `assume num_pid_m % GM == 0` drops the matmul pid_m remainder; candidates checked through the lets', async () => {
  const { readFileSync } = await import('node:fs');
  const mm = readFileSync(new URL('../../examples/matmul.layout', import.meta.url), 'utf8');
  const pidOps = (text: string) => {
    const { model, shown } = elab(text);
    const k = [...model.kernels.values()][0];
    const b = k.bindings.find((x) => x.names.includes('pid_m'))!;
    const r = queryText(model, b.binding.value, 'python');
    assert.ok(r.ok);
    return { ops: r.ops, texts: r.texts, shown };
  };
  const without = pidOps(mm);
  const withFact = pidOps(mm + '\nassume num_pid_m % GM == 0\n');
  assert.deepEqual(without.ops, [11, 5]);
  assert.deepEqual(withFact.shown, []);
  assert.deepEqual(withFact.ops, [8, 5]);
  assert.equal(withFact.texts[0], 'pid % min(GM, num_pid_m) + ((pid)//(num_pid_n*min(GM, num_pid_m)))*min(GM, num_pid_m)');
  // num_pid_m = M / BM is 16 for the candidate BM = 256: 16 % 32 != 0
  const bad = pidOps(mm + '\nassume num_pid_m % 32 == 0\n');
  assert.deepEqual(bad.shown, ['assume/false "num_pid_m % 32 == 0": this fact is false for the tuning candidate BM = 256 (BM = 256, M = 4096)']);
});
