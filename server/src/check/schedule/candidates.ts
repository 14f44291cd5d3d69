// The checks of a schedule block: resolution and simulation for the params' values, then again for
// every combination of the tuning candidates the schedule depends on.
import type { Expr, ScheduleDecl } from '../../../../grammar/src/ast.js';
import type { Diagnostic } from '../../../../grammar/src/diagnostic.js';
import type * as X from '../../expr/index.js';
import { limitedDiagnostic } from '../scenario.js';
import { argValues, type ScheduleEnv } from './values.js';
import { resolveSchedule, type ResolveOptions } from './resolve.js';
import { analyzeSchedule } from './simulate.js';

/** Params with tuning candidates that the schedule's arguments depend on (through lets and other params). */
export function tunableParamsOf(decl: ScheduleDecl, env: ScheduleEnv): string[] {
  const exprs: X.Expr[] = [];
  const add = (a: Expr): void => {
    if (a.kind === 'List' || a.kind === 'Tuple') { a.items.forEach(add); return; }
    const v = env.model.values.get(a);
    if (v?.k === 'int') exprs.push(v.e);
  };
  for (const a of decl.op?.args ?? []) add(a);
  for (const s of decl.steps) for (const a of s.args) add(a);
  return env.scenarios.tunable(exprs);
}

/**
 * Every diagnostic of a schedule block: malformed steps, order, handles, and the numbers (divisibility,
 * threads, shared memory) for the params' values and for each combination of their tuning candidates
 * (at most MAX_COMBINATIONS, check/scenario.ts; `check/candidates-limited` says when there are more). `quietUndefinedNames` (default true) leaves out what name resolution
 * reports: unknown primitives, undefined names in sizes, handles that name nothing.
 */
export function checkSchedule(
  decl: ScheduleDecl,
  env: ScheduleEnv,
  opts: { quietUndefinedNames?: boolean; defaultTarget?: string } = {},
): Diagnostic[] {
  const quiet = opts.quietUndefinedNames ?? true;
  const ro: ResolveOptions = { file: env.file, quietUndefinedNames: quiet, defaultTarget: opts.defaultTarget };
  const declared = env.declared;
  const ao = quiet && declared ? { isDeclared: (n: string) => declared.has(n) } : {};
  const base = resolveSchedule(decl, argValues(env), ro);
  const out = [...base.diagnostics];
  if (!base.spec) return out;
  const malformed = base.diagnostics.some((d) => d.severity === 'error');
  const written = new Set(decl.steps.map((s) => s.primitive.name));
  out.push(...analyzeSchedule(base.spec, { ...ao, structureOnly: malformed, written }).diagnostics);
  if (malformed) return out;
  const key = (d: Diagnostic): string => `${d.code}@${d.range.start}:${d.range.end}`;
  const reported = new Set(out.map(key));
  const tunable = tunableParamsOf(decl, env);
  const combos = env.scenarios.combinations(tunable);
  for (const sc of combos.scenarios) {
    // the combination of the params' own values is the base scenario: checked above, same diagnostics
    if (sc.changed.size === 0) continue;
    const r = resolveSchedule(decl, argValues(env, sc), ro);
    const ds = r.spec ? [...r.diagnostics, ...analyzeSchedule(r.spec, ao).diagnostics] : r.diagnostics;
    const label = tunable.map((n) => `${n} = ${sc.assignment.get(n)}`).join(', ');
    for (const d of ds) {
      if (reported.has(key(d))) continue;
      reported.add(key(d));
      out.push({ ...d, message: `with tuning candidate ${label}: ${d.message}` });
    }
  }
  out.push(...limitedDiagnostic({ ...combos, params: tunable }, decl.name.range, `schedule \`${decl.name.name}\``));
  return out;
}
