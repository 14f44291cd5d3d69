// Hover over the protocol: exact markdown and ranges for params, lets, built-ins, perms, kernels,
// bindings, free index symbols, schedules, payload ops, GPUs and handles; schedule steps show
// exactly what service/schedule-hover.ts's describeStep says about them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { scheduleEnvFromFile } from '../../server/src/check/schedule/index.js';
import { describeStep } from '../../server/src/service/schedule-hover.js';
import { parse } from '../../grammar/src/index.js';
import type { ScheduleDecl } from '../../grammar/src/ast.js';
import { LspClient, markers, pos } from './harness.js';
import { matmul } from './fixtures.js';

let c: LspClient;
let uri: string;
const R = (l1: number, c1: number, l2: number, c2: number) => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });
const hover = (line: number, character: number, u = uri) =>
  c.request<{ contents: { kind: string; value: string }; range: unknown } | null>('textDocument/hover', { textDocument: { uri: u }, position: { line, character } });

before(async () => {
  c = await LspClient.start();
  uri = c.uri('matmul.layout');
  await c.open(uri, matmul);
});
after(() => c.stop());

test('param: value, candidates, uses', async () => {
  assert.deepEqual(await hover(2, 7), {
    contents: { kind: 'markdown', value: '**param** `BM` = `128`\n\ntuning candidates: `64`, `128`, `256`\n\nstays symbolic in generated expressions\n\n3 uses in this file' },
    range: R(2, 6, 2, 8),
  });
});

test('let: expression and value at the params\' values', async () => {
  assert.deepEqual(await hover(3, 5), {
    contents: { kind: 'markdown', value: "**let** `num_pid_m` = `M / BM`\n\nvalue: `32` (at the params' values)\n\n0 uses in this file" },
    range: R(3, 4, 3, 13),
  });
});

test('const and a derived param value', async () => {
  const u = c.uri('const.layout');
  await c.open(u, 'const T = 2 * 16\nparam W = T + 1\n');
  assert.equal((await hover(0, 6, u))!.contents.value, '**const** `T` = `2 * 16`\n\nvalue: `32`\n\nfolded into generated expressions\n\n1 use in this file');
  assert.equal((await hover(1, 6, u))!.contents.value, '**param** `W` = `T + 1`\n\nvalue: `33`\n\nstays symbolic in generated expressions\n\n0 uses in this file');
});

test('built-in constructors and methods', async () => {
  assert.deepEqual(await hover(4, 20), {
    contents: { kind: 'markdown', value: '**constructor** `Row(d, ...)`\n\nRow-major block: the last dimension is contiguous.\n\n- `d` (repeated): the extent of each dimension, outermost first' },
    range: R(4, 19, 4, 22),
  });
  assert.deepEqual((await hover(4, 33))!.range, R(4, 30, 4, 36));
  assert.match((await hover(4, 33))!.contents.value, /^\*\*method\*\* `\.TileBy\(level, \.\.\.\)`\n\nHierarchical tiling/);
});

test('perm, perm parameter, free index symbol, binding', async () => {
  assert.equal((await hover(5, 6))!.contents.value,
    '**perm** `antidiag(n)[i, j]`\n\na user permutation (GenP): coordinates of an n-tile → position in the tile\n\nno inverse given: the tool derives it by enumeration\n\n0 uses in this file');
  assert.equal((await hover(5, 14))!.contents.value, '**perm size parameter** `n` of `antidiag`: bound at each use, e.g. `antidiag(3)`');
  assert.deepEqual(await hover(7, 20), {
    contents: { kind: 'markdown', value: '**free index symbol** `pid_m` of kernel `matmul`: an input of the generated code, ranging over the dimension it indexes\n\n1 occurrence' },
    range: R(7, 19, 7, 24),
  });
});

test('kernel, schedule, payload op, GPU, handle', async () => {
  assert.equal((await hover(6, 8))!.contents.value, '**kernel** `matmul`: target `triton`, template `templates/matmul.py`\n\n1 binding: `offset_aptrs`');
  assert.equal((await hover(9, 10))!.contents.value,
    '**schedule** `gemm` for `linalg.matmul(M, N, K)` on `sm_90`\n\n`C[M x N] = A[M x K] * B[K x N]`\n\nNVIDIA Hopper (H100/H200, sm_90)\n\n2 steps: findOp → tile');
  assert.deepEqual(await hover(9, 22), {
    contents: { kind: 'markdown', value: '**linalg.matmul**: `C[M x N] = A[M x K] * B[K x N]`\n\ndimensions `M`, `N`, `K` (2 parallel)' },
    range: R(9, 18, 9, 31),
  });
  assert.equal((await hover(9, 46))!.contents.value,
    '**sm_90**: NVIDIA Hopper (H100/H200, sm_90)\n\n- at most 1024 threads per block, warp size 32\n- shared memory per block: 49152 B by default, 232448 B opted in\n- at most 255 registers per thread');
  assert.deepEqual(await hover(10, 3), {
    contents: { kind: 'markdown', value: '**handle** `mm` = `findOp("linalg.matmul")`: later steps transform the op it names\n\n1 use in this file' },
    range: R(10, 2, 10, 4),
  });
});

test('every schedule step shows describeStep', async () => {
  const src = `param M = 1024, N = 1024, K = 1024
param BM = 64, BN = 64, BK = 16
schedule gemm for linalg.matmul(M, N, K) on sm_90 {
  mm = findOp("linalg.matmul")
  tileForGrids(mm, [BM, BN])
  tile(mm, [0, 0, BK])
  promote(mm, [0, 1])
  parallelizeForThreads(mm, [16, 16])
  vectorize()
  bufferize()
}
`;
  const u = c.uri('steps.layout');
  await c.open(u, src);
  const file = parse(src).file;
  const decl = file.decls.find((d) => d.kind === 'Schedule') as ScheduleDecl;
  const env = scheduleEnvFromFile(file);
  for (const [i, s] of decl.steps.entries()) {
    const h = await hover(pos(src, s.primitive.range.start).line, pos(src, s.primitive.range.start).character + 1, u);
    const expected = describeStep(decl, i, env);
    assert.ok(expected && expected.length > 40);
    assert.deepEqual(h, { contents: { kind: 'markdown', value: expected }, range: { start: pos(src, s.primitive.range.start), end: pos(src, s.primitive.range.end) } });
  }
});

test('nothing on punctuation, numbers and comments', async () => {
  const { text, at } = markers('# a comm$1ent\nparam M = 40$296\nlet x = ($3M)\n');
  const u = c.uri('none.layout');
  await c.open(u, text);
  assert.equal(await hover(pos(text, at['1']).line, pos(text, at['1']).character, u), null);
  assert.equal(await hover(pos(text, at['2']).line, pos(text, at['2']).character, u), null);
  assert.equal((await hover(pos(text, at['3']).line, pos(text, at['3']).character, u))!.contents.value.split('\n')[0], '**param** `M` = `4096`');
});

test('tensor-core example: the element types, the schedule, and every step (transform ops and resources) through the server', async () => {
  const src = readFileSync('examples/gemm-tensorcore.layout', 'utf8');
  const u = c.uri('gemm-tensorcore.layout');
  await c.open(u, src);
  const file = parse(src).file;
  const decl = file.decls.find((d) => d.kind === 'Schedule') as ScheduleDecl;
  const at = (offset: number) => hover(pos(src, offset).line, pos(src, offset).character, u);
  assert.deepEqual(await at(decl.types!.range.start + 1), {
    contents: { kind: 'markdown', value: '**element types**: `f16` x `f16` -> `f32`\n\nthe input operands\' type, then the output\'s (the accumulator); every shared-memory, copy and register figure uses these widths\n- `f16`: 16-bit IEEE half\n- `f32`: 32-bit IEEE float' },
    range: { start: pos(src, decl.types!.range.start), end: pos(src, decl.types!.range.end) },
  });
  assert.equal((await at(decl.name.range.start))!.contents.value,
    '**schedule** `gemm_tc` for `linalg.matmul(M, N, K)` : `f16 x f16 -> f32` on `sm_90`\n\n`C[M x N] = A[M x K] * B[K x N]`\n\nNVIDIA Hopper (H100/H200, sm_90)\n\n'
    + '11 steps: findOp → tileForGrids → tile → promote → parallelizeForWarps → vectorize → bufferize → mma → asyncCopy → swizzleShared → pipeline');
  const env = scheduleEnvFromFile(file);
  const texts: string[] = [];
  for (const [i, s] of decl.steps.entries()) {
    const h = await at(s.primitive.range.start + 1);
    const expected = describeStep(decl, i, env);
    assert.deepEqual(h, { contents: { kind: 'markdown', value: expected }, range: { start: pos(src, s.primitive.range.start), end: pos(src, s.primitive.range.end) } });
    texts.push(expected!);
  }
  // resources with the real widths and the transform ops, on the steps that have them
  assert.match(texts[3], /\n- A: 128 x 32 f16 = 8192 B; copied by 128 threads, 4 x 8 elements each \(8-wide vectors\)\n- B: 32 x 128 f16 = 8192 B; .*\n- shared memory per block: 49152 B \(x 3 stages\) of 49152 B \(48 KB\) static/);
  assert.match(texts[4], /\n- block: 2 x 2 = 4 warps = 128 threads; block dims \[128, 1, 1\]\n- each warp computes a 64 x 64 tile of C \(f32, kept in registers\)\n- registers per thread \(estimate\): 128 accumulators \(64 x 64 f32 \/ 32 lanes\) \+ 32 A \+ 32 B fragments \+ 50 = 242 of 255\n/);
  assert.match(texts[7], /mma\.sync m16n8k16 \(nvgpu\.mma\.sync, A\/B fragments by nvgpu\.ldmatrix\): f16 x f16 -> f32; 64 per warp per K tile\n/);
  assert.match(texts[7], /Becomes: .*`transform\.apply_patterns\.gpu\.unroll_vectors_subgroup_mma`.*`transform\.apply_registered_pass "convert-vector-to-gpu"`$/);
  assert.match(texts[8], /\n- A: 128 threads x 4 cp\.async of 16 B per K tile\n- B: 128 threads x 4 cp\.async of 16 B per K tile\n\nBecomes: `transform\.nvgpu\.create_async_groups \{bypass_l1\}`$/);
  assert.match(texts[9], /Becomes: `transform\.apply_registered_pass "nvgpu-optimize-shared-memory"`$/);
  assert.match(texts[10], /\n- 3 stages: 3 x 16384 B = 49152 B of shared memory per block\n\nBecomes: `transform\.nvgpu\.pipeline_shared_memory_copies \{depth, peel_epilogue\}`$/);
});
