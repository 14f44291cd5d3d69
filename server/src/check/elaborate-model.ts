// The elaborated model of a file and the values of expression nodes (see elaborate.ts).
import type * as ast from '../../../grammar/src/ast.js';
import type * as A from '../algebra/index.js';
import type * as X from '../expr/index.js';

export interface ParamModel {
  name: string;
  isConst: boolean;
  /** undefined when the value does not evaluate (reported) */
  value?: bigint;
  candidates: bigint[];
  item: ast.ParamItem;
}
export interface LetModel {
  name: string;
  /** the definition, params symbolic, consts folded */
  def?: X.Expr;
  value?: bigint;
  decl: ast.LetDecl;
}
export interface PermModel {
  name: string;
  decl: ast.PermDecl;
  params: string[];
  indices: string[];
  body?: X.Expr;
  inverse?: { argName: string; results: X.Expr[] };
}
export interface LayoutModel {
  name: string;
  decl: ast.LayoutDecl;
  layout?: A.Layout;
}
/** A query: `L[key]` / `L.apply(key)` (one result) or `L.inv(x)` (one result per coordinate). */
export interface Query {
  node: ast.IndexExpr | ast.MethodCall;
  kind: 'apply' | 'inv';
  layout: A.Layout;
  /** the layout's declared name when the receiver is a name */
  layoutName?: string;
  key: A.KeyItem[];
  /** `.inv`'s argument: a free name or an expression */
  x?: X.Expr | string;
}
export interface KernelModel {
  name: string;
  decl: ast.KernelDecl;
  bindings: { binding: ast.Binding; names: string[]; value: Val }[];
}

/** The value of an expression node. */
export type Val =
  | { k: 'int'; e: X.Expr }
  | { k: 'layout'; L: A.Layout }
  /** an open chain of OrderBys (`OrderBy(...).OrderBy(...)`), before `.GroupBy`/`.TileBy` */
  | { k: 'chain'; chain: A.OrderBy[] }
  | { k: 'list'; items: Val[]; tuple: boolean }
  /** an applied perm: `antidiag(3)` */
  | { k: 'perm'; perm: PermModel; args: X.Expr[] }
  | { k: 'query'; q: Query }
  /** a string (schedules use them; here they are only carried) */
  | { k: 'string'; s: string }
  /** already reported (or reported by an earlier stage) */
  | { k: 'bad' };

export interface Model {
  params: Map<string, ParamModel>;
  lets: Map<string, LetModel>;
  perms: Map<string, PermModel>;
  layouts: Map<string, LayoutModel>;
  kernels: Map<string, KernelModel>;
  /** param, const and let values */
  env: Map<string, bigint>;
  /** symbolic let definitions (lets that stay symbols) */
  defs: Map<string, X.Expr>;
  queries: Map<ast.Expr, Query>;
  /** the value of every elaborated expression node (for hover) */
  values: Map<ast.Expr, Val>;
}

export const BAD: Val = { k: 'bad' };

/** The layout value of a Val (a chain of one OrderBy is that OrderBy). */
export function layoutOfVal(v: Val): A.Layout | string {
  if (v.k === 'layout') return v.L;
  if (v.k === 'chain') {
    if (v.chain.length === 1) return v.chain[0];
    return `a chain of ${v.chain.length} OrderBys is not a layout yet: finish it with .GroupBy(...) or .TileBy(...)`;
  }
  return `expected a layout, found ${describe(v)}`;
}

export function describe(v: Val): string {
  switch (v.k) {
    case 'int': return 'a number';
    case 'layout': return `a layout (${v.L.kind})`;
    case 'chain': return 'a chain of OrderBys';
    case 'list': return v.tuple ? 'a tuple' : 'a list';
    case 'perm': return `a permutation (${v.perm.name})`;
    case 'query': return v.q.kind === 'inv' ? 'the coordinates of an inv query' : 'a query';
    case 'string': return 'a string';
    case 'bad': return 'an invalid value';
  }
}

