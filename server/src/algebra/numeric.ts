// Numeric apply/inv, straight from the definitions (lego-semantics §1–§5, ExpandBy per
// docs/algebra.md). Dimensions are evaluated once under `env` (`prepare`); the walk itself
// runs on JS numbers, which is exact because every size is checked to stay below 2^53.
import { evaluate, EvalError, type Expr } from '../expr/index.js';
import { compileNum, type NumFn } from './compile.js';
import {
  AlgebraError, asGroupBy, extent, isPerm, orderDims, permute, type Block, type GenP, type Layout, type OrderBy,
} from './types.js';

export type Env = ReadonlyMap<string, bigint>;

const LIMIT = 2 ** 53;

/** A block with evaluated dims. */
export type NumBlock =
  | { kind: 'RegP'; dims: number[]; perm: readonly number[]; pdims: number[]; size: number }
  | { kind: 'GenP'; dims: number[]; size: number; fn: NumFn; invFns?: NumFn[]; invTable?: Int32Array | Float64Array; src: GenP };
export interface NumOrder { blocks: NumBlock[]; dims: number[]; size: number }
/** A layout with every dimension evaluated, ready for repeated apply/inv. */
export interface Prepared {
  dims: number[];
  size: number;
  /** the GroupBy chain (or the inner layout's, for ExpandBy) */
  chain: NumOrder[];
  expand?: { original: number[]; expanded: number[]; originalSize: number };
}

/** Evaluates one dimension: a positive integer below 2^53. */
export function evalDim(e: Expr, env: Env): number {
  let v: bigint;
  try {
    v = evaluate(e, env);
  } catch (err) {
    throw err instanceof EvalError ? new AlgebraError(`cannot evaluate a dimension: ${err.message}`) : err;
  }
  if (v < 1n) throw new AlgebraError(`a dimension evaluates to ${v}; dimensions must be positive`);
  if (v >= BigInt(LIMIT)) throw new AlgebraError(`a dimension evaluates to ${v}, beyond 2^53`);
  return Number(v);
}

function prod(xs: readonly number[], what: string): number {
  let p = 1;
  for (const x of xs) {
    p *= x;
    if (p >= LIMIT) throw new AlgebraError(`the size of ${what} exceeds 2^53`);
  }
  return p;
}

function prepareBlock(b: Block, env: Env): NumBlock {
  const dims = b.dims.map((d) => evalDim(d, env));
  const size = prod(dims, b.kind);
  if (b.kind === 'RegP') {
    if (!isPerm(b.perm, dims.length)) throw new AlgebraError(`RegP permutation [${b.perm.join(', ')}] is not a permutation of 0..${dims.length - 1}`);
    return { kind: 'RegP', dims, perm: b.perm, pdims: permute(dims, b.perm), size };
  }
  if (b.apply.indexNames.length !== dims.length)
    throw new AlgebraError(`GenP has ${dims.length} dims but its function takes ${b.apply.indexNames.length} indices`);
  const fn = compileNum(b.apply.body, b.apply.indexNames, env);
  const invFns = b.inverse ? b.inverse.results.map((r) => compileNum(r, [b.inverse!.argName], env)) : undefined;
  if (invFns && invFns.length !== dims.length)
    throw new AlgebraError(`GenP inverse gives ${invFns.length} coordinates for a ${dims.length}-D tile`);
  return { kind: 'GenP', dims, size, fn, invFns, src: b };
}

function prepareOrder(o: OrderBy, env: Env): NumOrder {
  const blocks = o.blocks.map((b) => prepareBlock(b, env));
  const dims = blocks.flatMap((b) => b.dims);
  return { blocks, dims, size: prod(dims, 'an OrderBy') };
}

/** Evaluates every dimension of `L` under `env`. Throws AlgebraError on a structural or size problem. */
export function prepare(L: Layout, env: Env): Prepared {
  if (L.kind === 'ExpandBy') {
    const inner = prepare(L.inner, env);
    if (inner.expand) throw new AlgebraError('ExpandBy cannot be nested');
    const original = L.original.map((d) => evalDim(d, env));
    const expanded = L.expanded.map((d) => evalDim(d, env));
    if (original.length !== expanded.length) throw new AlgebraError(`ExpandBy: original shape has rank ${original.length}, expanded shape ${expanded.length}`);
    original.forEach((o, k) => {
      if (o > expanded[k]) throw new AlgebraError(`ExpandBy: original extent ${o} exceeds expanded extent ${expanded[k]} in dimension ${k}`);
    });
    if (prod(expanded, 'the expanded shape') !== inner.size)
      throw new AlgebraError(`ExpandBy: the expanded shape has ${prod(expanded, '')} elements, the layout ${inner.size}`);
    return { ...inner, expand: { original, expanded, originalSize: prod(original, 'the original shape') } };
  }
  const g = asGroupBy(L);
  const dims = g.groupDims.flat().map((d) => evalDim(d, env));
  const size = prod(dims, 'the layout');
  const chain = g.chain.map((o) => prepareOrder(o, env));
  for (const o of chain)
    if (o.size !== size) throw new AlgebraError(`an OrderBy in the chain has ${o.size} elements, the logical view ${size}`);
  return { dims, size, chain };
}

// ------------------------------------------------------------------ canonical bijections

export function flatten(idx: ArrayLike<number>, dims: readonly number[]): number {
  let f = 0;
  for (let k = 0; k < dims.length; k++) f = f * dims[k] + idx[k];
  return f;
}
export function unflatten(f: number, dims: readonly number[]): number[] {
  const out = new Array<number>(dims.length);
  for (let k = dims.length - 1; k > 0; k--) {
    out[k] = f % dims[k];
    f = Math.floor(f / dims[k]);
  }
  if (dims.length) out[0] = f;
  return out;
}

// ------------------------------------------------------------------ apply / inv on prepared layouts

function blockApply(b: NumBlock, idx: number[]): number {
  if (b.kind === 'RegP') return flatten(permute(idx, b.perm), b.pdims);
  const v = b.fn(idx);
  if (!(v >= 0 && v < b.size)) {
    throw new AlgebraError(`${b.src.name ?? 'GenP'}(${idx.join(', ')}) = ${v}, outside [0, ${b.size})`);
  }
  return v;
}

function blockInv(b: NumBlock, f: number): number[] {
  if (b.kind === 'RegP') {
    const w = unflatten(f, b.pdims);
    const out = new Array<number>(w.length);
    for (let i = 0; i < w.length; i++) out[b.perm[i]] = w[i];
    return out;
  }
  if (b.invFns) {
    const out = b.invFns.map((fn) => fn([f]));
    out.forEach((v, k) => {
      if (!(v >= 0 && v < b.dims[k])) throw new AlgebraError(`the inverse of ${b.src.name ?? 'GenP'} gives coordinate ${v} outside [0, ${b.dims[k]}) for ${f}`);
    });
    return out;
  }
  return unflatten(derivedInverse(b)[f], b.dims);
}

/** The inverse of a GenP without one, by enumeration (throws when apply is not a bijection). */
function derivedInverse(b: Extract<NumBlock, { kind: 'GenP' }>): Int32Array | Float64Array {
  if (b.invTable) return b.invTable;
  if (b.size > 1 << 24) throw new AlgebraError(`${b.src.name ?? 'GenP'} has no inverse and is too large (${b.size} points) to invert by enumeration`);
  const t = new Int32Array(b.size).fill(-1);
  const idx = new Array<number>(b.dims.length).fill(0);
  for (let f = 0; f < b.size; f++) {
    const v = blockApply(b, idx);
    if (t[v] !== -1) throw new AlgebraError(`${b.src.name ?? 'GenP'} is not a bijection: two indices map to ${v}`);
    t[v] = f;
    for (let k = idx.length - 1; k >= 0; k--) {
      if (++idx[k] < b.dims[k]) break;
      idx[k] = 0;
    }
  }
  b.invTable = t;
  return t;
}

function orderApply(o: NumOrder, idx: number[]): number {
  let acc = 0;
  let at = 0;
  for (const b of o.blocks) {
    const chunk = idx.slice(at, at + b.dims.length);
    at += b.dims.length;
    acc = acc * b.size + blockApply(b, chunk);
  }
  return acc;
}

function orderInv(o: NumOrder, f: number): number[] {
  const chunks: number[][] = [];
  for (let l = o.blocks.length - 1; l >= 0; l--) {
    const b = o.blocks[l];
    chunks[l] = blockInv(b, f % b.size);
    f = Math.floor(f / b.size);
  }
  return chunks.flat();
}

function checkIdx(p: Prepared, idx: readonly number[]): void {
  if (idx.length !== p.dims.length) throw new AlgebraError(`expected ${p.dims.length} indices, got ${idx.length}`);
  idx.forEach((v, k) => {
    if (!(Number.isInteger(v) && v >= 0 && v < p.dims[k])) throw new AlgebraError(`index ${v} is outside [0, ${p.dims[k]}) in dimension ${k}`);
  });
}

/** apply on a prepared layout; no range check of `idx` (callers check or enumerate). */
export function applyPrepared(p: Prepared, idx: number[]): number {
  let f = flatten(idx, p.dims);
  for (let i = p.chain.length - 1; i >= 0; i--) f = orderApply(p.chain[i], unflatten(f, p.chain[i].dims));
  if (!p.expand) return f;
  const c = unflatten(f, p.expand.expanded);
  for (let k = 0; k < c.length; k++) if (c[k] >= p.expand.original[k]) return -1;
  return flatten(c, p.expand.original);
}

export function invPrepared(p: Prepared, x: number): number[] {
  let f = x;
  if (p.expand) f = flatten(unflatten(x, p.expand.original), p.expand.expanded);
  for (const o of p.chain) f = flatten(orderInv(o, f), o.dims);
  return unflatten(f, p.dims);
}

function toNum(v: bigint, what: string): number {
  if (v < BigInt(-LIMIT) || v > BigInt(LIMIT)) throw new AlgebraError(`${what} ${v} is beyond 2^53`);
  return Number(v);
}

/** Logical index → physical flat index (−1 for an ExpandBy padding point). Exact; throws AlgebraError. */
export function applyNum(L: Layout, idx: readonly bigint[], env: Env): bigint {
  const p = prepare(L, env);
  const n = idx.map((v) => toNum(v, 'index'));
  checkIdx(p, n);
  return BigInt(applyPrepared(p, n));
}

/** Physical flat index → logical index. Exact; throws AlgebraError. */
export function invNum(L: Layout, flat: bigint, env: Env): bigint[] {
  const p = prepare(L, env);
  const x = toNum(flat, 'flat index');
  const ext = p.expand ? p.expand.originalSize : p.size;
  if (!(x >= 0 && x < ext)) throw new AlgebraError(`flat index ${flat} is outside [0, ${ext})`);
  return invPrepared(p, x).map((v) => BigInt(v));
}

/** The whole apply table in row-major order of the logical index space. */
export function applyTable(L: Layout, env: Env, maxPoints = 1 << 22): number[] {
  const p = prepare(L, env);
  if (p.size > maxPoints) throw new AlgebraError(`the table has ${p.size} points, more than ${maxPoints}`);
  const out = new Array<number>(p.size);
  const idx = new Array<number>(p.dims.length).fill(0);
  for (let f = 0; f < p.size; f++) {
    out[f] = applyPrepared(p, idx);
    for (let k = idx.length - 1; k >= 0; k--) {
      if (++idx[k] < p.dims[k]) break;
      idx[k] = 0;
    }
  }
  return out;
}

/** Evaluated dims of every OrderBy in the chain (for messages). */
export function chainDims(p: Prepared): number[][] {
  return p.chain.map((o) => o.dims);
}

export { extent, orderDims };
