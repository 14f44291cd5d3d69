// Structural and size checks as plain data (no source ranges: check/ attaches locations via
// the `where` path), and the paper's classification of layouts.
import { evaluate, freeSymbols, type Expr } from '../expr/index.js';
import { structureKey } from './structure.js';
import { applySym } from './symbolic.js';
import {
  isPerm, orderDims, physicalShape, type Block, type Layout, type OrderBy,
} from './types.js';
import { dims as layoutDims } from './types.js';

/** Where in a layout value a problem sits (indices into the value's lists). */
export interface Where {
  /** index into the chain of OrderBys */
  chain?: number;
  /** index of the block inside that OrderBy */
  block?: number;
  /** index of the TileBy level or GroupBy level */
  level?: number;
  /** which dimension (of the block, level or shape) */
  dim?: number;
  /** ExpandBy parts */
  part?: 'original' | 'expanded';
}

export type SizeProblem =
  /** the logical view and an OrderBy of the chain hold different numbers of elements */
  | { kind: 'chain-size'; where: Where; chainSize: bigint; viewSize: bigint; message: string }
  /** a TileBy level or a block under TileBy has another rank than the first */
  | { kind: 'rank'; where: Where; rank: number; expected: number; message: string }
  /** per dimension, the TileBy levels do not cover the extent the OrderBy tiles */
  | { kind: 'tile-extent'; where: Where; tiled: bigint; extent: bigint; message: string }
  /** RegP's permutation is not a permutation of its dims */
  | { kind: 'perm'; where: Where; perm: readonly number[]; rank: number; message: string }
  /** GenP's function takes another number of indices than the tile has dims */
  | { kind: 'genp-arity'; where: Where; indices: number; rank: number; message: string }
  /** a dimension is not a positive integer below 2^53, or cannot be evaluated */
  | { kind: 'dim'; where: Where; message: string }
  /** a floor division inside a dimension leaves a remainder */
  | { kind: 'inexact-division'; where: Where; a: bigint; b: bigint; message: string }
  /** ExpandBy's shapes disagree with each other or with the inner layout */
  | { kind: 'expand'; where: Where; message: string };

const LIMIT = 2n ** 53n;

/** Every size and shape problem of `L` at the parameter values `env`. */
export function sizeMismatches(L: Layout, env: ReadonlyMap<string, bigint>): SizeProblem[] {
  const out: SizeProblem[] = [];
  const val = (e: Expr, where: Where): bigint | undefined => {
    let v: bigint;
    try {
      v = evaluate(e, env);
    } catch (err) {
      out.push({ kind: 'dim', where, message: `cannot evaluate this dimension: ${(err as Error).message}` });
      return undefined;
    }
    inexact(e, env, where, out);
    if (v < 1n || v >= LIMIT) {
      out.push({ kind: 'dim', where, message: `this dimension is ${v}; dimensions must be positive integers below 2^53` });
      return undefined;
    }
    return v;
  };
  const prod = (es: readonly Expr[], where: (i: number) => Where): bigint | undefined => {
    let p = 1n;
    let ok = true;
    es.forEach((e, i) => {
      const v = val(e, where(i));
      if (v === undefined) ok = false;
      else p *= v;
    });
    return ok ? p : undefined;
  };
  const blockChecks = (b: Block, where: Where): void => {
    if (b.kind === 'RegP' && !isPerm(b.perm, b.dims.length))
      out.push({ kind: 'perm', where, perm: b.perm, rank: b.dims.length, message: `[${b.perm.join(', ')}] is not a permutation of 0..${b.dims.length - 1}` });
    if (b.kind === 'GenP' && b.apply.indexNames.length !== b.dims.length)
      out.push({ kind: 'genp-arity', where, indices: b.apply.indexNames.length, rank: b.dims.length, message: `the permutation takes ${b.apply.indexNames.length} indices but the tile has ${b.dims.length} dims` });
  };
  const chainChecks = (chain: readonly OrderBy[], view: bigint | undefined): (bigint | undefined)[] =>
    chain.map((o, c) => {
      o.blocks.forEach((b, k) => blockChecks(b, { chain: c, block: k }));
      let s: bigint | undefined = 1n;
      o.blocks.forEach((b, k) => {
        const p = prod(b.dims, (i) => ({ chain: c, block: k, dim: i }));
        s = p === undefined || s === undefined ? undefined : s * p;
      });
      if (s !== undefined && view !== undefined && s !== view)
        out.push({ kind: 'chain-size', where: { chain: c }, chainSize: s, viewSize: view, message: `this OrderBy has ${s} elements but the logical view has ${view}` });
      return s;
    });

  switch (L.kind) {
    case 'RegP': case 'GenP':
      blockChecks(L, {});
      prod(L.dims, (i) => ({ dim: i }));
      break;
    case 'OrderBy':
      chainChecks([L], undefined);
      break;
    case 'GroupBy': {
      let view: bigint | undefined = 1n;
      L.groupDims.forEach((lv, l) => {
        const p = prod(lv, (i) => ({ level: l, dim: i }));
        view = p === undefined || view === undefined ? undefined : view * p;
      });
      chainChecks(L.chain, view);
      break;
    }
    case 'TileBy':
      tileChecks(L.chain, L.levels, out, prod, chainChecks, env);
      break;
    case 'ExpandBy': {
      out.push(...sizeMismatches(L.inner, env));
      const o = prod(L.original, (i) => ({ part: 'original', dim: i }));
      const e = prod(L.expanded, (i) => ({ part: 'expanded', dim: i }));
      if (L.original.length !== L.expanded.length) {
        out.push({ kind: 'expand', where: { part: 'original' }, message: `the original shape has rank ${L.original.length}, the expanded shape ${L.expanded.length}` });
        break;
      }
      if (L.inner.kind !== 'ExpandBy' && e !== undefined) {
        const inner = prodQuiet(layoutDims(L.inner), env);
        if (inner !== undefined && inner !== e)
          out.push({ kind: 'expand', where: { part: 'expanded' }, message: `the expanded shape has ${e} elements but the layout has ${inner}` });
      }
      L.original.forEach((d, k) => {
        const a = quiet(d, env);
        const b = quiet(L.expanded[k], env);
        if (a !== undefined && b !== undefined && a > b)
          out.push({ kind: 'expand', where: { part: 'original', dim: k }, message: `the original extent ${a} exceeds the expanded extent ${b}` });
      });
      void o;
      break;
    }
  }
  return out;
}

function tileChecks(
  chain: readonly OrderBy[], levels: readonly (readonly Expr[])[], out: SizeProblem[],
  prod: (es: readonly Expr[], where: (i: number) => Where) => bigint | undefined,
  chainChecks: (chain: readonly OrderBy[], view: bigint | undefined) => (bigint | undefined)[],
  env: ReadonlyMap<string, bigint>,
): void {
  const d = levels[0]?.length ?? 0;
  let rankOk = true;
  levels.forEach((lv, l) => {
    if (lv.length !== d) {
      rankOk = false;
      out.push({ kind: 'rank', where: { level: l }, rank: lv.length, expected: d, message: `this level has rank ${lv.length} but the first level has rank ${d}` });
    }
  });
  let view: bigint | undefined = 1n;
  levels.forEach((lv, l) => {
    const p = prod(lv, (i) => ({ level: l, dim: i }));
    view = p === undefined || view === undefined ? undefined : view * p;
  });
  chainChecks(chain, view);
  chain.forEach((o, c) => {
    const od = o.blocks[0]?.dims.length ?? 0;
    let ok = true;
    o.blocks.forEach((b, k) => {
      if (b.dims.length !== od) {
        ok = false;
        out.push({ kind: 'rank', where: { chain: c, block: k }, rank: b.dims.length, expected: od, message: `under TileBy every block of an OrderBy must have the same rank; this one has ${b.dims.length}, the first ${od}` });
      }
    });
    if (!ok || !rankOk || od !== d) return;
    for (let k = 0; k < d; k++) {
      const tiled = prodQuiet(levels.map((lv) => lv[k]), env);
      const ext = prodQuiet(o.blocks.map((b) => b.dims[k]), env);
      if (tiled !== undefined && ext !== undefined && tiled !== ext)
        out.push({ kind: 'tile-extent', where: { chain: c, dim: k }, tiled, extent: ext, message: `dimension ${k} is tiled to ${tiled} elements but this OrderBy's dimension ${k} has ${ext}` });
    }
  });
}

function quiet(e: Expr, env: ReadonlyMap<string, bigint>): bigint | undefined {
  try {
    return evaluate(e, env);
  } catch {
    return undefined;
  }
}
function prodQuiet(es: readonly Expr[], env: ReadonlyMap<string, bigint>): bigint | undefined {
  let p = 1n;
  for (const e of es) {
    const v = quiet(e, env);
    if (v === undefined) return undefined;
    p *= v;
  }
  return p;
}

function inexact(e: Expr, env: ReadonlyMap<string, bigint>, where: Where, out: SizeProblem[]): void {
  const walk = (x: Expr): void => {
    if (x.kind === 'floordiv') {
      const a = quiet(x.a, env);
      const b = quiet(x.b, env);
      if (a !== undefined && b !== undefined && b !== 0n && a % b !== 0n)
        out.push({ kind: 'inexact-division', where, a, b, message: `${b} does not divide ${a}` });
    }
    if (x.kind === 'add') x.terms.forEach(walk);
    else if (x.kind === 'mul') x.factors.forEach(walk);
    else if (x.kind === 'floordiv' || x.kind === 'mod') { walk(x.a); walk(x.b); }
    else if (x.kind === 'min' || x.kind === 'max') x.args.forEach(walk);
  };
  walk(e);
}

export type LayoutClass = 'affine' | 'piecewise' | 'user-genp';

/**
 * The paper's classification: `user-genp` when a GenP occurs; otherwise `affine` when apply,
 * with free indices, simplifies to a sum of index terms with index-free coefficients, and
 * `piecewise` (div/mod at tile borders, or ExpandBy's padding select) when it does not.
 */
export function classify(L: Layout): LayoutClass {
  if (hasGenP(L)) return 'user-genp';
  // a pure function of the layout's structure (no environment): kept by its key, so that a
  // layout elaborated again to the same value (an edit elsewhere in its declarations: a hover
  // computes its text again) is not simplified again
  const key = structureKey(L)!;
  let c = classes.get(key);
  if (c === undefined) {
    c = classifyStructure(L);
    if (classes.size >= MAX_CLASSES) classes.delete(classes.keys().next().value!);
    classes.set(key, c);
  }
  return c;
}

/** classifications by `structureKey`, at most MAX_CLASSES (the oldest dropped) */
const classes = new Map<string, LayoutClass>();
const MAX_CLASSES = 2000;

function classifyStructure(L: Layout): LayoutClass {
  const ds = layoutDims(L);
  const names = ds.map((_, k) => `_c${k}_`);
  let e: Expr;
  try {
    e = applySym(L, names);
  } catch {
    return 'piecewise';
  }
  return isAffineIn(e, new Set(names)) ? 'affine' : 'piecewise';
}

function hasGenP(L: Layout): boolean {
  switch (L.kind) {
    case 'GenP': return true;
    case 'RegP': return false;
    case 'OrderBy': return L.blocks.some((b) => b.kind === 'GenP');
    case 'GroupBy': case 'TileBy': return L.chain.some((o) => o.blocks.some((b) => b.kind === 'GenP'));
    case 'ExpandBy': return hasGenP(L.inner);
  }
}

function isAffineIn(e: Expr, idx: ReadonlySet<string>): boolean {
  const free = (x: Expr): boolean => [...freeSymbols(x)].every((s) => !idx.has(s));
  if (free(e)) return true;
  switch (e.kind) {
    case 'sym': return true;
    case 'add': return e.terms.every((t) => isAffineIn(t, idx));
    case 'mul': return e.factors.filter((f) => !free(f)).length === 1 && e.factors.every((f) => free(f) || f.kind === 'sym');
    default: return false;
  }
}

export { orderDims, physicalShape };
