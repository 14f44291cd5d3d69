// Test-only restatement of LEGO's reference semantics (its paper and Python API) over
// Exprs, used to build the raw, unsimplified apply/inv expressions the simplifier must reduce.
import { type Expr, add, floorDiv, int, mod, mul } from '../../server/src/expr/index.js';

export interface Block {
  dims: Expr[];
  apply(idx: Expr[]): Expr;
  inv(f: Expr): Expr[];
}

const prodOf = (xs: Expr[]) => mul(int(1), ...xs);

export function flatten(idx: Expr[], dims: Expr[]): Expr {
  return add(...idx.map((x, k) => mul(x, prodOf(dims.slice(k + 1)))));
}

export function unflatten(f: Expr, dims: Expr[]): Expr[] {
  const out: Expr[] = [];
  for (let k = 0; k < dims.length; k++) {
    const p = prodOf(dims.slice(k + 1));
    out.push(floorDiv(f, p));
    f = mod(f, p);
  }
  return out;
}

export function regP(nd: Expr[], perm: number[]): Block {
  const sigma = <T>(v: T[]) => perm.map((p) => v[p]);
  return {
    dims: nd,
    apply: (idx) => flatten(sigma(idx), sigma(nd)),
    inv: (f) => {
      const w = unflatten(f, sigma(nd));
      const r: Expr[] = new Array(nd.length);
      perm.forEach((p, i) => (r[p] = w[i]));
      return r;
    },
  };
}
export const row = (...nd: Expr[]) => regP(nd, nd.map((_, i) => i));
export const col = (...nd: Expr[]) => regP(nd, nd.map((_, i) => nd.length - 1 - i));

export interface OrderBy extends Block {
  q: number;
  d: number;
}
export function orderBy(...blocks: Block[]): OrderBy {
  const dims = blocks.flatMap((b) => b.dims);
  return {
    dims,
    q: blocks.length,
    d: blocks[0].dims.length,
    apply(idx) {
      let acc: Expr = int(0);
      let at = 0;
      for (const b of blocks) {
        const chunk = idx.slice(at, at + b.dims.length);
        at += b.dims.length;
        acc = add(mul(acc, prodOf(b.dims)), b.apply(chunk));
      }
      return acc;
    },
    inv(f) {
      const chunks: Expr[][] = [];
      for (let l = blocks.length - 1; l >= 0; l--) {
        const p = prodOf(blocks[l].dims);
        chunks.unshift(blocks[l].inv(mod(f, p)));
        f = floorDiv(f, p);
      }
      return chunks.flat();
    },
  };
}

export interface GroupBy {
  dims: Expr[];
  apply(idx: Expr[]): Expr;
  inv(f: Expr): Expr[];
}
export function groupBy(dims: Expr[], chain: Block[]): GroupBy {
  return {
    dims,
    apply(idx) {
      let f = flatten(idx, dims);
      for (const o of [...chain].reverse()) f = o.apply(unflatten(f, o.dims));
      return f;
    },
    inv(f) {
      for (const o of chain) f = flatten(o.inv(f), o.dims);
      return unflatten(f, dims);
    },
  };
}

export function sigmaDQ(d: number, q: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < d; k++) for (let l = 0; l < q; l++) out.push(k + l * d);
  return out;
}

export function tileBy(chain: OrderBy[], levels: Expr[][]): GroupBy {
  const dims = levels.flat();
  const objs: Block[] = [];
  for (const o of chain) {
    objs.push(o);
    const s = sigmaDQ(o.d, o.q);
    const sInv: number[] = new Array(s.length);
    s.forEach((p, i) => (sInv[p] = i));
    objs.push(orderBy(regP(s.map((p) => o.dims[p]), sInv)));
  }
  objs.push(orderBy(regP(dims, sigmaDQ(levels[0].length, levels.length))));
  return groupBy(dims, objs);
}

/** a user-defined permutation of one tile (GenP): coordinates -> flat index, and back */
export function genP(nd: Expr[], fApply: (idx: Expr[]) => Expr, fInv?: (f: Expr) => Expr[]): Block {
  return {
    dims: nd,
    apply: fApply,
    inv: (f) => {
      if (!fInv) throw new Error('GenP without an inverse');
      return fInv(f);
    },
  };
}
