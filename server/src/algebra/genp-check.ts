// Exhaustive bijectivity check of a user permutation (GenP) at concrete sizes: every point of
// the tile is evaluated through a compiled closure, seen values are kept in a bitset. Tight
// enough for 2^24 points in about a second; cancellable through `shouldStop`.
import { EvalError } from '../expr/index.js';
import { compileNum, type NumFn } from './compile.js';
import { evalDim, type Env } from './numeric.js';
import { AlgebraError, type GenP } from './types.js';

export type GenPCheck =
  | { kind: 'bijective'; checked: number }
  /** indices `a` (first in row-major order) and `b` both map to `value` */
  | { kind: 'collision'; a: number[]; b: number[]; value: number }
  | { kind: 'out-of-range'; idx: number[]; value: number; size: number }
  /** the inverse maps `x = apply(expected)` to `got` */
  | { kind: 'inverse-mismatch'; x: number; got: number[]; expected: number[] }
  /**
   * the tile has `size` points, more than the budget: not enumerated; `checked` points were probed
   * (small coordinates, boundaries, random samples: `searchBeyondBudget`) and none failed
   */
  | { kind: 'budget-exceeded'; checked: number; size: number }
  | { kind: 'cancelled'; checked: number }
  /** evaluating at `idx` failed (division by zero, beyond 2^53), or the sizes could not be evaluated (`idx` empty) */
  | { kind: 'eval-error'; idx: number[]; message: string };

export interface CheckBudget {
  /** the most points to enumerate (default 2^24) */
  maxPoints?: number;
  /** polled every `pollEvery` points (default 65536); returning true stops with `cancelled` */
  shouldStop?: () => boolean;
  pollEvery?: number;
}

export const DEFAULT_CHECK_POINTS = 1 << 24;

/** Checks that `genp` is a bijection of its tile onto [0, size) and that its inverse (if any) inverts it. */
export function checkGenP(genp: GenP, env: Env, budget: CheckBudget | number = {}): GenPCheck {
  const b: CheckBudget = typeof budget === 'number' ? { maxPoints: budget } : budget;
  const maxPoints = b.maxPoints ?? DEFAULT_CHECK_POINTS;
  const pollEvery = Math.max(1, b.pollEvery ?? 65536);
  let dims: number[];
  let fn: NumFn;
  let inv: NumFn[] | undefined;
  try {
    dims = genp.dims.map((d) => evalDim(d, env));
    if (genp.apply.indexNames.length !== dims.length)
      return { kind: 'eval-error', idx: [], message: `the tile has ${dims.length} dims but the function takes ${genp.apply.indexNames.length} indices` };
    fn = compileNum(genp.apply.body, genp.apply.indexNames, env);
    if (genp.inverse) {
      if (genp.inverse.results.length !== dims.length)
        return { kind: 'eval-error', idx: [], message: `the inverse gives ${genp.inverse.results.length} coordinates for a ${dims.length}-D tile` };
      inv = genp.inverse.results.map((r) => compileNum(r, [genp.inverse!.argName], env));
    }
  } catch (e) {
    if (e instanceof AlgebraError || e instanceof EvalError) return { kind: 'eval-error', idx: [], message: e.message };
    throw e;
  }
  let size = 1;
  for (const d of dims) size *= d;
  if (size > maxPoints) return searchBeyondBudget(fn, inv, dims, size, Math.min(maxPoints, MAX_PROBES));

  const rank = dims.length;
  const idx = new Float64Array(rank);
  const xv = new Float64Array(1);
  const seen = new Uint32Array(Math.ceil(size / 32));
  const snapshot = () => Array.from(idx);
  let n = 0;
  let nextPoll = pollEvery;
  try {
    for (n = 0; n < size; n++) {
      if (n === nextPoll) {
        nextPoll += pollEvery;
        if (b.shouldStop?.()) return { kind: 'cancelled', checked: n };
      }
      const v = fn(idx);
      if (!(v >= 0 && v < size)) return { kind: 'out-of-range', idx: snapshot(), value: v, size };
      const w = v >>> 5;
      const bit = 1 << (v & 31);
      if (seen[w] & bit) return { kind: 'collision', a: firstWith(fn, dims, v), b: snapshot(), value: v };
      seen[w] |= bit;
      if (inv) {
        xv[0] = v;
        for (let k = 0; k < rank; k++) {
          if (inv[k](xv) !== idx[k]) return { kind: 'inverse-mismatch', x: v, got: inv.map((f) => f(xv)), expected: snapshot() };
        }
      }
      for (let k = rank - 1; k >= 0; k--) {
        if (++idx[k] < dims[k]) break;
        idx[k] = 0;
      }
    }
  } catch (e) {
    if (e instanceof EvalError || e instanceof AlgebraError) return { kind: 'eval-error', idx: snapshot(), message: e.message };
    throw e;
  }
  return { kind: 'bijective', checked: n };
}

/** The first index (row-major) at which `fn` gives `v`. */
function firstWith(fn: NumFn, dims: number[], v: number): number[] {
  const idx = new Float64Array(dims.length);
  for (;;) {
    if (fn(idx) === v) return Array.from(idx);
    let k = dims.length - 1;
    for (; k >= 0; k--) {
      if (++idx[k] < dims[k]) break;
      idx[k] = 0;
    }
    if (k < 0) return [];
  }
}

/** Most points probed beyond the exhaustive budget. */
export const MAX_PROBES = 1 << 16;

/**
 * A tile too large to enumerate: probes up to `probes` points for a failure, in this order: the
 * corner box of small coordinates, every combination of boundary coordinates (0, 1, 2, d-3, d-2, d-1),
 * then points drawn by a seeded generator (the same points on every run). A collision is found when
 * two probes map to the same value (`a` the one first in row-major order); out-of-range values and
 * inverse mismatches are found at a single probe. Finding none proves nothing: `budget-exceeded`.
 */
export function searchBeyondBudget(fn: NumFn, inv: NumFn[] | undefined, dims: number[], size: number, probes: number): GenPCheck {
  const rank = dims.length;
  const seen = new Map<number, number[]>();
  const xv = new Float64Array(1);
  let checked = 0;
  const visit = (p: number[]): GenPCheck | undefined => {
    const idx = Float64Array.from(p);
    let v: number;
    try {
      v = fn(idx);
      checked++;
      if (!(v >= 0 && v < size)) return { kind: 'out-of-range', idx: p, value: v, size };
      const prev = seen.get(v);
      if (prev) {
        if (prev.every((c, k) => c === p[k])) return undefined;
        const [a, b] = rowMajorLess(prev, p) ? [prev, p] : [p, prev];
        return { kind: 'collision', a, b, value: v };
      }
      seen.set(v, p);
      if (inv) {
        xv[0] = v;
        for (let k = 0; k < rank; k++) if (inv[k](xv) !== p[k]) return { kind: 'inverse-mismatch', x: v, got: inv.map((f) => f(xv)), expected: p };
      }
    } catch (e) {
      if (e instanceof EvalError || e instanceof AlgebraError) return { kind: 'eval-error', idx: p, message: e.message };
      throw e;
    }
    return undefined;
  };
  // 1. the corner box: coordinates below k, k as large as a quarter of the probes allows
  let k = 1;
  while (k < 64 && Math.pow(k + 1, rank) <= probes / 4) k++;
  const box = dims.map((d) => Math.min(d, k));
  const cur = new Array<number>(rank).fill(0);
  for (let n = 0, total = box.reduce((a, b) => a * b, 1); n < total && checked < probes; n++) {
    const r = visit([...cur]);
    if (r) return r;
    for (let j = rank - 1; j >= 0; j--) {
      if (++cur[j] < box[j]) break;
      cur[j] = 0;
    }
  }
  // 2. boundary combinations
  const edges = dims.map((d) => [...new Set([0, 1, 2, d - 3, d - 2, d - 1].filter((c) => c >= 0 && c < d))]);
  const pick = new Array<number>(rank).fill(0);
  for (let done = false; !done && checked < probes; ) {
    const r = visit(pick.map((c, j) => edges[j][c]));
    if (r) return r;
    let j = rank - 1;
    for (; j >= 0; j--) {
      if (++pick[j] < edges[j].length) break;
      pick[j] = 0;
    }
    done = j < 0;
  }
  // 3. seeded random points
  let state = 0x9e3779b9 ^ (size >>> 0);
  const next = () => {
    // xorshift32
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  for (let tries = 0; checked < probes && tries < probes * 2; tries++) {
    const r = visit(dims.map((d) => Math.floor(next() * d)));
    if (r) return r;
  }
  return { kind: 'budget-exceeded', checked, size };
}

function rowMajorLess(a: number[], b: number[]): boolean {
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return a[k] < b[k];
  return false;
}
