// Schedule checks (server/src/check/schedule/): exact codes, messages and the source each one points at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '../../grammar/src/index.js';
import type { ScheduleDecl } from '../../grammar/src/ast.js';
import type { Diagnostic } from '../../grammar/src/diagnostic.js';
import {
  analyzeSchedule, checkSchedule, copyMapping, resolveSchedule, argValues, scheduleEnvFromFile, tunableParamsOf,
  type ScheduleSpec,
} from '../../server/src/check/schedule/index.js';
import { describeStep } from '../../server/src/service/schedule-hover.js';
import { TARGETS, formatBytes } from '../../server/src/check/targets.js';

const HEADER = `param M = 4096, N = 4096, K = 4096
param BM = 128 in [64, 128, 256], BN = 128, BK = 32
`;

function load(text: string): { decl: ScheduleDecl; text: string; env: ReturnType<typeof scheduleEnvFromFile> } {
  const r = parse(text);
  const decl = r.file.decls.find((d): d is ScheduleDecl => d.kind === 'Schedule');
  assert.ok(decl, 'no schedule block');
  return { decl, text, env: scheduleEnvFromFile(r.file, 'gemm.layout') };
}

interface Seen { code: string; severity: string; message: string; at: string; related?: string[] }
function show(text: string, ds: Diagnostic[]): Seen[] {
  return ds.map((d) => {
    const s: Seen = { code: d.code, severity: d.severity, message: d.message, at: text.slice(d.range.start, d.range.end) };
    if (d.related) s.related = d.related.map((r) => `${r.message}: ${text.slice(r.range.start, r.range.end)}`);
    return s;
  });
}

/** Checks a schedule body (steps) placed under HEADER. */
function check(steps: string, head = 'schedule gemm for linalg.matmul(M, N, K) on sm_90', extra = ''): Seen[] {
  const text = `${HEADER}${extra}${head} {\n${steps}\n}\n`;
  const { decl, env } = load(text);
  return show(text, checkSchedule(decl, env));
}

const GOOD = `  mm = findOp("linalg.matmul")
  tileForGrids(mm, [BM, BN])
  tile(mm, [0, 0, BK])
  promote(mm, [0, 1])
  parallelizeForThreads(mm, [16, 16])
  vectorize()
  bufferize()`;

test('the example schedule has no diagnostics, for every tuning candidate', () => {
  assert.deepEqual(check(GOOD), []);
});

test('threads per block over the limit names the product', () => {
  const got = check(GOOD.replace('[16, 16]', '[256, 8]').replace('[BM, BN]', '[256, BN]'));
  assert.deepEqual(got, [{
    code: 'schedule/threads-per-block', severity: 'error',
    message: '256 x 8 = 2048 threads per block exceeds 1024 on sm_90', at: '[256, 8]',
  }]);
});

test('threads that do not divide the block tile', () => {
  const got = check(GOOD.replace('[16, 16]', '[6, 5]').replace('promote(mm, [0, 1])\n', ''));
  assert.deepEqual(got, [
    { code: 'schedule/threads-not-divisible', severity: 'error', message: "6 threads do not divide the block's 128 M (128 = 21 x 6 + 2)", at: '6' },
    { code: 'schedule/threads-not-divisible', severity: 'error', message: "5 threads do not divide the block's 128 N (128 = 25 x 5 + 3)", at: '5' },
  ]);
});

test('a block that is not a multiple of the warp size', () => {
  assert.deepEqual(check(GOOD.replace('[16, 16]', '[2, 8]').replace('[0, 0, BK]', '[0, 0, 4]').replace('promote(mm, [0, 1])\n', '')), [
    { code: 'schedule/threads-not-warp-multiple', severity: 'warning', message: '2 x 8 = 16 threads per block is not a multiple of the warp size 32: 16 lanes of the last warp idle', at: '[2, 8]' },
  ]);
});

test('shared memory over the static 48 KB for one tuning candidate only', () => {
  // A is BM x 64 and B 64 x 64 floats: 48 KB for BM = 128 (allowed), 80 KB for BM = 256
  const got = check(GOOD.replace('[0, 0, BK]', '[0, 0, 64]').replace('[BM, BN]', '[BM, 64]'));
  assert.deepEqual(got, [{
    code: 'schedule/shared-memory', severity: 'error',
    message: 'with tuning candidate BM = 256: promote needs A 256 x 64 f32 = 65536 B, B 64 x 64 f32 = 16384 B: 81920 B of shared memory per block, ' +
      'more than the 49152 B (48 KB) of static shared memory a kernel may declare (the staging buffers are static; ptxas rejects more, although sm_90 allows 227 KB with dynamic opt-in)',
    at: '[0, 1]',
  }]);
});

test('shared memory over the opt-in limit of sm_80', () => {
  const got = check(GOOD.replace('[0, 0, BK]', '[0, 0, 256]').replace('[BM, BN]', '[128, 128]').replace('  vectorize()\n', ''),
    'schedule gemm for linalg.matmul(M, N, K) on sm_80');
  assert.deepEqual(got, [{
    code: 'schedule/shared-memory', severity: 'error',
    message: 'promote needs A 128 x 256 f32 = 131072 B, B 256 x 128 f32 = 131072 B: 262144 B of shared memory per block, more than the 166912 B (163 KB) a block can have on sm_80',
    at: '[0, 1]',
  }]);
});

test('unroll copies the staging buffers, which counts in shared memory', () => {
  const got = check(GOOD.replace('  vectorize()', '  vectorize()\n  unroll(mm, 2)'));
  assert.equal(got.length, 1);
  assert.equal(got[0].message,
    'promote needs A 128 x 32 f32 = 16384 B, B 32 x 128 f32 = 16384 B x 2 (unroll copies the staging buffers): 65536 B of shared memory per block, ' +
    'more than the 49152 B (48 KB) of static shared memory a kernel may declare (the staging buffers are static; ptxas rejects more, although sm_90 allows 227 KB with dynamic opt-in)');
});

test('tile sizes that do not divide the problem or the current tile; checking stops at the first wrong step', () => {
  const got = check(GOOD.replace('[BM, BN]', '[96, 100]').replace('[0, 0, BK]', '[0, 0, 5000]'));
  assert.deepEqual(got.map((d) => [d.code, d.message, d.at]), [
    ['schedule/tile-not-divisible', 'block tile 96 does not divide M (4096 = 42 x 96 + 64)', '96'],
    ['schedule/tile-not-divisible', 'block tile 100 does not divide N (4096 = 40 x 100 + 96)', '100'],
  ]);
  assert.deepEqual(check(GOOD.replace('[0, 0, BK]', '[0, 0, 5000]')).map((d) => [d.code, d.message, d.at]), [
    ['schedule/tile-not-divisible', "tile size 5000 is larger than K's current extent 4096", '5000'],
  ]);
});

test('primitives in an invalid order', () => {
  const got = check(`  mm = findOp("linalg.matmul")
  parallelizeForThreads(mm, [16, 16])
  tileForGrids(mm, [BM, BN])
  bufferize()
  promote(mm, [0, 1])`);
  assert.deepEqual(got, [
    {
      code: 'schedule/order', severity: 'error',
      message: 'parallelizeForThreads comes before tileForGrids: the grid loop is the outermost level, so tileForGrids comes first',
      at: 'parallelizeForThreads', related: ['tileForGrids is here: tileForGrids'],
    },
    {
      code: 'schedule/order', severity: 'error',
      message: 'promote comes after bufferize; only parallelizeForBlocks may follow it (the handles of tensor ops do not survive bufferization)',
      at: 'promote', related: ['bufferize is here: bufferize'],
    },
  ]);
});

test('tile after vectorize, promote after parallelizeForThreads, duplicates', () => {
  const got = check(`  mm = findOp("linalg.matmul")
  tileForGrids(mm, [BM, BN])
  parallelizeForThreads(mm, [16, 16])
  promote(mm, [0, 1])
  vectorize()
  tile(mm, [0, 0, BK])
  vectorize()
  bufferize()
  parallelizeForBlocks()`);
  assert.deepEqual(got.map((d) => [d.code, d.message, d.at]), [
    ['schedule/order', "promote comes after parallelizeForThreads: promote stages the whole block's tile; after parallelizeForThreads each op is one thread's tile", 'promote'],
    ['schedule/order', 'tile comes after promote: promote stages the current tile; tile before promoting', 'tile'],
    ['schedule/duplicate-step', 'vectorize appears twice; a schedule has one', 'vectorize'],
  ]);
});

test('operand index out of range, and the output operand', () => {
  const got = check(GOOD.replace('promote(mm, [0, 1])', 'promote(mm, [0, 3, 2])'));
  assert.deepEqual(got.map((d) => [d.code, d.message, d.at]), [
    ['schedule/operand-out-of-range', 'linalg.matmul has 3 operands (0 = A, 1 = B, 2 = C); 3 is out of range', '3'],
    ['schedule/promote-output', 'operand 2 (C) is the output; promote stages inputs only (each thread keeps its C tile in registers)', '2'],
  ]);
});

test('handles: used before findOp, a param used as a handle, findOp of another op', () => {
  const got = check(`  tileForGrids(mm, [BM, BN])
  mm = findOp("linalg.matmul")
  tile(BK, [0, 0, BK])
  c = findOp("linalg.conv_2d")
  parallelizeForThreads(mm, [16, 16])
  bufferize()`);
  assert.deepEqual(got, [
    { code: 'schedule/handle-before-find', severity: 'error', message: '`mm` is used before findOp binds it', at: 'mm', related: ['`mm` is bound here: mm = findOp("linalg.matmul")'] },
    { code: 'schedule/unknown-handle', severity: 'error', message: '`BK` is not a handle; the payload op is bound to `mm`', at: 'BK' },
    { code: 'schedule/find-other-op', severity: 'error', message: 'findOp("linalg.conv_2d") looks for an op the payload does not have: schedule `gemm` is for linalg.matmul', at: '"linalg.conv_2d"' },
  ]);
});

test('names the grammar already reports stay quiet; without quiet mode they are reported', () => {
  const steps = `  mm = findOp("linalg.matmul")
  tileForGrids(nn, [BM, BQ])
  tilee(mm, [1])`;
  // (tileForGrids is written, its handle is what is wrong: it is not also reported missing)
  assert.deepEqual(check(steps), [
    { code: 'schedule/missing-step', severity: 'error', message: 'a schedule on sm_90 needs parallelizeForThreads: it sets the threads of each block', at: 'gemm' },
    { code: 'schedule/missing-step', severity: 'warning', message: 'schedule `gemm` does not bufferize(); the generated script bufferizes at the end', at: 'gemm' },
  ]);
  const text = `${HEADER}schedule gemm for linalg.matmul(M, N, K) on sm_90 {\n${steps}\n}\n`;
  const { decl, env } = load(text);
  const loud = show(text, checkSchedule(decl, env, { quietUndefinedNames: false })).slice(0, 2);
  assert.deepEqual(loud, [
    { code: 'schedule/arg-not-constant', severity: 'error', message: 'tile size 2 of tileForGrids: unknown name `BQ`', at: 'BQ' },
    { code: 'schedule/unknown-primitive', severity: 'error', message: '`tilee` is not a schedule primitive; expected one of findOp, tileForGrids, tile, fuse, promote, parallelizeForThreads, parallelizeForBlocks, vectorize, unroll, bufferize, parallelizeForWarps, mma, asyncCopy, multibuffer, pipeline, swizzleShared (did you mean `tile`?)', at: 'tilee' },
  ]);
});

test('GPU primitives on a CPU schedule, fuse on a GPU schedule', () => {
  const cpu = check(`  mm = findOp("linalg.matmul")
  tileForGrids(mm, [BM, BN])
  fuse(mm, [8, 32])
  bufferize()`, 'schedule gemm for linalg.matmul(M, N, K)');
  assert.deepEqual(cpu.map((d) => [d.code, d.message, d.at]), [
    ['schedule/needs-gpu', 'tileForGrids maps work to GPU blocks, but this schedule targets the CPU; name a GPU with `on sm_90`', 'tileForGrids'],
  ]);
  const gpu = check(GOOD.replace('  tile(mm, [0, 0, BK])', '  fuse(mm, [8, 32])'));
  assert.deepEqual(gpu.map((d) => [d.code, d.message, d.at]), [
    ['schedule/cpu-only', 'fuse makes scf.for loops for a CPU schedule; on sm_90 tileForGrids already fuses the zero fill into the grid loop', 'fuse'],
  ]);
});

test('malformed steps: argument counts and kinds, list lengths, non-positive sizes', () => {
  const got = check(`  mm = findOp(linalg)
  mm = findOp("linalg.matmul")
  tileForGrids(mm, [BM, BN, 4])
  tile(mm, 32)
  unroll(mm, 0)
  parallelizeForThreads(mm, [16, 0])
  promote(mm)
  vectorize(mm)
  bufferize(mm)`);
  assert.deepEqual(got.map((d) => [d.code, d.message, d.at]), [
    ['schedule/arg-type', 'findOp expects the op\'s name as a string, e.g. "linalg.matmul"', 'linalg'],
    ['schedule/size-rank', 'tileForGrids takes 2 tile sizes (one per parallel dimension M, N of linalg.matmul), got 3', '[BM, BN, 4]'],
    ['schedule/arg-type', 'tile expects a list of sizes, e.g. [32, 32, 32]', '32'],
    ['schedule/size-not-positive', 'unroll factor must be at least 1, got 0', '0'],
    ['schedule/size-not-positive', 'thread count 2 of parallelizeForThreads must be at least 1, got 0', '0'],
    ['schedule/arg-count', 'promote takes 2 arguments (`promote(h, [operand indices])`), got 1', '(mm)'],
    ['schedule/arg-count', 'bufferize takes 0 arguments (`bufferize()`), got 1', '(mm)'],
    // tileForGrids, parallelizeForThreads and bufferize are written (malformed): not also reported missing
  ]);
});

test('header problems: unknown op, wrong size count, unknown target', () => {
  assert.deepEqual(check(GOOD, 'schedule gemm for linalg.matmull(M, N, K) on sm_90').map((d) => [d.code, d.message, d.at]), [
    ['schedule/unknown-payload-op', '`linalg.matmull` is not a supported payload op; supported: linalg.matmul (did you mean `linalg.matmul`?)', 'linalg.matmull'],
  ]);
  assert.deepEqual(check(GOOD, 'schedule gemm for linalg.matmul(M, N) on sm_90').map((d) => [d.code, d.message, d.at]), [
    ['schedule/payload-arity', 'linalg.matmul takes 3 sizes (M, N, K), got 2', 'linalg.matmul'],
  ]);
  assert.deepEqual(check(GOOD, 'schedule gemm for linalg.matmul(M, N, K) on sm_91').map((d) => [d.code, d.message, d.at]), [
    ['schedule/unknown-target', '`sm_91` is not a known target; known: sm_80, sm_86, sm_89, sm_90, cpu', 'sm_91'],
  ]);
});

test('unroll needs a loop', () => {
  const got = check(`  mm = findOp("linalg.matmul")
  tileForGrids(mm, [BM, BN])
  unroll(mm, 2)
  parallelizeForThreads(mm, [8, 8])
  bufferize()`);
  assert.deepEqual(got.map((d) => [d.code, d.message, d.at]), [
    ['schedule/unroll-needs-loop', 'unroll needs a loop: no tile on `mm` has made one yet', 'unroll'],
  ]);
});

test('copies that the block cannot map, and shared memory over the opt-in limit', () => {
  const got = check(`  mm = findOp("linalg.matmul")
  tileForGrids(mm, [BM, 512])
  tile(mm, [0, 0, 1024])
  promote(mm, [1])
  parallelizeForThreads(mm, [8, 8])
  bufferize()`);
  assert.deepEqual(got.map((d) => [d.code, d.message, d.at]), [
    ['schedule/copy-not-mappable', "the 1024 x 512 tile of B cannot be copied by 64 threads: its 128 groups of 4 contiguous elements per row need more than the block's 64 threads", '1'],
    ['schedule/shared-memory', 'promote needs B 1024 x 512 f32 = 2097152 B: 2097152 B of shared memory per block, more than the 232448 B (227 KB) a block can have on sm_90', '[1]'],
  ]);
});

test('tuning candidates: which params vary and how they are labelled', () => {
  const text = `${HEADER}let TK = BK * 2\nparam TX = 16 in [8, 16, 32]\nschedule gemm for linalg.matmul(M, N, K) on sm_90 {
  mm = findOp("linalg.matmul")
  tileForGrids(mm, [BM, BN])
  tile(mm, [0, 0, TK])
  parallelizeForThreads(mm, [16, TX])
  bufferize()
}\n`;
  const { decl, env } = load(text);
  assert.deepEqual(tunableParamsOf(decl, env), ['BM', 'TX']);
  assert.deepEqual(show(text, checkSchedule(decl, env)), []);
  const bad = text.replace('[16, TX]', '[16, TX * 3]');
  const b = load(bad);
  assert.deepEqual(show(bad, checkSchedule(b.decl, b.env)).map((d) => [d.message, d.at]), [
    ["48 threads do not divide the block's 128 N (128 = 2 x 48 + 32)", 'TX * 3'],
    // the same complaint for other candidates is not repeated; a new one is
    ['with tuning candidate BM = 64, TX = 32: 16 x 96 = 1536 threads per block exceeds 1024 on sm_90', '[16, TX * 3]'],
  ]);
});

test('let values and dependent params follow the candidate being tried', () => {
  const text = `param BM = 64 in [64, 512]\nparam BN = BM\nlet T = BM / 4\nschedule s for linalg.matmul(1024, 1024, 64) on sm_80 {
  mm = findOp("linalg.matmul")
  tileForGrids(mm, [BM, BN])
  parallelizeForThreads(mm, [T, T])
  bufferize()
}\n`;
  const { decl, env } = load(text);
  assert.deepEqual(show(text, checkSchedule(decl, env)).map((d) => d.message), [
    'with tuning candidate BM = 512: 128 x 128 = 16384 threads per block exceeds 1024 on sm_80',
  ]);
  const bm = env.model.params.get('BM')!;
  const r = resolveSchedule(decl, argValues(env, env.scenarios.at(new Map([['BM', { value: 512n, node: bm.candidateNodes[1] }]]))));
  assert.deepEqual(r.spec!.steps[1].sizes, [512, 512]);
});

test('copy mapping follows MLIR 22: vector width, threads per dimension, per-thread tile', () => {
  assert.deepEqual(copyMapping(256, [128, 32], 32), { vectorSize: 4, numThreads: [32, 8], tile: [4, 4], threadsUsed: 256 });
  assert.deepEqual(copyMapping(256, [32, 128], 32), { vectorSize: 4, numThreads: [8, 32], tile: [4, 4], threadsUsed: 256 });
  // f16: 8-wide vectors would leave half the threads idle, 4-wide ones use them all
  assert.deepEqual(copyMapping(256, [64, 16], 16), { vectorSize: 4, numThreads: [64, 4], tile: [1, 4], threadsUsed: 256 });
  // too few elements for all threads: smaller vectors do not help, so the widest vector is kept (predicated)
  assert.deepEqual(copyMapping(256, [8, 8], 32), { vectorSize: 4, numThreads: [8, 2], tile: [1, 4], threadsUsed: 16 });
  assert.deepEqual(copyMapping(64, [8, 512], 32), { invalid: "its 128 groups of 4 contiguous elements per row need more than the block's 64 threads" });
  assert.deepEqual(copyMapping(96, [6, 6], 32), { vectorSize: 2, numThreads: [6, 3], tile: [1, 2], threadsUsed: 18 });
});

test('analyzeSchedule gives the figures the emitter uses', () => {
  const spec: ScheduleSpec = {
    name: 'g', op: 'linalg.matmul', sizes: [1024, 512, 256], elementType: 'f16', target: 'sm_80', steps: [
      { primitive: 'findOp', handle: 'h', op: 'linalg.matmul' },
      { primitive: 'tileForGrids', handle: 'h', sizes: [64, 128] },
      { primitive: 'tile', handle: 'h', sizes: [0, 0, 32] },
      { primitive: 'promote', handle: 'h', operands: [1, 0] },
      { primitive: 'parallelizeForThreads', handle: 'h', sizes: [8, 32] },
      { primitive: 'bufferize' },
    ],
  };
  const a = analyzeSchedule(spec);
  assert.deepEqual(a.diagnostics, []);
  const p = a.plan!;
  assert.deepEqual([p.grid, p.threads, p.blockDims, p.threadsPerBlock, p.sharedBytes], [[16, 4], [8, 32], [32, 8, 1], 256, 64 * 32 * 2 + 32 * 128 * 2]);
  assert.deepEqual(p.promoted.map((o) => [o.name, o.shape, o.bytes, o.copy?.tile]), [['A', [64, 32], 4096, [1, 8]], ['B', [32, 128], 8192, [2, 8]]]);
  assert.deepEqual(p.facts[4].threadTile, [8, 4]);
  assert.deepEqual(p.facts[2].extents, [64, 128, 256]);
});

test('describeStep: figures and transform ops for hovers', () => {
  const text = `${HEADER}schedule gemm for linalg.matmul(M, N, K) on sm_90 {\n${GOOD}\n}\n`;
  const { decl, env } = load(text);
  assert.equal(describeStep(decl, 1, env), [
    '**tileForGrids** — `tileForGrids(h, [tile per parallel dim])`',
    '',
    'Tiles the parallel dimensions into one tile per GPU block (an `scf.forall` mapped to `#gpu.block`); the zero fill of the output is fused into the same loop.',
    '',
    '- grid: 32 x 32 = 1024 blocks of 128 x 128 outputs (M x N)',
    '',
    'Becomes: `transform.structured.tile_using_forall`, `transform.structured.fuse_into_containing_op`',
  ].join('\n'));
  assert.equal(describeStep(decl, decl.steps[3], env), [
    '**promote** — `promote(h, [operand indices])`',
    '',
    "Stages the listed input operands' tiles in shared memory: each block copies them cooperatively before computing.",
    '',
    '- A: 128 x 32 f32 = 16384 B; copied by 256 threads, 4 x 4 elements each (4-wide vectors)',
    '- B: 32 x 128 f32 = 16384 B; copied by 256 threads, 4 x 4 elements each (4-wide vectors)',
    '- shared memory per block: 32768 B of 49152 B (48 KB) static, 232448 B (227 KB) with dynamic opt-in, on sm_90',
    '',
    'Becomes: `transform.structured.pad`, `transform.structured.gpu.map_copy_to_threads`, `transform.structured.bufferize_to_allocation`, `transform.memref.alloca_to_global`',
  ].join('\n'));
  const threads = describeStep(decl, 4, env)!;
  assert.match(threads, /\n- block: 16 x 16 = 256 threads \(8 warps\); block dims \[16, 16, 1\]\n- each thread computes 8 x 8 outputs\n/);
  assert.match(describeStep(decl, 2, env)!, /\n- 1 scf\.for loop: K by 32 \(128 steps\)\n/);
  assert.match(describeStep(decl, 5, env)!, /\n- per-thread vector work: 8 x 8 x 32 = 2048 elements\n/);
  assert.equal(describeStep(decl, 99, env), undefined);
});

test('target facts', () => {
  assert.equal(TARGETS.sm_80.kind === 'gpu' && TARGETS.sm_80.sharedMemOptInBytes, 163 * 1024);
  assert.equal(TARGETS.sm_90.kind === 'gpu' && TARGETS.sm_90.sharedMemOptInBytes, 227 * 1024);
  assert.equal(TARGETS.sm_90.kind === 'gpu' && TARGETS.sm_90.maxThreadsPerBlock, 1024);
  assert.equal(TARGETS.sm_90.kind === 'gpu' && TARGETS.sm_90.warpSize, 32);
  assert.deepEqual([formatBytes(49152), formatBytes(1000)], ['48 KB', '1000 B']);
});

test('less common problems: results, a second findOp, a repeated operand, huge grids and sizes', () => {
  const got = check(`  findOp("linalg.matmul")
  mm = findOp("linalg.matmul")
  m2 = findOp("linalg.matmul")
  t = tile(mm, [0, 0, BK])`);
  assert.deepEqual(got.map((d) => [d.code, d.message, d.at]), [
    ['schedule/missing-result', 'bind findOp\'s handle to a name: `mm = findOp(...)`', 'findOp'],
    ['schedule/unexpected-result', 'tile returns no handle; `t` would be unbound (the handle passed in keeps naming the transformed op)', 't'],
    ['schedule/duplicate-step', 'the payload has one linalg.matmul, already bound to `mm`', 'm2 = findOp("linalg.matmul")'],
    ['schedule/missing-step', 'a schedule on sm_90 needs tileForGrids: without a grid loop there is no GPU kernel', 'gemm'],
    ['schedule/missing-step', 'a schedule on sm_90 needs parallelizeForThreads: it sets the threads of each block', 'gemm'],
    ['schedule/missing-step', 'schedule `gemm` does not bufferize(); the generated script bufferizes at the end', 'gemm'],
  ]);
  assert.deepEqual(check(GOOD.replace('[0, 1]', '[1, 1]')).map((d) => [d.code, d.severity, d.message, d.at]), [
    ['schedule/duplicate-step', 'warning', 'operand 1 (B) is listed twice', '1'],
  ]);
  assert.deepEqual(check(GOOD, 'schedule gemm for linalg.matmul(16777216, N, K) on sm_90').map((d) => [d.code, d.message, d.at]), [
    ['schedule/grid-dim', '131072 blocks along y (M 16777216 / 128) exceeds the limit 65535 on sm_90', 'BM'],
  ]);
  assert.deepEqual(check(GOOD, 'schedule gemm for linalg.matmul(M * 1048576, N, K) on sm_90').map((d) => [d.code, d.message, d.at]), [
    ['schedule/size-too-large', 'size M of linalg.matmul is 4294967296, more than 2147483647', 'M * 1048576'],
  ]);
});
