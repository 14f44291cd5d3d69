// The elaborated model of a file and the values of expression nodes (see elaborate.ts): the one
// interpretation of the AST that every check, hover, query and generator reads. Besides values
// it records what checks need to point back at the source: param definitions (first one wins),
// the AST node each layout value was built from (`origins`), every division with its role, the
// uses of queries, and the integer arguments of schedule blocks. To extend it, add a field here,
// fill it in the Elaborator (elaborate.ts / elaborate-calls.ts) and read it in the check.
import type * as ast from '../../../grammar/src/ast.js';
import type * as A from '../algebra/index.js';
import type * as X from '../expr/index.js';

export interface ParamModel {
  name: string;
  isConst: boolean;
  /** undefined when the value does not evaluate (reported) */
  value?: bigint;
  /** the value's expression, other params symbolic (re-evaluated when a tuning candidate of one of them is tried) */
  def?: X.Expr;
  /** tuning candidates that evaluate, in source order, with the node each came from */
  candidates: bigint[];
  candidateNodes: ast.Expr[];
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
/** A layout value's source: the call or method call that built it and the nodes of its dimensions. */
export type Origin =
  /** Row, Col, RegP, GenP: `dims` are the dimension nodes */
  | { kind: 'block'; node: ast.Call; decl: ast.Decl; dims: ast.Expr[] }
  /** OrderBy(...), .OrderBy(...), TileOrderBy(...): per block its node and dimension nodes */
  | { kind: 'order'; node: ast.Call | ast.MethodCall; decl: ast.Decl; blocks: { node: ast.Expr; dims: ast.Expr[] }[]; tileOrder: boolean }
  /** GroupBy: the logical shape's node and its dimension nodes (levels flattened) */
  | { kind: 'group'; node: ast.Call | ast.MethodCall; decl: ast.Decl; dimsNode: ast.Expr; dims: ast.Expr[] }
  /** TileBy: each level's node and items */
  | { kind: 'tile'; node: ast.Call | ast.MethodCall; decl: ast.Decl; levels: { node: ast.Expr; items: ast.Expr[] }[] }
  | { kind: 'expand'; node: ast.Call | ast.MethodCall; decl: ast.Decl; original: ast.Expr[] };

/**
 * Where a division stands: `size` in a param, let or layout value (LEGO's exact division: a
 * remainder is reported), `clamp` inside min/max, `index` in a query's indices, `perm` in a perm
 * body, `other` elsewhere (kernel bindings, schedule arguments, perm arguments).
 */
export type DivisionRole = 'size' | 'clamp' | 'index' | 'perm' | 'other';
export interface Division {
  node: ast.Binary;
  /** written `//`: an intended floor division, never reported */
  floor: boolean;
  role: DivisionRole;
  decl: ast.Decl;
  left: X.Expr;
  right: X.Expr;
  /** set when the division is item `dim` of the outermost level of this TileBy (either spelling) */
  tileBy?: { call: ast.Call | ast.MethodCall; dim: number };
}

/** A query as written (recorded even when its indices do not elaborate): what the query checks read. */
export interface QueryUse {
  node: ast.IndexExpr | ast.MethodCall;
  kind: 'apply' | 'inv';
  layout: A.Layout;
  layoutName?: string;
  /** the index nodes (`L[...]`, `.apply(...)`) or the arguments of `.inv(...)` */
  indices: (ast.Expr | ast.Slice)[];
  /** where the indices are written: `[...]` or `(...)` */
  indicesRange: ast.Range;
  decl: ast.Decl;
}

/** A use `GenP(dims, perm(args))` of a perm declared in the file (what the bijectivity check enumerates). */
export interface GenPUse {
  node: ast.Call;
  decl: ast.Decl;
  perm: PermModel;
  /** the tile's dimensions and the perm's size arguments, params symbolic */
  dims: X.Expr[];
  args: X.Expr[];
  /** `antidiag(3)` or a bare `flip` */
  use: ast.Call | ast.NameRef;
}

/** A schedule block's integer arguments (payload sizes, step arguments) as elaborated. */
export interface ScheduleModel {
  name: string;
  decl: ast.ScheduleDecl;
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
  /** params and consts by name; a name declared twice keeps its first definition (name/duplicate reports the second) */
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
  /** params (and consts) and lets with a value, in declaration order: how scenarios recompute `env` */
  order: { kind: 'param' | 'let'; name: string }[];
  /** the source of each layout value built (by identity; a named layout's parts are shared) */
  origins: Map<A.Layout, Origin>;
  /** every division, in elaboration order */
  divisions: Division[];
  /** every query use, in elaboration order */
  queryUses: QueryUse[];
  genps: GenPUse[];
  schedules: Map<string, ScheduleModel>;
}

export function emptyModel(): Model {
  return {
    params: new Map(), lets: new Map(), perms: new Map(), layouts: new Map(), kernels: new Map(),
    env: new Map(), defs: new Map(), queries: new Map(), values: new Map(),
    order: [], origins: new Map(), divisions: [], queryUses: [], genps: [], schedules: new Map(),
  };
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


/** What the model records of one declaration, in the model's order (see `ofDecl`). */
export interface DeclParts {
  origins: [A.Layout, Origin][];
  divisions: Division[];
  queryUses: QueryUse[];
  genps: GenPUse[];
}

const NO_PARTS: DeclParts = { origins: [], divisions: [], queryUses: [], genps: [] };
const partsMemo = new WeakMap<Model, { origins: number; divisions: number; queryUses: number; genps: number; byDecl: Map<ast.Decl, DeclParts> }>();

/**
 * The origins, divisions, query uses and GenP uses of `decl`, in the order the model holds them:
 * a rule that checks one declaration reads these instead of scanning the whole file's lists (which
 * made checking every declaration of a file quadratic). Built once per model and rebuilt when the
 * model has grown since (the incremental analysis elaborates more declarations into it).
 */
export function ofDecl(model: Model, decl: ast.Decl): DeclParts {
  let m = partsMemo.get(model);
  if (!m || m.origins !== model.origins.size || m.divisions !== model.divisions.length || m.queryUses !== model.queryUses.length || m.genps !== model.genps.length) {
    const byDecl = new Map<ast.Decl, DeclParts>();
    const at = (d: ast.Decl): DeclParts => {
      let p = byDecl.get(d);
      if (!p) byDecl.set(d, (p = { origins: [], divisions: [], queryUses: [], genps: [] }));
      return p;
    };
    for (const e of model.origins) at(e[1].decl).origins.push(e);
    for (const d of model.divisions) at(d.decl).divisions.push(d);
    for (const q of model.queryUses) at(q.decl).queryUses.push(q);
    for (const g of model.genps) at(g.decl).genps.push(g);
    partsMemo.set(model, (m = { origins: model.origins.size, divisions: model.divisions.length, queryUses: model.queryUses.length, genps: model.genps.length, byDecl }));
  }
  return m.byDecl.get(decl) ?? NO_PARTS;
}
