// Symbolic apply/inv (lego-semantics §6): the same walk as numeric.ts over digit trees
// (digits.ts), then one call to the range-aware simplifier with the facts listed in
// docs/algebra.md ("Assumptions"). Results assume what LEGO assumes: every index lies in its
// dimension's range, and the sizes of the chain agree (checks.ts reports when they do not).
import {
  add, and, arange, broadcastAranges, BudgetError, cmp, countOps, evaluate, floorDiv, freeSymbols, hasArange, int, mod, mul, select, simplifyAll, sub, substitute, sym, withBudget,
  type Expr, type Facts,
} from '../expr/index.js';
import { DigitOps, type Digit, type Radix } from './digits.js';
import { unitsOf } from './mono.js';
import {
  AlgebraError, asGroupBy, blocksOf, extent, isPerm, orderDims, permute, product, sliceRank, toExpr,
  type Block, type DimLike, type GroupBy, type Layout, type OrderBy,
} from './types.js';
import { dims as layoutDims } from './types.js';

/** A slice `start:stop` (defaults `0` and the dimension) that becomes a broadcast `tl.arange`. */
export interface SliceKey {
  readonly slice: true;
  readonly start?: DimLike;
  readonly stop?: DimLike;
  /** every step-th index from start (a positive integer expression; default 1) */
  readonly step?: DimLike;
}
/** A key item: an expression (assumed in range), a free index name, an integer, or a slice. */
export type KeyItem = Expr | string | number | bigint | SliceKey;

export interface SymContext {
  /** definitions of let-bound names used in dims (sizes are matched through them) */
  readonly defs?: ReadonlyMap<string, Expr>;
  /** param values: a floor division in a dim counts as exact only if it divides evenly here */
  readonly env?: ReadonlyMap<string, bigint>;
  /** extra relations known true (0/1 expressions) */
  readonly relations?: readonly Expr[];
  /**
   * stated ranges `lo <= s < hi` of symbols (`assume tid < T * T`); a symbol that indexes a
   * dimension keeps that dimension's range
   */
  readonly ranges?: ReadonlyMap<string, { lo: Expr; hi: Expr }>;
  /**
   * also give the simplifier `a % b == 0` for every exact floor division `a / b` in a dim (it can
   * then drop more `%`, e.g. matmul pid_m's `% max(1, num_pid_m // GM)`, but proving with these
   * facts is slower: about 15 ms instead of 1 ms for the pid layout)
   */
  readonly divisibility?: boolean;
  /** skip the simplifier (tests of the raw walk) */
  readonly raw?: boolean;
  /** most steps of symbolic work (expr/budget.ts) the query may take; default QUERY_BUDGET */
  readonly budget?: number;
}

export function slice(start?: DimLike, stop?: DimLike, step?: DimLike): SliceKey {
  return { slice: true, ...(start !== undefined ? { start } : {}), ...(stop !== undefined ? { stop } : {}), ...(step !== undefined ? { step } : {}) };
}

/** `L[key]`: the simplified physical flat index (ExpandBy: a select giving -1 on padding). */
export function applySym(L: Layout, key: readonly KeyItem[], ctx: SymContext = {}): Expr {
  return budgeted(ctx, () => applySymUnbudgeted(L, key, ctx));
}

/** Most steps (expr/budget.ts) one query may take: about 0.2 s; every query of the tests and examples needs less than 100,000. */
export const QUERY_BUDGET = 200_000;

function budgeted<T>(ctx: SymContext, f: () => T): T {
  try {
    return withBudget(ctx.budget ?? QUERY_BUDGET, f);
  } catch (e) {
    if (e instanceof BudgetError) {
      throw new AlgebraError(`this query's expressions grow too large to simplify (more than ${e.budget.toLocaleString('en-US')} steps); it was stopped`);
    }
    throw e;
  }
}

function applySymUnbudgeted(L: Layout, key: readonly KeyItem[], ctx: SymContext): Expr {
  const ds = layoutDims(L);
  if (key.length !== ds.length) throw new AlgebraError(`the layout has ${ds.length} dimensions, the key ${key.length} items`);
  const w = new Walk(ctx, [L, ...key.filter(isExprItem)]);
  // one slice gives a 1-D range: broadcasting only matters when ranges combine (docs/algebra.md)
  // a key item with a range inside (`2 * (0:8)`) is broadcast like a slice
  const ranged = (k: KeyItem) => typeof k === 'object' && ('slice' in k || hasArange(k));
  const r = key.filter(ranged).length > 1 ? sliceRank(L) : 1;
  const coords: Digit[] = key.map((k, pos) => w.keyDigit(k, pos, ds[pos], r));
  const e = w.applyLayout(L, coords);
  return w.finish(e);
}

/** `L.inv(x)`: one simplified expression per logical coordinate; `x` (a name or an expression) is assumed in [0, extent). */
export function invSym(L: Layout, x: Expr | string, ctx: SymContext = {}): Expr[] {
  return budgeted(ctx, () => invSymUnbudgeted(L, x, ctx));
}

function invSymUnbudgeted(L: Layout, x: Expr | string, ctx: SymContext): Expr[] {
  const w = new Walk(ctx, [L, ...(typeof x === 'string' ? [] : [x])]);
  const ext = extent(L);
  const xe = w.index(typeof x === 'string' ? sym(x) : x, int(0), ext);
  return w.finishAll(w.invLayout(L, w.ops.leaf(xe, ext)).map((d) => w.ops.value(d)));
}

function isExprItem(k: KeyItem): k is Expr {
  return typeof k === 'object' && !('slice' in k);
}

class Walk {
  readonly ops: DigitOps;
  private ranges = new Map<string, { lo: Expr; hi: Expr }>();
  private back = new Map<string, Expr>();
  private taken: Set<string>;
  private dimsSeen: Expr[] = [];
  private layoutDims: Expr[] = [];
  private n = 0;

  constructor(private ctx: SymContext, roots: readonly (Layout | Expr)[]) {
    this.taken = new Set();
    const dimExprs: Expr[] = [];
    for (const r of roots) {
      if ('key' in r) for (const s of freeSymbols(r)) this.taken.add(s);
      else {
        dimExprs.push(...allDims(r));
        for (const d of [...allDims(r), ...genpExprs(r)]) for (const s of freeSymbols(d)) this.taken.add(s);
      }
    }
    this.layoutDims = dimExprs;
    this.ops = new DigitOps({ defs: ctx.defs, env: ctx.env, units: unitsOf(dimExprs, { defs: ctx.defs, env: ctx.env }) });
    for (const [k, v] of ctx.defs ?? []) {
      this.taken.add(k);
      for (const s of freeSymbols(v)) this.taken.add(s);
    }
  }

  private fresh(): string {
    let s: string;
    do s = `_i${this.n++}_`;
    while (this.taken.has(s));
    this.taken.add(s);
    return s;
  }

  /** An index value with range [lo, hi): a symbol keeps its name, anything else gets a placeholder. */
  index(e: Expr, lo: Expr, hi: Expr): Expr {
    if (e.kind === 'sym' && !this.ranges.has(e.name)) {
      this.ranges.set(e.name, { lo, hi });
      return e;
    }
    if (e.kind === 'int') return e;
    const p = this.fresh();
    this.ranges.set(p, { lo, hi });
    this.back.set(p, e);
    return sym(p);
  }

  keyDigit(k: KeyItem, pos: number, dim: Expr, r: number): Digit {
    this.dimsSeen.push(dim);
    if (typeof k === 'number' || typeof k === 'bigint') return this.ops.leaf(int(k), dim);
    if (typeof k === 'string') return this.ops.leaf(this.index(sym(k), int(0), dim), dim);
    const bcast = r > 1 ? { axis: pos % r, rank: r } : undefined;
    if ('slice' in k) {
      const start = k.start === undefined ? int(0) : toExpr(k.start);
      const stop = k.stop === undefined ? dim : toExpr(k.stop);
      const step = k.step === undefined ? int(1) : toExpr(k.step);
      // a step slice a:b:s is a + s * arange(0, ceil((b - a) / s)), in [a, b)
      const a = step.kind === 'int' && step.value === 1n
        ? arange(start, stop, bcast)
        : add(start, mul(step, arange(int(0), this.count(start, stop, step), bcast)));
      const p = this.fresh();
      this.ranges.set(p, { lo: start, hi: stop });
      this.back.set(p, a);
      return this.ops.leaf(sym(p), dim);
    }
    const item = bcast && hasArange(k) ? broadcastAranges(k, bcast) : k;
    return this.ops.leaf(this.index(item, int(0), dim), dim);
  }

  /** ceil((stop - start) / step), simplified with the size symbols positive (a tl.arange bound) */
  private count(start: Expr, stop: Expr, step: Expr): Expr {
    const n = floorDiv(add(sub(stop, start), sub(step, int(1))), step);
    const positive = new Set([...freeSymbols(n)].filter((s) => !this.ranges.has(s)));
    return simplifyAll([n], { ranges: this.ranges, positive })[0];
  }

  private rad(e: Expr): Radix {
    return this.ops.radix(e);
  }

  // ---------------------------------------------------------------- apply

  applyLayout(L: Layout, coords: Digit[]): Expr {
    if (L.kind !== 'ExpandBy') return this.ops.horner(this.applyGroup(asGroupBy(L), coords));
    if (L.inner.kind === 'ExpandBy') throw new AlgebraError('ExpandBy cannot be nested');
    const flat = this.applyGroup(asGroupBy(L.inner), coords);
    const c = this.ops.unflatten(flat, L.expanded.map((d) => this.rad(d)));
    let inside: Expr = int(1);
    L.original.forEach((o, k) => {
      if (o.key !== L.expanded[k].key) inside = and(inside, cmp('<', this.ops.value(c[k]), o));
    });
    const f = this.ops.horner(c.map((d, k) => ({ ...d, ...this.rad(L.original[k]) })));
    return select(inside, f, int(-1));
  }

  private applyGroup(g: GroupBy, coords: Digit[]): Digit[] {
    let ds: Digit[] = coords;
    for (let i = g.chain.length - 1; i >= 0; i--) {
      const o = g.chain[i];
      ds = this.applyOrder(o, this.ops.unflatten(ds, orderDims(o).map((d) => this.rad(d))));
    }
    return ds;
  }

  private applyOrder(o: OrderBy, coords: Digit[]): Digit[] {
    const out: Digit[] = [];
    let at = 0;
    for (const b of o.blocks) {
      out.push(...this.applyBlock(b, coords.slice(at, at + b.dims.length)));
      at += b.dims.length;
    }
    return out;
  }

  private applyBlock(b: Block, coords: Digit[]): Digit[] {
    if (b.kind === 'RegP') {
      if (!isPerm(b.perm, b.dims.length)) throw new AlgebraError(`RegP permutation [${b.perm.join(', ')}] is not a permutation of 0..${b.dims.length - 1}`);
      return permute(coords, b.perm);
    }
    if (b.apply.indexNames.length !== b.dims.length) throw new AlgebraError(`GenP has ${b.dims.length} dims but its function takes ${b.apply.indexNames.length} indices`);
    const m = new Map(b.apply.indexNames.map((n, k) => [n, this.ops.value(coords[k])]));
    return [this.ops.leaf(substitute(b.apply.body, m), product(b.dims))];
  }

  // ---------------------------------------------------------------- inv

  invLayout(L: Layout, x: Digit): Digit[] {
    if (L.kind !== 'ExpandBy') return this.invGroup(asGroupBy(L), [x]);
    if (L.inner.kind === 'ExpandBy') throw new AlgebraError('ExpandBy cannot be nested');
    const c = this.ops.unflatten([x], L.original.map((d) => this.rad(d)));
    const lifted = c.map((d, k) => ({ ...d, ...this.rad(L.expanded[k]) }));
    return this.invGroup(asGroupBy(L.inner), lifted);
  }

  private invGroup(g: GroupBy, ds: Digit[]): Digit[] {
    for (const o of g.chain) ds = this.invOrder(o, ds);
    return this.ops.unflatten(ds, g.groupDims.flat().map((d) => this.rad(d)));
  }

  private invOrder(o: OrderBy, ds: Digit[]): Digit[] {
    const chunks: Digit[][] = [];
    for (let l = o.blocks.length - 1; l > 0; l--) {
      const b = o.blocks[l];
      const { low, high } = this.ops.splitLow(ds, this.rad(product(b.dims)));
      chunks[l] = this.invBlock(b, low);
      ds = high;
    }
    if (o.blocks.length) chunks[0] = this.invBlock(o.blocks[0], ds);
    return chunks.flat();
  }

  private invBlock(b: Block, ds: Digit[]): Digit[] {
    if (b.kind === 'RegP') {
      if (!isPerm(b.perm, b.dims.length)) throw new AlgebraError(`RegP permutation [${b.perm.join(', ')}] is not a permutation of 0..${b.dims.length - 1}`);
      const w = this.ops.unflatten(ds, permute(b.dims, b.perm).map((d) => this.rad(d)));
      const out = new Array<Digit>(w.length);
      for (let i = 0; i < w.length; i++) out[b.perm[i]] = w[i];
      return out;
    }
    if (!b.inverse) throw new AlgebraError(`${b.name ?? 'GenP'} has no inverse: a symbolic inv needs one`);
    if (b.inverse.results.length !== b.dims.length) throw new AlgebraError(`the inverse of ${b.name ?? 'GenP'} gives ${b.inverse.results.length} coordinates for a ${b.dims.length}-D tile`);
    const x = this.ops.horner(ds);
    const m = new Map([[b.inverse.argName, x]]);
    return b.inverse.results.map((r, k) => this.ops.leaf(substitute(r, m), b.dims[k]));
  }

  // ---------------------------------------------------------------- simplify

  facts(extraDims: readonly Expr[]): Facts {
    const positive = new Set<string>();
    const relations: Expr[] = [...(this.ctx.relations ?? [])];
    const seen = new Set<string>();
    const visitDim = (d: Expr): void => {
      for (const s of freeSymbols(d)) {
        if (this.ranges.has(s) || seen.has(s)) continue;
        seen.add(s);
        positive.add(s);
        const def = this.ctx.defs?.get(s);
        if (def) visitDim(def);
      }
      if (this.ctx.divisibility) {
        for (const [a, b] of floorDivs(d)) {
          if (!this.ctx.env || divides(a, b, this.ctx.env)) relations.push(cmp('==', mod(a, b), int(0)));
        }
      }
    };
    for (const d of [...this.dimsSeen, ...this.layoutDims, ...extraDims, ...[...this.ranges.values()].flatMap((r) => [r.lo, r.hi])]) visitDim(d);
    // every dimension is a positive integer
    const atoms = new Map<string, Expr>();
    for (const d of [...this.dimsSeen, ...this.layoutDims]) if (d.kind !== 'int' && d.kind !== 'sym') atoms.set(d.key, d);
    for (const d of atoms.values()) relations.push(cmp('>=', d, int(1)));
    let ranges: ReadonlyMap<string, { lo: Expr; hi: Expr }> = this.ranges;
    if (this.ctx.ranges?.size) {
      const merged = new Map(this.ranges);
      for (const [k, r] of this.ctx.ranges) {
        if (!merged.has(k)) merged.set(k, r);
        else relations.push(cmp('>=', sym(k), r.lo), cmp('<', sym(k), r.hi));
        positive.delete(k);
      }
      ranges = merged;
    }
    return { ranges, positive, relations };
  }

  finish(e: Expr): Expr {
    return this.finishAll([e])[0];
  }

  /** finish for several expressions (the coordinates of an inv), one simplifier per pass */
  finishAll(es: readonly Expr[]): Expr[] {
    let outs = [...es];
    if (!this.ctx.raw) {
      const ss = simplifyAll(es, this.facts([]));
      outs = es.map((e, k) => (countOps(ss[k]) <= countOps(e) ? ss[k] : e));
    }
    if (!this.back.size) return outs;
    const placed = outs.map((o) => substitute(o, this.back, { keepNonneg: true }));
    if (this.ctx.raw || !this.factsReach()) return placed;
    // stated facts about the symbols inside an index expression (`assume tid < T * T`): also
    // simplify with the expressions in place, each known to lie in its range, and keep the
    // shorter result (LUD's inv((ii*R + jj)*T*T + tid) is then ii, jj, tid / T, tid % T)
    const rel: Expr[] = [];
    for (const [p, x] of this.back) {
      const r = this.ranges.get(p)!;
      if (x.kind !== 'arange') rel.push(cmp('>=', x, r.lo), cmp('<', x, r.hi));
    }
    const base = this.facts([]);
    const inPlace = simplifyAll(placed, { ...base, relations: [...(base.relations ?? []), ...rel] });
    return placed.map((p, k) => (countOps(inPlace[k]) <= countOps(p) ? inPlace[k] : p));
  }

  /** true when a stated relation names a symbol of a substituted index expression */
  private factsReach(): boolean {
    const inside = new Set<string>();
    for (const x of this.back.values()) for (const s of freeSymbols(x)) inside.add(s);
    if ([...(this.ctx.ranges?.keys() ?? [])].some((s) => inside.has(s))) return true;
    return (this.ctx.relations ?? []).some((r) => [...freeSymbols(r)].some((s) => inside.has(s)));
  }
}

function divides(a: Expr, b: Expr, env: ReadonlyMap<string, bigint>): boolean {
  const bv = evaluateSafe(b, env);
  const av = evaluateSafe(a, env);
  return bv !== undefined && av !== undefined && bv !== 0n && av % bv === 0n;
}
function evaluateSafe(e: Expr, env: ReadonlyMap<string, bigint>): bigint | undefined {
  try {
    return evaluate(e, env);
  } catch {
    return undefined;
  }
}

/** Every floor division `a // b` inside `e`. */
function floorDivs(e: Expr): [Expr, Expr][] {
  const out: [Expr, Expr][] = [];
  const walk = (x: Expr): void => {
    if (x.kind === 'floordiv') out.push([x.a, x.b]);
    switch (x.kind) {
      case 'add': x.terms.forEach(walk); break;
      case 'mul': x.factors.forEach(walk); break;
      case 'floordiv': case 'mod': case 'bit': walk(x.a); walk(x.b); break;
      case 'min': case 'max': case 'and': case 'or': x.args.forEach(walk); break;
      case 'select': walk(x.cond); walk(x.then); walk(x.otherwise); break;
      case 'cmp': walk(x.lhs); break;
      case 'not': walk(x.arg); break;
      default: break;
    }
  };
  walk(e);
  return out;
}

/** Every dimension expression of a layout (for symbol bookkeeping). */
export function allDims(L: Layout): Expr[] {
  switch (L.kind) {
    case 'RegP': case 'GenP': return [...L.dims];
    case 'OrderBy': return orderDims(L);
    case 'GroupBy': return [...L.groupDims.flat(), ...L.chain.flatMap(orderDims)];
    case 'TileBy': return [...L.levels.flat(), ...L.chain.flatMap(orderDims)];
    case 'ExpandBy': return [...allDims(L.inner), ...L.original, ...L.expanded];
  }
}
/** Every GenP body and inverse expression of a layout. */
function genpExprs(L: Layout): Expr[] {
  return blocksOf(L).flatMap((b) => (b.kind === 'GenP' ? [b.apply.body, ...(b.inverse?.results ?? [])] : []));
}
