// Emits every CUDA and Triton kernel of examples/*.layout into bench/gpu/out/ (with a manifest),
// for bench/gpu/run_gpu.py on the GPU machine, which has no node toolchain.
//     node --import tsx bench/gpu/emit.ts
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { buildEmitModel, emitFile, planEmit } from '../../server/src/codegen/index.js';

const root = resolve(import.meta.dirname, '../..');
const outDir = join(root, 'bench/gpu/out');
mkdirSync(outDir, { recursive: true });
// The folder is shared with the MLIR artifacts (mlir_matmul.*): remove only what we wrote last time.
try {
  const old = JSON.parse(readFileSync(join(outDir, 'manifest.json'), 'utf8')) as { kernels: { file: string }[] };
  for (const k of old.kernels) if (!k.file.includes('/') && !k.file.startsWith('mlir_')) rmSync(join(outDir, k.file), { force: true });
} catch {
  // no manifest yet
}

const kernels: { builtin: string | null; kernel: string; file: string; source: string; target: string }[] = [];
let failed = 0;
for (const name of readdirSync(join(root, 'examples')).filter((n) => n.endsWith('.layout')).sort()) {
  const path = join(root, 'examples', name);
  const text = readFileSync(path, 'utf8');
  const model = buildEmitModel(text, path, { sourceLabel: `examples/${name}` });
  for (const target of ['triton', 'cuda'] as const) {
    const r = emitFile(model, target, { templateRoot: root, readTemplate: (p) => readFileSync(p, 'utf8') });
    for (const d of r.diagnostics) console.error(`examples/${name}: ${d.severity} ${d.code}: ${d.message}`);
    if (r.diagnostics.some((d) => d.severity === 'error')) failed++;
    const plan = planEmit(r.files, { outDir });
    for (const w of plan.writes) {
      writeFileSync(w.absPath, w.content);
      const decl = model.file.decls.find((d) => d.kind === 'Kernel' && `${d.name.name}` === w.relPath.replace(/\.[^.]+$/, ''));
      const builtin = decl?.kind === 'Kernel' && decl.template?.kind === 'builtin' ? decl.template.name.name : null;
      kernels.push({ builtin, kernel: decl?.kind === 'Kernel' ? decl.name.name : w.relPath, file: w.relPath, source: `examples/${name}`, target });
      console.log(`wrote ${relative(root, w.absPath)}`);
    }
    for (const x of plan.refused) {
      failed++;
      console.error(`refused ${x.relPath}: ${x.reason}`);
    }
  }
}
writeFileSync(join(outDir, 'manifest.json'), JSON.stringify({ generated_by: 'bench/gpu/emit.ts', kernels }, null, 1) + '\n');
console.log(`${kernels.length} kernels; manifest at ${relative(root, join(outDir, 'manifest.json'))}`);
process.exit(failed ? 1 : 0);
