// size/groupby-mismatch, size/tile-mismatch, size/rank-mismatch: element counts and ranks that
// disagree inside one layout, at the params' values and at each tuning candidate.
//
// - a GroupBy's logical view and every OrderBy of its chain must hold the same number of elements;
// - under TileBy, per dimension, the product of the levels' extents must equal the extent each
//   OrderBy of the chain tiles (the product of its blocks' extents in that dimension);
// - TileBy levels share one rank; under TileBy the blocks of an OrderBy share it too; a GenP's
//   tile has as many dims as its perm takes indices.
// A size that contains a non-dividing `/` is left to tile/not-divisible (no cascade), and the
// candidates of a check that already fails at the params' values are not reported again.
import type { ast, Diagnostic } from '../../../../grammar/src/index.js';
import type { LayoutShape, OrderShape } from './shape.js';
import type { RuleContext } from './types.js';
import type { Scenario } from './values.js';
import { expressions, fmtList } from './walk.js';

export function checkSizes(ctx: RuleContext): Diagnostic[] {
  const shapes = ctx.index.shapes;
  const out: Diagnostic[] = [];
  for (const d of ctx.decls) {
    for (const e of expressions(d)) {
      if (e.kind === 'MethodCall' && (e.method.name === 'GroupBy' || e.method.name === 'TileBy')) visit(shapes.of(e));
      else if (e.kind === 'Call' && e.callee.name === 'GroupBy') visit(shapes.of(e));
      else if (e.kind === 'Call' && e.callee.name === 'GenP') out.push(...genpRank(ctx, e));
    }
  }
  function visit(s: LayoutShape | undefined): void {
    if (s?.kind === 'GroupBy') out.push(...groupBy(ctx, s));
    else if (s?.kind === 'TileBy') out.push(...tileBy(ctx, s));
  }
  return out;
}

type GroupShape = Extract<LayoutShape, { kind: 'GroupBy' }>;
type TileShape = Extract<LayoutShape, { kind: 'TileBy' }>;

/** Runs `check` at the params' values, and at each candidate that can change `es` only when that passes. */
function eachScenario(ctx: RuleContext, es: readonly ast.Expr[], check: (sc: Scenario) => Diagnostic | undefined): Diagnostic[] {
  const base = check(ctx.values.base);
  if (base) return [base];
  const out: Diagnostic[] = [];
  for (const sc of ctx.values.scenariosFor(es).slice(1)) {
    const d = check(sc);
    if (d) out.push(d);
  }
  return out;
}

function groupBy(ctx: RuleContext, g: GroupShape): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const o of g.chain) {
    const dims = o.blocks.flatMap((b) => b.dims);
    out.push(...eachScenario(ctx, [...g.dims, ...dims], (sc) => {
      const view = product(ctx, g.dims, sc);
      const total = product(ctx, dims, sc);
      if (view === undefined || total === undefined || view === total) return undefined;
      const values = g.dims.map((d) => ctx.values.value(d, sc)!);
      return {
        code: 'size/groupby-mismatch',
        severity: 'error',
        message: `GroupBy ${fmtList(values)} has ${view} elements but ${label(ctx, o.node)} has ${total}${when(sc)}`,
        range: g.dimsNode.range,
        related: [{ message: `this OrderBy has ${total} elements`, range: ownRange(o.node) }],
      };
    }));
  }
  return out;
}

function tileBy(ctx: RuleContext, t: TileShape): Diagnostic[] {
  const out: Diagnostic[] = [];
  const d = t.levels[0].items.length;
  t.levels.forEach((lv, l) => {
    if (lv.items.length !== d) {
      out.push(rank(lv.node, `TileBy level ${l} has ${dims(lv.items.length)} but level 0 has ${d}`, t.levels[0].node, 'level 0'));
    }
  });
  if (out.length) return out;
  for (const o of t.chain) {
    if (o.tileOrder) continue;
    const r = o.blocks[0].dims.length;
    const odd = o.blocks.find((b) => b.dims.length !== r);
    if (odd) {
      out.push(rank(odd.node, `under TileBy the blocks of an OrderBy share one rank: ${label(ctx, odd.node)} has ${dims(odd.dims.length)} but ${label(ctx, o.blocks[0].node)} has ${r}`, o.blocks[0].node, 'the first block'));
      continue;
    }
    if (r !== d) {
      out.push(rank(t.levels[0].node, `TileBy levels have ${dims(d)} but the blocks of ${label(ctx, o.node)} have ${r}`, o.node, 'the tiled OrderBy'));
      continue;
    }
    for (let k = 0; k < d; k++) out.push(...tileDim(ctx, t, o, k));
  }
  return out;
}

function tileDim(ctx: RuleContext, t: TileShape, o: OrderShape, k: number): Diagnostic[] {
  const items = t.levels.map((lv) => lv.items[k]);
  const extents = o.blocks.map((b) => b.dims[k]);
  return eachScenario(ctx, [...items, ...extents], (sc) => {
    const tiled = product(ctx, items, sc);
    const ext = product(ctx, extents, sc);
    if (tiled === undefined || ext === undefined || tiled === ext) return undefined;
    const parts = items.map((it) => ctx.values.value(it, sc)!);
    const how = parts.length > 1 ? `${parts.join(' * ')} = ${tiled}` : `${tiled}`;
    return {
      code: 'size/tile-mismatch',
      severity: 'error',
      message: `TileBy levels give dimension ${k} ${how} elements but ${label(ctx, o.node)} has ${ext}${when(sc)}`,
      range: items[0].range,
      related: [{ message: `dimension ${k} of this OrderBy has ${ext} elements`, range: ownRange(o.node) }],
    };
  });
}

/** GenP(dims, perm(...)): the tile's rank must be the number of indices the perm takes. */
function genpRank(ctx: RuleContext, e: ast.Call): Diagnostic[] {
  if (e.args.length < 2 || ctx.resolution.refs.get(e.callee)?.kind !== 'constructor') return [];
  const dimsNode = e.args[0];
  if (dimsNode.kind !== 'List' && dimsNode.kind !== 'Tuple') return [];
  const use = e.args[1];
  const ref = use.kind === 'Call' ? use.callee : use.kind === 'Name' ? use : undefined;
  const def = ref && ctx.resolution.refs.get(ref);
  const perm = def?.kind === 'perm' ? (def.decl as ast.PermDecl | undefined) : undefined;
  if (!perm || perm.kind !== 'Perm' || perm.indices.length === dimsNode.items.length) return [];
  return [rank(dimsNode, `GenP's tile has ${dims(dimsNode.items.length)} but ${perm.name.name} takes ${perm.indices.length} ${perm.indices.length === 1 ? 'index' : 'indices'}`, perm.name, `${perm.name.name} is declared here`)];
}

function rank(node: ast.Node, message: string, other: ast.Node, otherLabel: string): Diagnostic {
  return { code: 'size/rank-mismatch', severity: 'error', message, range: node.range, related: [{ message: otherLabel, range: other.range }] };
}

function dims(n: number): string {
  return `${n} ${n === 1 ? 'dim' : 'dims'}`;
}

/** Π values, or undefined when one does not evaluate or holds a non-dividing `/`. */
function product(ctx: RuleContext, es: readonly ast.Expr[], sc: Scenario): bigint | undefined {
  let p = 1n;
  for (const e of es) {
    const v = ctx.values.value(e, sc);
    if (v === undefined || ctx.values.inexactDivisions(e, sc).length) return undefined;
    p *= v;
  }
  return p;
}

/** A node's own range: for `recv.OrderBy(...)`, from the method name on. */
export function ownRange(n: ast.Expr): ast.Range {
  return n.kind === 'MethodCall' ? { start: n.method.range.start, end: n.range.end } : n.range;
}

/** ` when BM = 64 (a candidate of BM)` for a candidate scenario. */
export function when(sc: Scenario): string {
  return sc.candidate ? ` when ${sc.candidate.param} = ${sc.candidate.value} (a candidate of ${sc.candidate.param})` : '';
}

/** A node's source on one line, or `Name(...)` when longer than 40 characters. */
export function label(ctx: RuleContext, n: ast.Call | ast.MethodCall | ast.Expr): string {
  const src = ctx.text.slice(ownRange(n).start, ownRange(n).end).replace(/\s+/g, ' ');
  if (src.length <= 40) return src;
  const head = n.kind === 'Call' ? n.callee.name : n.kind === 'MethodCall' ? n.method.name : 'layout';
  return `${head}(...)`;
}
