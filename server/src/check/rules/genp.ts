// genp/not-bijective, genp/out-of-range, genp/inverse-mismatch, genp/eval-error,
// genp/partially-checked: is each user permutation a bijection of its tile, where it is used?
//
// A perm is checked at every use `GenP(dims, perm(args))` the elaborator recorded, at the sizes
// that use gives it: the params' values and the combinations of the tuning candidates its sizes
// depend on (check/scenario.ts). Each distinct size is
// enumerated once, exhaustively, when its tile has at most `budget` points (default 2^24, about
// a second); larger tiles are not enumerated. When the sizes depend on params, or some size was
// too large, an information diagnostic says exactly which sizes were checked. `shouldStop` is
// polled during enumeration; when it says stop, the rule returns what it has with `cancelled`.
import { GenP as mkGenP, checkGenP, type GenP as AlgGenP, type GenPCheck } from '../../algebra/index.js';
import * as x from '../../expr/index.js';
import type { ast, Diagnostic } from '../../../../grammar/src/index.js';
import type { GenPUse } from '../elaborate-model.js';
import { limitedDiagnostic, type Scenario } from '../scenario.js';
import { partsOf, type RuleContext, type RuleRun } from './types.js';
import { expressions, fmtList, textOf } from './walk.js';

export type { GenPUse } from '../elaborate-model.js';

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
  return partsOf(ctx, 'genps');
}

/** Checks one use at every size; at most one error per use (the first size that fails). */
export function checkUse(ctx: RuleContext, u: GenPUse, cache: Map<string, GenPCheck>): RuleRun {
  const label = textOf(ctx.text, u.use).replace(/\s+/g, ' ');
  if (u.args.length !== u.perm.params.length || u.dims.length !== u.perm.indices.length) return { diagnostics: [] };
  const sizes = [...u.dims, ...u.args];
  const symbolic = sizes.some((e) => ctx.scenarios.paramsOf(e).size > 0);
  const set = symbolic ? ctx.scenarios.for(sizes) : undefined;
  const results: SizeResult[] = [];
  const seen = new Set<string>();
  for (const sc of set ? set.scenarios : [ctx.scenarios.base]) {
    const dims = u.dims.map((d) => ctx.scenarios.evaluate(d, sc));
    const args = u.args.map((a) => ctx.scenarios.evaluate(a, sc));
    if (dims.some((d) => d === undefined || d < 1n) || args.some((a) => a === undefined)) continue;
    const key = `${u.perm.name}(${args.join(',')})[${dims.join(',')}]`;
    if (seen.has(key)) continue;
    seen.add(key);
    const env = new Map<string, bigint>();
    u.perm.params.forEach((p, i) => env.set(p, args[i]!));
    let result = cache.get(key);
    if (!result) {
      const g = genpAt(u, sc, dims.map((d) => d!));
      if (!g) return { diagnostics: [] }; // not an integer function: the elaborator reports it
      let progress = ctx.index.genpProgress.get(key);
      if (!progress) ctx.index.genpProgress.set(key, (progress = {}));
      result = checkGenP(g, env, { maxPoints: ctx.budget, shouldStop: ctx.shouldStop, progress });
      if (result.kind === 'cancelled') return { diagnostics: [], cancelled: true };
      ctx.index.genpProgress.delete(key);
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
  if (over.length) {
    const probed = over.reduce((n, r) => n + (r.result.kind === 'budget-exceeded' ? r.result.checked : 0), 0);
    parts.push(`not checked ${over.map((r) => `${r.at}${r.at ? ' ' : ''}(${r.points} points)`).join(', ')}: over the check budget of ${ctx.budget} points` +
      (probed > 0 ? ` (${probed} probed points, small coordinates, boundaries and random samples, found no collision)` : ''));
  }
  if (symbolic) parts.push('other sizes are not checked');
  return {
    diagnostics: [{
      code: 'genp/partially-checked',
      severity: 'information',
      message: `${label} is a bijection only as far as checked: ${parts.join('; ')}`,
      range: u.use.range,
    }, ...(set ? limitedDiagnostic(set, u.use.range, label) : [])],
  };
}

/**
 * The algebra's GenP for `u` at one evaluation point: the perm's body (from the model) with every
 * name that is not one of the perm's locals replaced by its value there; undefined when one has
 * none (the elaborator reports why).
 */
function genpAt(u: GenPUse, sc: Scenario, dims: bigint[]): AlgGenP | undefined {
  const perm = u.perm;
  if (!perm.body) return undefined;
  const inv = perm.inverse;
  const locals = new Set([...perm.params, ...perm.indices, ...(inv ? [inv.argName] : [])]);
  const subst = new Map<string, x.Expr>();
  for (const e of [perm.body, ...(inv ? inv.results : [])]) {
    for (const s of x.freeSymbols(e)) {
      if (locals.has(s) || subst.has(s)) continue;
      const v = sc.env.get(s);
      if (v === undefined) return undefined;
      subst.set(s, x.int(v));
    }
  }
  const body = x.substitute(perm.body, subst);
  const inverse = inv ? { argName: inv.argName, results: inv.results.map((r) => x.substitute(r, subst)) } : undefined;
  return mkGenP(dims, { indexNames: perm.indices, body }, inverse, perm.name);
}

/** `at N = 64`, `at N = 128 (a candidate of N)`, or `` when nothing depends on params. */
function describeSize(ctx: RuleContext, u: GenPUse, sc: Scenario): string {
  const names = paramsUsed(ctx, sizeNodes(u)).filter((p) => p.kind === 'param').map((p) => p.name);
  if (names.length === 0) return '';
  const parts = names.map((n) => {
    const v = sc.env.get(n);
    return sc.changed.has(n) ? `${n} = ${v} (a candidate of ${n})` : `${n} = ${v}`;
  });
  let s = `at ${parts.join(', ')}`;
  const rest = [...sc.changed].filter(([p]) => !names.includes(p));
  if (rest.length === 1) s += ` (when ${rest[0][0]} = ${rest[0][1].value}, a candidate of ${rest[0][0]})`;
  else if (rest.length > 1) s += ` (when ${rest.map(([p, c]) => `${p} = ${c.value}`).join(' and ')}, tuning candidates)`;
  return s;
}

/** The nodes of a use's sizes: the tile's dims and the perm's arguments. */
function sizeNodes(u: GenPUse): ast.Expr[] {
  const dims = u.node.args[0];
  return [...(dims && (dims.kind === 'List' || dims.kind === 'Tuple') ? dims.items : []), ...(u.use.kind === 'Call' ? u.use.args : [])];
}

function failure(ctx: RuleContext, u: GenPUse, label: string, r: SizeResult): Diagnostic {
  const where = r.at ? ` ${r.at}` : '';
  const decl = u.perm.decl;
  const related = [{ message: `the body of ${decl.name.name}`, range: decl.body.range }];
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
        related: decl.inverse ? [{ message: `the inverse of ${decl.name.name}`, range: decl.inverse.range }] : related,
        message: `${label}${where}: the inverse maps ${res.x} to ${fmtList(res.got)}, but ${fmtList(res.expected)} maps to ${res.x}` };
    case 'eval-error':
      return { code: 'genp/eval-error', severity: 'error', range: u.use.range, related,
        message: res.idx.length ? `${label}${where}: evaluating at ${fmtList(res.idx)} failed: ${res.message}` : `${label}${where}: ${res.message}` };
    default:
      // bijective, budget-exceeded and cancelled are not failures
      throw new Error(`unexpected GenP result ${res.kind}`);
  }
}

/** The params and consts `es` depend on (through lets too), in order of first use. */
function paramsUsed(ctx: RuleContext, es: readonly ast.Expr[]): { name: string; kind: 'param' | 'const' }[] {
  const out: { name: string; kind: 'param' | 'const' }[] = [];
  const visited = new Set<string>();
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
        const d = ctx.model.lets.get(def.name)?.decl;
        if (d) visit(d.value, depth + 1);
      }
    }
  };
  for (const e of es) visit(e, 0);
  return out;
}
