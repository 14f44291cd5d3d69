// Exhaustive bijectivity check of a user permutation (GenP) at concrete sizes: seen values are
// kept in a bitset (one bit per point, no per-point allocation). The body is evaluated a row at a
// time: compileRow turns it into closures over typed arrays that compute a whole row (the last
// index running, the others fixed) per call, with the parts that do not depend on the last index
// computed once per row; a row where anything is unusual (a division by zero, a value near 2^53)
// is evaluated again point by point with the scalar closures, which report it exactly as before.
// 2^24 points take well under a second (bench/genp.ts); cancellable through `shouldStop`.
import { EvalError, freeSymbols, type Expr } from '../expr/index.js';
import { compileNum, floorDivNum, modNum, type NumFn } from './compile.js';
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
  /** evaluate a row at a time (default); false: point by point (tests compare both) */
  rows?: boolean;
  /**
   * Where a cancelled check stopped: filled in when `shouldStop` stops it, and read by the next call
   * given the same object (for the same GenP and env), which goes on from there instead of starting
   * again. Cleared when a call finishes.
   */
  progress?: GenPProgress;
}

/** `CheckBudget.progress`: the points enumerated so far (`checkGenP`'s own state; opaque to callers). */
export interface GenPProgress {
  at?: { n: number; idx: Float64Array; seen: Uint32Array };
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
  const resume = b.progress?.at && b.progress.at.idx.length === rank && b.progress.at.seen.length === Math.ceil(size / 32) ? b.progress.at : undefined;
  if (b.progress) b.progress.at = undefined;
  const idx = resume ? resume.idx : new Float64Array(rank);
  const xv = new Float64Array(1);
  const seen = resume ? resume.seen : new Uint32Array(Math.ceil(size / 32));
  const start = resume ? resume.n : 0;
  /** the check stops here (`shouldStop`): where it was, for the next call */
  const cancelled = (): GenPCheck => {
    if (b.progress) b.progress.at = { n, idx, seen };
    return { kind: 'cancelled', checked: n };
  };
  const snapshot = () => Array.from(idx);
  const last = rank - 1;
  const rowLen = rank === 0 ? 1 : dims[last];
  let row: RowFn | undefined;
  if (b.rows !== false && rank > 0 && rowLen >= 8) {
    try {
      row = compileRow(genp.apply.body, genp.apply.indexNames, env, rowLen);
    } catch {
      row = undefined; // the scalar closures say what is wrong, at the first point
    }
  }
  let n = start;
  let nextPoll = start + pollEvery;
  /** one point at idx (its value `v`): undefined when fine, else the outcome */
  const visit = (v: number): GenPCheck | undefined => {
    if (!(v >= 0 && v < size)) return { kind: 'out-of-range', idx: snapshot(), value: v, size };
    const w = v >>> 5;
    const bit = 1 << (v & 31);
    if (seen[w] & bit) return { kind: 'collision', a: firstWith(fn, dims, v), b: snapshot(), value: v + 0 };
    seen[w] |= bit;
    if (inv) {
      xv[0] = v;
      for (let k = 0; k < rank; k++) {
        if (inv[k](xv) !== idx[k]) return { kind: 'inverse-mismatch', x: v, got: inv.map((f) => f(xv)), expected: snapshot() };
      }
    }
    return undefined;
  };
  try {
    if (row) {
      // row by row: idx[0..last-1] fixed, idx[last] running
      for (n = start; n < size; n += rowLen) {
        if (n >= nextPoll) {
          nextPoll += pollEvery * Math.ceil((n - nextPoll + 1) / pollEvery);
          if (b.shouldStop?.()) return cancelled();
        }
        let vals: Float64Array | undefined;
        try {
          vals = row(idx);
        } catch {
          vals = undefined;
        }
        if (vals && !inv) {
          // the common case, inlined: range and bitset only
          for (let k = 0; k < rowLen; k++) {
            const v = vals[k];
            if (!(v >= 0 && v < size)) {
              idx[last] = k;
              return { kind: 'out-of-range', idx: snapshot(), value: v, size };
            }
            const w = v >>> 5;
            const bit = 1 << (v & 31);
            if (seen[w] & bit) {
              idx[last] = k;
              return { kind: 'collision', a: firstWith(fn, dims, v), b: snapshot(), value: v + 0 }; // + 0: a row may compute -0
            }
            seen[w] |= bit;
          }
        } else {
          for (let k = 0; k < rowLen; k++) {
            idx[last] = k;
            const r = visit(vals ? vals[k] : fn(idx));
            if (r) return r;
          }
        }
        idx[last] = 0;
        for (let k = last - 1; k >= 0; k--) {
          if (++idx[k] < dims[k]) break;
          idx[k] = 0;
        }
      }
      return { kind: 'bijective', checked: size };
    }
    for (n = start; n < size; n++) {
      if (n === nextPoll) {
        nextPoll += pollEvery;
        if (b.shouldStop?.()) return cancelled();
      }
      const r = visit(fn(idx));
      if (r) return r;
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

/** Computes a whole row: the values at idx[0..last-1] with idx[last] = 0, 1, ..., n-1 (a buffer it owns). */
type RowFn = (idx: Float64Array) => Float64Array;

/** Thrown inside a row: the row is evaluated again point by point. */
class RowBail extends Error {}

const LIMIT = 2 ** 53;
const INT32 = 2 ** 31;

/**
 * Compiles `e` to a row function over its last slot (0..n-1). Sub-expressions that do not use the
 * last slot are scalar closures (compileNum), called once per row. Every result and partial sum
 * or product is kept below 2^53 (else RowBail): a row computed here equals the scalar closures'.
 */
export function compileRow(e: Expr, slots: readonly string[], env: ReadonlyMap<string, bigint>, n: number): RowFn {
  const lastName = slots[slots.length - 1];
  type Node = { row: true; f: () => Float64Array } | { row: false; f: NumFn };
  const memo = new Map<Expr, Node>();
  let cur: Float64Array = new Float64Array(slots.length);
  const scalar = (x: Expr): NumFn => compileNum(x, slots, env);
  const go = (x: Expr): Node => {
    let m = memo.get(x);
    if (!m) {
      m = freeSymbols(x).has(lastName) ? { row: true, f: build(x) } : { row: false, f: scalar(x) };
      memo.set(x, m);
    }
    return m;
  };
  const check = (r: number): number => {
    if (!(r < LIMIT && r > -LIMIT)) throw new RowBail();
    return r;
  };
  const build = (x: Expr): (() => Float64Array) => {
    const out = new Float64Array(n);
    switch (x.kind) {
      case 'sym': {
        for (let k = 0; k < n; k++) out[k] = k;
        return () => out;
      }
      case 'add': {
        const parts = x.terms.map(go);
        const rows = parts.filter((p) => p.row).map((p) => p.f as () => Float64Array);
        const consts = parts.filter((p) => !p.row).map((p) => p.f as NumFn);
        const c0 = Number(x.constant);
        return () => {
          let c = c0;
          for (const f of consts) c = check(c + f(cur));
          out.fill(c);
          for (const f of rows) {
            const a = f();
            for (let k = 0; k < n; k++) {
              const r = out[k] + a[k];
              if (!(r < LIMIT && r > -LIMIT)) throw new RowBail();
              out[k] = r;
            }
          }
          return out;
        };
      }
      case 'mul': {
        const parts = x.factors.map(go);
        const rows = parts.filter((p) => p.row).map((p) => p.f as () => Float64Array);
        const consts = parts.filter((p) => !p.row).map((p) => p.f as NumFn);
        const c0 = Number(x.coef);
        return () => {
          let c = c0;
          for (const f of consts) c = check(c * f(cur));
          out.fill(c);
          for (const f of rows) {
            const a = f();
            for (let k = 0; k < n; k++) {
              const r = out[k] * a[k];
              if (!(r < LIMIT && r > -LIMIT)) throw new RowBail();
              out[k] = r;
            }
          }
          return out;
        };
      }
      case 'floordiv': case 'mod': {
        const a = go(x.a);
        const b = go(x.b);
        const isDiv = x.kind === 'floordiv';
        return () => {
          const av = a.row ? a.f() : undefined;
          const as = a.row ? 0 : a.f(cur);
          if (!b.row) {
            const q = b.f(cur);
            if (q === 0) throw new RowBail();
            if (av && q > 0 && q < INT32) {
              // small non-negative operands: exact in double division, truncation is the floor
              for (let k = 0; k < n; k++) {
                const p = av[k];
                if (p >= 0 && p < INT32) {
                  const t = (p / q) | 0;
                  out[k] = isDiv ? t : p - t * q;
                } else out[k] = isDiv ? floorDivNum(p, q) : modNum(p, q);
              }
              return out;
            }
            if (isDiv) for (let k = 0; k < n; k++) out[k] = floorDivNum(av ? av[k] : as, q);
            else for (let k = 0; k < n; k++) out[k] = modNum(av ? av[k] : as, q);
            return out;
          }
          const bv = b.f();
          for (let k = 0; k < n; k++) {
            const q = bv[k];
            if (q === 0) throw new RowBail();
            const p = av ? av[k] : as;
            out[k] = isDiv ? floorDivNum(p, q) : modNum(p, q);
          }
          return out;
        };
      }
      case 'cmp': {
        const l = go(x.lhs);
        const r = Number(x.rhs);
        const op = x.op;
        if (!l.row) break;
        const lf = l.f;
        return () => {
          const a = lf();
          switch (op) {
            case '<=': for (let k = 0; k < n; k++) out[k] = a[k] <= r ? 1 : 0; break;
            case '>=': for (let k = 0; k < n; k++) out[k] = a[k] >= r ? 1 : 0; break;
            case '==': for (let k = 0; k < n; k++) out[k] = a[k] === r ? 1 : 0; break;
            default: for (let k = 0; k < n; k++) out[k] = a[k] !== r ? 1 : 0; break;
          }
          return out;
        };
      }
    }
    // anything else (select, min, max, and, or, not): the scalar closure at each point of the row
    // (a select over rows would compute both branches: slower than the scalar closure's one)
    const f = scalar(x);
    const pt = new Float64Array(slots.length);
    const li = slots.length - 1;
    return () => {
      pt.set(cur);
      for (let k = 0; k < n; k++) {
        pt[li] = k;
        out[k] = f(pt);
      }
      return out;
    };
  };
  const top = go(e);
  if (!top.row) {
    const f = top.f;
    const out = new Float64Array(n);
    return (idx) => {
      cur = idx;
      out.fill(f(idx));
      return out;
    };
  }
  const f = top.f;
  return (idx) => {
    cur = idx;
    return f();
  };
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
