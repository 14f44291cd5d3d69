// Optimal swizzle synthesis for a conversion through shared memory (paper §5.4/§9.2 with the
// phase-lane refinement; docs/linear-layouts.md): maximal vector width first, then a memory
// layout whose index bits avoid both lane spaces, so that reads and writes are conflict-free
// whenever Lemma 9.5's bound allows it.
import { NUM } from './bits.js';
import { F2Error, complement, spanContains, rank } from './matrix.js';
import { LinearLayout, log2 } from './layout.js';
import { LANE, OFFSET, REGISTER, isShared } from './triton.js';
import { vectorPlan, wavefrontsF2, type Wavefronts } from './banks.js';

export interface SwizzleResult {
  /** offset -> logical */
  layout: LinearLayout;
  /** elements per access */
  vec: number;
  /** the vector's bases (logical coordinates) */
  vecBases: number[][];
  write: Wavefronts;
  read: Wavefronts;
  /** the fewest wavefronts per access at this vector width */
  minimum: number;
  /** Lemma 9.5: no layout avoids conflicts at this vector width */
  unavoidable: boolean;
  /** the writer / reader with registers permuted so that the vector comes first */
  writer: LinearLayout;
  reader: LinearLayout;
}

/** Permute register bits so that the bases in `V` (flattened) come first (P_Reg). */
export function registersFirst(L: LinearLayout, V: readonly number[]): LinearLayout {
  const regs = L.basesOf(REGISTER);
  const flat = regs.map((b) => Number(L.flatten(b)));
  const first = V.map((v) => regs[flat.indexOf(v)]);
  const rest = regs.filter((_, k) => !V.includes(flat[k]));
  return L.withBases(REGISTER, [...first, ...rest]);
}

export function optimalSwizzle(A: LinearLayout, B: LinearLayout, elemBytes: number): SwizzleResult {
  for (const [n, L] of [['writer', A], ['reader', B]] as const) {
    if (isShared(L)) throw new F2Error(`the ${n} is a shared layout; expected a distributed (register/lane/warp) layout`);
    if (!L.isSurjective()) throw new F2Error(`the ${n} does not cover the tensor (rank ${L.rank()} < ${L.outBits} bits)`);
  }
  if (A.outs.length !== B.outs.length || A.outs.some((o, d) => o.size !== B.outs[d].size)) {
    throw new F2Error(`shapes differ: writer [${A.shape.join(', ')}], reader [${B.shape.join(', ')}]`);
  }
  const d = A.outBits;
  if (d > 30) throw new F2Error(`a tile of 2^${d} elements is too large to swizzle (at most 2^30)`);
  const bits = elemBytes * 8;
  const o = NUM;
  const flat = (L: LinearLayout, label: string) => L.flatColsOf(label).map((c) => c as number);
  const areg = flat(A, REGISTER).filter((x) => x !== 0);
  const breg = flat(B, REGISTER).filter((x) => x !== 0);
  const V = areg.filter((x) => breg.includes(x)).slice(0, Math.max(0, log2(128 / bits)));
  const v = V.length;
  const n = Math.max(1, (2 ** v * bits) / 32);
  const k = log2(n);
  const lanesA = flat(A, LANE);
  const lanesB = flat(B, LANE);
  const athr = lanesA.slice(0, Math.max(0, lanesA.length - k)).filter((x) => x !== 0);
  const bthr = lanesB.slice(0, Math.max(0, lanesB.length - k)).filter((x) => x !== 0);
  // an access narrower than a 4-byte word: the offset bits below the word are not banks; lanes
  // that differ there share a word. Fill them (as if they were vector bits) with lane vectors
  // common to both accesses (free: shared words), else with vectors outside both lane spaces.
  const sub = 2 ** v * bits < 32 ? Math.min(log2(32 / (2 ** v * bits)), d - v) : 0;
  const pad: number[] = [];
  const addPad = (x: number) => {
    if (pad.length < sub && x !== 0 && !spanContains([...V, ...pad], x, o)) pad.push(x);
  };
  for (const x of athr.filter((y) => bthr.includes(y))) addPad(x);
  for (const x of complement([...V, ...athr, ...bthr], d, o) as number[]) addPad(x);
  for (const x of [...athr, ...bthr]) addPad(x);
  for (const x of complement([...V, ...pad], d, o) as number[]) addPad(x);
  const W = [...V, ...pad];
  const b = Math.min(5, Math.max(0, d - W.length), log2(1024 / Math.max(32, 2 ** v * bits)));
  const l = d - W.length - b;
  const C = complement([...W, ...athr, ...bthr], d, o) as number[];
  let E = athr.filter((x) => !bthr.includes(x));
  let F = bthr.filter((x) => !athr.includes(x));
  if (E.length > F.length) [E, F] = [F, E];
  const H = E.map((e, i) => e ^ F[i]);
  const idx: number[] = [];
  const add = (x: number) => {
    if (idx.length < l && x !== 0 && !spanContains([...W, ...idx], x, o)) idx.push(x);
  };
  for (const x of [...C, ...H]) add(x);
  for (const x of [...athr, ...bthr]) add(x); // unavoidable conflicts
  for (const x of complement([...W, ...idx], d, o) as number[]) add(x);
  const bank = complement([...W, ...idx], d, o) as number[];
  if (bank.length !== b) throw new F2Error(`internal: ${bank.length} bank bits, expected ${b}`);
  const offset = [...W, ...bank, ...idx].map((x) => A.unflatten(x));
  const layout = new LinearLayout([{ name: OFFSET, bases: offset }], A.outs);
  const writer = registersFirst(A, V);
  const reader = registersFirst(B, V);
  const elems = 2 ** v;
  const write = wavefrontsF2(vectorPlan(writer, layout, elemBytes, elems), elemBytes);
  const read = wavefrontsF2(vectorPlan(reader, layout, elemBytes, elems), elemBytes);
  const dimA = rank([...W, ...athr], o);
  const dimB = rank([...W, ...bthr], o);
  return {
    layout,
    vec: elems,
    vecBases: V.map((x) => A.unflatten(x)),
    write,
    read,
    minimum: n,
    unavoidable: l > d - Math.max(dimA, dimB),
    writer,
    reader,
  };
}
