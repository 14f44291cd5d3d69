// Labelled linear layouts (Triton's LinearLayout, docs/linear-layouts.md): a linear map from
// labelled input bit-spaces (register, lane, warp; or offset) to a logical tensor. Stored as one
// basis per input bit, bit 0 first; each basis is the logical coordinate [dim0, dim1, ...] of
// that input bit. The flattened matrix puts the LAST output dim in the low bits (row-major) and
// the FIRST input label in the low input bits.
import { opsFor, type Ops, type Vec } from './bits.js';
import { BitMatrix, F2Error, echelon, solve } from './matrix.js';

export interface InDim {
  readonly name: string;
  readonly bases: readonly (readonly number[])[];
}
export interface OutDim {
  readonly name: string;
  /** a power of two */
  readonly size: number;
}

export function log2(n: number): number {
  return 31 - Math.clz32(n);
}
export function isPow2(n: number): boolean {
  return Number.isInteger(n) && n >= 1 && n <= 2 ** 30 && (n & (n - 1)) === 0;
}

export class LinearLayout {
  readonly ins: readonly InDim[];
  readonly outs: readonly OutDim[];
  /** bit offset of each output dim in the flattened output */
  private readonly shifts: number[];
  readonly outBits: number;
  readonly inBits: number;
  readonly ops: Ops;
  private flatCache?: Vec[];

  constructor(ins: readonly InDim[], outs: readonly OutDim[]) {
    for (const o of outs) if (!isPow2(o.size)) throw new F2Error(`output dim ${o.name} has size ${o.size}, not a power of two`);
    const names = new Set<string>();
    for (const i of ins) {
      if (names.has(i.name)) throw new F2Error(`input dim ${i.name} given twice`);
      names.add(i.name);
      for (const b of i.bases) {
        if (b.length !== outs.length) throw new F2Error(`basis [${b.join(', ')}] of ${i.name} has ${b.length} coordinates, the layout has ${outs.length} dims`);
        b.forEach((c, d) => {
          if (!Number.isInteger(c) || c < 0 || c >= outs[d].size) throw new F2Error(`basis [${b.join(', ')}] of ${i.name}: coordinate ${c} is outside [0, ${outs[d].size})`);
        });
      }
    }
    this.ins = ins.map((i) => ({ name: i.name, bases: i.bases.map((b) => [...b]) }));
    this.outs = outs.map((o) => ({ ...o }));
    this.shifts = [];
    let s = 0;
    for (let d = outs.length - 1; d >= 0; d--) {
      this.shifts[d] = s;
      s += log2(outs[d].size);
    }
    this.outBits = s;
    this.inBits = ins.reduce((a, i) => a + i.bases.length, 0);
    this.ops = opsFor(s);
  }

  get shape(): number[] {
    return this.outs.map((o) => o.size);
  }
  inDim(name: string): InDim | undefined {
    return this.ins.find((i) => i.name === name);
  }
  basesOf(name: string): readonly (readonly number[])[] {
    return this.inDim(name)?.bases ?? [];
  }
  inSize(name: string): number {
    return 2 ** this.basesOf(name).length;
  }

  /** flatten a logical coordinate (row-major, last dim in the low bits) */
  flatten(coord: readonly number[]): Vec {
    const o = this.ops;
    let r = o.zero;
    coord.forEach((c, d) => (r = o.xor(r, o.shl(o.from(c), this.shifts[d]))));
    return r;
  }
  unflatten(v: Vec): number[] {
    const o = this.ops;
    return this.outs.map((od, d) => o.toNumber(o.low(o.shr(v, this.shifts[d]), log2(od.size))));
  }
  /** flattened columns, input labels in order */
  flatCols(): Vec[] {
    if (!this.flatCache) this.flatCache = this.ins.flatMap((i) => i.bases.map((b) => this.flatten(b)));
    return this.flatCache;
  }
  flatColsOf(name: string): Vec[] {
    return this.basesOf(name).map((b) => this.flatten(b));
  }
  matrix(): BitMatrix {
    return new BitMatrix(this.outBits, this.flatCols());
  }

  /** L(inputs): XOR of the bases of the set input bits; missing labels are 0 */
  apply(inputs: Readonly<Record<string, number>>): number[] {
    const o = this.ops;
    let r = o.zero;
    for (const i of this.ins) {
      const x = inputs[i.name] ?? 0;
      if (x < 0 || x >= 2 ** i.bases.length) throw new F2Error(`${i.name} = ${x} is outside [0, ${2 ** i.bases.length})`);
      for (let k = 0; k < i.bases.length; k++) if (Math.floor(x / 2 ** k) % 2 === 1) r = o.xor(r, this.flatten(i.bases[k]));
    }
    return this.unflatten(r);
  }

  rank(): number {
    return echelon(this.flatCols(), this.ops).pivots.length;
  }
  isSurjective(): boolean {
    return this.rank() === this.outBits;
  }
  isInjective(): boolean {
    return this.rank() === this.inBits;
  }
  isInvertible(): boolean {
    return this.inBits === this.outBits && this.isSurjective();
  }
  /** Def. 4.10: surjective, every column ≤ 1 set bit, non-zero columns distinct */
  isDistributed(): boolean {
    const cols = this.flatCols();
    const seen = new Set<string>();
    for (const c of cols) {
      const p = this.ops.popcount(c);
      if (p > 1) return false;
      if (p === 1) {
        if (seen.has(String(c))) return false;
        seen.add(String(c));
      }
    }
    return this.isSurjective();
  }
  /** Def. 4.14: invertible, every column has 1 or 2 set bits */
  isMemory(): boolean {
    return this.isInvertible() && this.flatCols().every((c) => {
      const p = this.ops.popcount(c);
      return p === 1 || p === 2;
    });
  }
  /** a permutation matrix: invertible with one set bit per column */
  isPermutation(): boolean {
    return this.isInvertible() && this.flatCols().every((c) => this.ops.popcount(c) === 1);
  }
  /** per label, the input bits whose basis is zero (broadcast / duplicated data) */
  freeBits(): Record<string, number[]> {
    const out: Record<string, number[]> = {};
    for (const i of this.ins) out[i.name] = i.bases.flatMap((b, k) => (b.every((c) => c === 0) ? [k] : []));
    return out;
  }

  /** Triton-style bases object: label -> list of coordinates */
  toBases(): Record<string, number[][]> {
    const out: Record<string, number[][]> = {};
    for (const i of this.ins) out[i.name] = i.bases.map((b) => [...b]);
    return out;
  }

  equals(other: LinearLayout): boolean {
    return JSON.stringify([this.ins, this.outs]) === JSON.stringify([other.ins, other.outs]);
  }

  /** Replace the bases of one label (or add it). */
  withBases(name: string, bases: readonly (readonly number[])[]): LinearLayout {
    const ins = this.ins.some((i) => i.name === name)
      ? this.ins.map((i) => (i.name === name ? { name, bases } : i))
      : [...this.ins, { name, bases }];
    return new LinearLayout(ins, this.outs);
  }

  /**
   * The inverse of an invertible layout: logical coordinate -> input labels. The result has one
   * input label per output dim of this layout (bases per bit) and this layout's labels as
   * output dims (sizes 2^bits).
   */
  invert(): LinearLayout {
    if (!this.isInvertible()) throw new F2Error(`not invertible: ${this.inBits} input bits, ${this.outBits} output bits, rank ${this.rank()}`);
    const m = this.matrix();
    const ins: InDim[] = this.outs.map((od) => ({
      name: od.name,
      bases: Array.from({ length: log2(od.size) }, (_, k) => {
        const unit = this.flatten(this.outs.map((o) => (o === od ? 2 ** k : 0)));
        return this.splitInput(solve(m, unit)!);
      }),
    }));
    return new LinearLayout(ins, this.ins.map((i) => ({ name: i.name, size: 2 ** i.bases.length })));
  }

  /** split a flattened input vector into per-label values */
  splitInput(x: Vec): number[] {
    const io = opsFor(this.inBits);
    const out: number[] = [];
    let at = 0;
    for (const i of this.ins) {
      out.push(io.toNumber(io.low(io.shr(x, at), i.bases.length)));
      at += i.bases.length;
    }
    return out;
  }

  toString(): string {
    return this.ins.map((i) => `${i.name}: ${i.bases.map((b) => `(${b.join(',')})`).join(' ')}`).join('; ');
  }
}

/**
 * outer ∘ inner: inner's output dims must be outer's input labels (same names, sizes 2^bits, same
 * order). Result: inner's inputs -> outer's outputs.
 */
export function compose(outer: LinearLayout, inner: LinearLayout): LinearLayout {
  if (inner.outs.length !== outer.ins.length || inner.outs.some((o, k) => o.name !== outer.ins[k].name || o.size !== 2 ** outer.ins[k].bases.length)) {
    throw new F2Error(`cannot compose: inner outputs ${inner.outs.map((o) => `${o.name}:${o.size}`).join(',')} are not the outer inputs ${outer.ins.map((i) => `${i.name}:${2 ** i.bases.length}`).join(',')}`);
  }
  const ins = inner.ins.map((i) => ({
    name: i.name,
    bases: i.bases.map((b) => outer.apply(Object.fromEntries(inner.outs.map((o, d) => [o.name, b[d]])))),
  }));
  return new LinearLayout(ins, outer.outs);
}

/**
 * Triton's product: labels present in both are concatenated, `a` supplying the low bits (inputs
 * and outputs alike); the product is associative and not commutative.
 */
export function product(a: LinearLayout, b: LinearLayout): LinearLayout {
  const outs: OutDim[] = a.outs.map((o) => ({ ...o }));
  for (const o of b.outs) {
    const k = outs.findIndex((x) => x.name === o.name);
    if (k >= 0) outs[k] = { name: o.name, size: outs[k].size * o.size };
    else outs.push({ ...o });
  }
  const coordA = (c: readonly number[]) => outs.map((o) => {
    const k = a.outs.findIndex((x) => x.name === o.name);
    return k >= 0 ? c[k] : 0;
  });
  const coordB = (c: readonly number[]) => outs.map((o) => {
    const k = b.outs.findIndex((x) => x.name === o.name);
    if (k < 0) return 0;
    const ka = a.outs.findIndex((x) => x.name === o.name);
    return c[k] * (ka >= 0 ? a.outs[ka].size : 1);
  });
  const ins: InDim[] = a.ins.map((i) => ({ name: i.name, bases: i.bases.map(coordA) }));
  for (const i of b.ins) {
    const k = ins.findIndex((x) => x.name === i.name);
    const mapped = i.bases.map(coordB);
    if (k >= 0) ins[k] = { name: i.name, bases: [...ins[k].bases, ...mapped] };
    else ins.push({ name: i.name, bases: mapped });
  }
  return new LinearLayout(ins, outs);
}

/** identity1D(size, in, out) */
export function identity1D(size: number, inName: string, outName: string): LinearLayout {
  if (!isPow2(size)) throw new F2Error(`size ${size} is not a power of two`);
  return new LinearLayout([{ name: inName, bases: Array.from({ length: log2(size) }, (_, k) => [2 ** k]) }], [{ name: outName, size }]);
}
/** zeros1D(size, in, out): every input bit maps to 0 (a broadcast) */
export function zeros1D(size: number, inName: string, outName: string): LinearLayout {
  if (!isPow2(size)) throw new F2Error(`size ${size} is not a power of two`);
  return new LinearLayout([{ name: inName, bases: Array.from({ length: log2(size) }, () => [0]) }], [{ name: outName, size: 1 }]);
}

/**
 * Left division L /ℓ T (Def. 4.4), label-wise: T's input bits must be the first bits of L's same
 * labels and map exactly as T maps them (into the low bits of T's output dims, zero elsewhere);
 * no other input bit may touch those low output bits. Returns the quotient or undefined.
 */
export function leftDivide(L: LinearLayout, T: LinearLayout): LinearLayout | undefined {
  const lowBits = L.outs.map((o) => {
    const t = T.outs.find((x) => x.name === o.name);
    return t ? log2(t.size) : 0;
  });
  if (T.outs.some((t) => !L.outs.some((o) => o.name === t.name && o.size >= t.size))) return undefined;
  const ins: InDim[] = [];
  for (const i of L.ins) {
    const t = T.inDim(i.name);
    const k0 = t ? t.bases.length : 0;
    if (k0 > i.bases.length) return undefined;
    for (let k = 0; k < k0; k++) {
      const want = L.outs.map((o) => {
        const d = T.outs.findIndex((x) => x.name === o.name);
        return d >= 0 ? t!.bases[k][d] : 0;
      });
      if (want.some((c, d) => c !== i.bases[k][d])) return undefined;
    }
    const rest = i.bases.slice(k0);
    for (const b of rest) if (b.some((c, d) => c % 2 ** lowBits[d] !== 0)) return undefined;
    ins.push({ name: i.name, bases: rest.map((b) => b.map((c, d) => c / 2 ** lowBits[d])) });
  }
  for (const t of T.ins) if (!L.inDim(t.name) && t.bases.length > 0) return undefined;
  return new LinearLayout(ins, L.outs.map((o, d) => ({ name: o.name, size: o.size / 2 ** lowBits[d] })));
}
