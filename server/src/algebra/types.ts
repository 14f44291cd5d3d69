// Layouts as immutable values (LEGO's algebra, docs/algebra.md). Constructors only build data;
// every operation is a free function (numeric.ts, symbolic.ts, checks.ts). Dimensions are
// `Expr`s so that sizes can stay symbolic; numeric work evaluates them under an environment.
import { int, mul, type Expr } from '../expr/index.js';

/** Something a dimension can be given as. */
export type DimLike = Expr | number | bigint;

/** A regular permutation of a tile's dimensions (`perm` is 0-based). */
export interface RegP {
  readonly kind: 'RegP';
  readonly dims: readonly Expr[];
  readonly perm: readonly number[];
  /** how it was written, for display: `Row`, `Col` or `RegP` */
  readonly sugar?: 'Row' | 'Col';
}

/** The apply function of a user permutation: `body` is an expression over `indexNames`. */
export interface GenPApply {
  readonly indexNames: readonly string[];
  readonly body: Expr;
}
/** Its optional inverse: one expression per coordinate, over `argName` (the flat index). */
export interface GenPInverse {
  readonly argName: string;
  readonly results: readonly Expr[];
}

/** A general, user-defined permutation of a tile's elements. */
export interface GenP {
  readonly kind: 'GenP';
  readonly dims: readonly Expr[];
  readonly apply: GenPApply;
  readonly inverse?: GenPInverse;
  /** the perm's name, for display */
  readonly name?: string;
}

export type Block = RegP | GenP;

/** A reordering over a tile hierarchy: one block per level, outermost (most significant) first. */
export interface OrderBy {
  readonly kind: 'OrderBy';
  readonly blocks: readonly Block[];
  /** set when built by `TileOrderBy(levels...)` (display only; `blocks` holds the meaning) */
  readonly tileLevels?: readonly (readonly Expr[])[];
}

/** A logical view (`groupDims`, one shape per level) over a chain of reorderings, applied in reverse. */
export interface GroupBy {
  readonly kind: 'GroupBy';
  readonly groupDims: readonly (readonly Expr[])[];
  readonly chain: readonly OrderBy[];
}

/** Hierarchical tiling (§5): the logical index is the tile-coordinate tuple, outermost level first. */
export interface TileBy {
  readonly kind: 'TileBy';
  readonly chain: readonly OrderBy[];
  readonly levels: readonly (readonly Expr[])[];
}

/**
 * Partial tiles (docs/algebra.md): `inner` is applied in an expanded physical space of shape
 * `expanded`; only points inside `original` are real elements, the others map to -1.
 */
export interface ExpandBy {
  readonly kind: 'ExpandBy';
  readonly inner: Layout;
  readonly original: readonly Expr[];
  readonly expanded: readonly Expr[];
}

export type Layout = Block | OrderBy | GroupBy | TileBy | ExpandBy;

/** A structural problem that makes a layout impossible to evaluate (rank or arity errors). */
export class AlgebraError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AlgebraError';
  }
}

export function toExpr(d: DimLike): Expr {
  return typeof d === 'number' || typeof d === 'bigint' ? int(d) : d;
}

// ------------------------------------------------------------------ constructors

export function RegP(dims: readonly DimLike[], perm: readonly number[]): RegP {
  return { kind: 'RegP', dims: dims.map(toExpr), perm: [...perm] };
}
export function Row(...dims: DimLike[]): RegP {
  return { kind: 'RegP', dims: dims.map(toExpr), perm: dims.map((_, i) => i), sugar: 'Row' };
}
/** Column-major: a full reversal of the dimensions. */
export function Col(...dims: DimLike[]): RegP {
  return { kind: 'RegP', dims: dims.map(toExpr), perm: dims.map((_, i) => dims.length - 1 - i), sugar: 'Col' };
}
export function GenP(dims: readonly DimLike[], apply: GenPApply, inverse?: GenPInverse, name?: string): GenP {
  const g: GenP = { kind: 'GenP', dims: dims.map(toExpr), apply, ...(inverse ? { inverse } : {}), ...(name ? { name } : {}) };
  return g;
}
export function OrderBy(...blocks: Block[]): OrderBy {
  return { kind: 'OrderBy', blocks: [...blocks] };
}
/** `GroupBy(groupDims, chain)`; a flat list of dims is one level. The chain is applied in reverse. */
export function GroupBy(groupDims: readonly (readonly DimLike[])[] | readonly DimLike[], chain: readonly OrderBy[]): GroupBy {
  const levels = isNested(groupDims) ? groupDims.map((l) => l.map(toExpr)) : [(groupDims as readonly DimLike[]).map(toExpr)];
  return { kind: 'GroupBy', groupDims: levels, chain: [...chain] };
}
export function TileBy(chain: readonly OrderBy[], levels: readonly (readonly DimLike[])[]): TileBy {
  return { kind: 'TileBy', chain: [...chain], levels: levels.map((l) => l.map(toExpr)) };
}
/** `TileOrderBy(L0, L1, ...)`: the reordering from the natural row-major order to the level-major tiled order. */
export function TileOrderBy(...levels: (readonly DimLike[])[]): OrderBy {
  const lv = levels.map((l) => l.map(toExpr));
  const d = lv[0]?.length ?? 0;
  const flat = lv.flat();
  const sig = sigma(d, lv.length);
  return { kind: 'OrderBy', blocks: [RegP(permute(flat, sig), invertPerm(sig))], tileLevels: lv };
}
/** `ExpandBy(inner, original, expanded?)`; `expanded` defaults to `physicalShape(inner)`. */
export function ExpandBy(inner: Layout, original: readonly DimLike[], expanded?: readonly DimLike[]): ExpandBy {
  const exp = expanded ? expanded.map(toExpr) : physicalShape(inner);
  if (!exp) throw new AlgebraError('ExpandBy needs the expanded shape: the inner layout has no natural physical shape');
  return { kind: 'ExpandBy', inner, original: original.map(toExpr), expanded: exp };
}

function isNested(x: readonly (readonly DimLike[])[] | readonly DimLike[]): x is readonly (readonly DimLike[])[] {
  return x.length > 0 && Array.isArray(x[0]);
}

// ------------------------------------------------------------------ permutations

/** σ_{d×q}: for each dimension k, the positions k, k+d, ..., k+(q-1)d (level-major → dimension-major). */
export function sigma(d: number, q: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < d; k++) for (let l = 0; l < q; l++) out.push(k + l * d);
  return out;
}
export function invertPerm(p: readonly number[]): number[] {
  const out = new Array<number>(p.length);
  p.forEach((v, i) => (out[v] = i));
  return out;
}
/** `v` permuted by `p`: `out[i] = v[p[i]]`. */
export function permute<T>(v: readonly T[], p: readonly number[]): T[] {
  return p.map((i) => v[i]);
}
/** Is `p` a permutation of 0..n-1? */
export function isPerm(p: readonly number[], n: number): boolean {
  if (p.length !== n) return false;
  const seen = new Set<number>();
  for (const v of p) {
    if (!Number.isInteger(v) || v < 0 || v >= n || seen.has(v)) return false;
    seen.add(v);
  }
  return true;
}

// ------------------------------------------------------------------ shapes

export function blockDims(b: Block): readonly Expr[] {
  return b.dims;
}
export function orderDims(o: OrderBy): Expr[] {
  return o.blocks.flatMap((b) => b.dims);
}
/** The logical shape (the index space of `apply`). */
export function dims(L: Layout): readonly Expr[] {
  switch (L.kind) {
    case 'RegP': case 'GenP': return L.dims;
    case 'OrderBy': return orderDims(L);
    case 'GroupBy': return L.groupDims.flat();
    case 'TileBy': return L.levels.flat();
    case 'ExpandBy': return dims(L.inner);
  }
}
export function product(es: readonly Expr[]): Expr {
  return es.length === 0 ? int(1) : es.length === 1 ? es[0] : mul(...es);
}
/** The number of logical points, `Π dims(L)`. */
export function size(L: Layout): Expr {
  return product(dims(L));
}
/** The number of physical elements (the codomain of apply, the domain of inv): `size` except for ExpandBy. */
export function extent(L: Layout): Expr {
  return L.kind === 'ExpandBy' ? product(L.original) : size(L);
}

/** The untiled shape a TileBy's physical space is laid out in (per dimension, the product over levels). */
export function physicalShape(L: Layout): Expr[] | undefined {
  if (L.kind === 'TileBy') {
    const d = L.levels[0]?.length ?? 0;
    return Array.from({ length: d }, (_, k) => product(L.levels.map((lv) => lv[k] ?? int(1))));
  }
  if (L.kind === 'RegP') return permute(L.dims, L.perm);
  return undefined;
}

/** The chain as a GroupBy (TileBy expanded per §5; blocks and OrderBys become one-object GroupBys). */
export function asGroupBy(L: Exclude<Layout, ExpandBy>): GroupBy {
  switch (L.kind) {
    case 'RegP': case 'GenP': return { kind: 'GroupBy', groupDims: [L.dims], chain: [OrderBy(L)] };
    case 'OrderBy': return { kind: 'GroupBy', groupDims: [orderDims(L)], chain: [L] };
    case 'GroupBy': return L;
    case 'TileBy': return expandTileBy(L);
  }
}

/** `TileBy` per §5: each chain object, then its re-tiling, then the level-major → row-major map. */
export function expandTileBy(t: TileBy): GroupBy {
  const objs: OrderBy[] = [];
  for (const o of t.chain) {
    objs.push(o);
    const od = orderDims(o);
    const d = o.blocks[0]?.dims.length ?? 0;
    const q = o.blocks.length;
    if (d * q !== od.length) throw new AlgebraError(`the blocks of an OrderBy under TileBy must all have rank ${d}`);
    const s = sigma(d, q);
    objs.push(OrderBy(RegP(permute(od, s), invertPerm(s))));
  }
  const all = t.levels.flat();
  const d = t.levels[0]?.length ?? 0;
  if (t.levels.some((l) => l.length !== d)) throw new AlgebraError(`every TileBy level must have rank ${d}`);
  objs.push(OrderBy(RegP(all, sigma(d, t.levels.length))));
  return { kind: 'GroupBy', groupDims: [all], chain: objs };
}

/** The rank `r` used to broadcast slices (§6): the rank of the first object in the chain. */
export function sliceRank(L: Layout): number {
  switch (L.kind) {
    case 'RegP': case 'GenP': return L.dims.length;
    case 'OrderBy': return orderDims(L).length;
    case 'GroupBy': case 'TileBy': return L.chain.length ? orderDims(L.chain[0]).length : dims(L).length;
    case 'ExpandBy': return sliceRank(L.inner);
  }
}

/** Every block of a layout, in source order. */
export function blocksOf(L: Layout): Block[] {
  switch (L.kind) {
    case 'RegP': case 'GenP': return [L];
    case 'OrderBy': return [...L.blocks];
    case 'GroupBy': case 'TileBy': return L.chain.flatMap((o) => [...o.blocks]);
    case 'ExpandBy': return blocksOf(L.inner);
  }
}
