// Stated facts: `assume FACT, ...` (file level), `layout L = ... where FACT, ...` and
// `kernel k ... where FACT, ... { }` (LEGO's `user_constraints`, e.g. `le_constraint(tid, T*T)`,
// `divisibility_constraint(N, 64)`). Each fact is a condition (a comparison, or `and`/`or`/`not`
// of them). Facts are promises the simplifier may use in the queries they cover (docs/language.md,
// "Facts"), and are checked where they can be:
// - `assume/not-a-condition`: the fact is not a comparison (e.g. `assume T`);
// - `assume/false`: a fact over params (and lets) only is false at the param values or for a
//   combination of tuning candidates it depends on (check/scenario.ts, as the other checks do),
//   or a stated range `s < hi` (`lo <= s`) is empty there.
// Free names in a fact are index symbols (as inside `L[...]`): integers, and an index symbol
// bounded above by a fact ranges from 0, or from its stated lower bound.
import type * as ast from '../../../grammar/src/ast.js';
import * as X from '../expr/index.js';
import type { Elaborator } from './elaborate.js';
import type { Model } from './elaborate-model.js';
import { Scenarios, type Scenario } from './scenario.js';

/** The facts of one scope: ranges `lo <= s < hi` of index symbols, and other relations (0/1 expressions). */
export interface FactSet {
  ranges: Map<string, { lo: X.Expr; hi: X.Expr }>;
  relations: X.Expr[];
}
/** what the facts of one scope state: bounds of index symbols, other relations */
interface Stated {
  bounds: Map<string, { los: X.Expr[]; his: X.Expr[] }>;
  relations: X.Expr[];
}
interface ModelFacts {
  file: Stated;
  layouts: Map<string, Stated>;
  kernels: Map<string, { decl: ast.KernelDecl; facts: Stated }>;
}

const factsOf = new WeakMap<Model, ModelFacts>();

function modelFacts(model: Model): ModelFacts {
  let f = factsOf.get(model);
  if (!f) factsOf.set(model, (f = { file: emptyStated(), layouts: new Map(), kernels: new Map() }));
  return f;
}
function emptyStated(): Stated {
  return { bounds: new Map(), relations: [] };
}

const COMPARISONS = new Set(['<', '<=', '>', '>=', '==', '!=']);

/** Elaborates `assume` facts (file scope) into the model; reports `assume/...`. */
export function elaborateAssume(el: Elaborator, d: ast.AssumeDecl): void {
  addFacts(el, d.facts, modelFacts(el.model).file);
}

/** Elaborates a layout's or kernel's `where` clause into the model. */
export function elaborateWhere(el: Elaborator, w: ast.WhereClause, owner: { layout: string } | { kernel: ast.KernelDecl }): void {
  const mf = modelFacts(el.model);
  const set = emptyStated();
  addFacts(el, w.facts, set);
  if ('layout' in owner) mf.layouts.set(owner.layout, set);
  else mf.kernels.set(owner.kernel.name.name, { decl: owner.kernel, facts: set });
}

function addFacts(el: Elaborator, facts: readonly ast.Expr[], into: Stated): void {
  for (const f of facts) {
    if (f.kind === 'Error') continue;
    for (const part of conjuncts(f)) addFact(el, part, into);
  }
}

function conjuncts(e: ast.Expr): ast.Expr[] {
  return e.kind === 'Binary' && e.op === 'and' ? [...conjuncts(e.left), ...conjuncts(e.right)] : [e];
}

function isCondition(e: ast.Expr): boolean {
  if (e.kind === 'Binary') return COMPARISONS.has(e.op) || e.op === 'and' || e.op === 'or';
  return e.kind === 'Unary' && e.op === 'not';
}

function addFact(el: Elaborator, f: ast.Expr, into: Stated): void {
  if (!isCondition(f)) {
    el.report('assume/not-a-condition', f.range, 'a fact must be a condition, e.g. tid < T * T or N % 64 == 0');
    return;
  }
  const rel = el.int(f);
  if (!rel) return;
  const range = rangeFact(el, f);
  if (range) {
    let b = into.bounds.get(range.name);
    if (!b) into.bounds.set(range.name, (b = { los: [], his: [] }));
    if (range.lo) b.los.push(range.lo);
    if (range.hi) {
      b.his.push(range.hi);
      checkCondition(el, f, X.cmp('<', b.los[0] ?? X.int(0), range.hi), `no value of ${range.name} satisfies this`);
    }
    return;
  }
  into.relations.push(rel);
  checkCondition(el, f, rel, 'this fact is false');
}

/** `s < E`, `s <= E`, `E > s`, `s >= E`, ... with s a free index symbol and E free of s. */
function rangeFact(el: Elaborator, f: ast.Expr): { name: string; lo?: X.Expr; hi?: X.Expr } | undefined {
  if (f.kind !== 'Binary' || !['<', '<=', '>', '>='].includes(f.op)) return undefined;
  const isFree = (e: ast.Expr): e is ast.NameRef => e.kind === 'Name' && el.res.refs.get(e)?.kind === 'free';
  let name: ast.NameRef;
  let other: ast.Expr;
  let op = f.op;
  if (isFree(f.left)) [name, other] = [f.left, f.right];
  else if (isFree(f.right)) {
    [name, other] = [f.right, f.left];
    op = op === '<' ? '>' : op === '<=' ? '>=' : op === '>' ? '<' : '<=';
  } else return undefined;
  const b = el.int(other);
  if (!b || X.freeSymbols(b).has(name.name)) return undefined;
  switch (op) {
    case '<': return { name: name.name, hi: b };
    case '<=': return { name: name.name, hi: X.add(b, X.int(1)) };
    case '>': return { name: name.name, lo: X.add(b, X.int(1)) };
    default: return { name: name.name, lo: b };
  }
}

/**
 * Evaluates a condition over params and lets at the param values and at the combinations of the
 * tuning candidates it depends on (check/scenario.ts, the policy of every check); reports the first
 * scenario where it is false. Conditions that name index symbols are not checked.
 */
function checkCondition(el: Elaborator, f: ast.Expr, cond: X.Expr, what: string): void {
  const model = el.model;
  let c = cond;
  for (let k = 0; k < 64; k++) {
    const used = [...X.freeSymbols(c)].filter((s) => model.defs.has(s));
    if (!used.length) break;
    c = X.substitute(c, new Map(used.map((s) => [s, model.defs.get(s)!])));
  }
  const syms = [...X.freeSymbols(c)].sort();
  if (!syms.every((s) => model.params.get(s)?.value !== undefined)) return;
  const scenarios = new Scenarios(model);
  const at = (sc: Scenario) => syms.map((s) => `${s} = ${sc.env.get(s)}`).join(', ');
  for (const sc of scenarios.for([c]).scenarios) {
    if (scenarios.evaluate(c, sc) !== 0n) continue;
    const changed = [...sc.changed].map(([p, v]) => `${p} = ${v.value}`);
    const where = changed.length === 0 ? 'at the param values'
      : changed.length === 1 ? `for the tuning candidate ${changed[0]}` : `for the tuning candidates ${changed.join(' and ')}`;
    el.report('assume/false', f.range, `${what} ${where} (${at(sc)})`);
    return;
  }
}

/**
 * The facts that cover a query: the file's, the queried layout's (`where` on its declaration)
 * and the enclosing kernel's. Undefined when there are none.
 */
export function queryFacts(model: Model, layoutName: string | undefined, node: ast.Node): FactSet | undefined {
  const mf = factsOf.get(model);
  if (!mf) return undefined;
  const sets: Stated[] = [mf.file];
  const l = layoutName ? mf.layouts.get(layoutName) : undefined;
  if (l) sets.push(l);
  for (const k of mf.kernels.values()) {
    if (node.range.start >= k.decl.range.start && node.range.end <= k.decl.range.end) sets.push(k.facts);
  }
  const out: FactSet = { ranges: new Map(), relations: [] };
  const bounds = new Map<string, { los: X.Expr[]; his: X.Expr[] }>();
  for (const st of sets) {
    out.relations.push(...st.relations);
    for (const [n, b] of st.bounds) {
      const acc = bounds.get(n) ?? { los: [], his: [] };
      acc.los.push(...b.los);
      acc.his.push(...b.his);
      bounds.set(n, acc);
    }
  }
  for (const [n, b] of bounds) {
    const s = X.sym(n);
    // the first stated upper bound (and lower bound, else 0) is the range; the others are relations
    if (b.his.length) out.ranges.set(n, { lo: b.los[0] ?? X.int(0), hi: b.his[0] });
    else if (b.los.length) out.relations.push(X.cmp('>=', s, b.los[0]));
    for (const lo of b.los.slice(1)) out.relations.push(X.cmp('>=', s, lo));
    for (const hi of b.his.slice(1)) out.relations.push(X.cmp('<', s, hi));
  }
  return out.ranges.size || out.relations.length ? out : undefined;
}
