// Evaluating a query of the elaborated model for hover, the CLI and code generation:
// `queryExpr` gives the simplified expression(s), `queryText` prints them in a language.
import type * as ast from '../../../grammar/src/ast.js';
import * as A from '../algebra/index.js';
import * as X from '../expr/index.js';
import type { Model } from './elaborate-model.js';
import { queryFacts } from './assume.js';

export type Lang = 'c' | 'python' | 'triton' | 'mlir';

export interface QueryOptions {
  /** replace let symbols by their definitions (default: lets stay by name, as in LEGO's output) */
  inlineLets?: boolean;
}

export type QueryResult =
  | { ok: true; kind: 'apply' | 'inv' | 'value'; exprs: X.Expr[] }
  | { ok: false; message: string };

/**
 * The expression(s) of a query node (`L[...]`, `L.apply(...)`: one; `L.inv(x)`: one per
 * coordinate), or of any other integer-valued node (`value`). Never throws.
 */
export function queryExpr(model: Model, node: ast.Expr, opts: QueryOptions = {}): QueryResult {
  const q = model.queries.get(node);
  let kind: 'apply' | 'inv' | 'value';
  let exprs: X.Expr[];
  try {
    if (q) {
      const facts = queryFacts(model, q.layoutName, node);
      const ctx: A.SymContext = { env: model.env, defs: model.defs, ...(facts ? { ranges: facts.ranges, relations: facts.relations } : {}) };
      kind = q.kind;
      exprs = q.kind === 'apply' ? [A.applySym(q.layout, q.key, ctx)] : A.invSym(q.layout, q.x!, ctx);
    } else {
      const v = model.values.get(node);
      if (!v || v.k !== 'int') return { ok: false, message: v ? 'this is not an integer expression or a query' : 'this expression was not elaborated (see the other diagnostics)' };
      kind = 'value';
      exprs = [v.e];
    }
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
  if (opts.inlineLets) exprs = exprs.map((e) => inline(e, model.defs));
  return { ok: true, kind, exprs };
}

/** Substitutes let definitions until no let symbol is left (definitions are acyclic). */
export function inline(e: X.Expr, defs: ReadonlyMap<string, X.Expr>): X.Expr {
  for (let k = 0; k < 64; k++) {
    const used = [...X.freeSymbols(e)].filter((s) => defs.has(s));
    if (!used.length) return e;
    e = X.substitute(e, new Map(used.map((s) => [s, defs.get(s)!])));
  }
  return e;
}

/** Prints expressions: one string per expression, or for MLIR one block of SSA lines (the results named last). */
export function printExprs(exprs: X.Expr[], lang: Lang): string[] {
  if (lang === 'mlir') {
    const syms = new Set<string>();
    for (const e of exprs) for (const s of X.freeSymbols(e)) syms.add(s);
    const { lines, results } = X.printMlir(exprs, { symbols: new Map([...syms].sort().map((s) => [s, `%${s}`])) });
    return [[...lines, `// result${results.length > 1 ? 's' : ''}: ${results.join(', ')}`].join('\n')];
  }
  const p = lang === 'c' ? X.printC : lang === 'python' ? X.printPython : X.printTriton;
  return exprs.map((e) => p(e));
}

/** `queryExpr` printed in `lang`, with operation counts. Never throws. */
export function queryText(model: Model, node: ast.Expr, lang: Lang, opts: QueryOptions = {}):
  { ok: true; kind: 'apply' | 'inv' | 'value'; texts: string[]; ops: number[] } | { ok: false; message: string } {
  const r = queryExpr(model, node, opts);
  if (!r.ok) return r;
  try {
    return { ok: true, kind: r.kind, texts: printExprs(r.exprs, lang), ops: r.exprs.map((e) => X.countOps(e)) };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}
