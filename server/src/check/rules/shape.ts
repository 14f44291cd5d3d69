// The structure of a layout expression as the size and query rules need it: which OrderBys form
// a GroupBy's or TileBy's chain, the blocks of each and the AST expression of every dimension,
// so that a size problem can point at the exact dimension, block or level that causes it.
// Follows layout names to their declarations. Method chains follow LEGO's API (lego-semantics
// §3–§5): `a.OrderBy(...)` appends to a's chain, `.GroupBy(dims)` and `.TileBy(levels...)` close it.
// Anything it does not recognise is `undefined` (the elaborator reports malformed layouts).
import type { ast, Resolution } from '../../../../grammar/src/index.js';
import { isConstructorCall, itemsOf } from './walk.js';

export interface BlockShape {
  node: ast.Call;
  kind: 'Row' | 'Col' | 'RegP' | 'GenP';
  dims: ast.Expr[];
}

export interface OrderShape {
  node: ast.Call | ast.MethodCall;
  blocks: BlockShape[];
  /** `TileOrderBy(levels...)`: one block whose dims are all the levels' extents */
  tileOrder?: boolean;
}

export type LayoutShape =
  | { kind: 'Block'; block: BlockShape }
  | { kind: 'OrderBy'; chain: OrderShape[] }
  | { kind: 'GroupBy'; node: ast.Call | ast.MethodCall; dimsNode: ast.Expr; dims: ast.Expr[]; chain: OrderShape[] }
  | { kind: 'TileBy'; node: ast.MethodCall; levels: { node: ast.Expr; items: ast.Expr[] }[]; chain: OrderShape[] }
  | { kind: 'ExpandBy'; node: ast.Call; inner: LayoutShape; original: ast.Expr[] };

export class Shapes {
  private readonly memo = new Map<ast.Expr, LayoutShape | undefined>();
  private readonly layouts = new Map<string, ast.LayoutDecl>();
  private readonly visiting = new Set<ast.Expr>();

  constructor(file: ast.File, private readonly resolution: Resolution) {
    for (const d of file.decls) if (d.kind === 'Layout' && !this.layouts.has(d.name.name)) this.layouts.set(d.name.name, d);
  }

  /** The shape of a layout expression, or undefined when it is not one (or is malformed). */
  of(e: ast.Expr): LayoutShape | undefined {
    if (this.memo.has(e)) return this.memo.get(e);
    if (this.visiting.has(e)) return undefined; // a cycle: resolution reports it
    this.visiting.add(e);
    let s: LayoutShape | undefined;
    try {
      s = this.build(e);
    } finally {
      this.visiting.delete(e);
    }
    this.memo.set(e, s);
    return s;
  }

  /** The logical dimensions (the indices `L[...]` and `.apply(...)` take). */
  logicalDims(s: LayoutShape): ast.Expr[] | undefined {
    switch (s.kind) {
      case 'Block': return s.block.dims;
      case 'OrderBy': return s.chain.length === 1 ? s.chain[0].blocks.flatMap((b) => b.dims) : undefined;
      case 'GroupBy': return s.dims;
      case 'TileBy': return s.levels.flatMap((l) => l.items);
      case 'ExpandBy': return this.logicalDims(s.inner);
    }
  }

  /** The dimensions whose product is the number of physical elements (the range of `.inv`). */
  physicalDims(s: LayoutShape): ast.Expr[] | undefined {
    return s.kind === 'ExpandBy' ? s.original : this.logicalDims(s);
  }

  private build(e: ast.Expr): LayoutShape | undefined {
    const r = this.resolution;
    switch (e.kind) {
      case 'Name': {
        const def = r.refs.get(e);
        const decl = def?.kind === 'layout' ? this.layouts.get(def.name) : undefined;
        return decl ? this.of(decl.value) : undefined;
      }
      case 'Call': {
        const block = this.block(e);
        if (block) return { kind: 'Block', block };
        if (isConstructorCall(e, 'OrderBy', r) || isConstructorCall(e, 'TileOrderBy', r)) {
          const o = this.order(e);
          return o ? { kind: 'OrderBy', chain: [o] } : undefined;
        }
        if (isConstructorCall(e, 'GroupBy', r) && e.args.length === 2) {
          const dims = groupDims(e.args[0]);
          const objs = itemsOf(e.args[1]);
          if (!dims || !objs) return undefined;
          const chain: OrderShape[] = [];
          for (const o of objs) {
            const s = this.of(o);
            if (s?.kind !== 'OrderBy') return undefined;
            chain.push(...s.chain);
          }
          return { kind: 'GroupBy', node: e, dimsNode: e.args[0], dims, chain };
        }
        if (isConstructorCall(e, 'ExpandBy', r) && (e.args.length === 2 || e.args.length === 3)) {
          const inner = this.of(e.args[0]);
          const original = itemsOf(e.args[1]);
          return inner && original ? { kind: 'ExpandBy', node: e, inner, original } : undefined;
        }
        return undefined;
      }
      case 'MethodCall': {
        const m = e.method.name;
        if (m !== 'OrderBy' && m !== 'GroupBy' && m !== 'TileBy') return undefined;
        const recv = this.of(e.receiver);
        if (recv?.kind !== 'OrderBy') return undefined;
        if (m === 'OrderBy') {
          const o = this.order(e);
          return o ? { kind: 'OrderBy', chain: [...recv.chain, o] } : undefined;
        }
        if (m === 'GroupBy') {
          const dims = e.args.length >= 1 ? groupDims(e.args[0]) : undefined;
          return dims ? { kind: 'GroupBy', node: e, dimsNode: e.args[0], dims, chain: recv.chain } : undefined;
        }
        const levels: { node: ast.Expr; items: ast.Expr[] }[] = [];
        for (const a of e.args) {
          const items = itemsOf(a);
          if (!items) return undefined;
          levels.push({ node: a, items });
        }
        return levels.length ? { kind: 'TileBy', node: e, levels, chain: recv.chain } : undefined;
      }
      default:
        return undefined;
    }
  }

  private block(e: ast.Call): BlockShape | undefined {
    const r = this.resolution;
    for (const kind of ['Row', 'Col'] as const) if (isConstructorCall(e, kind, r)) return { node: e, kind, dims: e.args };
    for (const kind of ['RegP', 'GenP'] as const) {
      if (!isConstructorCall(e, kind, r)) continue;
      const dims = itemsOf(e.args[0]);
      return dims ? { node: e, kind, dims } : undefined;
    }
    return undefined;
  }

  private order(e: ast.Call | ast.MethodCall): OrderShape | undefined {
    if (e.kind === 'Call' && e.callee.name === 'TileOrderBy') {
      const dims: ast.Expr[] = [];
      for (const a of e.args) {
        const items = itemsOf(a);
        if (!items) return undefined;
        dims.push(...items);
      }
      return { node: e, blocks: [{ node: e as ast.Call, kind: 'RegP', dims }], tileOrder: true };
    }
    const blocks: BlockShape[] = [];
    for (const a of e.args) {
      const b = a.kind === 'Call' ? this.block(a) : undefined;
      if (!b) return undefined;
      blocks.push(b);
    }
    return blocks.length ? { node: e, blocks } : undefined;
  }
}

/** A GroupBy's dims: `[6, 6]` or per-level tuples `[(2, 3), (2, 3)]`, flattened. */
function groupDims(e: ast.Expr): ast.Expr[] | undefined {
  const items = itemsOf(e);
  if (!items) return undefined;
  const out: ast.Expr[] = [];
  for (const it of items) {
    const inner = itemsOf(it);
    if (inner) out.push(...inner);
    else out.push(it);
  }
  return out;
}
