// A brute-force reference evaluator, for tests: every layout becomes a table built by
// enumeration straight from the definitions, sharing no code with numeric.ts or symbolic.ts.
// A block or OrderBy is the permutation array `T[flat(idx)] = apply(idx)`; a GroupBy is the
// composition of its chain's arrays (last object first, since re-reading a flat index in an
// object's dims and flattening it again is the identity); TileBy converts level-major tile
// coordinates to the natural row-major index, then re-tiles it for each chain object.
import { evaluate, type Expr } from '../expr/index.js';
import type { Block, Layout, OrderBy } from './types.js';

type Env = ReadonlyMap<string, bigint>;

const num = (e: Expr, env: Env): number => Number(evaluate(e, env));

function rowMajor(dims: readonly number[]): number[][] {
  let out: number[][] = [[]];
  for (const d of dims) {
    const next: number[][] = [];
    for (const p of out) for (let v = 0; v < d; v++) next.push([...p, v]);
    out = next;
  }
  return out;
}
function flat(idx: readonly number[], dims: readonly number[]): number {
  return idx.reduce((f, v, k) => f * dims[k] + v, 0);
}

function blockTable(b: Block, env: Env): number[] {
  const dims = b.dims.map((d) => num(d, env));
  if (b.kind === 'RegP') {
    const pd = b.perm.map((p) => dims[p]);
    return rowMajor(dims).map((idx) => flat(b.perm.map((p) => idx[p]), pd));
  }
  return rowMajor(dims).map((idx) => {
    const m = new Map(env);
    b.apply.indexNames.forEach((n, k) => m.set(n, BigInt(idx[k])));
    return Number(evaluate(b.apply.body, m));
  });
}

function orderTable(o: OrderBy, env: Env): number[] {
  const tables = o.blocks.map((b) => blockTable(b, env));
  const bdims = o.blocks.map((b) => b.dims.map((d) => num(d, env)));
  const sizes = tables.map((t) => t.length);
  const all = bdims.flat();
  return rowMajor(all).map((idx) => {
    let acc = 0;
    let at = 0;
    o.blocks.forEach((_, l) => {
      const chunk = idx.slice(at, at + bdims[l].length);
      at += bdims[l].length;
      acc = acc * sizes[l] + tables[l][flat(chunk, bdims[l])];
    });
    return acc;
  });
}

/** TileBy's re-tiling of a natural row-major index for object `o` (its level-major flat index). */
function retile(o: OrderBy, env: Env): (f: number) => number {
  const levels = o.blocks.map((b) => b.dims.map((d) => num(d, env)));
  const d = levels[0].length;
  const extents = Array.from({ length: d }, (_, k) => levels.reduce((p, lv) => p * lv[k], 1));
  return (f) => {
    const x = unflat(f, extents);
    const digits = levels.map(() => new Array<number>(d));
    for (let k = 0; k < d; k++) {
      let v = x[k];
      for (let l = levels.length - 1; l >= 0; l--) {
        digits[l][k] = v % levels[l][k];
        v = Math.floor(v / levels[l][k]);
      }
    }
    return flat(digits.flat(), levels.flat());
  };
}
function unflat(f: number, dims: readonly number[]): number[] {
  const out: number[] = [];
  for (let k = dims.length - 1; k >= 0; k--) {
    out[k] = f % dims[k];
    f = Math.floor(f / dims[k]);
  }
  return out;
}

/** The apply table of `L` in row-major order of its logical index space. */
export function bruteTable(L: Layout, env: Env): number[] {
  switch (L.kind) {
    case 'RegP': case 'GenP': return blockTable(L, env);
    case 'OrderBy': return orderTable(L, env);
    case 'GroupBy': {
      const tables = L.chain.map((o) => orderTable(o, env));
      const n = L.groupDims.flat().reduce((p, d) => p * num(d, env), 1);
      return Array.from({ length: n }, (_, f) => tables.reduceRight((v, t) => t[v], f));
    }
    case 'TileBy': {
      const levels = L.levels.map((lv) => lv.map((d) => num(d, env)));
      const d = levels[0].length;
      const extents = Array.from({ length: d }, (_, k) => levels.reduce((p, lv) => p * lv[k], 1));
      const steps = L.chain.map((o) => ({ t: orderTable(o, env), r: retile(o, env) }));
      return rowMajor(levels.flat()).map((idx) => {
        const x = Array.from({ length: d }, (_, k) => levels.reduce((acc, lv, l) => acc * lv[k] + idx[l * d + k], 0));
        return steps.reduceRight((v, s) => s.t[s.r(v)], flat(x, extents));
      });
    }
    case 'ExpandBy': {
      const inner = bruteTable(L.inner, env);
      const orig = L.original.map((d) => num(d, env));
      const exp = L.expanded.map((d) => num(d, env));
      return inner.map((v) => {
        const c = unflat(v, exp);
        return c.every((x, k) => x < orig[k]) ? flat(c, orig) : -1;
      });
    }
  }
}

/** Inverts a table of a bijection onto [0, n) (entries -1 are skipped): `inv[v]` = the logical flat index. */
export function bruteInverse(table: readonly number[]): number[] {
  const inv: number[] = [];
  table.forEach((v, f) => {
    if (v >= 0) inv[v] = f;
  });
  return inv;
}
