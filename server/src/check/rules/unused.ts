// unused/param, unused/layout, unused/perm, unused/let: declarations nothing refers to.
//
// Hints tagged `unnecessary` (editors fade the name). Deliberately simple: a declaration is
// used when name resolution binds any use to it, even a use inside another unused declaration
// (no transitive liveness); a use inside its own declaration is not a use. Only the first of
// duplicate declarations is judged (resolution reports the others).
// Layouts are the results of a file that has no kernel and no schedule (an exploration file:
// hover and the CLI read them), so `unused/layout` is reported only in a file with at least one
// kernel or schedule. A param used only through a template's implicit `{{ param_NAME }}`
// placeholder is not seen here (see docs/diagnostics.md).
import type { ast, Diagnostic } from '../../../../grammar/src/index.js';
import type { RuleContext } from './types.js';

const codes = { param: 'unused/param', const: 'unused/param', let: 'unused/let', layout: 'unused/layout', perm: 'unused/perm' } as const;

export function checkUnused(ctx: RuleContext): Diagnostic[] {
  const { file, resolution } = ctx;
  const hasConsumers = file.decls.some((d) => d.kind === 'Kernel' || d.kind === 'Schedule');
  // judged over the whole file; reported for the declarations checked
  const only = ctx.decls === file.decls ? undefined : new Set<ast.Decl>(ctx.decls);
  const out: Diagnostic[] = [];
  // the first declarations no use resolves to (name resolution counts the uses per declaration)
  for (const def of resolution.unusedGlobals()) {
    if (!def.ident) continue;
    if (only && (!def.decl || !only.has(def.decl))) continue;
    if (def.kind !== 'param' && def.kind !== 'const' && def.kind !== 'let' && def.kind !== 'layout' && def.kind !== 'perm') continue;
    if (def.kind === 'layout' && !hasConsumers) continue;
    out.push({
      code: codes[def.kind],
      severity: 'hint',
      message: `${def.kind} ${def.name} is never used`,
      range: def.ident.range,
      tags: ['unnecessary'],
    });
  }
  return out;
}
