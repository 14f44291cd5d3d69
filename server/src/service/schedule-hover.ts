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
      const limit = t.kind === 'gpu' ? ` of ${t.sharedMemOptInBytes} B (${formatBytes(t.sharedMemOptInBytes)}) on ${t.name}` : '';
      figures.push(`shared memory per block: ${plan.sharedBytes} B${plan.unrollFactor > 1 ? ` (x ${plan.unrollFactor} for unroll)` : ''}${limit}`);
    }
    if (f.vectorElements !== undefined) figures.push(`per-${plan.target.kind === 'gpu' ? 'thread' : 'tile'} vector work: ${times(f.extents)} = ${f.vectorElements} elements`);
    if (name === 'unroll') figures.push(`factor ${r.spec.steps[specIdx].factor}`);
    if (name === 'findOp') figures.push(`${plan.op.name}: ${plan.op.summary}, ${r.spec.sizes.map((v, d) => `${dims[d]} = ${v}`).join(', ')}, ${et}`);
    if (figures.length) lines.push('', ...figures.map((x) => `- ${x}`));
  }
  lines.push('', `Becomes: ${p.becomes.map((b) => `\`${b}\``).join(', ')}`);
  return lines.join('\n');
}
