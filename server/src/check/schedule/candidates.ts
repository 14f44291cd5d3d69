// The checks of a schedule block: resolution and simulation for the params' values, then again for
// every combination of the tuning candidates the schedule depends on.
import type { Expr, ScheduleDecl } from '../../../../grammar/src/ast.js';
import type { Diagnostic } from '../../../../grammar/src/diagnostic.js';
import { envLookup, type ScheduleEnv } from './eval.js';
import { resolveSchedule, type ResolveOptions } from './resolve.js';
import { analyzeSchedule } from './simulate.js';

const MAX_ASSIGNMENTS = 1024;

function namesIn(e: Expr, acc: Set<string>): void {
  switch (e.kind) {
    case 'Name': acc.add(e.name); break;
    case 'Unary': namesIn(e.operand, acc); break;
    case 'Binary': namesIn(e.left, acc); namesIn(e.right, acc); break;
    case 'If': namesIn(e.cond, acc); namesIn(e.then, acc); namesIn(e.else, acc); break;
    case 'Call': case 'List': case 'Tuple': for (const a of e.kind === 'Call' ? e.args : e.items) namesIn(a, acc); break;
    case 'MethodCall': namesIn(e.receiver, acc); for (const a of e.args) namesIn(a, acc); break;
    default: break;
  }
}

/** Params with tuning candidates that the schedule's sizes depend on (through lets and other params). */
export function tunableParamsOf(decl: ScheduleDecl, env: ScheduleEnv): string[] {
  const direct = new Set<string>();
  for (const a of decl.op?.args ?? []) namesIn(a, direct);
  for (const s of decl.steps) for (const a of s.args) namesIn(a, direct);
  const all = new Set<string>();
  const visit = (n: string): void => {
    if (all.has(n)) return;
    all.add(n);
    const e = env.lets?.get(n) ?? env.params.get(n)?.expr;
    if (e) { const inner = new Set<string>(); namesIn(e, inner); inner.forEach(visit); }
  };
  direct.forEach(visit);
  return [...env.params.keys()].filter((n) => all.has(n) && env.params.get(n)!.candidates?.length);
}

/**
 * Every diagnostic of a schedule block: malformed steps, order, handles, and the numbers (divisibility,
 * threads, shared memory) for the params' values and for each combination of their tuning candidates
 * (at most 1024 combinations). `quietUndefinedNames` (default true) leaves out what name resolution
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
  const base = resolveSchedule(decl, envLookup(env), ro);
  const out = [...base.diagnostics];
  if (!base.spec) return out;
  const malformed = base.diagnostics.some((d) => d.severity === 'error');
  out.push(...analyzeSchedule(base.spec, { ...ao, structureOnly: malformed }).diagnostics);
  if (malformed) return out;
  const key = (d: Diagnostic): string => `${d.code}@${d.range.start}:${d.range.end}`;
  const reported = new Set(out.map(key));
  const tunable = tunableParamsOf(decl, env);
  let count = 0;
  const assignment = new Map<string, bigint>();
  const visit = (k: number): void => {
    if (count >= MAX_ASSIGNMENTS) return;
    if (k === tunable.length) {
      count++;
      const r = resolveSchedule(decl, envLookup(env, assignment), ro);
      const ds = r.spec ? [...r.diagnostics, ...analyzeSchedule(r.spec, ao).diagnostics] : r.diagnostics;
      const label = tunable.map((n) => `${n} = ${assignment.get(n)}`).join(', ');
      for (const d of ds) {
        if (reported.has(key(d))) continue;
        reported.add(key(d));
        out.push({ ...d, message: `with tuning candidate ${label}: ${d.message}` });
      }
      return;
    }
    for (const c of env.params.get(tunable[k])!.candidates!) {
      assignment.set(tunable[k], c);
      visit(k + 1);
    }
    assignment.delete(tunable[k]);
  };
  if (tunable.length) visit(0);
  return out;
}
