// The plain-data schedule the MLIR emitter works from, and its construction from a `schedule` block.
//
// `ScheduleSpec` itself is defined by the check layer (server/src/check/schedule/), which owns the
// meaning of each primitive and checks the schedule; this module re-exports it for codegen users and
// adds `fromAst`, which evaluates a block's sizes with given param values.
import type { ScheduleDecl } from '../../../../grammar/src/ast.js';
import type { Diagnostic } from '../../../../grammar/src/diagnostic.js';
import {
  analyzeSchedule, argValues, resolveSchedule,
  type ElementType, type ScheduleEnv, type ScheduleSpec,
} from '../../check/schedule/index.js';

export type { ElementType, ScheduleSpec, ScheduleStepSpec, Primitive } from '../../check/schedule/index.js';

export interface FromAstOptions {
  /** source file named in generated headers */
  file?: string;
  /** element type of the payload (the language has no syntax for it yet); default f32 */
  elementType?: ElementType;
}

export interface FromAstResult {
  /** present when there are no errors */
  spec?: ScheduleSpec;
  diagnostics: Diagnostic[];
}

/**
 * Converts a schedule block into a spec, with the argument values of `env` (the elaborated model
 * of the file: `scheduleEnvFromFile(file, label, overrides?)`). Errors in the block (unknown
 * names, bad arguments, wrong order, sizes that do not divide, ...) come back as diagnostics,
 * and then no spec.
 */
export function fromAst(decl: ScheduleDecl, env: ScheduleEnv, opts: FromAstOptions = {}): FromAstResult {
  const file = opts.file ?? env.file;
  const r = resolveSchedule(decl, argValues(env), { file, elementType: opts.elementType });
  const diagnostics = [...r.diagnostics];
  if (r.spec) diagnostics.push(...analyzeSchedule(r.spec).diagnostics);
  const ok = r.spec !== undefined && !diagnostics.some((d) => d.severity === 'error');
  return ok ? { spec: r.spec, diagnostics } : { diagnostics };
}
