// What can be emitted from a file: the targets of its kernel and schedule blocks.
import type * as ast from '../../../grammar/src/ast.js';

export type EmitTarget = 'triton' | 'cuda' | 'mlir';

/** The target a block emits: a kernel's declared target, `mlir` for schedules. */
export function targetOf(d: ast.KernelDecl | ast.ScheduleDecl): EmitTarget | undefined {
  if (d.kind === 'Schedule') return 'mlir';
  const t = d.target?.value;
  return t === 'cuda' || t === 'triton' || t === 'mlir' ? t : undefined;
}

/** Targets that at least one block of the file emits, in the order triton, cuda, mlir. */
export function emitTargetsOf(file: ast.File): EmitTarget[] {
  const set = new Set<EmitTarget>();
  for (const d of file.decls) {
    if (d.kind !== 'Kernel' && d.kind !== 'Schedule') continue;
    const t = targetOf(d);
    if (t) set.add(t);
  }
  return (['triton', 'cuda', 'mlir'] as const).filter((t) => set.has(t));
}
