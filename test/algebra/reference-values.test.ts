// Every reference value of lego-semantics §12, exactly: tables and points numerically, strings
// as functions (equal at many random in-range points) with no more operations than LEGO's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { arange, countOps, evaluate, int, printTriton, sym, type Expr } from '../../server/src/expr/index.js';
import * as A from '../../server/src/algebra/index.js';
import { parseRef, parseRefList } from './support/ref-parse.js';
import {
  antidiag, arangesToSyms, fig6, fig6B, matmulA, matmulB, matmulC, nw, pid, rng, softmax,
} from './support/layouts.js';

const ref = JSON.parse(readFileSync(new URL('./fixtures/lego-reference-values.json', import.meta.url), 'utf8')).values as Record<string, unknown>;
const NO_ENV = new Map<string, bigint>();

function table(text: unknown): number[] {
  return String(text).trim().split(/\s+/).map(Number);
}

test('Figure 6: B only, B then C, apply(4,2), inv(15), round trip', () => {
  assert.deepEqual(A.applyTable(fig6B, NO_ENV), table(ref['fig6.B_only.apply_table_6x6']));
  assert.deepEqual(A.applyTable(fig6, NO_ENV), table(ref['fig6.B_then_C.apply_table_6x6']));
  assert.equal(A.applyNum(fig6, [4n, 2n], NO_ENV), BigInt(ref['fig6.apply(4,2)'] as number));
  assert.equal(A.applyNum(fig6B, [4n, 2n], NO_ENV), BigInt(ref['fig6.B.apply(4,2)'] as number));
  assert.deepEqual(A.invNum(fig6, 15n, NO_ENV), (ref['fig6.inv(15)'] as number[]).map(BigInt));
  for (let x = 0; x < 36; x++) {
    const idx = A.invNum(fig6, BigInt(x), NO_ENV);
    assert.equal(A.applyNum(fig6, idx, NO_ENV), BigInt(x));
  }
  assert.deepEqual(A.bruteTable(fig6, NO_ENV), table(ref['fig6.B_then_C.apply_table_6x6']));
});

test('Figure 6: B is TileOrderBy([2, 2], [3, 3]); the symbolic apply gives the table', () => {
  const tob = A.GroupBy([[6, 6]], [A.TileOrderBy([2, 2], [3, 3])]);
  assert.deepEqual(A.applyTable(tob, NO_ENV), table(ref['fig6.B_only.apply_table_6x6']));
  const e = A.applySym(fig6, ['x', 'y']);
  const want = table(ref['fig6.B_then_C.apply_table_6x6']);
  for (let f = 0; f < 36; f++) {
    const env = new Map([['x', BigInt(Math.floor(f / 6))], ['y', BigInt(f % 6)]]);
    assert.equal(evaluate(e, env), BigInt(want[f]), `at ${f}`);
  }
});

test('antidiag(3) and antidiag(4) tables, antidiag inverse of every point', () => {
  assert.deepEqual(A.applyTable(antidiag(3), NO_ENV), table(ref['antidiag3x3_table']));
  assert.deepEqual(A.applyTable(antidiag(4), NO_ENV), table(ref['antidiag4x4_table']));
  const inv = Array.from({ length: 9 }, (_, x) => A.invNum(antidiag(3), BigInt(x), NO_ENV).map(Number));
  assert.deepEqual(inv, ref['antidiag_inv3_all']);
  assert.deepEqual(A.checkGenP(antidiag(3), NO_ENV), { kind: 'bijective', checked: 9 });
});

/** Compares ours and the reference at `runs` random points; `gen` draws params and indices. */
function sameFunction(ours: Expr, theirs: Expr, gen: (r: ReturnType<typeof rng>) => Map<string, bigint>, runs = 300): void {
  const a = arangesToSyms(ours);
  const b = arangesToSyms(theirs);
  assert.deepEqual([...a.names.keys()].sort(), [...b.names.keys()].sort(), 'the same tl.arange terms');
  const r = rng(12345);
  for (let k = 0; k < runs; k++) {
    const env = gen(r);
    for (const [name, { lo, hi }] of a.names) {
      const l = Number(evaluate(lo, env));
      env.set(name, BigInt(r(l, Number(evaluate(hi, env)))));
    }
    assert.equal(evaluate(a.e, env), evaluate(b.e, env), `at ${JSON.stringify([...env].map(([x, v]) => `${x}=${v}`))}`);
  }
  assert.ok(countOps(ours) <= countOps(theirs), `ops: ours ${countOps(ours)} (${printTriton(ours)}) > reference ${countOps(theirs)}`);
}

const big = (x: number) => BigInt(x);
function matmulEnv(r: ReturnType<typeof rng>): Map<string, bigint> {
  const [BM, BN, BK] = [r(1, 17), r(1, 17), r(1, 17)];
  const [M, N, K] = [BM * r(1, 9), BN * r(1, 9), BK * r(1, 9)];
  return new Map(Object.entries({ BM, BN, BK, M, N, K, pid_m: r(0, M / BM), pid_n: r(0, N / BN), k: r(0, K / BK) }).map(([x, v]) => [x, big(v)]));
}

const S = A.slice();
const offsets: [string, A.Layout, A.KeyItem[]][] = [
  ['matmul.a_offset.NTA', matmulA(false), ['pid_m', 'k', S, S]],
  ['matmul.a_offset.TA', matmulA(true), ['pid_m', 'k', S, S]],
  ['matmul.b_offset.NTB', matmulB(false), ['k', 'pid_n', S, S]],
  ['matmul.b_offset.TB', matmulB(true), ['k', 'pid_n', S, S]],
  ['matmul.c_offset', matmulC, ['pid_m', 'pid_n', S, S]],
];
for (const [name, layout, key] of offsets) {
  test(`${name}: equal to the reference, no more operations`, () => {
    const ours = A.applySym(layout, key);
    sameFunction(ours, parseRef(String(ref[name]), 'python'), matmulEnv);
  });
}

test('matmul A prints exactly as LEGO', () => {
  assert.equal(printTriton(A.applySym(matmulA(false), ['pid_m', 'k', S, S])), ref['matmul.a_offset.NTA']);
  assert.equal(printTriton(A.applySym(matmulC, ['pid_m', 'pid_n', S, S])), ref['matmul.c_offset']);
});

function pidEnv(r: ReturnType<typeof rng>): Map<string, bigint> {
  const GM = r(1, 9);
  const npn = r(1, 9);
  // sizes agree (max(npm // GM, 1) * min(npm, GM) == npm) when GM divides npm or npm < GM
  const npm = r(0, 2) ? GM * r(1, 5) : r(1, GM + 1);
  return new Map([['GM', big(GM)], ['num_pid_m', big(npm)], ['num_pid_n', big(npn)], ['pid', big(r(0, npm * npn))]]);
}

test('matmul pid_m, pid_n = Pid.inv(pid): equal to the reference, no more operations', () => {
  const [pm, pn] = A.invSym(pid, 'pid');
  sameFunction(pm, parseRef(String(ref['matmul.pid_m']), 'python'), pidEnv);
  sameFunction(pn, parseRef(String(ref['matmul.pid_n']), 'python'), pidEnv);
});

test('softmax offset: equal to the reference, no more operations', () => {
  const ours = A.applySym(softmax, ['row_idx', arange(int(0), sym('BLOCK_SIZE'))]);
  assert.equal(printTriton(ours), ref['softmax.offset']);
  sameFunction(ours, parseRef(String(ref['softmax.offset']), 'python'), (r) => {
    const [rows, cols] = [r(1, 50), r(1, 50)];
    return new Map([['n_rows', big(rows)], ['n_cols', big(cols)], ['BLOCK_SIZE', big(cols)], ['row_idx', big(r(0, rows))]]);
  });
});

test('NW anti-diagonal: equal to the raw and the C reference, no more operations', () => {
  const ours = A.applySym(nw, ['i', 'j']);
  const gen = (r: ReturnType<typeof rng>) => {
    const n = r(1, 60);
    return new Map([['n', big(n)], ['i', big(r(0, n))], ['j', big(r(0, n))]]);
  };
  sameFunction(ours, parseRef(String(ref['nw.expr_c']), 'c'), gen, 500);
  sameFunction(ours, parseRef(String(ref['nw.expr_raw']), 'python'), gen, 500);
});

test('Row/Col basics: apply and inv', () => {
  const M = 'M', N = 'N';
  const gen = (r: ReturnType<typeof rng>) => {
    const [m, n] = [r(1, 30), r(1, 30)];
    return new Map([[M, big(m)], [N, big(n)], ['i', big(r(0, m))], ['j', big(r(0, n))], ['x', big(r(0, m * n))]]);
  };
  for (const [kind, mk] of [['row', A.Row], ['col', A.Col]] as const) {
    const L = A.GroupBy([[A.toExpr(sym(M)), sym(N)]], [A.OrderBy(mk(sym(M), sym(N)))]);
    sameFunction(A.applySym(L, ['i', 'j']), parseRef(String(ref[`${kind}.L[i,j]`]), 'python'), gen);
    const inv = A.invSym(L, 'x');
    const want = parseRefList(String(ref[`${kind}.L.inv(x)`]));
    assert.equal(inv.length, 2);
    inv.forEach((e, k) => sameFunction(e, want[k], gen));
  }
});

test('with param values (divisibility facts that hold there): still equal where they hold, no more operations', () => {
  const ctx: A.SymContext = { divisibility: true, env: new Map([['GM', 8n], ['num_pid_m', 32n], ['num_pid_n', 16n], ['M', 4096n], ['K', 4096n], ['BM', 128n], ['BK', 64n]]) };
  const [pm, pn] = A.invSym(pid, 'pid', ctx);
  const divisible = (r: ReturnType<typeof rng>) => {
    const GM = r(1, 9), npm = GM * r(1, 5), npn = r(1, 9);
    return new Map([['GM', big(GM)], ['num_pid_m', big(npm)], ['num_pid_n', big(npn)], ['pid', big(r(0, npm * npn))]]);
  };
  sameFunction(pm, parseRef(String(ref['matmul.pid_m']), 'python'), divisible);
  sameFunction(pn, parseRef(String(ref['matmul.pid_n']), 'python'), divisible);
  assert.ok(countOps(pm) < countOps(parseRef(String(ref['matmul.pid_m']), 'python')), 'the % max(1, num_pid_m // GM) is gone');
  sameFunction(A.applySym(matmulA(false), ['pid_m', 'k', S, S], ctx), parseRef(String(ref['matmul.a_offset.NTA']), 'python'), matmulEnv);
});
