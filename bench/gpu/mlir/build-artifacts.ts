// Builds the GPU benchmark's inputs on a machine with mlir-22-tools (no GPU needed):
//   node --import tsx bench/gpu/mlir/build-artifacts.ts
// For every schedule block of bench/gpu/mlir/gemm.layout: parse, check, emit the payload and the
// transform script, apply it, lower to PTX for sm_90 with bare-pointer kernel arguments, and write
//   bench/gpu/out/mlir_matmul.<block>.{payload.mlir,transform.mlir,ptx}
//   bench/gpu/out/mlir_matmul.json   (what bench/gpu/mlir_matmul.py launches: kernel, grid, block, argument order)
// The GPU machine then only needs Python with CuPy and torch.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parse } from '../../../grammar/src/index.js';
import type { ScheduleDecl } from '../../../grammar/src/ast.js';
import { checkSchedule, scheduleEnvFromFile } from '../../../server/src/check/schedule/index.js';
import { emitSchedule, fromAst, stepText } from '../../../server/src/codegen/mlir/index.js';
import { applySchedule, findMlirToolchain, lowerToPtx } from '../../../server/src/codegen/mlir/tools.js';

const SOURCE = 'bench/gpu/mlir/gemm.layout';
const OUT = 'bench/gpu/out';

const tc = findMlirToolchain();
if (!tc) {
  console.error('mlir-opt-22 / mlir-runner-22 not found: apt-get install mlir-22-tools');
  process.exit(1);
}
const text = readFileSync(SOURCE, 'utf8');
const parsed = parse(text);
if (parsed.diagnostics.some((d) => d.severity === 'error')) {
  console.error(parsed.diagnostics);
  process.exit(1);
}
const env = scheduleEnvFromFile(parsed.file, SOURCE);
mkdirSync(OUT, { recursive: true });
const variants: unknown[] = [];
let failed = 0;
for (const decl of parsed.file.decls.filter((d): d is ScheduleDecl => d.kind === 'Schedule')) {
  const name = decl.name.name;
  const problems = checkSchedule(decl, env).filter((d) => d.severity === 'error');
  const r = fromAst(decl, env);
  if (problems.length || !r.spec) {
    console.error(`${name}:`, [...problems, ...r.diagnostics].map((d) => d.message));
    failed++;
    continue;
  }
  const e = emitSchedule(r.spec);
  if (!e.ok) { console.error(`${name}:`, e.diagnostics.map((d) => d.message)); failed++; continue; }
  const t0 = Date.now();
  const applied = applySchedule(tc, e.payload, e.transform);
  if (!applied.ok) { console.error(`${name}: applying the schedule: ${applied.why}`); failed++; continue; }
  const chip = r.spec.target;
  const p = lowerToPtx(tc, applied.stdout, { chip, barePointers: true });
  if (!p.run.ok || !p.ptx || p.launches.length !== 1) { console.error(`${name}: lowering: ${p.run.why}`); failed++; continue; }
  const ms = Date.now() - t0;
  const base = join(OUT, `mlir_matmul.${name}`);
  writeFileSync(`${base}.payload.mlir`, e.payload);
  writeFileSync(`${base}.transform.mlir`, e.transform);
  writeFileSync(`${base}.ptx`, p.ptx);
  let ptxas: string | undefined;
  if (tc.ptxas) {
    const v = spawnSync(tc.ptxas, [`-arch=${chip}`, '-v', `${base}.ptx`, '-o', '/dev/null'], { encoding: 'utf8', timeout: 120_000 });
    ptxas = (v.stderr.match(/Used .*/) ?? [])[0];
  }
  const plan = e.plan;
  const operandNames = plan.op.operands.map((o) => o.name);
  variants.push({
    name,
    ptx: `mlir_matmul.${name}.ptx`,
    kernel: p.launches[0].kernel,
    // gpu.launch_func arguments are the payload function's arguments A, B, C (bare pointers)
    args: p.launches[0].args.map((i) => operandNames[i]),
    grid: [plan.grid![1], plan.grid![0], 1],
    block: plan.blockDims,
    sizes: Object.fromEntries(plan.op.dims.map((d, i) => [d, r.spec!.sizes[i]])),
    element_type: r.spec.elementType,
    shared_bytes: plan.sharedBytes,
    schedule: r.spec.steps.map(stepText),
    chip,
    ptxas,
  });
  console.log(`${name}: ${p.ptx.length} bytes of PTX in ${ms} ms${ptxas ? `; ptxas: ${ptxas}` : ''}`);
}
writeFileSync(join(OUT, 'mlir_matmul.json'), `${JSON.stringify({ source: SOURCE, generated_by: 'bench/gpu/mlir/build-artifacts.ts', variants }, null, 1)}\n`);
console.log(`wrote ${variants.length} variants to ${OUT}/mlir_matmul.json`);
process.exit(failed ? 1 : 0);
