// Hover text (markdown) of a schedule step: the primitive's table entry (check/schedule/ops.ts) and
// the figures of the schedule checks' simulation (check/schedule/simulate.ts) at the params' values.
import type { ScheduleDecl, ScheduleStep } from '../../../grammar/src/ast.js';
import { formatBytes } from '../check/targets.js';
import { analyzeSchedule, argValues, isPrimitive, PRIMITIVES, resolveSchedule, type ScheduleEnv } from '../check/schedule/index.js';

const product = (xs: number[]): number => xs.reduce((a, b) => a * b, 1);
const times = (xs: number[]): string => xs.join(' x ');

/** Markdown for a hover on a schedule step: what the primitive does, its figures, and the transform ops it becomes. */
export function describeStep(decl: ScheduleDecl, step: ScheduleStep | number, env: ScheduleEnv): string | undefined {
  const idx = typeof step === 'number' ? step : decl.steps.indexOf(step);
  const s = decl.steps[idx];
  if (!s) return undefined;
  const name = s.primitive.name;
  if (!isPrimitive(name)) return undefined;
  const p = PRIMITIVES[name];
  const lines = [`**${name}** — \`${p.signature}\``, '', p.summary];
  const r = resolveSchedule(decl, argValues(env), { file: env.file });
  const specIdx = r.spec?.steps.findIndex((x) => x.range?.start === s.range.start && x.range?.end === s.range.end) ?? -1;
  const a = r.spec ? analyzeSchedule(r.spec) : undefined;
  if (r.spec && a?.plan && specIdx >= 0) {
    const plan = a.plan;
    const f = plan.facts[specIdx];
    const dims = plan.op.dims;
    const et = r.spec.elementType;
    const acc = r.spec.accType ?? et;
    const tc = plan.tensorCore;
    const figures: string[] = [];
    if (f.grid && f.tileSizes) {
      figures.push(`grid: ${times(f.grid)} = ${product(f.grid)} blocks of ${times(f.tileSizes)} outputs (${dims.slice(0, plan.op.parallelDims).join(' x ')})`);
    }
    if ((name === 'tile' || name === 'fuse') && f.tileSizes) {
      const tiled = f.tileSizes.map((t, d) => (t > 0 ? `${dims[d]} by ${t} (${f.extents[d] / t} steps)` : '')).filter(Boolean);
      figures.push(`${f.loops} scf.for loop${f.loops === 1 ? '' : 's'}: ${tiled.join(', ')}`);
    }
    if (f.threads && f.threadTile) {
      const total = product(f.threads);
      const warps = plan.target.kind === 'gpu' ? ` (${Math.ceil(total / plan.target.warpSize)} warps)` : '';
      figures.push(`block: ${times(f.threads)} = ${total} threads${warps}; block dims [${plan.blockDims!.join(', ')}]`);
      figures.push(`each thread computes ${times(f.threadTile)} outputs`);
    }
    if (f.promoted) {
      for (const o of f.promoted) {
        const copy = o.copy ? `; copied by ${o.copy.threadsUsed} threads, ${times(o.copy.tile)} elements each (${o.copy.vectorSize}-wide vectors)` : '';
        figures.push(`${o.name}: ${times(o.shape)} ${et} = ${o.bytes} B${copy}`);
      }
      const t = plan.target;
      const limit = t.kind === 'gpu' ? ` of ${t.sharedMemDefaultBytes} B (${formatBytes(t.sharedMemDefaultBytes)}) static, ${t.sharedMemOptInBytes} B (${formatBytes(t.sharedMemOptInBytes)}) with dynamic opt-in, on ${t.name}` : '';
      const stages = plan.stages > 1 ? ` (x ${plan.stages} stages)` : '';
      figures.push(`shared memory per block: ${plan.sharedBytes} B${stages}${plan.unrollFactor > 1 ? ` (x ${plan.unrollFactor} for unroll)` : ''}${limit}`);
    }
    if (f.warps && f.warpTile) {
      const nt = plan.threadsPerBlock!;
      figures.push(`block: ${times(f.warps)} = ${product(f.warps)} warps = ${nt} threads; block dims [${plan.blockDims!.join(', ')}]`);
      figures.push(`each warp computes a ${times(f.warpTile)} tile of ${plan.op.operands.find((o) => o.isOutput)!.name} (${acc}, kept in registers)`);
    }
    if (tc && (name === 'mma' || name === 'parallelizeForWarps')) {
      const rg = tc.registers;
      if (name === 'mma') {
        figures.push(`${tc.mmaKind === 'wmma' ? 'WMMA m16n16k16 (gpu.subgroup_mma_compute)' : 'mma.sync m16n8k16 (nvgpu.mma.sync, A/B fragments by nvgpu.ldmatrix)'}: ${et} x ${et} -> ${acc}; ${tc.mmaPerKTile} per warp per K tile`);
      }
      figures.push(`registers per thread (estimate): ${rg.accumulators} accumulators (${times(tc.warpTile)} ${acc} / 32 lanes) + ${rg.aFragments} A + ${rg.bFragments} B fragments + ${rg.overhead} = ${rg.total} of 255`);
    }
    if (name === 'multibuffer' || name === 'pipeline') {
      const one = plan.promoted.reduce((a2, o) => a2 + o.bytes, 0);
      figures.push(`${plan.stages} stages: ${plan.stages} x ${one} B = ${plan.sharedBytes} B of shared memory per block`);
    }
    if (name === 'asyncCopy') {
      for (const o of plan.promoted) {
        if (o.copy) figures.push(`${o.name}: ${o.copy.threadsUsed} threads x ${product(o.copy.tile) / o.copy.vectorSize} cp.async of 16 B per K tile`);
      }
    }
    if (f.vectorElements !== undefined) figures.push(`per-${tc ? 'warp' : plan.target.kind === 'gpu' ? 'thread' : 'tile'} vector work: ${times(f.extents)} = ${f.vectorElements} elements`);
    if (name === 'unroll') figures.push(`factor ${r.spec.steps[specIdx].factor}`);
    if (name === 'findOp') figures.push(`${plan.op.name}: ${plan.op.summary}, ${r.spec.sizes.map((v, d) => `${dims[d]} = ${v}`).join(', ')}, ${acc === et ? et : `${et} x ${et} -> ${acc}`}`);
    if (figures.length) lines.push('', ...figures.map((x) => `- ${x}`));
  }
  lines.push('', `Becomes: ${p.becomes.map((b) => `\`${b}\``).join(', ')}`);
  return lines.join('\n');
}
