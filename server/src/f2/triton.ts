// Triton's layouts as linear layouts (docs/linear-layouts.md): blocked, swizzled shared, mma
// (v2 Ampere, v3 Hopper; accumulator and operands) and explicit bases. Distributed layouts map
// (register, lane, warp) to logical coordinates; shared layouts map `offset`.
import { F2Error } from './matrix.js';
import { LinearLayout, isPow2, log2, type InDim } from './layout.js';

export const REGISTER = 'register';
export const LANE = 'lane';
export const WARP = 'warp';
export const OFFSET = 'offset';

export function dimNames(rank: number): string[] {
  return Array.from({ length: rank }, (_, d) => `dim${d}`);
}

function checkPow2List(name: string, xs: readonly number[], rank?: number): void {
  if (rank !== undefined && xs.length !== rank) throw new F2Error(`${name} has ${xs.length} entries, shape has ${rank}`);
  for (const x of xs) if (!isPow2(x)) throw new F2Error(`${name} entry ${x} is not a power of two`);
}
function checkOrder(order: readonly number[], rank: number): void {
  const s = [...order].sort((a, b) => a - b);
  if (order.length !== rank || s.some((x, k) => x !== k)) throw new F2Error(`order [${order.join(', ')}] is not a permutation of 0..${rank - 1}`);
}
function unit(rank: number, d: number, v: number): number[] {
  return Array.from({ length: rank }, (_, k) => (k === d ? v : 0));
}

/**
 * Finish a distributed layout for `shape`: where the tile is smaller, registers repeat it
 * (dims in `repOrder`, the first fastest); then every coordinate outside the shape becomes 0
 * (the tile is larger than the tensor: broadcast).
 */
function fit(regs: number[][], lanes: number[][], warps: number[][], cover: number[], shape: readonly number[], repOrder: readonly number[]): LinearLayout {
  const rank = shape.length;
  cover = [...cover];
  for (const d of repOrder) {
    while (cover[d] < shape[d]) {
      regs.push(unit(rank, d, cover[d]));
      cover[d] *= 2;
    }
  }
  const clip = (b: number[]) => b.map((c, d) => (c >= shape[d] ? 0 : c));
  const names = dimNames(rank);
  return new LinearLayout(
    [{ name: REGISTER, bases: regs.map(clip) }, { name: LANE, bases: lanes.map(clip) }, { name: WARP, bases: warps.map(clip) }],
    shape.map((s, d) => ({ name: names[d], size: s })),
  );
}

export interface BlockedParams {
  shape: readonly number[];
  sizePerThread: readonly number[];
  threadsPerWarp: readonly number[];
  warpsPerCTA: readonly number[];
  order: readonly number[];
}

/** #ttg.blocked (Prop. 4.6): registers, then lanes, then warps, each along `order` (fastest first). */
export function blocked(p: BlockedParams): LinearLayout {
  const rank = p.shape.length;
  if (rank === 0) throw new F2Error('shape is empty');
  checkPow2List('shape', p.shape);
  checkPow2List('sizePerThread', p.sizePerThread, rank);
  checkPow2List('threadsPerWarp', p.threadsPerWarp, rank);
  checkPow2List('warpsPerCTA', p.warpsPerCTA, rank);
  checkOrder(p.order, rank);
  const cover = Array.from({ length: rank }, () => 1);
  const build = (counts: readonly number[]) => {
    const out: number[][] = [];
    for (const d of p.order) {
      for (let k = 0; k < log2(counts[d]); k++) {
        out.push(unit(rank, d, cover[d]));
        cover[d] *= 2;
      }
    }
    return out;
  };
  const regs = build(p.sizePerThread);
  const lanes = build(p.threadsPerWarp);
  const warps = build(p.warpsPerCTA);
  return fit(regs, lanes, warps, cover, p.shape, p.order);
}

export interface SwizzledParams {
  shape: readonly number[];
  vec: number;
  perPhase: number;
  maxPhase: number;
  order: readonly number[];
}

/**
 * #ttg.swizzled_shared (Def. 4.11, Prop. 4.12): offset -> logical. The fastest dim's bits are
 * the identity; bit i of the second dim maps to (2^i, c_i) with
 * c_i = (vec * ((2^i / perPhase) mod maxPhase)) mod ncols; further dims follow unswizzled.
 */
export function swizzled(p: SwizzledParams): LinearLayout {
  const rank = p.shape.length;
  if (rank === 0) throw new F2Error('shape is empty');
  checkPow2List('shape', p.shape);
  checkOrder(p.order, rank);
  for (const [n, v] of [['vec', p.vec], ['perPhase', p.perPhase], ['maxPhase', p.maxPhase]] as const) {
    if (!isPow2(v)) throw new F2Error(`${n} = ${v} is not a power of two`);
  }
  const bases: number[][] = [];
  const col = p.order[0];
  const ncols = p.shape[col];
  for (let c = 1; c < ncols; c *= 2) bases.push(unit(rank, col, c));
  if (rank >= 2) {
    const row = p.order[1];
    for (let r = 1; r < p.shape[row]; r *= 2) {
      const b = unit(rank, row, r);
      b[col] = (p.vec * (Math.floor(r / p.perPhase) % p.maxPhase)) % ncols;
      bases.push(b);
    }
    for (const d of p.order.slice(2)) for (let c = 1; c < p.shape[d]; c *= 2) bases.push(unit(rank, d, c));
  }
  const names = dimNames(rank);
  return new LinearLayout([{ name: OFFSET, bases }], p.shape.map((s, d) => ({ name: names[d], size: s })));
}

export type MmaOperand = 'acc' | 'a' | 'b';
export interface MmaParams {
  version: 2 | 3;
  shape: readonly number[];
  warpsPerCTA: readonly number[];
  operand: MmaOperand;
  /** consecutive K elements per thread for operands (Triton's kWidth; 2 for 16-bit) */
  kWidth?: number;
  /** wgmma instruction shape [16, N, K] (version 3); N defaults to min(shape[1], 256) */
  instrShape?: readonly number[];
}

const MMA_LANES_ACC = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]];

/**
 * NVIDIA mma layouts (Prop. 4.7 / 9.2 with the notes' errata): v2 = mma.sync m16n8, v3 =
 * wgmma (warps along M in groups of 4). `acc` is the accumulator; `a` (opIdx 0, M x K) and `b`
 * (opIdx 1, K x N) the dot operands in registers, `kWidth` consecutive K elements per thread.
 * Warps of v2 go along N first, of v3 along M first; operands broadcast over the warps of the
 * dimension they do not have.
 */
export function mma(p: MmaParams): LinearLayout {
  if (p.version !== 2 && p.version !== 3) throw new F2Error(`version ${p.version} is not 2 (mma.sync) or 3 (wgmma)`);
  if (p.shape.length !== 2) throw new F2Error(`mma layouts are 2-D; shape has ${p.shape.length} dims`);
  checkPow2List('shape', p.shape);
  checkPow2List('warpsPerCTA', p.warpsPerCTA, 2);
  const [wm, wn] = p.warpsPerCTA;
  const warpOrder = p.version === 2 ? [1, 0] : [0, 1];
  if (p.operand === 'acc') {
    const regs: number[][] = [[0, 1], [8, 0]];
    const lanes = MMA_LANES_ACC.map((b) => [...b]);
    let n = 8;
    if (p.version === 3) {
      const instr = p.instrShape ?? [16, Math.min(p.shape[1], 256), 16];
      if (instr.length !== 3 || instr[0] !== 16 || !isPow2(instr[1]) || instr[1] < 8 || instr[1] > 256) {
        throw new F2Error(`instrShape [${instr.join(', ')}] is not [16, N, K] with N a power of two in 8..256`);
      }
      for (; n < instr[1]; n *= 2) regs.push([0, n]);
    }
    const cover = [16, n];
    const warps: number[][] = [];
    for (const d of warpOrder) {
      const count = d === 0 ? wm : wn;
      for (let k = 0; k < log2(count); k++) {
        warps.push(unit(2, d, cover[d]));
        cover[d] *= 2;
      }
    }
    return fit(regs, lanes, warps, cover, p.shape, [1, 0]);
  }
  if (p.operand !== 'a' && p.operand !== 'b') throw new F2Error(`operand ${String(p.operand)} is not acc, a or b`);
  if (p.version === 3 && p.operand === 'b') throw new F2Error('wgmma (version 3) reads operand b from shared memory: it has no register layout; use a shared layout');
  const kw = p.kWidth ?? 2;
  if (!isPow2(kw) || kw > 16) throw new F2Error(`kWidth = ${kw} is not a power of two up to 16`);
  // K is dim 1 for a, dim 0 for b; the other dim is M (a) or N (b)
  const K = p.operand === 'a' ? 1 : 0;
  const O = 1 - K;
  const at = (k: number, o: number) => (K === 1 ? [o, k] : [k, o]);
  const regs: number[][] = [];
  for (let k = 1; k < kw; k *= 2) regs.push(at(k, 0));
  const lanes: number[][] = [at(kw, 0), at(2 * kw, 0), at(0, 1), at(0, 2), at(0, 4)];
  const outer = p.operand === 'a' ? 16 : 8;
  if (p.operand === 'a') regs.push(at(0, 8));
  regs.push(at(4 * kw, 0));
  const cover = K === 1 ? [outer, 8 * kw] : [8 * kw, outer];
  const warps: number[][] = [];
  for (const d of warpOrder) {
    const count = d === 0 ? wm : wn;
    // a has M (dim 0) warps and broadcasts over N warps; b the reverse
    const own = (p.operand === 'a' && d === 0) || (p.operand === 'b' && d === 1);
    for (let k = 0; k < log2(count); k++) {
      if (own) {
        warps.push(unit(2, O, cover[O]));
        cover[O] *= 2;
      } else warps.push([0, 0]);
    }
  }
  return fit(regs, lanes, warps, cover, p.shape, [K, O]);
}

/** A layout given by its bases; `offset` makes it a shared (memory) layout. */
export function fromBases(shape: readonly number[], bases: Readonly<Record<string, readonly (readonly number[])[]>>): LinearLayout {
  checkPow2List('shape', shape);
  const labels = Object.keys(bases);
  const allowed = labels.includes(OFFSET) ? [OFFSET] : [REGISTER, LANE, WARP];
  for (const l of labels) if (!allowed.includes(l)) throw new F2Error(labels.includes(OFFSET) ? `a shared layout has only offset bases; ${l} is not allowed beside offset` : `unknown input dim ${l}: expected register, lane, warp or offset`);
  const ins: InDim[] = allowed.includes(OFFSET) ? [{ name: OFFSET, bases: bases[OFFSET] }] : allowed.map((l) => ({ name: l, bases: bases[l] ?? [] }));
  const names = dimNames(shape.length);
  return new LinearLayout(ins, shape.map((s, d) => ({ name: names[d], size: s })));
}

/** whether a layout maps `offset` (a shared layout) rather than register/lane/warp */
export function isShared(L: LinearLayout): boolean {
  return L.ins.length === 1 && L.ins[0].name === OFFSET;
}

/**
 * #ttg.slice (the Linear Layouts paper, Prop. 4.8): remove output dim `dim` of a distributed
 * layout. Every basis loses its `dim` coordinate, so a lane or warp basis that only moved along
 * `dim` becomes zero (broadcast). As in Triton, register bases that become all zero are dropped
 * (a register holding a copy is not kept). Triton builds the parent on the slice's shape with a 1
 * inserted at `dim`; pass such a parent to reproduce its slice layouts exactly.
 */
export function sliced(parent: LinearLayout, dim: number): LinearLayout {
  if (isShared(parent)) throw new F2Error('a slice needs a distributed (register/lane/warp) parent, not a shared layout');
  const rank = parent.outs.length;
  if (!Number.isInteger(dim) || dim < 0 || dim >= rank) throw new F2Error(`slice dim ${dim} is outside [0, ${rank})`);
  if (rank < 2) throw new F2Error('cannot slice a 1-D layout: no dims would remain');
  const drop = (b: readonly number[]) => b.filter((_, d) => d !== dim);
  const ins: InDim[] = parent.ins.map((i) => {
    const bases = i.bases.map(drop);
    return { name: i.name, bases: i.name === REGISTER ? bases.filter((b) => b.some((c) => c !== 0)) : bases };
  });
  const names = dimNames(rank - 1);
  return new LinearLayout(ins, parent.outs.filter((_, d) => d !== dim).map((o, d) => ({ name: names[d], size: o.size })));
}
