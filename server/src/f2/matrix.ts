// Binary matrices over F2 stored by column (docs/linear-layouts.md). A matrix with `rows` rows
// and n columns maps F2^n -> F2^rows: input bit k selects column k, and the image is the XOR
// of the selected columns. Gaussian elimination gives rank, solve, kernel, intersection and
// complement. Column vectors use `opsFor(rows)`, input-space vectors `opsFor(n)`.
import { opsFor, type Ops, type Vec } from './bits.js';

export class F2Error extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'F2Error';
  }
}

export class BitMatrix {
  readonly ops: Ops;
  /** operations on input-space vectors (width = number of columns) */
  readonly inOps: Ops;
  constructor(readonly rows: number, readonly cols: readonly Vec[]) {
    this.ops = opsFor(rows);
    this.inOps = opsFor(cols.length);
    for (const c of cols) {
      if (typeof c !== (this.ops.wide ? 'bigint' : 'number')) throw new F2Error('column of the wrong representation');
      if (this.ops.top(c) >= rows) throw new F2Error(`column ${String(c)} has a bit above row ${rows - 1}`);
    }
  }
  get n(): number {
    return this.cols.length;
  }
  /** M x: XOR of the columns selected by the bits of x */
  apply(x: Vec): Vec {
    const o = this.ops;
    let r = o.zero;
    for (let k = 0; k < this.cols.length; k++) if (this.inOps.bit(x, k)) r = o.xor(r, this.cols[k]);
    return r;
  }
  /** entry (row r, column c) */
  get(r: number, c: number): 0 | 1 {
    return this.ops.bit(this.cols[c], r) ? 1 : 0;
  }
  /** rows as 0/1 arrays (row 0 first) */
  toRows(): (0 | 1)[][] {
    return Array.from({ length: this.rows }, (_, r) => this.cols.map((_, c) => this.get(r, c)));
  }
  static identity(n: number): BitMatrix {
    const o = opsFor(n);
    return new BitMatrix(n, Array.from({ length: n }, (_, k) => o.unit(k)));
  }
  static fromNumbers(rows: number, cols: readonly (number | bigint)[]): BitMatrix {
    const o = opsFor(rows);
    return new BitMatrix(rows, cols.map((c) => o.from(c)));
  }
}

/** A pivot of the elimination: a reduced vector and the input combination that produced it. */
export interface Pivot {
  vec: Vec;
  /** which original vectors XOR to `vec` (input-space vector) */
  combo: Vec;
  /** the original vector's index that became this pivot */
  source: number;
}

/**
 * Reduced row echelon form by columns: pivots keyed by their highest bit, each pivot bit set in
 * exactly one pivot. `free` lists the vectors that reduced to zero, with the combination that
 * shows it (a kernel vector).
 */
export interface Echelon {
  pivots: Pivot[];
  /** pivot index by top bit */
  byTop: Map<number, number>;
  kernel: Vec[];
}

export function echelon(vecs: readonly Vec[], ops: Ops): Echelon {
  const inOps = opsFor(vecs.length);
  const pivots: Pivot[] = [];
  const byTop = new Map<number, number>();
  const kernel: Vec[] = [];
  for (let k = 0; k < vecs.length; k++) {
    let v = vecs[k];
    let combo = inOps.unit(k);
    v = reduceFull(v, pivots, byTop, ops, (c) => (combo = inOps.xor(combo, c)));
    if (ops.isZero(v)) {
      kernel.push(combo);
      continue;
    }
    const t = ops.top(v);
    // keep the echelon reduced: clear bit t in the other pivots
    for (const p of pivots) {
      if (ops.bit(p.vec, t)) {
        p.vec = ops.xor(p.vec, v);
        p.combo = inOps.xor(p.combo, combo);
      }
    }
    byTop.set(t, pivots.length);
    pivots.push({ vec: v, combo, source: k });
  }
  return { pivots, byTop, kernel };
}

function reduceFull(v: Vec, pivots: Pivot[], byTop: Map<number, number>, ops: Ops, onUse: (combo: Vec) => void): Vec {
  let bitIdx = ops.top(v);
  while (bitIdx >= 0) {
    if (ops.bit(v, bitIdx)) {
      const p = byTop.get(bitIdx);
      if (p !== undefined) {
        v = ops.xor(v, pivots[p].vec);
        onUse(pivots[p].combo);
      }
    }
    bitIdx--;
  }
  return v;
}

/** rank over F2 of a set of vectors */
export function rank(vecs: readonly Vec[], ops: Ops): number {
  return echelon(vecs, ops).pivots.length;
}

/** whether v lies in span(basis) */
export function spanContains(basis: readonly Vec[], v: Vec, ops: Ops): boolean {
  const e = echelon(basis, ops);
  return ops.isZero(reduceFull(v, e.pivots, e.byTop, ops, () => undefined));
}

/** A maximal independent subset, in order (the vectors themselves, not reduced). */
export function independent(vecs: readonly Vec[], ops: Ops): Vec[] {
  return echelon(vecs, ops).pivots.map((p) => p.source).sort((a, b) => a - b).map((k) => vecs[k]);
}

/**
 * Solve M x = y. Free variables are 0, so x is supported on the pivot columns (the paper's
 * "least-norm" choice). Undefined when y is outside the image.
 */
export function solve(m: BitMatrix, y: Vec): Vec | undefined {
  const e = echelon(m.cols, m.ops);
  let combo = m.inOps.zero;
  const rest = reduceFull(y, e.pivots, e.byTop, m.ops, (c) => (combo = m.inOps.xor(combo, c)));
  return m.ops.isZero(rest) ? combo : undefined;
}

/** A basis of the kernel {x : M x = 0} (input-space vectors). */
export function kernel(m: BitMatrix): Vec[] {
  return echelon(m.cols, m.ops).kernel;
}

/** A basis of span(U) ∩ span(W) (vectors of `ops`). */
export function intersect(U: readonly Vec[], W: readonly Vec[], ops: Ops): Vec[] {
  const u = independent(U, ops);
  const w = independent(W, ops);
  // kernel of [u | w]: combinations with u·a = w·b; the image u·a spans the intersection
  const both = [...u, ...w];
  const inOps = opsFor(both.length);
  const out: Vec[] = [];
  for (const k of echelon(both, ops).kernel) {
    let v = ops.zero;
    for (let i = 0; i < u.length; i++) if (inOps.bit(k, i)) v = ops.xor(v, u[i]);
    out.push(v);
  }
  return out;
}

/** dim(span U ∩ span W) = rank U + rank W - rank(U ∪ W) */
export function intersectDim(U: readonly Vec[], W: readonly Vec[], ops: Ops): number {
  return rank(U, ops) + rank(W, ops) - rank([...U, ...W], ops);
}

/**
 * Unit vectors completing span(basis) to F2^d, lowest bits first (the greedy choice: e_k is
 * added exactly when no vector of the span has top bit k).
 */
export function complement(basis: readonly Vec[], d: number, ops: Ops): Vec[] {
  const e = echelon(basis, ops);
  const out: Vec[] = [];
  for (let k = 0; k < d; k++) if (!e.byTop.has(k)) out.push(ops.unit(k));
  return out;
}

/** outer ∘ inner: column k is outer(inner column k); inner.rows must equal outer's column count */
export function composeMatrix(outer: BitMatrix, inner: BitMatrix): BitMatrix {
  if (inner.rows !== outer.n) throw new F2Error(`cannot compose: inner has ${inner.rows} output bits, outer takes ${outer.n}`);
  return new BitMatrix(outer.rows, inner.cols.map((c) => outer.apply(outer.inOps.from(inner.ops.toBigInt(c)))));
}

/** The inverse of a square invertible matrix; throws otherwise. */
export function inverse(m: BitMatrix): BitMatrix {
  if (m.rows !== m.n) throw new F2Error(`not square: ${m.rows}x${m.n}`);
  return rightInverse(m);
}

/**
 * A right inverse of a surjective matrix (M R = I): column k solves M x = e_k with free
 * variables 0. Throws when M is not surjective.
 */
export function rightInverse(m: BitMatrix): BitMatrix {
  const e = echelon(m.cols, m.ops);
  if (e.pivots.length !== m.rows) throw new F2Error(`not surjective: rank ${e.pivots.length} < ${m.rows}`);
  const cols: Vec[] = [];
  for (let k = 0; k < m.rows; k++) {
    let combo = m.inOps.zero;
    reduceFull(m.ops.unit(k), e.pivots, e.byTop, m.ops, (c) => (combo = m.inOps.xor(combo, c)));
    cols.push(combo);
  }
  return new BitMatrix(m.n, cols);
}

/** Block-diagonal product [[A,0],[0,B]]: A's inputs and outputs are the low bits. */
export function blockDiag(a: BitMatrix, b: BitMatrix): BitMatrix {
  const o = opsFor(a.rows + b.rows);
  const cols = [
    ...a.cols.map((c) => o.from(a.ops.toBigInt(c))),
    ...b.cols.map((c) => o.shl(o.from(b.ops.toBigInt(c)), a.rows)),
  ];
  return new BitMatrix(a.rows + b.rows, cols);
}

/**
 * Left division M /ℓ T (Def. 4.4): M2 such that M = [[T,0],[0,M2]], or undefined. The first
 * T.n columns of M must equal T's columns (inside T's low T.rows output bits), and no other
 * column may touch those low bits.
 */
export function leftDivideMatrix(m: BitMatrix, t: BitMatrix): BitMatrix | undefined {
  if (t.n > m.n || t.rows > m.rows) return undefined;
  const o = m.ops;
  for (let k = 0; k < t.n; k++) if (o.toBigInt(m.cols[k]) !== t.ops.toBigInt(t.cols[k])) return undefined;
  const rest: Vec[] = [];
  for (let k = t.n; k < m.n; k++) {
    if (!o.isZero(o.low(m.cols[k], t.rows))) return undefined;
    rest.push(o.shr(m.cols[k], t.rows));
  }
  const ro = opsFor(m.rows - t.rows);
  return new BitMatrix(m.rows - t.rows, rest.map((c) => ro.from(o.toBigInt(c))));
}
