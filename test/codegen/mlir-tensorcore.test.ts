// Tensor-core schedules through the real tools: the emitted payload + transform script of
// examples/gemm-tensorcore.layout applies with mlir-opt-22 and lowers to PTX for sm_90 with
// mma.sync, ldmatrix and cp.async, which ptxas accepts (242 registers and 48 KiB of shared memory for
// the 128x128x32 3-stage candidate, like the hand-written schedule); the CPU check of an f16 tensor-core
// schedule (its steps without GPU mapping) computes what the reference computes. Skipped, saying so,
// without mlir-22-tools; the ptxas part is skipped, saying so, without ptxas.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argValues, resolveSchedule, scheduleEnvFromFile } from '../../server/src/check/schedule/index.js';
import { parse } from '../../grammar/src/index.js';
import type { ScheduleDecl } from '../../grammar/src/ast.js';
import { emitCpuCheck, emitSchedule, fromAst, CPU_CHECK_ENTRY, type ScheduleSpec } from '../../server/src/codegen/mlir/index.js';
import { applySchedule, findMlirToolchain, lowerToPtx, parsePrinted, runOnCpu, verify, type MlirToolchain } from '../../server/src/codegen/mlir/tools.js';
import { scheduleOf } from './mlir-fixtures.js';

const tc = findMlirToolchain();
const SKIP = 'mlir-opt-22 / mlir-runner-22 not installed (apt-get install mlir-22-tools); tensor-core MLIR tests skipped';
function tools(t: TestContext): MlirToolchain | undefined {
  if (!tc) t.skip(SKIP);
  return tc;
}
function ok(r: { ok: boolean; why?: string; stderr: string }, what: string): void {
  assert.ok(r.ok, `${what} failed: ${r.why}\n${r.stderr.slice(0, 2000)}`);
}

function ptxas(ptx: string): { registers: number; smem: number; spills: number } {
  const dir = mkdtempSync(join(tmpdir(), 'layout-ptxas-'));
  try {
    writeFileSync(join(dir, 'k.ptx'), ptx);
    const r = spawnSync(tc!.ptxas!, ['-arch=sm_90', '-O3', '-v', join(dir, 'k.ptx'), '-o', join(dir, 'k.cubin')], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, `ptxas failed: ${r.stderr}`);
    const num = (re: RegExp): number => Number(re.exec(r.stderr)?.[1] ?? NaN);
    return { registers: num(/Used (\d+) registers/), smem: num(/(\d+) bytes smem/), spills: num(/(\d+) bytes spill stores/) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const EXAMPLE = readFileSync('examples/gemm-tensorcore.layout', 'utf8');
function exampleSpec(v: bigint): ScheduleSpec {
  const file = parse(EXAMPLE).file;
  const decl = file.decls.find((d): d is ScheduleDecl => d.kind === 'Schedule')!;
  const r = fromAst(decl, scheduleEnvFromFile(file, 'examples/gemm-tensorcore.layout', new Map([['V', v]])));
  assert.deepEqual(r.diagnostics, []);
  return r.spec!;
}

const count = (s: string, re: RegExp): number => s.match(re)?.length ?? 0;

test('`layout emit examples/gemm-tensorcore.layout --schedule gemm_tc --target mlir` writes exactly what emitSchedule gives (the files lowered below)', (t) => {
  const cli = join(import.meta.dirname, '../../dist/cli.js');
  if (!existsSync(cli)) { t.skip('dist/cli.js is missing: run `node scripts/build.mjs` first'); return; }
  const r = spawnSync(process.execPath, [cli, 'emit', 'examples/gemm-tensorcore.layout', '--schedule', 'gemm_tc', '--target', 'mlir', '--out', '-'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const e = emitSchedule(exampleSpec(0n));
  assert.ok(e.ok);
  assert.equal(r.stdout, `==> gemm_tc.payload.mlir <==\n${e.payload}\n==> gemm_tc.transform.mlir <==\n${e.transform}`);
  assert.match(e.transform, /^\/\/ grid 32 x 32 blocks of 128 x 128, K tile 32; 2 x 2 warps \(128 threads\) with 64 x 64 warp tiles;\n\/\/ mma\.sync m16n8k16: 64 per warp per K tile; 3 stages, cp\.async, swizzled shared memory\.\n\/\/ shared memory per block: 3 x \(128 x 32 \+ 32 x 128\) x 2 B = 49152 B;\n\/\/ registers per thread \(estimate\): 128 accumulators \+ 32 A \+ 32 B fragments \+ 50 = 242\.$/m);
});

for (const [v, want] of [
  // cp.async: 16-B copies per thread per K tile (V = 0: 4 of A + 4 of B; V = 1: 8 + 4) in the prologue, loop body and peeled epilogue
  [0n, { mma: 256, ldmatrix: 96, cpAsync: 32, registers: 242, grid: ['%c32', '%c32'] }],
  [1n, { mma: 192, ldmatrix: 96, cpAsync: 36, registers: 166, grid: ['%c64', '%c32'] }],
] as const) {
  test(`examples/gemm-tensorcore.layout (V = ${v}) lowers to mma.sync + ldmatrix + cp.async PTX for sm_90 that ptxas accepts`, (t) => {
    const tc = tools(t);
    if (!tc) return;
    const spec = exampleSpec(v);
    assert.equal(spec.elementType, 'f16');
    assert.equal(spec.accType, 'f32');
    const e = emitSchedule(spec);
    assert.ok(e.ok);
    assert.match(e.payload, /linalg\.matmul ins\(%A, %B : tensor<4096x4096xf16>, tensor<4096x4096xf16>\)\n\s+outs\(%init : tensor<4096x4096xf32>\)/);
    assert.match(e.transform, /shared memory per block: \d x \(.*\) x 2 B = 49152 B;/);
    ok(verify(tc, e.transform), 'parsing the transform script');
    const applied = applySchedule(tc, e.payload, e.transform);
    ok(applied, 'applying the schedule');
    assert.match(applied.stdout, /nvgpu\.mma\.sync/);
    assert.match(applied.stdout, /nvgpu\.ldmatrix/);
    assert.match(applied.stdout, /nvgpu\.device_async_copy/);
    const p = lowerToPtx(tc, applied.stdout, { chip: 'sm_90', barePointers: true, optLevel: 3, preLowering: e.ptxPreLowering });
    ok(p.run, 'lowering to PTX');
    const ptx = p.ptx!;
    assert.match(ptx, /\.target sm_90\b/);
    assert.deepEqual([count(ptx, /mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32/g), count(ptx, /ldmatrix\.sync/g), count(ptx, /cp\.async\.cg\.shared\.global/g)],
      [want.mma, want.ldmatrix, want.cpAsync]);
    // outlining orders the kernel's arguments by first use: C (the zero fill), A, B
    assert.deepEqual(p.launches.map((l) => [l.kernel, l.args, l.blocks.slice(0, 2), l.threads[0]]), [['gemm_tc_kernel', [2, 0, 1], want.grid, '%c128']]);
    if (!tc.ptxas) { t.diagnostic('ptxas not on PATH: the ptxas check of the tensor-core PTX is skipped'); return; }
    assert.deepEqual(ptxas(ptx), { registers: want.registers, smem: 49152, spills: 0 });
  });
}

test('WMMA: mma(h, [16, 16, 16]) lowers to wmma PTX (with the scf -> cf pre-lowering)', (t) => {
  const tc = tools(t);
  if (!tc) return;
  const text = EXAMPLE.replace('mma(mm, [16, 8, 16])', 'mma(mm, [16, 16, 16])').replace(/ {2}swizzleShared\(\).*\n/, '');
  const { decl, env } = scheduleOf(text);
  const r = fromAst(decl, env);
  assert.deepEqual(r.diagnostics, []);
  const e = emitSchedule(r.spec!);
  assert.ok(e.ok);
  assert.deepEqual(e.ptxPreLowering, ['--convert-scf-to-cf']);
  const applied = applySchedule(tc, e.payload, e.transform);
  ok(applied, 'applying the schedule');
  const p = lowerToPtx(tc, applied.stdout, { chip: 'sm_90', barePointers: true, optLevel: 3, preLowering: e.ptxPreLowering });
  ok(p.run, 'lowering to PTX');
  assert.ok(count(p.ptx!, /wmma\.mma\.sync/g) > 0);
  assert.ok(count(p.ptx!, /cp\.async/g) > 0);
});

/** Exact numbers of the CPU check harness (cpu-check.ts), computed here independently. */
function expectedMatmul([M, N, K]: number[]): { checksum: string; first: string; last: string } {
  const a = (i: number, k: number): number => ((i + 2 * k) % 7) - 3;
  const b = (k: number, j: number): number => ((3 * k + j) % 5) - 2;
  const c = (i: number, j: number): number => { let s = 0; for (let k = 0; k < K; k++) s += a(i, k) * b(k, j); return s; };
  let sum = 0n;
  for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) sum += BigInt(c(i, j) * (((7 * i + 3 * j) % 11) + 1));
  return { checksum: String(sum), first: String(c(0, 0)), last: String(c(M - 1, N - 1)) };
}

for (const acc of ['f32', 'f16']) {
  test(`CPU check of an f16 x f16 -> ${acc} tensor-core schedule (no GPU mapping) matches the reference under mlir-runner-22`, (t) => {
    const tc = tools(t);
    if (!tc) return;
    const text = `param M = 1024, N = 1024, K = 1024
schedule tcs for linalg.matmul(M, N, K) : f16 x f16 -> ${acc} on sm_90 {
  mm = findOp("linalg.matmul")
  tileForGrids(mm, [64, 64])
  tile(mm, [0, 0, 32])
  promote(mm, [0, 1])
  parallelizeForWarps(mm, [2, 2])
  vectorize()
  bufferize()
  mma(mm, [16, 8, 16])
  asyncCopy()
  swizzleShared()
  pipeline(mm, 2)
}
`;
    const { decl, env } = scheduleOf(text);
    const spec = resolveSchedule(decl, argValues(env)).spec!;
    const e = emitSchedule(spec);
    assert.ok(e.ok);
    const cpu = emitCpuCheck(spec);
    assert.ok(cpu.ok);
    assert.deepEqual(cpu.sizes, [128, 128, 64]);
    assert.match(cpu.module, new RegExp(`func\\.func @tcs\\(%A: tensor<128x64xf16>, %B: tensor<64x128xf16>, %C: tensor<128x128x${acc}>\\)`));
    const run = runOnCpu(tc, cpu.module, e.transform, '__transform_cpu_check', CPU_CHECK_ENTRY);
    ok(run, 'running the CPU check');
    const want = expectedMatmul(cpu.sizes);
    assert.deepEqual(Object.fromEntries(parsePrinted(run.stdout)), { checksum: want.checksum, max_abs_err: '0', first: want.first, last: want.last });
    // negative control: the zero fill writes 1.0, every output is off by one
    const broken = cpu.module.replace(`%zero = arith.constant 0.0 : ${acc}`, `%zero = arith.constant 1.0 : ${acc}`);
    assert.notEqual(broken, cpu.module);
    const bad = runOnCpu(tc, broken, e.transform, '__transform_cpu_check', CPU_CHECK_ENTRY);
    ok(bad, 'running the broken CPU check');
    assert.equal(parsePrinted(bad.stdout).get('max_abs_err'), '1');
  });
}

test('SIMT schedules take every element type: the CPU check matches the reference and the GPU script lowers to PTX', (t) => {
  const tc = tools(t);
  if (!tc) return;
  const base = readFileSync('examples/gemm-schedule.layout', 'utf8').replace('param M = 4096, N = 4096, K = 4096', 'param M = 1024, N = 1024, K = 1024');
  for (const types of ['f32 x f32 -> f32', 'f16 x f16 -> f16', 'f16 x f16 -> f32', 'bf16 x bf16 -> f32', 'bf16 x bf16 -> bf16']) {
    const text = base.replace('f32 x f32 -> f32', types);
    const { decl, env } = scheduleOf(text);
    const r = fromAst(decl, env);
    assert.deepEqual(r.diagnostics, [], types);
    const e = emitSchedule(r.spec!);
    const cpu = emitCpuCheck(r.spec!);
    assert.ok(e.ok && cpu.ok);
    const [et, acc] = [types.split(' ')[0], types.split(' ').pop()!];
    assert.match(e.transform, new RegExp(`padding_values = \\[0\\.0 : ${et}, 0\\.0 : ${et}, 0\\.0 : ${acc}\\]`), types);
    const run = runOnCpu(tc, cpu.module, e.transform, '__transform_cpu_check', CPU_CHECK_ENTRY);
    ok(run, `running the CPU check (${types})`);
    const want = expectedMatmul(cpu.sizes);
    assert.deepEqual(Object.fromEntries(parsePrinted(run.stdout)), { checksum: want.checksum, max_abs_err: '0', first: want.first, last: want.last }, types);
    const applied = applySchedule(tc, e.payload, e.transform);
    ok(applied, `applying the schedule (${types})`);
    const p = lowerToPtx(tc, applied.stdout, { chip: 'sm_90', barePointers: true });
    ok(p.run, `lowering to PTX (${types})`);
    assert.match(p.ptx!, /\.shared/);
  }
});
