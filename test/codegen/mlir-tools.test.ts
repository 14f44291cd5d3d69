// The emitted MLIR through the real tools (Debian's mlir-22-tools): every file parses and verifies,
// schedules apply with --transform-interpreter, the results lower to PTX (with `.shared` exactly
// when promote was asked), and the CPU variants compute what an independent TypeScript reference
// computes. Without mlir-opt-22 these tests are skipped, saying so.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  emitCpuCheck, emitLayoutCopy, emitLayoutCopyCheck, emitLayoutCopyToGpu, emitSchedule, layoutIndex,
  parseMemrefDump, CPU_CHECK_ENTRY, type LayoutCopySpec, type ScheduleSpec,
} from '../../server/src/codegen/mlir/index.js';
import { applySchedule, findMlirToolchain, lowerToPtx, parsePrinted, runOnCpu, verify, type MlirToolchain } from '../../server/src/codegen/mlir/tools.js';
import { Col, OrderBy, Row, TileBy } from '../../server/src/algebra/types.js';
import { CPU_SPEC, exampleSpec } from './mlir-fixtures.js';

const tc = findMlirToolchain();
const SKIP = 'mlir-opt-22 / mlir-runner-22 not installed (apt-get install mlir-22-tools); MLIR tool tests skipped';

function tools(t: TestContext): MlirToolchain | undefined {
  if (!tc) t.skip(SKIP);
  return tc;
}

function ok(r: { ok: boolean; why?: string; stderr: string }, what: string): void {
  assert.ok(r.ok, `${what} failed: ${r.why}\n${r.stderr.slice(0, 2000)}`);
}

/** Exact numbers of the CPU check harness (cpu-check.ts), computed here independently. */
function expectedMatmul([M, N, K]: number[]): { checksum: string; first: string; last: string } {
  const a = (i: number, k: number): number => ((i + 2 * k) % 7) - 3;
  const b = (k: number, j: number): number => ((3 * k + j) % 5) - 2;
  const c = (i: number, j: number): number => { let s = 0; for (let k = 0; k < K; k++) s += a(i, k) * b(k, j); return s; };
  let sum = 0n;
  for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) sum += BigInt(c(i, j) * (((7 * i + 3 * j) % 11) + 1));
  return { checksum: String(sum), first: String(c(0, 0)), last: String(c(M - 1, N - 1)) };
}

function ptxasSharedBytes(ptx: string, chip: string): number | undefined {
  if (!tc?.ptxas) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'layout-ptxas-'));
  try {
    writeFileSync(join(dir, 'k.ptx'), ptx);
    const r = spawnSync(tc.ptxas, [`-arch=${chip}`, '-v', join(dir, 'k.ptx'), '-o', join(dir, 'k.cubin')], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, `ptxas failed: ${r.stderr}`);
    const m = /(\d+) bytes smem/.exec(r.stderr);
    return m ? Number(m[1]) : 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface GpuCase {
  name: string;
  spec: ScheduleSpec;
  /** shared memory the kernel declares: 0 without promote */
  shared: number;
}

function variant(f: (s: ScheduleSpec) => void): ScheduleSpec {
  const s = exampleSpec();
  f(s);
  return s;
}

const GPU_CASES: GpuCase[] = [
  { name: 'the example (sm_90): promote A and B, 16 x 16 threads, vectorized', spec: exampleSpec(), shared: 32768 },
  {
    name: 'no promote (sm_80)', shared: 0,
    spec: variant((s) => { s.target = 'sm_80'; s.steps = s.steps.filter((x) => x.primitive !== 'promote'); }),
  },
  {
    name: 'promote B only, no vectorize, 64 x 64 blocks of 8 x 32 threads (sm_80)', shared: 16 * 64 * 4,
    spec: variant((s) => {
      s.target = 'sm_80';
      s.steps = s.steps.filter((x) => x.primitive !== 'vectorize');
      s.steps[1].sizes = [64, 64];
      s.steps[2].sizes = [0, 0, 16];
      s.steps[3].operands = [1];
      s.steps[4].sizes = [8, 32];
    }),
  },
  {
    name: 'unroll x2 copies the staging buffers; parallelizeForBlocks at the end (sm_90)', shared: 2 * (64 * 16 + 16 * 64) * 4,
    spec: variant((s) => {
      s.steps[1].sizes = [64, 64];
      s.steps[2].sizes = [0, 0, 16];
      s.steps.splice(6, 0, { primitive: 'unroll', handle: 'mm', factor: 2 });
      s.steps.push({ primitive: 'parallelizeForBlocks' });
    }),
  },
];

for (const c of GPU_CASES) {
  test(`schedule through mlir-opt-22: ${c.name}`, (t) => {
    const tc = tools(t);
    if (!tc) return;
    const e = emitSchedule(c.spec);
    assert.ok(e.ok, JSON.stringify(!e.ok && e.diagnostics));
    ok(verify(tc, e.payload), 'parsing the payload');
    ok(verify(tc, e.transform), 'parsing the transform script');
    const applied = applySchedule(tc, e.payload, e.transform);
    ok(applied, 'applying the schedule');
    const gpu = applied.stdout;
    assert.equal(gpu.match(/gpu\.launch /g)?.length, 1, 'one gpu.launch');
    // vectorized, the matmul is FMAs; otherwise each thread's linalg.matmul becomes loops in the NVVM lowering
    const vectorized = c.spec.steps.some((s) => s.primitive === 'vectorize');
    assert.equal(/linalg\.matmul/.test(gpu), !vectorized);
    const [bx, by] = [c.spec.sizes[1] / c.spec.steps[1].sizes![1], c.spec.sizes[0] / c.spec.steps[1].sizes![0]];
    const threads = c.spec.steps.find((s) => s.primitive === 'parallelizeForThreads')!.sizes!;
    assert.match(gpu, new RegExp(`gpu\\.launch blocks\\([^)]*\\) in \\(%\\w+ = %c${bx}(_\\d+)?, %\\w+ = %c${by}(_\\d+)?, %\\w+ = %c1(_\\d+)?\\) threads\\([^)]*\\) in \\(%\\w+ = %c${threads[1]}(_\\d+)?, %\\w+ = %c${threads[0]}(_\\d+)?, `));
    assert.equal(/address_space<workgroup>/.test(gpu), c.shared > 0);

    const p = lowerToPtx(tc, gpu, { chip: c.spec.target, barePointers: true });
    ok(p.run, 'lowering to PTX');
    const ptx = p.ptx!;
    assert.match(ptx, new RegExp(`\\.target ${c.spec.target}\\b`));
    assert.match(ptx, /\.visible \.entry gemm_kernel\(/);
    assert.equal(/\.shared/.test(ptx), c.shared > 0, c.shared > 0 ? 'promote asked: PTX must use .shared' : 'no promote: PTX must not use .shared');
    assert.deepEqual(p.launches.map((l) => [l.kernel, l.args]), [['gemm_kernel', [0, 1, 2]]]);
    const smem = ptxasSharedBytes(ptx, c.spec.target);
    if (smem !== undefined) assert.equal(smem, c.shared, 'shared memory that ptxas reports');

    const cpu = emitCpuCheck(c.spec);
    assert.ok(cpu.ok);
    ok(verify(tc, cpu.module), 'parsing the CPU check module');
    const run = runOnCpu(tc, cpu.module, e.transform, '__transform_cpu_check', CPU_CHECK_ENTRY);
    ok(run, 'running the CPU check');
    const printed = parsePrinted(run.stdout);
    const want = expectedMatmul(cpu.sizes);
    assert.deepEqual(Object.fromEntries(printed), { checksum: want.checksum, max_abs_err: '0', first: want.first, last: want.last });
  });
}

test('an f16 payload lowers to f16 FMAs with f16 staging buffers', (t) => {
  const tc = tools(t);
  if (!tc) return;
  const spec = variant((s) => {
    s.elementType = 'f16';
    s.target = 'sm_80';
    s.sizes = [1024, 1024, 1024];
    s.steps[1].sizes = [64, 64];
  });
  const e = emitSchedule(spec);
  assert.ok(e.ok);
  assert.match(e.payload, /%zero = arith\.constant 0\.0 : f16/);
  const applied = applySchedule(tc, e.payload, e.transform);
  ok(applied, 'applying the schedule');
  const p = lowerToPtx(tc, applied.stdout, { chip: 'sm_80' });
  ok(p.run, 'lowering to PTX');
  assert.match(p.ptx!, /fma\.rn\.f16/);
  const smem = ptxasSharedBytes(p.ptx!, 'sm_80');
  if (smem !== undefined) assert.equal(smem, (64 * 32 + 32 * 64) * 2);
});

test('CPU schedule (fuse, tile, unroll, vectorize) runs under mlir-runner-22 and matches the reference', (t) => {
  const tc = tools(t);
  if (!tc) return;
  const e = emitSchedule(CPU_SPEC);
  assert.ok(e.ok);
  ok(verify(tc, e.transform), 'parsing the transform script');
  const applied = applySchedule(tc, e.payload, e.transform);
  ok(applied, 'applying the schedule');
  assert.doesNotMatch(applied.stdout, /linalg\.matmul|gpu\./);
  assert.equal(applied.stdout.match(/vector\.fma/g)?.length, 256, '8 x 32 outputs x 16 k x 2 (unrolled) / 32-wide: 256 FMAs');
  const cpu = emitCpuCheck(CPU_SPEC);
  assert.ok(cpu.ok);
  const run = runOnCpu(tc, cpu.module, e.transform, '__transform_cpu_check', CPU_CHECK_ENTRY);
  ok(run, 'running the CPU check');
  const want = expectedMatmul(cpu.sizes);
  assert.deepEqual(Object.fromEntries(parsePrinted(run.stdout)), { checksum: want.checksum, max_abs_err: '0', first: want.first, last: want.last });
});

test('negative control: a wrong payload makes the CPU check fail', (t) => {
  const tc = tools(t);
  if (!tc) return;
  const spec = exampleSpec();
  const e = emitSchedule(spec);
  const cpu = emitCpuCheck(spec);
  assert.ok(e.ok && cpu.ok);
  // the zero fill writes 1.0: every output is off by one
  const broken = cpu.module.replace('%zero = arith.constant 0.0 : f32', '%zero = arith.constant 1.0 : f32');
  assert.notEqual(broken, cpu.module);
  const run = runOnCpu(tc, broken, e.transform, '__transform_cpu_check', CPU_CHECK_ENTRY);
  ok(run, 'running the broken CPU check');
  const printed = parsePrinted(run.stdout);
  assert.equal(printed.get('max_abs_err'), '1');
  assert.notEqual(printed.get('checksum'), expectedMatmul(cpu.sizes).checksum);
});

const R = 64, C = 32;
function transposeSpec(name: string, src: ReturnType<typeof layoutIndex>, dst: ReturnType<typeof layoutIndex>): LayoutCopySpec {
  return { name, shape: [R, C], block: [16, 16], threads: [4, 16], src, dst, srcSize: R * C, dstSize: R * C };
}

const LAYOUT_CASES: { name: string; spec: LayoutCopySpec; expect: (i: number, j: number) => [number, number] }[] = [
  {
    name: 'transpose from Row and Col layouts',
    spec: transposeSpec('transpose', layoutIndex(OrderBy(Row(R, C)), ['i', 'j']), layoutIndex(OrderBy(Col(R, C)), ['i', 'j'])),
    expect: (i, j) => [i * C + j, j * R + i],
  },
  {
    name: 'tiled views keyed by block and position in the block',
    spec: transposeSpec('tiled_transpose',
      layoutIndex(TileBy([OrderBy(Row(R, C))], [[R / 16, C / 16], [16, 16]]), ['bi', 'bj', 'ii', 'jj']),
      layoutIndex(TileBy([OrderBy(Col(R, C))], [[R / 16, C / 16], [16, 16]]), ['bi', 'bj', 'ii', 'jj'])),
    expect: (i, j) => [i * C + j, j * R + i],
  },
  {
    name: 'row-major to blocked storage (each 16 x 16 block contiguous)',
    spec: transposeSpec('to_blocked',
      layoutIndex(OrderBy(Row(R, C)), ['i', 'j']),
      layoutIndex(OrderBy(Row(R / 16, C / 16, 16, 16)), ['bi', 'bj', 'ii', 'jj'])),
    expect: (i, j) => [i * C + j, ((Math.floor(i / 16) * (C / 16) + Math.floor(j / 16)) * 16 + (i % 16)) * 16 + (j % 16)],
  },
];

for (const c of LAYOUT_CASES) {
  test(`layout-driven copy kernel: ${c.name}: CPU result and PTX`, (t) => {
    const tc = tools(t);
    if (!tc) return;
    const k = emitLayoutCopy(c.spec);
    assert.ok(k.ok);
    ok(verify(tc, k.kernel), 'parsing the kernel');
    const check = emitLayoutCopyCheck(c.spec);
    assert.ok(check.ok);
    const run = runOnCpu(tc, check.kernel, undefined, undefined, CPU_CHECK_ENTRY);
    ok(run, 'running the kernel on the CPU');
    const out = parseMemrefDump(run.stdout);
    assert.equal(out.length, R * C);
    const want = new Array<number>(R * C).fill(-1);
    for (let i = 0; i < R; i++) for (let j = 0; j < C; j++) { const [s, d] = c.expect(i, j); want[d] = s; }
    assert.deepEqual(out, want);

    const toGpu = emitLayoutCopyToGpu(c.spec);
    ok(verify(tc, toGpu), 'parsing the GPU mapping');
    const g = applySchedule(tc, k.kernel, toGpu);
    ok(g, 'mapping to the GPU');
    assert.match(g.stdout, /gpu\.launch blocks\(.*\) in \(%\w+ = %c2(_\d+)?, %\w+ = %c4(_\d+)?, %\w+ = %c1(_\d+)?\) threads\(.*\) in \(%\w+ = %c16(_\d+)?, %\w+ = %c4(_\d+)?, %\w+ = %c1(_\d+)?\)/);
    const p = lowerToPtx(tc, g.stdout, { chip: 'sm_90', barePointers: true });
    ok(p.run, 'lowering to PTX');
    assert.match(p.ptx!, new RegExp(`\\.visible \\.entry ${c.spec.name}_kernel\\(`));
    assert.match(p.ptx!, /ld\.global\.(b|f)32/);
    assert.match(p.ptx!, /st\.global\.(b|f)32/);
    assert.match(p.ptx!, /%ctaid\.y/);
    assert.match(p.ptx!, /%tid\.x/);
    assert.doesNotMatch(p.ptx!, /\.shared/);
  });
}

test('negative control: a wrong layout is caught by the layout kernel check', (t) => {
  const tc = tools(t);
  if (!tc) return;
  // dst should be the transpose; a row-major dst copies instead
  const spec = transposeSpec('wrong', layoutIndex(OrderBy(Row(R, C)), ['i', 'j']), layoutIndex(OrderBy(Row(R, C)), ['i', 'j']));
  const check = emitLayoutCopyCheck(spec);
  assert.ok(check.ok);
  const run = runOnCpu(tc, check.kernel, undefined, undefined, CPU_CHECK_ENTRY);
  ok(run, 'running');
  const out = parseMemrefDump(run.stdout);
  let mismatches = 0;
  for (let i = 0; i < R; i++) for (let j = 0; j < C; j++) if (out[j * R + i] !== i * C + j) mismatches++;
  assert.equal(mismatches, R * C - 2, 'only (0, 0) and (63, 31) sit where a transpose puts them');
});

test('tools: a broken file fails with the tool\'s error, not silently', (t) => {
  const tc = tools(t);
  if (!tc) return;
  const r = verify(tc, 'func.func @f() { %x = arith.addi %y, %y : index\n return }\n');
  assert.equal(r.ok, false);
  assert.match(r.why!, /error: use of undeclared SSA value name/);
});
