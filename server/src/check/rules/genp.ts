// genp/not-bijective, genp/out-of-range, genp/inverse-mismatch, genp/eval-error,
// genp/partially-checked: is each user permutation a bijection of its tile, where it is used?
//
// A perm is checked at every use `GenP(dims, perm(args))`, at the sizes that use gives it: the
// params' values and each tuning candidate (one param varied at a time). Each distinct size is
// enumerated once, exhaustively, when its tile has at most `budget` points (default 2^24, about
// a second); larger tiles are not enumerated. When the sizes depend on params, or some size was
// too large, an information diagnostic says exactly which sizes were checked. `shouldStop` is
// polled during enumeration; when it says stop, the rule returns what it has with `cancelled`.
import { GenP as mkGenP, checkGenP, type GenP as AlgGenP, type GenPCheck } from '../../algebra/index.js';
import * as x from '../../expr/index.js';
import type { ast, Diagnostic } from '../../../../grammar/src/index.js';
import { NotAnInteger, toExpr } from './to-expr.js';
import type { RuleContext, RuleRun } from './types.js';
import type { Scenario } from './values.js';
import { expressions, fmtList, isConstructorCall, itemsOf, textOf } from './walk.js';

/** One use of a perm inside `GenP(dims, use)`. */
export interface GenPUse {
  genp: ast.Call;
  /** `antidiag(3)` or a bare `flip` */
  use: ast.Call | ast.NameRef;
  perm: ast.PermDecl;
  dims: ast.Expr[];
  args: ast.Expr[];
}

/** The outcome at one size, as the algebra reports it, with that size's description. */
interface SizeResult {
  sc: Scenario;
  /** `n = 3` style bindings that name this size, e.g. `N = 64` */
  at: string;
  points: number;
  result: GenPCheck;
}

export function checkGenPs(ctx: RuleContext): RuleRun {
  const out: Diagnostic[] = [];
  const cache = ctx.index.genpResults;
  for (const u of genpUses(ctx)) {
    const run = checkUse(ctx, u, cache);
    out.push(...run.diagnostics);
    if (run.cancelled) return { diagnostics: out, cancelled: true };
  }
  return { diagnostics: out };
}

/** Every `GenP(dims, perm(...))` of the checked declarations whose perm is declared in the file. */
export function genpUses(ctx: RuleContext): GenPUse[] {
  const perms = ctx.index.perms;
  const out: GenPUse[] = [];
  for (const e of ctx.decls.flatMap((d) => expressions(d))) {
    if (e.kind !== 'Call' || !isConstructorCall(e, 'GenP', ctx.resolution) || e.args.length < 2) continue;
    const dims = itemsOf(e.args[0]);
    const use = e.args[1];
    if (!dims) continue;
    const ref = use.kind === 'Call' ? use.callee : use.kind === 'Name' ? use : undefined;
    const def = ref && ctx.resolution.refs.get(ref);
    if (!def || def.kind !== 'perm') continue;
    const perm = perms.get(def.name);
    if (!perm || (use.kind !== 'Call' && use.kind !== 'Name')) continue;
    out.push({ genp: e, use, perm, dims, args: use.kind === 'Call' ? use.args : [] });
  }
  return out;
}

/** Checks one use at every size; at most one error per use (the first size that fails). */
export function checkUse(ctx: RuleContext, u: GenPUse, cache: Map<string, GenPCheck>): RuleRun {
  const label = textOf(ctx.text, u.use).replace(/\s+/g, ' ');
  if (u.args.length !== u.perm.params.length || u.dims.length !== u.perm.indices.length) return { diagnostics: [] };
  const lets = letDecls(ctx);
  const symbolic = dependsOnParams(ctx, [...u.dims, ...u.args]);
  const results: SizeResult[] = [];
  const seen = new Set<string>();
  for (const sc of symbolic ? ctx.values.scenariosFor([...u.dims, ...u.args]) : [ctx.values.base]) {
    const dims = u.dims.map((d) => ctx.values.value(d, sc));
    const args = u.args.map((a) => ctx.values.value(a, sc));
    if (dims.some((d) => d === undefined || d < 1n) || args.some((a) => a === undefined)) continue;
    const key = `${u.perm.name.name}(${args.join(',')})[${dims.join(',')}]`;
    if (seen.has(key)) continue;
    seen.add(key);
    const env = new Map<string, bigint>();
    u.perm.params.forEach((p, i) => env.set(p.name, args[i]!));
    let result = cache.get(key);
    if (!result) {
      const g = genpAt(ctx, u, lets, sc, dims.map((d) => d!));
      if (!g) return { diagnostics: [] }; // not an integer function: the elaborator reports it
      result = checkGenP(g, env, { maxPoints: ctx.budget, shouldStop: ctx.shouldStop });
      if (result.kind === 'cancelled') return { diagnostics: [], cancelled: true };
      cache.set(key, result);
    }
    let points = 1;
    for (const d of dims) points *= Number(d);
    results.push({ sc, at: describeSize(ctx, u, sc), points, result });
  }
  const bad = results.find((r) => r.result.kind !== 'bijective' && r.result.kind !== 'budget-exceeded');
  if (bad) return { diagnostics: [failure(ctx, u, label, bad)] };
  const over = results.filter((r) => r.result.kind === 'budget-exceeded');
  if (!symbolic && over.length === 0) return { diagnostics: [] };
  const checked = results.filter((r) => r.result.kind === 'bijective');
  const parts: string[] = [];
  if (checked.length) parts.push(`checked exhaustively ${checked.map((r) => `${r.at}${r.at ? ' ' : ''}(${r.points} points)`).join(', ')}`);
  if (over.length) parts.push(`not checked ${over.map((r) => `${r.at}${r.at ? ' ' : ''}(${r.points} points)`).join(', ')}: over the check budget of ${ctx.budget} points`);
  if (symbolic) parts.push('other sizes are not checked');
  return {
    diagnostics: [{
      code: 'genp/partially-checked',
      severity: 'information',
      message: `${label} is a bijection only as far as checked: ${parts.join('; ')}`,
      range: u.use.range,
    }],
  };
}

/** The algebra's GenP for `u` at one evaluation point, or undefined when the perm is not integer-valued. */
function genpAt(ctx: RuleContext, u: GenPUse, lets: ReadonlyMap<string, ast.LetDecl>, sc: Scenario, dims: bigint[]): AlgGenP | undefined {
  const tc = { resolution: ctx.resolution, lets, params: sc.params };
  try {
    const body = toExpr(u.perm.body, tc);
    const inv = u.perm.inverse;
    const inverse = inv ? { argName: inv.arg.name, results: inv.results.map((r) => toExpr(r, tc)) } : undefined;
    return mkGenP(dims, { indexNames: u.perm.indices.map((i) => i.name), body }, inverse, u.perm.name.name);
  } catch (e) {
    if (e instanceof NotAnInteger || e instanceof x.EvalError) return undefined;
    throw e;
  }
}

/** `at N = 64`, `at N = 128 (a candidate of N)`, or `` when nothing depends on params. */
function describeSize(ctx: RuleContext, u: GenPUse, sc: Scenario): string {
  const names = paramsUsed(ctx, [...u.dims, ...u.args]).filter((p) => p.kind === 'param').map((p) => p.name);
  if (names.length === 0) return '';
  const parts = names.map((n) => {
    const v = sc.params.get(n);
    return sc.candidate?.param === n ? `${n} = ${v} (a candidate of ${n})` : `${n} = ${v}`;
  });
  let s = `at ${parts.join(', ')}`;
  if (sc.candidate && !names.includes(sc.candidate.param)) s += ` (when ${sc.candidate.param} = ${sc.candidate.value}, a candidate of ${sc.candidate.param})`;
  return s;
}

function failure(ctx: RuleContext, u: GenPUse, label: string, r: SizeResult): Diagnostic {
  const where = r.at ? ` ${r.at}` : '';
  const related = [{ message: `the body of ${u.perm.name.name}`, range: u.perm.body.range }];
  const res = r.result;
  switch (res.kind) {
    case 'collision':
      return { code: 'genp/not-bijective', severity: 'error', range: u.use.range, related,
        message: `${label}${where}: ${fmtList(res.a)} and ${fmtList(res.b)} both map to ${res.value}` };
    case 'out-of-range':
      return { code: 'genp/out-of-range', severity: 'error', range: u.use.range, related,
        message: `${label}${where}: ${fmtList(res.idx)} maps to ${res.value}, outside [0, ${res.size})` };
    case 'inverse-mismatch':
      return { code: 'genp/inverse-mismatch', severity: 'error', range: u.use.range,
        related: u.perm.inverse ? [{ message: `the inverse of ${u.perm.name.name}`, range: u.perm.inverse.range }] : related,
        message: `${label}${where}: the inverse maps ${res.x} to ${fmtList(res.got)}, but ${fmtList(res.expected)} maps to ${res.x}` };
    case 'eval-error':
      return { code: 'genp/eval-error', severity: 'error', range: u.use.range, related,
        message: res.idx.length ? `${label}${where}: evaluating at ${fmtList(res.idx)} failed: ${res.message}` : `${label}${where}: ${res.message}` };
    default:
      // bijective, budget-exceeded and cancelled are not failures
      throw new Error(`unexpected GenP result ${res.kind}`);
  }
}

/** Do the sizes of `es` depend on a (non-const) param, directly or through lets? */
function dependsOnParams(ctx: RuleContext, es: readonly ast.Expr[]): boolean {
  return paramsUsed(ctx, es).some((p) => p.kind === 'param');
}

/** The params and consts `es` depend on (through lets too), in order of first use. */
function paramsUsed(ctx: RuleContext, es: readonly ast.Expr[]): { name: string; kind: 'param' | 'const' }[] {
  const out: { name: string; kind: 'param' | 'const' }[] = [];
  const visited = new Set<string>();
  const lets = letDecls(ctx);
  const visit = (e: ast.Expr, depth: number): void => {
    if (depth > 100) return;
    for (const n of expressions(e)) {
      if (n.kind !== 'Name') continue;
      const def = ctx.resolution.refs.get(n);
      if (!def || visited.has(def.name)) continue;
      if (def.kind === 'param' || def.kind === 'const') {
        visited.add(def.name);
        out.push({ name: def.name, kind: def.kind });
      } else if (def.kind === 'let') {
        visited.add(def.name);
        const d = lets.get(def.name);
        if (d) visit(d.value, depth + 1);
      }
    }
  };
  for (const e of es) visit(e, 0);
  return out;
}

function letDecls(ctx: RuleContext): ReadonlyMap<string, ast.LetDecl> {
  return ctx.index.lets;
}
