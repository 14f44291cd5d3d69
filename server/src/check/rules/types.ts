// What a rule sees and returns. Rules are pure functions of the analysed document: they read the
// elaborated model (values, origins, divisions, query uses, GenP uses) and evaluate it at the
// scenarios of check/scenario.ts; they interpret no AST themselves.
import type { ast, Diagnostic, Resolution } from '../../../../grammar/src/index.js';
import type { GenPCheck, GenPProgress } from '../../algebra/index.js';
import { ofDecl, type DeclParts, type Model } from '../elaborate-model.js';
import type { Scenarios } from '../scenario.js';

export interface RuleOptions {
  /** also run the `slow` rules (enumeration); default true */
  slow?: boolean;
  /** most points a GenP check enumerates per evaluation point; default 2^24 */
  budget?: number;
  /** polled during slow rules; returning true stops them with `cancelled` */
  shouldStop?: () => boolean;
}

export interface RuleContext {
  text: string;
  file: ast.File;
  resolution: Resolution;
  /**
   * The declarations to check, in source order: every declaration of `file` for a whole-file
   * run, one declaration when the incremental analysis re-checks it. The model holds at least
   * these declarations and everything they depend on.
   */
  decls: readonly ast.Decl[];
  /** the elaborated model */
  model: Model;
  /** the model evaluated at the params' values and at tuning candidates */
  scenarios: Scenarios;
  /** results shared by every rule of one run */
  index: FileIndex;
  /** `budget` with its default applied */
  budget: number;
  shouldStop: () => boolean;
}

/** Results shared by the rules of one run. */
export class FileIndex {
  /** GenP check results of this run by `perm(args)[dims]` (the perm is the first of its name) */
  readonly genpResults = new Map<string, GenPCheck>();
  /** where a stopped enumeration of the same key was (`CheckBudget.progress`): the next run goes on from there */
  readonly genpProgress = new Map<string, GenPProgress>();
}

const checkedMemo = new WeakMap<readonly ast.Decl[], ReadonlySet<ast.Decl>>();
/** `ctx.decls` as a set. */
export function checkedDecls(ctx: Pick<RuleContext, 'decls'>): ReadonlySet<ast.Decl> {
  let s = checkedMemo.get(ctx.decls);
  if (!s) checkedMemo.set(ctx.decls, (s = new Set(ctx.decls)));
  return s;
}
export type RuleCategory = 'fast' | 'slow';

export interface RuleRun {
  diagnostics: Diagnostic[];
  /** the rule stopped early because `shouldStop` said so; its diagnostics are partial */
  cancelled?: boolean;
}

export interface Rule {
  /** the family: the part of the codes before `/` */
  family: string;
  /** every code the rule can emit */
  codes: readonly string[];
  category: RuleCategory;
  /**
   * Checks `ctx.decls`. Rules other than `global` ones report, per declaration they check, the
   * same diagnostics whatever else `ctx.decls` holds (so results can be kept per declaration).
   */
  run(ctx: RuleContext): RuleRun;
  /** the result depends on the whole file (every use of every name): always run on every declaration */
  global?: boolean;
}

/**
 * The model's origins, divisions, query uses or GenP uses of `ctx.decls`, in the model's order.
 * One declaration (what the incremental analysis checks) reads the model's per-declaration index;
 * a whole-file run filters the whole list once.
 */
export function partsOf<K extends keyof DeclParts>(ctx: Pick<RuleContext, 'decls' | 'model'>, part: K): DeclParts[K] {
  if (ctx.decls.length === 1) return ofDecl(ctx.model, ctx.decls[0])[part];
  const sel = checkedDecls(ctx);
  const m = ctx.model;
  const out: DeclParts = { origins: [], divisions: [], queryUses: [], genps: [] };
  switch (part) {
    case 'origins': for (const e of m.origins) if (sel.has(e[1].decl)) out.origins.push(e); break;
    case 'divisions': out.divisions = m.divisions.filter((d) => sel.has(d.decl)); break;
    case 'queryUses': out.queryUses = m.queryUses.filter((q) => sel.has(q.decl)); break;
    case 'genps': out.genps = m.genps.filter((g) => sel.has(g.decl)); break;
  }
  return out[part];
}
