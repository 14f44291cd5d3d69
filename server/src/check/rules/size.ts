// size/groupby-mismatch, size/tile-mismatch, size/rank-mismatch: element counts and ranks that
// disagree inside one layout, at the params' values and at the combinations of tuning candidates
// the sizes depend on (check/scenario.ts).
//
// - a GroupBy's logical view and every OrderBy of its chain must hold the same number of elements;
// - under TileBy, per dimension, the product of the levels' extents must equal the extent each
//   OrderBy of the chain tiles (the product of its blocks' extents in that dimension);
// - TileBy levels share one rank; under TileBy the blocks of an OrderBy share it too; a GenP's
//   tile has as many dims as its perm takes indices.
// Every layout the elaborator built is checked, whatever its spelling (`GroupBy(dims, [chain])`
// or `chain.GroupBy(dims)`, `TileOrderBy(...)` or `.TileOrderBy(...)`): the rule reads the
// model's origins, not the syntax. A size that contains a non-dividing `/` is left to
// tile/not-divisible (no cascade), and the candidates of a check that already fails at the
// params' values are not reported again.
import type { ast, Diagnostic } from '../../../../grammar/src/index.js';
import type * as A from '../../algebra/index.js';
import type { Origin } from '../elaborate-model.js';
import { describeScenario, limitedDiagnostic, type Scenario } from '../scenario.js';
import { partsOf, type RuleContext } from './types.js';
import { inexactIn, intExprs } from './sizes.js';
import { fmtList } from './walk.js';

type GroupOrigin = Extract<Origin, { kind: 'group' }>;
type TileOrigin = Extract<Origin, { kind: 'tile' }>;
type OrderOrigin = Extract<Origin, { kind: 'order' }>;

export function checkSizes(ctx: RuleContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const [L, o] of partsOf(ctx, 'origins')) {
    if (o.kind === 'group' && L.kind === 'GroupBy') out.push(...groupBy(ctx, o, chainOrigins(ctx, L.chain)));
    else if (o.kind === 'tile' && L.kind === 'TileBy') out.push(...tileBy(ctx, o, chainOrigins(ctx, L.chain)));
  }
  for (const g of partsOf(ctx, 'genps')) out.push(...genpRank(g));
  return out;
}

/** The origins of a chain's OrderBys (those built in the file). */
function chainOrigins(ctx: RuleContext, chain: readonly A.OrderBy[]): OrderOrigin[] {
  const out: OrderOrigin[] = [];
  for (const o of chain) {
    const r = ctx.model.origins.get(o);
    if (r?.kind === 'order') out.push(r);
  }
  return out;
}

/** Runs `check` at the params' values, and at each candidate combination that can change `es` only when that passes. */
function eachScenario(ctx: RuleContext, es: readonly ast.Expr[], at: ast.Range, check: (sc: Scenario) => Diagnostic | undefined): Diagnostic[] {
  const base = check(ctx.scenarios.base);
  if (base) return [base];
  const set = ctx.scenarios.for(intExprs(ctx, es));
  const out: Diagnostic[] = [];
  for (const sc of set.scenarios.slice(1)) {
    const d = check(sc);
    if (d) out.push(d);
  }
  return [...out, ...limitedDiagnostic(set, at, 'this size')];
}

function groupBy(ctx: RuleContext, g: GroupOrigin, chain: OrderOrigin[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  // the first OrderBy of the chain whose size differs from the view is reported: one error per GroupBy
  for (const o of chain) {
    if (out.some((d) => d.severity === 'error')) break;
    const dims = o.blocks.flatMap((b) => b.dims);
    out.push(...eachScenario(ctx, [...g.dims, ...dims], g.dimsNode.range, (sc) => {
      const view = product(ctx, g.dims, sc);
      const total = product(ctx, dims, sc);
      if (view === undefined || total === undefined || view === total) return undefined;
      const values = g.dims.map((d) => ctx.scenarios.value(d, sc)!);
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

function tileBy(ctx: RuleContext, t: TileOrigin, chain: OrderOrigin[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (t.levels.length === 0) return out;
  const d = t.levels[0].items.length;
  t.levels.forEach((lv, l) => {
    if (lv.items.length !== d) {
      out.push(rank(lv.node, `TileBy level ${l} has ${dims(lv.items.length)} but level 0 has ${d}`, t.levels[0].node, 'level 0'));
    }
  });
  if (out.length) return out;
  for (const o of chain) {
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

function tileDim(ctx: RuleContext, t: TileOrigin, o: OrderOrigin, k: number): Diagnostic[] {
  const items = t.levels.map((lv) => lv.items[k]);
  const extents = o.blocks.map((b) => b.dims[k]);
  return eachScenario(ctx, [...items, ...extents], items[0].range, (sc) => {
    const tiled = product(ctx, items, sc);
    const ext = product(ctx, extents, sc);
    if (tiled === undefined || ext === undefined || tiled === ext) return undefined;
    const parts = items.map((it) => ctx.scenarios.value(it, sc)!);
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
function genpRank(g: RuleContext['model']['genps'][number]): Diagnostic[] {
  const dimsNode = g.node.args[0];
  const perm = g.perm.decl;
  if (!dimsNode || (dimsNode.kind !== 'List' && dimsNode.kind !== 'Tuple') || perm.indices.length === dimsNode.items.length) return [];
  return [rank(dimsNode, `GenP's tile has ${dims(dimsNode.items.length)} but ${perm.name.name} takes ${perm.indices.length} ${perm.indices.length === 1 ? 'index' : 'indices'}`, perm.name, `${perm.name.name} is declared here`)];
}

/** Π values, or undefined when one does not evaluate or holds a non-dividing `/`. */
function product(ctx: RuleContext, es: readonly ast.Expr[], sc: Scenario): bigint | undefined {
  let p = 1n;
  for (const e of es) {
    const v = ctx.scenarios.value(e, sc);
    if (v === undefined || inexactIn(ctx, e, sc)) return undefined;
    p *= v;
  }
  return p;
}

function rank(node: ast.Node, message: string, other: ast.Node, otherLabel: string): Diagnostic {
  return { code: 'size/rank-mismatch', severity: 'error', message, range: node.range, related: [{ message: otherLabel, range: other.range }] };
}

function dims(n: number): string {
  return `${n} ${n === 1 ? 'dim' : 'dims'}`;
}

/** A node's own range: for `recv.OrderBy(...)`, from the method name on. */
export function ownRange(n: ast.Expr): ast.Range {
  return n.kind === 'MethodCall' ? { start: n.method.range.start, end: n.range.end } : n.range;
}

/** ` when BM = 64 (a candidate of BM)` for a candidate scenario. */
export function when(sc: Scenario): string {
  const d = describeScenario(sc);
  return d ? ` when ${d}` : '';
}

/** A node's source on one line, or `Name(...)` when longer than 40 characters. */
export function label(ctx: RuleContext, n: ast.Call | ast.MethodCall | ast.Expr): string {
  const src = ctx.text.slice(ownRange(n).start, ownRange(n).end).replace(/\s+/g, ' ');
  if (src.length <= 40) return src;
  const head = n.kind === 'Call' ? n.callee.name : n.kind === 'MethodCall' ? n.method.name : 'layout';
  return `${head}(...)`;
}
