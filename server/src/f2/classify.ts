// Linear layouts from arbitrary functions on bit-vectors: the bases are f(2^k); the function is
// then verified exhaustively (up to 2^20 points) or on samples, and classified as a bit
// permutation, F2-linear (XOR), affine, or not linear with a counterexample x, y where
// f(x ^ y) != f(x) ^ f(y).
import { F2Error } from './matrix.js';
import { LinearLayout, type OutDim } from './layout.js';

export const EXHAUSTIVE_BITS = 20;
export const SAMPLES = 4096;

export type LinearClass = 'bit permutation' | 'F2-linear' | 'affine' | 'not linear';

export interface Classification {
  class: LinearClass;
  /** the layout (for affine: the linear part); absent when not linear */
  layout?: LinearLayout;
  /** affine: f(0) */
  offset?: number[];
  /** not linear: f(x ^ y) != f(x) ^ f(y) */
  counterexample?: { x: number; y: number; fx: number[]; fy: number[]; fxy: number[] };
  /** 'exhaustive' or the number of sampled points */
  checked: 'exhaustive' | number;
}

/** deterministic xorshift for samples */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
}

/**
 * Classify f: [0, 2^inBits) -> logical coordinates of `outs` (one input label `inName`).
 * `f` returns a coordinate per output dim.
 */
export function classifyFunction(inName: string, inBits: number, outs: readonly OutDim[], f: (x: number) => readonly number[]): Classification {
  if (inBits > 30) throw new F2Error(`2^${inBits} points is too large (at most 2^30)`);
  const shell = new LinearLayout([], outs);
  const flat = (c: readonly number[]) => Number(shell.flatten(c));
  const fx = (x: number) => flat(f(x));
  const f0 = fx(0);
  const cols: number[] = [];
  for (let k = 0; k < inBits; k++) cols.push(fx(2 ** k) ^ f0);
  const predict = (x: number) => {
    let r = f0;
    for (let k = 0; x !== 0; k++, x = Math.floor(x / 2)) if (x % 2) r ^= cols[k];
    return r;
  };
  const exhaustive = inBits <= EXHAUSTIVE_BITS;
  let bad = -1;
  if (exhaustive) {
    // gray-code walk: prediction updates by one column per step
    let r = f0;
    for (let g = 1; g < 2 ** inBits; g++) {
      const k = 31 - Math.clz32(g & -g);
      const x = g ^ (g >>> 1);
      r ^= cols[k];
      if (fx(x) !== r) {
        bad = x;
        break;
      }
    }
  } else {
    const next = rng(0x9e3779b9);
    for (let s = 0; s < SAMPLES; s++) {
      const x = (next() * 2 ** 22 + (next() & 0x3fffff)) % 2 ** inBits;
      if (fx(x) !== predict(x)) {
        bad = x;
        break;
      }
    }
  }
  const checked = exhaustive ? 'exhaustive' as const : SAMPLES;
  if (bad >= 0) {
    // find x, y with f(x ^ y) != f(x) ^ f(y) by peeling the top bit of the failing point
    let x = bad;
    let ce: { x: number; y: number } = { x: 0, y: 0 };
    while (x !== 0) {
      const y = 2 ** (31 - Math.clz32(x));
      const rest = x - y;
      if (fx(x) !== (fx(rest) ^ fx(y))) {
        ce = { x: rest, y };
        break;
      }
      x = rest;
    }
    return {
      class: 'not linear',
      counterexample: { ...ce, fx: f(ce.x) as number[], fy: f(ce.y) as number[], fxy: f(ce.x ^ ce.y) as number[] },
      checked,
    };
  }
  const layout = new LinearLayout([{ name: inName, bases: cols.map((c) => shell.unflatten(c)) }], outs);
  if (f0 !== 0) return { class: 'affine', layout, offset: shell.unflatten(f0), checked };
  return { class: layout.isPermutation() ? 'bit permutation' : 'F2-linear', layout, checked };
}

/**
 * The class of a layout given by bases (always linear): a bit permutation when every basis is a
 * single bit or zero (broadcast) and the non-zero ones are distinct, i.e. a permutation matrix
 * with zero columns mixed in; F2-linear (XOR) otherwise.
 */
export function classOf(L: LinearLayout): LinearClass {
  const seen = new Set<string>();
  for (const c of L.flatCols()) {
    const p = L.ops.popcount(c);
    if (p > 1) return 'F2-linear';
    if (p === 1) {
      if (seen.has(String(c))) return 'F2-linear';
      seen.add(String(c));
    }
  }
  return 'bit permutation';
}
