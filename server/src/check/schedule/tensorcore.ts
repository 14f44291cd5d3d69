// Tensor-core schedules (issue 12): the structure rules of `parallelizeForWarps`, `mma`, `asyncCopy`,
// `multibuffer`, `pipeline` and `swizzleShared`, and their numbers (mma shapes and element types,
// warp tiles, 128-bit copies, pipeline depth, accumulator registers). simulate.ts calls these.
//
// Register estimate per thread (documented in docs/schedules.md, calibrated against ptxas 13.0 on
// sm_90 for nine builds of the MLIR 22 schedule):
//   accumulators  WTM*WTN / 32 * accBytes / 4         (the warp tile of C, spread over 32 lanes)
//   A fragments   WTM*BK  / 32 * inBytes  / 4         (a K tile of A for the warp, via ldmatrix)
//   B fragments   BK*WTN  / 32 * inBytes  / 4
//   + 50 for addresses, loop indices and pipeline state
// 128x128x32 block, 2x2 warps (64x64 warp tiles), f16 x f16 -> f32: 128 + 32 + 32 + 50 = 242, what
// ptxas reports (242). Above 255 (the per-thread limit) ptxas spills.
import type { Range } from '../../../../grammar/src/ast.js';
import type { Diagnostic } from '../../../../grammar/src/diagnostic.js';
import type { GpuTarget } from '../targets.js';
import type { PayloadOpInfo, Primitive } from './ops.js';
import { accTypeOf, ELEMENT_BYTES, type ScheduleSpec, type ScheduleStepSpec } from './spec.js';
import { diag, NO_RANGE, times } from './util.js';

export const MMA_SYNC_SHAPE = [16, 8, 16] as const;
export const WMMA_SHAPE = [16, 16, 16] as const;
export const REGISTER_OVERHEAD = 50;
export const MAX_REGISTERS_PER_THREAD = 255;

export function isTensorCoreSchedule(spec: ScheduleSpec): boolean {
  return spec.steps.some((s) => s.primitive === 'mma' || s.primitive === 'parallelizeForWarps');
}

/** Order and presence rules of the tensor-core primitives (`seen`: first step of each primitive). */
export function tensorCoreStructure(spec: ScheduleSpec, seen: ReadonlyMap<Primitive, ScheduleStepSpec>, out: Diagnostic[]): void {
  const at = (p: Primitive): Range => seen.get(p)?.primitiveRange ?? NO_RANGE;
  const warps = seen.get('parallelizeForWarps'), mma = seen.get('mma');
  if (warps && seen.get('parallelizeForThreads')) {
    out.push(diag('warps-and-threads', 'error',
      'parallelizeForWarps and parallelizeForThreads both split the block: keep one (parallelizeForWarps for mma, parallelizeForThreads for SIMT code)',
      at('parallelizeForWarps'), [{ message: 'parallelizeForThreads is here', range: at('parallelizeForThreads') }]));
  }
  if (warps && !mma) {
    out.push(diag('needs-step', 'error', 'parallelizeForWarps gives each warp a tile that only mma spreads over its lanes: add `mma(h, [16, 8, 16])`', at('parallelizeForWarps')));
  }
  if (mma && !warps) {
    out.push(diag('needs-step', 'error', 'mma computes warp tiles: split the block with `parallelizeForWarps(h, [WM, WN])` first', at('mma')));
  }
  if (mma && !seen.get('promote')) {
    out.push(diag('needs-step', 'error', 'mma reads its A and B fragments from shared memory (ldmatrix): add `promote(h, [0, 1])`', at('mma')));
  }
  const promote = seen.get('promote');
  if (mma && promote?.operands && [...new Set(promote.operands)].sort().join(',') !== '0,1') {
    out.push(diag('tensor-core-step', 'error', 'mma reads both A and B through shared memory (ldmatrix): promote(h, [0, 1])', promote.argRanges?.[1] ?? promote.range));
  }
  if (mma) {
    const tiles = spec.steps.filter((s) => s.primitive === 'tile');
    for (const t of tiles) {
      const bad = (t.sizes ?? []).findIndex((x, d) => d < 2 && x !== 0);
      if (bad >= 0) {
        out.push(diag('tensor-core-step', 'error', 'in a tensor-core schedule tile makes the K loop only (tile(h, [0, 0, BK])): the warps split the block tile', t.itemRanges?.[bad] ?? t.range));
      }
    }
    if (tiles.length === 0 || tiles.every((t) => (t.sizes?.[2] ?? 0) === 0)) {
      out.push(diag('needs-step', 'error', 'mma needs a K loop to stage A and B tiles through: add `tile(h, [0, 0, BK])` before promote', at('mma')));
    } else if (tiles.filter((t) => (t.sizes?.[2] ?? 0) > 0).length > 1) {
      out.push(diag('tensor-core-step', 'error', 'a tensor-core schedule has one K loop: tile K once', tiles[1].range ?? at('mma')));
    }
    const un = seen.get('unroll');
    if (un) out.push(diag('tensor-core-step', 'error', 'unroll is not supported in a tensor-core schedule: the mma lowering unrolls the warp tile, and pipeline overlaps the K loop\'s stages', un.primitiveRange));
  }
  if (mma && !seen.get('vectorize')) {
    out.push(diag('needs-step', 'error', 'mma rewrites the vectorized warp matmul: add `vectorize()` after parallelizeForWarps', at('mma')));
  }
  for (const p of ['asyncCopy', 'multibuffer', 'pipeline', 'swizzleShared'] as const) {
    if (seen.get(p) && !mma) {
      out.push(diag('needs-step', 'error', `${p} works on the shared-memory copies of a tensor-core schedule: add \`mma(h, [16, 8, 16])\` (and parallelizeForWarps)`, at(p)));
    }
  }
  const pipe = seen.get('pipeline');
  if (pipe && !seen.get('asyncCopy')) {
    out.push(diag('needs-step', 'error', 'pipeline overlaps asynchronous copies with the mma of earlier stages: add `asyncCopy()`', at('pipeline')));
  }
  const mb = seen.get('multibuffer');
  if (pipe && mb && pipe.factor !== undefined && mb.factor !== undefined && pipe.factor !== mb.factor) {
    out.push(diag('pipeline-depth', 'error',
      `pipeline depth ${pipe.factor} needs ${pipe.factor} shared buffers, but multibuffer makes ${mb.factor}: use the same depth (or leave multibuffer out: pipeline implies it)`,
      pipe.argRanges?.[1] ?? at('pipeline'), [{ message: 'multibuffer is here', range: mb.range ?? NO_RANGE }]));
  }
  const sw = seen.get('swizzleShared');
  if (sw && mma?.sizes && mma.sizes[1] === 16 && mma.sizes[0] === 16 && mma.sizes[2] === 16) {
    out.push(diag('swizzle-wmma', 'warning', 'swizzleShared cannot rewrite the WMMA loads of mma [16, 16, 16] (gpu.subgroup_mma_load_matrix): the pass leaves them unswizzled; use mma(h, [16, 8, 16])', sw.primitiveRange));
  }
}

/** Pipeline depth (shared buffers per staged operand): pipeline's or multibuffer's depth, else 1. */
export function stagesOf(spec: ScheduleSpec): number {
  const p = spec.steps.find((s) => s.primitive === 'pipeline') ?? spec.steps.find((s) => s.primitive === 'multibuffer');
  return p?.factor ?? 1;
}

/**
 * The zero fill's per-thread tile FR x FC of the BM x BN block tile: (BM/FR) x (BN/FC) iterations mapped
 * linearly onto the NT threads, as many as fit (at most NT); rows of 32 elements preferred (128 x 128
 * over 128 threads: 4 x 32, the hand-written schedule's).
 */
export function fillTile(bm: number, bn: number, nt: number): [number, number] | undefined {
  const divisors = (n: number): number[] => Array.from({ length: n }, (_, k) => k + 1).filter((d) => n % d === 0);
  const fcs = [...divisors(bn).filter((d) => d <= 32).reverse(), ...divisors(bn).filter((d) => d > 32)];
  let best: [number, number] | undefined, bestIters = 0;
  for (const fc of fcs) {
    const fr = divisors(bm).find((r) => (bm / r) * (bn / fc) <= nt);
    if (fr === undefined) continue;
    const iters = (bm / fr) * (bn / fc);
    if (iters > bestIters) { best = [fr, fc]; bestIters = iters; }
  }
  return best;
}

export interface RegisterEstimate {
  accumulators: number;
  aFragments: number;
  bFragments: number;
  overhead: number;
  total: number;
}

/** Registers per thread for a warp tile WTM x WTN with a K tile BK (the formula at the top of this file). */
export function estimateRegisters(warpTile: [number, number], bk: number, inBytes: number, accBytes: number): RegisterEstimate {
  const [wm, wn] = warpTile;
  const accumulators = Math.ceil((wm * wn * accBytes) / (32 * 4));
  const aFragments = Math.ceil((wm * bk * inBytes) / (32 * 4));
  const bFragments = Math.ceil((bk * wn * inBytes) / (32 * 4));
  return { accumulators, aFragments, bFragments, overhead: REGISTER_OVERHEAD, total: accumulators + aFragments + bFragments + REGISTER_OVERHEAD };
}

export interface TensorCoreFacts {
  mmaShape: number[];
  /** `mma.sync m16n8k16` or `wmma m16n16k16` */
  mmaKind: 'mma.sync' | 'wmma';
  warps: number[];
  warpTile: number[];
  /** mma instructions per warp per K tile */
  mmaPerKTile: number;
  registers: RegisterEstimate;
  stages: number;
}

/**
 * Checks of the `mma` step: a supported shape, element types it accepts, warp tile and K tile divisible
 * by the shape, registers. `blockTile` = [BM, BN, BK] after tiling, `warps` from parallelizeForWarps.
 */
export function checkMma(spec: ScheduleSpec, info: PayloadOpInfo, s: ScheduleStepSpec, blockTile: number[], warps: number[],
  out: Diagnostic[]): TensorCoreFacts | undefined {
  const shape = s.sizes!;
  const itemRange = (k: number): Range | undefined => s.itemRanges?.[k] ?? s.argRanges?.[1] ?? s.range;
  const isSync = shape.join(',') === MMA_SYNC_SHAPE.join(',');
  const isWmma = shape.join(',') === WMMA_SHAPE.join(',');
  if (!isSync && !isWmma) {
    out.push(diag('mma-shape', 'error', `mma [${shape.join(', ')}] is not a tensor-core shape here: use [16, 8, 16] (mma.sync m16n8k16) or [16, 16, 16] (WMMA)`, s.argRanges?.[1] ?? s.range));
    return undefined;
  }
  const et = spec.elementType, acc = accTypeOf(spec);
  const kind = isSync ? 'mma.sync m16n8k16' : 'WMMA m16n16k16';
  if (et === 'f32') {
    out.push(diag('mma-types', 'error', `${kind} takes f16 or bf16 inputs, not f32 (declare the payload \`: f16 x f16 -> f32\`)`, spec.ranges?.types ?? s.primitiveRange));
    return undefined;
  }
  if (et === 'bf16' && acc !== 'f32') {
    out.push(diag('mma-types', 'error', `${kind} with bf16 inputs accumulates in f32, not ${acc}`, spec.ranges?.types ?? s.primitiveRange));
    return undefined;
  }
  if (et === 'bf16') {
    // the hardware takes bf16 x bf16 -> f32, but MLIR 22 cannot lower it: convert-vector-to-gpu fails on the
    // bf16 fragment loads (nvgpu path), and gpu.subgroup_mma takes f16 only (WMMA path)
    out.push(diag('mma-types', 'error', `${kind} with bf16 inputs does not lower through MLIR 22 (convert-vector-to-gpu converts f16 fragments only); use f16 inputs`, spec.ranges?.types ?? s.primitiveRange));
    return undefined;
  }
  const [bm, bn, bk] = blockTile;
  const warpTile = [bm / warps[0], bn / warps[1]];
  let good = true;
  info.dims.slice(0, 2).forEach((d, k) => {
    if (warpTile[k] % shape[k] !== 0) {
      out.push(diag('mma-tile', 'error',
        `the warp tile's ${d} extent ${warpTile[k]} (${blockTile[k]} / ${warps[k]} warps) is not a multiple of the mma shape's ${shape[k]}`, itemRange(k)));
      good = false;
    }
  });
  if (bk % shape[2] !== 0) {
    out.push(diag('mma-tile', 'error', `the K tile ${bk} is not a multiple of the mma shape's K ${shape[2]}: tile K by a multiple of ${shape[2]}`, itemRange(2)));
    good = false;
  }
  if (!good) return undefined;
  const nt = warps[0] * warps[1] * 32;
  if (!fillTile(bm, bn, nt)) {
    out.push(diag('tensor-core-step', 'error', `the zero fill of the ${bm} x ${bn} block tile cannot be spread evenly over ${nt} threads`, s.primitiveRange));
    return undefined;
  }
  const inBytes = ELEMENT_BYTES[et], accBytes = ELEMENT_BYTES[acc];
  const registers = estimateRegisters([warpTile[0], warpTile[1]], bk, inBytes, accBytes);
  if (registers.total > MAX_REGISTERS_PER_THREAD) {
    out.push(diag('registers', 'warning',
      `about ${registers.total} registers per thread (accumulators ${times(warpTile)} ${acc} / 32 lanes = ${registers.accumulators}, A and B fragments ${registers.aFragments} + ${registers.bFragments}, + ${registers.overhead}) exceed ${MAX_REGISTERS_PER_THREAD}: ptxas will spill; use more warps or a smaller block tile`,
      s.argRanges?.[1] ?? s.range));
  }
  return {
    mmaShape: shape, mmaKind: isSync ? 'mma.sync' : 'wmma', warps, warpTile,
    mmaPerKTile: (warpTile[0] / shape[0]) * (warpTile[1] / shape[1]) * (bk / shape[2]),
    registers, stages: stagesOf(spec),
  };
}

/** 128-bit copies: the inner extent of each staged tile must be a multiple of 128 bits for cp.async / vector loads. */
export function checkCopyVectors(spec: ScheduleSpec, promoted: { name: string; shape: number[] }[], at: Range | undefined, out: Diagnostic[]): void {
  const bits = ELEMENT_BYTES[spec.elementType] * 8;
  const per = 128 / bits;
  for (const p of promoted) {
    const inner = p.shape[p.shape.length - 1];
    if (inner % per !== 0) {
      out.push(diag('copy-vector', 'error',
        `the rows of ${p.name}'s ${times(p.shape)} tile hold ${inner} ${spec.elementType} elements, not a multiple of ${per} (128 bits): the 128-bit copies of a tensor-core schedule cannot cover them`, at));
    }
  }
}

/** Threads per block of parallelizeForWarps, against the target. */
export function checkWarps(warps: number[], target: GpuTarget, at: Range | undefined, out: Diagnostic[]): boolean {
  const total = warps.reduce((a, b) => a * b, 1) * target.warpSize;
  if (total > target.maxThreadsPerBlock) {
    out.push(diag('threads-per-block', 'error', `${times(warps)} warps x ${target.warpSize} = ${total} threads per block exceeds ${target.maxThreadsPerBlock} on ${target.name}`, at));
    return false;
  }
  return true;
}
