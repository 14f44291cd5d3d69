// The reference layouts of lego-semantics §11/§12 as algebra values, and helpers to compare
// expressions as functions at random points.
import {
  add, cmp, evaluate, floorDiv, int, max, min, mul, select, sub, substitute, sym, type Expr,
} from '../../../server/src/expr/index.js';
import { rebuild } from '../../../server/src/expr/eval.js';
import * as A from '../../../server/src/algebra/index.js';

export const s = sym;
const [i, j, n] = [sym('i'), sym('j'), sym('n')];

/** antidiag(n) as §2 states it: a = i+j+1; a <= n: a(a-1)/2 + i; else n² − n + i − (2n−a)(2n−a−1)/2. */
export function antidiagBody(size: Expr = n): Expr {
  const a = add(i, j, int(1));
  const lower = add(floorDiv(mul(a, sub(a, int(1))), int(2)), i);
  const t = sub(mul(int(2), size), a);
  const upper = sub(add(sub(mul(size, size), size), i), floorDiv(mul(t, sub(t, int(1))), int(2)));
  return select(cmp('<=', a, size), lower, upper);
}
export function antidiag(size: number | Expr, withName = 'antidiag'): A.GenP {
  const e = typeof size === 'number' ? int(size) : size;
  return A.GenP([e, e], { indexNames: ['i', 'j'], body: substitute(antidiagBody(), new Map([['n', e]])) }, undefined, withName);
}

export const B6 = A.OrderBy(A.RegP([2, 3, 2, 3], [0, 2, 1, 3]));
export const C6 = A.OrderBy(A.RegP([2, 2], [1, 0]), antidiag(3));
export const fig6 = A.GroupBy([[6, 6]], [C6, B6]);
export const fig6B = A.GroupBy([[6, 6]], [B6]);

const [M, N, K, BM, BN, BK] = ['M', 'N', 'K', 'BM', 'BN', 'BK'].map(sym);
export const matmulA = (ta: boolean) => A.TileBy([A.OrderBy(ta ? A.Col(M, K) : A.Row(M, K))], [[floorDiv(M, BM), floorDiv(K, BK)], [BM, BK]]);
export const matmulB = (tb: boolean) => A.TileBy([A.OrderBy(tb ? A.Col(K, N) : A.Row(K, N))], [[floorDiv(K, BK), floorDiv(N, BN)], [BK, BN]]);
export const matmulC = A.TileBy([A.OrderBy(A.Row(M, N))], [[floorDiv(M, BM), floorDiv(N, BN)], [BM, BN]]);
const [npm, npn, GM] = ['num_pid_m', 'num_pid_n', 'GM'].map(sym);
export const pid = A.TileBy([A.OrderBy(A.Col(max(floorDiv(npm, GM), int(1)), 1), A.Col(min(npm, GM), npn))], [[npm, npn]]);
export const softmax = A.TileBy([A.OrderBy(A.Row(sym('n_rows'), sym('n_cols')))], [[sym('n_rows'), sym('n_cols')]]);
export const nw = A.TileBy([A.OrderBy(A.GenP([n, n], { indexNames: ['i', 'j'], body: antidiagBody() }, undefined, 'antidiag'))], [[n, n]]);

/** Replaces every tl.arange by a symbol named after its bounds and broadcast axis (so both sides agree). */
export function arangesToSyms(e: Expr): { e: Expr; names: Map<string, { lo: Expr; hi: Expr }> } {
  const names = new Map<string, { lo: Expr; hi: Expr }>();
  const go = (x: Expr): Expr => {
    if (x.kind === 'arange') {
      const name = `ar_${x.start.key}_${x.stop.key}_${x.bcast?.axis ?? 'b'}`.replace(/[^A-Za-z0-9_]/g, '_');
      names.set(name, { lo: x.start, hi: x.stop });
      return sym(name);
    }
    if (x.kind === 'int' || x.kind === 'sym') return x;
    return rebuild(x, go);
  };
  return { e: go(e), names };
}

/** A deterministic pseudo-random generator (xorshift32). */
export function rng(seed: number): (lo: number, hi: number) => number {
  let x = seed >>> 0 || 1;
  return (lo, hi) => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return lo + (x % (hi - lo));
  };
}

/** Evaluates both at `env` (aranges replaced by symbols that `env` binds). */
export function evalBoth(a: Expr, b: Expr, env: Map<string, bigint>): [bigint, bigint] {
  return [evaluate(arangesToSyms(a).e, env), evaluate(arangesToSyms(b).e, env)];
}
