// Tensor-core schedules (check/schedule/tensorcore.ts): element types on the payload op, the
// primitives parallelizeForWarps / mma / asyncCopy / multibuffer / pipeline / swizzleShared, and their
// checks with exact codes, messages and ranges, per tuning candidate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from '../../grammar/src/index.js';
import type { ScheduleDecl } from '../../grammar/src/ast.js';
import type { Diagnostic } from '../../grammar/src/diagnostic.js';
import { analyzeSchedule, argValues, checkSchedule, resolveSchedule, scheduleEnvFromFile } from '../../server/src/check/schedule/index.js';
import { describeStep } from '../../server/src/service/schedule-hover.js';
import { estimateRegisters, fillTile } from '../../server/src/check/schedule/tensorcore.js';

const HEADER = `param M = 4096, N = 4096, K = 4096
param BM = 128, BN = 128, BK = 32, WM = 2, WN = 2, D = 3
`;
const HEAD = 'schedule g for linalg.matmul(M, N, K) : f16 x f16 -> f32 on sm_90';

function load(text: string, overrides?: ReadonlyMap<string, bigint>): { decl: ScheduleDecl; env: ReturnType<typeof scheduleEnvFromFile> } {
  const r = parse(text);
  assert.deepEqual(r.diagnostics.filter((d) => d.severity === 'error'), []);
  const decl = r.file.decls.find((d): d is ScheduleDecl => d.kind === 'Schedule');
  assert.ok(decl);
  return { decl, env: scheduleEnvFromFile(r.file, 'tc.layout', overrides) };
}
function show(text: string, ds: Diagnostic[]): [string, string, string][] {
  return ds.map((d) => [d.code, d.message, text.slice(d.range.start, d.range.end)]);
}
function check(steps: string, head = HEAD, header = HEADER): [string, string, string][] {
  const text = `${header}${head} {\n${steps}\n}\n`;
  const { decl, env } = load(text);
  return show(text, checkSchedule(decl, env));
}

const GOOD = `  mm = findOp("linalg.matmul")
  tileForGrids(mm, [BM, BN])
  tile(mm, [0, 0, BK])
  promote(mm, [0, 1])
  parallelizeForWarps(mm, [WM, WN])
  vectorize()
  bufferize()
  mma(mm, [16, 8, 16])
  asyncCopy()
  swizzleShared()
  pipeline(mm, D)`;

test('the tensor-core schedule has no diagnostics; its plan has the figures of the hand-written one', () => {
  assert.deepEqual(check(GOOD), []);
  const text = `${HEADER}${HEAD} {\n${GOOD}\n}\n`;
  const { decl, env } = load(text);
  const r = resolveSchedule(decl, argValues(env));
  assert.equal(r.spec!.elementType, 'f16');
  assert.equal(r.spec!.accType, 'f32');
  const plan = analyzeSchedule(r.spec!).plan!;
  assert.equal(plan.sharedBytes, 3 * (128 * 32 + 32 * 128) * 2);
  assert.equal(plan.threadsPerBlock, 128);
  assert.deepEqual(plan.blockDims, [128, 1, 1]);
  assert.equal(plan.stages, 3);
  assert.deepEqual(plan.tensorCore!.warpTile, [64, 64]);
  assert.equal(plan.tensorCore!.mmaPerKTile, 4 * 8 * 2);
  assert.deepEqual(plan.tensorCore!.registers, { accumulators: 128, aFragments: 32, bFragments: 32, overhead: 50, total: 242 });
});

test('the register estimate: 242 for 64 x 64 warp tiles with f32 accumulators (ptxas: 242), half the accumulators with f16', () => {
  assert.equal(estimateRegisters([64, 64], 32, 2, 4).total, 242);
  assert.equal(estimateRegisters([64, 64], 32, 2, 2).accumulators, 64);
  assert.equal(estimateRegisters([64, 32], 64, 2, 4).total, 64 + 64 + 32 + 50);
});

test('element types: default f32, every figure uses the real width (promote of f16 is half of f32)', () => {
  const simt = `  mm = findOp("linalg.matmul")
  tileForGrids(mm, [BM, BN])
  tile(mm, [0, 0, BK])
  promote(mm, [0, 1])
  parallelizeForThreads(mm, [16, 16])
  vectorize()
  bufferize()`;
  const bytes = (head: string): number => {
    const { decl, env } = load(`${HEADER}${head} {\n${simt}\n}\n`);
    return analyzeSchedule(resolveSchedule(decl, argValues(env)).spec!).plan!.sharedBytes;
  };
  assert.equal(bytes('schedule g for linalg.matmul(M, N, K) on sm_90'), (128 * 32 + 32 * 128) * 4);
  assert.equal(bytes('schedule g for linalg.matmul(M, N, K) : f32 x f32 -> f32 on sm_90'), (128 * 32 + 32 * 128) * 4);
  assert.equal(bytes('schedule g for linalg.matmul(M, N, K) : f16 x f16 -> f16 on sm_90'), (128 * 32 + 32 * 128) * 2);
  assert.equal(bytes('schedule g for linalg.matmul(M, N, K) : bf16 x bf16 -> f32 on sm_90'), (128 * 32 + 32 * 128) * 2);
  const text = `${HEADER}schedule g for linalg.matmul(M, N, K) : f16 x f16 -> f16 on sm_90 {\n${simt}\n}\n`;
  const { decl, env } = load(text);
  assert.match(describeStep(decl, 3, env)!, /\n- A: 128 x 32 f16 = 8192 B; copied by 256 threads, 2 x 8 elements each \(8-wide vectors\)\n- B: 32 x 128 f16 = 8192 B; .*\n- shared memory per block: 16384 B of 49152 B/);
});

test('bad element types point at the type', () => {
  const steps = '  mm = findOp("linalg.matmul")';
  assert.deepEqual(check(steps, 'schedule g for linalg.matmul(M, N, K) : f8 x f16 -> f32'), [
    ['schedule/unknown-element-type', '`f8` is not an element type; supported: f32, f16, bf16', 'f8'],
  ]);
  assert.deepEqual(check(steps, 'schedule g for linalg.matmul(M, N, K) : f16 -> f32'), [
    ['schedule/element-types', 'linalg.matmul has 2 inputs (A, B): write 2 input types, e.g. `: f16 x f16 -> f32`; got 1', 'f16 -> f32'],
  ]);
  assert.deepEqual(check(steps, 'schedule g for linalg.matmul(M, N, K) : f16 x bf16 -> f32'), [
    ['schedule/element-types', 'mixed input types (f16 x bf16) are not supported; the inputs share one element type', 'f16 x bf16 -> f32'],
  ]);
  assert.deepEqual(check(steps, 'schedule g for linalg.matmul(M, N, K) : f16 y f16 -> f32'), [
    ['schedule/element-types', 'expected `x` between the input types, found `y`', 'y'],
  ]);
  assert.deepEqual(check(steps, 'schedule g for linalg.matmul(M, N, K) : f32 x f32 -> f16'), [
    ['schedule/element-types', "the output f16 is narrower than the inputs' f32: accumulate in f32 or wider", 'f16'],
  ]);
});

test('mma element types: f32 inputs, bf16 (not lowerable by MLIR 22), bf16 with f16 accumulation; f16 -> f16 is fine', () => {
  assert.deepEqual(check(GOOD, 'schedule g for linalg.matmul(M, N, K) : f32 x f32 -> f32 on sm_90'), [
    ['schedule/mma-types', 'mma.sync m16n8k16 takes f16 or bf16 inputs, not f32 (declare the payload `: f16 x f16 -> f32`)', 'f32 x f32 -> f32'],
  ]);
  assert.deepEqual(check(GOOD, 'schedule g for linalg.matmul(M, N, K) : bf16 x bf16 -> bf16 on sm_90'), [
    ['schedule/mma-types', 'mma.sync m16n8k16 with bf16 inputs accumulates in f32, not bf16', 'bf16 x bf16 -> bf16'],
  ]);
  assert.deepEqual(check(GOOD, 'schedule g for linalg.matmul(M, N, K) : bf16 x bf16 -> f32 on sm_90'), [
    ['schedule/mma-types', 'mma.sync m16n8k16 with bf16 inputs does not lower through MLIR 22 (convert-vector-to-gpu converts f16 fragments only); use f16 inputs', 'bf16 x bf16 -> f32'],
  ]);
  assert.deepEqual(check(GOOD, 'schedule g for linalg.matmul(M, N, K) : f16 x f16 -> f16 on sm_90'), []);
});

test('mma shapes and warp tiles', () => {
  assert.deepEqual(check(GOOD.replace('[16, 8, 16]', '[16, 8, 8]')), [
    ['schedule/mma-shape', 'mma [16, 8, 8] is not a tensor-core shape here: use [16, 8, 16] (mma.sync m16n8k16) or [16, 16, 16] (WMMA)', '[16, 8, 8]'],
  ]);
  assert.deepEqual(check(GOOD.replace('[16, 8, 16]', '[16, 8, 16, 1]')), [
    ['schedule/size-rank', 'mma takes 3 mma shape sizes (one per dimension M, N, K of linalg.matmul), got 4', '[16, 8, 16, 1]'],
  ]);
  // 128 / 8 warps = 16 rows: fine; 64 / 8 = 8 columns per warp is not a multiple of... use 16 x 16 WMMA
  assert.deepEqual(check(GOOD.replace('[16, 8, 16]', '[16, 16, 16]').replace('  swizzleShared()\n', '').replace('[WM, WN]', '[2, 16]')), [
    ['schedule/mma-tile', "the warp tile's N extent 8 (128 / 16 warps) is not a multiple of the mma shape's 16", '16'],
  ]);
  assert.deepEqual(check(GOOD.replace('[0, 0, BK]', '[0, 0, 8]')), [
    ['schedule/mma-tile', "the K tile 8 is not a multiple of the mma shape's K 16: tile K by a multiple of 16", '16'],
  ]);
  assert.deepEqual(check(GOOD.replace('[WM, WN]', '[3, 2]')), [
    ['schedule/warps-not-divisible', "3 warps do not divide the block's 128 M (128 = 42 x 3 + 2): the block tile must be a multiple of the warp tile", '3'],
  ]);
  assert.deepEqual(check(GOOD.replace('[WM, WN]', '[8, 8]')), [
    ['schedule/threads-per-block', '8 x 8 warps x 32 = 2048 threads per block exceeds 1024 on sm_90', '[8, 8]'],
  ]);
});

test('registers: a warning with the estimate, per tuning candidate', () => {
  const header = HEADER.replace('BM = 128,', 'BM = 128 in [128, 256],');
  assert.deepEqual(check(GOOD.replace('pipeline(mm, D)', 'pipeline(mm, 2)'), HEAD, header), [
    ['schedule/registers', 'with tuning candidate BM = 256: about 402 registers per thread (accumulators 128 x 64 f32 / 32 lanes = 256, A and B fragments 64 + 32, + 50) exceed 255: ptxas will spill; use more warps or a smaller block tile', '[16, 8, 16]'],
  ]);
  // with f16 accumulators the same tile needs 128 fewer
  assert.deepEqual(check(GOOD.replace('pipeline(mm, D)', 'pipeline(mm, 2)'), HEAD.replace('-> f32', '-> f16'), header), [
    ['schedule/registers', 'with tuning candidate BM = 256: about 274 registers per thread (accumulators 128 x 64 f16 / 32 lanes = 128, A and B fragments 64 + 32, + 50) exceed 255: ptxas will spill; use more warps or a smaller block tile', '[16, 8, 16]'],
  ]);
});

test('shared memory: depth x (BM x BK + BK x BN) x 2 B against 48 KiB static, naming the dynamic budget', () => {
  assert.deepEqual(check(GOOD.replace('pipeline(mm, D)', 'pipeline(mm, 4)')), [
    ['schedule/shared-memory', 'promote needs 4 stages x (A 128 x 32 f16 = 8192 B, B 32 x 128 f16 = 8192 B): 65536 B of shared memory per block, more than the 49152 B (48 KB) of static shared memory a kernel may declare (the staging buffers are static; ptxas rejects more, although sm_90 allows 227 KB with dynamic opt-in)', '[0, 1]'],
  ]);
});

test('128-bit copies must divide the tile rows', () => {
  assert.deepEqual(check(GOOD.replace('[BM, BN]', '[BM, 20]').replace('[WM, WN]', '[2, 1]'), HEAD, HEADER.replace('N = 4096', 'N = 4100')), [
    ['schedule/copy-vector', "the rows of B's 32 x 20 tile hold 20 f16 elements, not a multiple of 8 (128 bits): the 128-bit copies of a tensor-core schedule cannot cover them", '[0, 1]'],
  ]);
});

test('structure: warps need mma and vice versa; pipeline needs asyncCopy; depths agree; not with parallelizeForThreads', () => {
  assert.deepEqual(check(GOOD.replace('  mma(mm, [16, 8, 16])\n', '')), [
    ['schedule/needs-step', 'parallelizeForWarps gives each warp a tile that only mma spreads over its lanes: add `mma(h, [16, 8, 16])`', 'parallelizeForWarps'],
    ['schedule/needs-step', 'asyncCopy works on the shared-memory copies of a tensor-core schedule: add `mma(h, [16, 8, 16])` (and parallelizeForWarps)', 'asyncCopy'],
    ['schedule/needs-step', 'pipeline works on the shared-memory copies of a tensor-core schedule: add `mma(h, [16, 8, 16])` (and parallelizeForWarps)', 'pipeline'],
    ['schedule/needs-step', 'swizzleShared works on the shared-memory copies of a tensor-core schedule: add `mma(h, [16, 8, 16])` (and parallelizeForWarps)', 'swizzleShared'],
  ]);
  assert.deepEqual(check(GOOD.replace('  asyncCopy()\n', '')), [
    ['schedule/needs-step', 'pipeline overlaps asynchronous copies with the mma of earlier stages: add `asyncCopy()`', 'pipeline'],
  ]);
  assert.deepEqual(check(GOOD.replace('  promote(mm, [0, 1])\n', '')), [
    ['schedule/needs-step', 'mma reads its A and B fragments from shared memory (ldmatrix): add `promote(h, [0, 1])`', 'mma'],
  ]);
  assert.deepEqual(check(`${GOOD}\n  multibuffer(2)`), [
    ['schedule/pipeline-depth', 'pipeline depth 3 needs 3 shared buffers, but multibuffer makes 2: use the same depth (or leave multibuffer out: pipeline implies it)', 'D'],
  ]);
  assert.deepEqual(check(`${GOOD}\n  multibuffer(3)`), []);
  assert.deepEqual(check(GOOD.replace('parallelizeForWarps(mm, [WM, WN])', 'parallelizeForWarps(mm, [WM, WN])\n  parallelizeForThreads(mm, [16, 16])')).map((d) => d[0]), ['schedule/warps-and-threads']);
  assert.deepEqual(check(GOOD.replace('[16, 8, 16]', '[16, 16, 16]')), [
    ['schedule/swizzle-wmma', 'swizzleShared cannot rewrite the WMMA loads of mma [16, 16, 16] (gpu.subgroup_mma_load_matrix): the pass leaves them unswizzled; use mma(h, [16, 8, 16])', 'swizzleShared'],
  ]);
  assert.deepEqual(check(GOOD, 'schedule g for linalg.matmul(M, N, K) : f16 x f16 -> f32').slice(0, 2), [
    ['schedule/needs-gpu', 'tileForGrids maps work to GPU blocks, but this schedule targets the CPU; name a GPU with `on sm_90`', 'tileForGrids'],
    ['schedule/needs-gpu', 'promote maps work to GPU shared memory, but this schedule targets the CPU; name a GPU with `on sm_90`', 'promote'],
  ]);
});

test('examples/gemm-tensorcore.layout: no diagnostics for either tuning candidate; the candidates are the hand-tuned variants', () => {
  const text = readFileSync('examples/gemm-tensorcore.layout', 'utf8');
  const { decl, env } = load(text);
  assert.deepEqual(checkSchedule(decl, env), []);
  const figures = [0n, 1n].map((v) => {
    const o = load(text, new Map([['V', v]]));
    const spec = resolveSchedule(o.decl, argValues(o.env)).spec!;
    const plan = analyzeSchedule(spec).plan!;
    return [plan.facts[1].tileSizes, plan.facts[2].tileSizes, plan.tensorCore!.warps, plan.stages, plan.sharedBytes, plan.tensorCore!.registers.total];
  });
  assert.deepEqual(figures, [
    [[128, 128], [0, 0, 32], [2, 2], 3, 49152, 242],
    [[128, 64], [0, 0, 64], [2, 2], 2, 49152, 210],
  ]);
});

test('what the tensor-core lowering cannot do is an error, not a silent drop', () => {
  assert.deepEqual(check(GOOD.replace('promote(mm, [0, 1])', 'promote(mm, [0])')), [
    ['schedule/tensor-core-step', 'mma reads both A and B through shared memory (ldmatrix): promote(h, [0, 1])', '[0]'],
  ]);
  assert.deepEqual(check(GOOD.replace('tile(mm, [0, 0, BK])', 'tile(mm, [64, 0, BK])')), [
    ['schedule/tensor-core-step', 'in a tensor-core schedule tile makes the K loop only (tile(h, [0, 0, BK])): the warps split the block tile', '64'],
  ]);
  assert.deepEqual(check(GOOD.replace('  tile(mm, [0, 0, BK])\n', '')), [
    ['schedule/needs-step', 'mma needs a K loop to stage A and B tiles through: add `tile(h, [0, 0, BK])` before promote', 'mma'],
  ]);
  assert.deepEqual(check(GOOD.replace('tile(mm, [0, 0, BK])', 'tile(mm, [0, 0, 64])\n  tile(mm, [0, 0, BK])')), [
    ['schedule/tensor-core-step', 'a tensor-core schedule has one K loop: tile K once', 'tile(mm, [0, 0, BK])'],
  ]);
  assert.deepEqual(check(GOOD.replace('  bufferize()', '  unroll(mm, 2)\n  bufferize()')), [
    ['schedule/tensor-core-step', "unroll is not supported in a tensor-core schedule: the mma lowering unrolls the warp tile, and pipeline overlaps the K loop's stages", 'unroll'],
  ]);
});

test('the zero fill covers the block tile with exactly one element tile per thread, for every warp grid and mma-shaped warp tile', () => {
  assert.deepEqual(fillTile(128, 128, 128), [4, 32]); // the hand-written schedule's
  assert.deepEqual(fillTile(128, 64, 128), [2, 32]);
  let cases = 0;
  for (let wm = 1; wm <= 8; wm++) for (let wn = 1; wn <= 8; wn++) for (let tm = 16; tm <= 128; tm += 16) for (let tn = 8; tn <= 128; tn += 8) {
    const nt = wm * wn * 32;
    if (nt > 1024) continue;
    const bm = wm * tm, bn = wn * tn;
    const f = fillTile(bm, bn, nt);
    assert.ok(f, `${bm} x ${bn} over ${nt}`);
    assert.equal(bm % f[0], 0);
    assert.equal(bn % f[1], 0);
    assert.equal((bm / f[0]) * (bn / f[1]), nt, `${bm} x ${bn} over ${nt}: ${f}`);
    cases++;
  }
  assert.equal(cases, 6528);
});
