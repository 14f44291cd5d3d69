// Random layouts for property tests: symbolic dims (products of symbols f0, f1, ... with small
// values, and some constants), random RegP permutations, GenP cyclic shifts with inverses,
// chains of OrderBys, GroupBy levels, TileBy levels of any rank, ExpandBy over a TileBy.
import { add, floorDiv, int, mod, mul, sub, sym, type Expr } from '../../../server/src/expr/index.js';
import * as A from '../../../server/src/algebra/index.js';
import { rng } from './layouts.js';

type R = ReturnType<typeof rng>;

export interface RandomLayout {
  layout: A.Layout;
  env: Map<string, bigint>;
  describe: string;
}

function shuffle<T>(r: R, xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const k = r(0, i + 1);
    [out[i], out[k]] = [out[k], out[i]];
  }
  return out;
}
/** Splits a list into `parts` non-empty consecutive chunks (parts <= xs.length). */
function chunks<T>(r: R, xs: readonly T[], parts: number): T[][] {
  const cuts = shuffle(r, Array.from({ length: xs.length - 1 }, (_, i) => i + 1)).slice(0, parts - 1).sort((a, b) => a - b);
  const out: T[][] = [];
  let at = 0;
  for (const c of [...cuts, xs.length]) {
    out.push(xs.slice(at, c));
    at = c;
  }
  return out;
}
const prod = (es: readonly Expr[]): Expr => (es.length ? mul(...es) : int(1));

function randomPerm(r: R, n: number): number[] {
  return shuffle(r, Array.from({ length: n }, (_, i) => i));
}

let genpNames = 0;
/** A GenP: the row-major index shifted cyclically by `shift`, with its inverse. */
function cyclicGenP(r: R, dims: readonly Expr[]): A.GenP {
  const names = dims.map((_, k) => `g${k}`);
  const size = prod(dims);
  const shift = int(r(0, 7));
  let f: Expr = int(0);
  dims.forEach((d, k) => (f = add(mul(f, d), sym(names[k]))));
  const body = mod(add(f, shift), size);
  const x = sym('gx');
  let rest: Expr = mod(add(sub(x, shift), mul(int(7), size)), size);
  const results: Expr[] = [];
  for (let k = dims.length - 1; k > 0; k--) {
    results[k] = mod(rest, dims[k]);
    rest = floorDiv(rest, dims[k]);
  }
  results[0] = rest;
  return A.GenP(dims, { indexNames: names, body }, { argName: 'gx', results }, `shift${genpNames++}`);
}

function randomBlock(r: R, dims: Expr[]): A.Block {
  if (r(0, 4) === 0) return cyclicGenP(r, dims);
  return A.RegP(dims, randomPerm(r, dims.length));
}

/** Factor symbols with values 1..3 (and sometimes a constant). */
function factors(r: R, count: number, env: Map<string, bigint>, prefix: string): Expr[] {
  return Array.from({ length: count }, (_, k) => {
    if (r(0, 5) === 0) return int(r(1, 4));
    const name = `${prefix}${k}`;
    env.set(name, BigInt(r(1, 4)));
    return sym(name);
  });
}

/** An OrderBy over exactly the multiset `fs` of factors: random dims, random blocks. */
function randomOrder(r: R, fs: readonly Expr[]): A.OrderBy {
  const dimsF = chunks(r, shuffle(r, fs), r(1, fs.length + 1));
  const dims = dimsF.map(prod);
  const blocks = chunks(r, dims, r(1, Math.min(3, dims.length) + 1));
  return A.OrderBy(...blocks.map((b) => randomBlock(r, b)));
}

export function randomGroupBy(seed: number): RandomLayout {
  const r = rng(seed);
  const env = new Map<string, bigint>();
  const fs = factors(r, r(1, 6), env, 'f');
  const dims = chunks(r, shuffle(r, fs), r(1, fs.length + 1)).map(prod);
  const levels = chunks(r, dims, r(1, dims.length + 1));
  const chain = Array.from({ length: r(1, 4) }, () => randomOrder(r, fs));
  return { layout: A.GroupBy(levels, chain), env, describe: `GroupBy seed ${seed}` };
}

export function randomTileBy(seed: number): RandomLayout {
  const r = rng(seed);
  const env = new Map<string, bigint>();
  const d = r(1, 4);
  const q = r(1, 4);
  const levelF = Array.from({ length: q }, (_, l) => factors(r, d, env, `t${l}_`));
  const levels = levelF.map((lv) => lv.map((x) => x));
  // per dimension, the extent's factors, distributed over each OrderBy's blocks (same rank d)
  const chain = Array.from({ length: r(1, 3) }, () => {
    const q2 = r(1, 4);
    const perDim = Array.from({ length: d }, (_, k) => chunksAllowEmpty(r, shuffle(r, levelF.map((lv) => lv[k])), q2));
    const blocks = Array.from({ length: q2 }, (_, b) => randomBlock(r, perDim.map((pd) => prod(pd[b]))));
    return A.OrderBy(...blocks);
  });
  return { layout: A.TileBy(chain, levels), env, describe: `TileBy d=${d} q=${q} seed ${seed}` };
}

/** Splits into exactly `parts` consecutive chunks, some possibly empty. */
function chunksAllowEmpty<T>(r: R, xs: readonly T[], parts: number): T[][] {
  const cuts = Array.from({ length: parts - 1 }, () => r(0, xs.length + 1)).sort((a, b) => a - b);
  const out: T[][] = [];
  let at = 0;
  for (const c of [...cuts, xs.length]) {
    out.push(xs.slice(at, c));
    at = c;
  }
  return out;
}

export function randomExpandBy(seed: number): RandomLayout {
  const t = randomTileBy(seed);
  const r = rng(seed ^ 0x5bd1e995);
  const shape = A.physicalShape(t.layout)!;
  const original = shape.map((e) => int(r(1, A.evalDim(e, t.env) + 1)));
  return { layout: A.ExpandBy(t.layout, original), env: t.env, describe: `ExpandBy over ${t.describe}` };
}

export function randomLayout(seed: number): RandomLayout {
  const k = seed % 3;
  return k === 0 ? randomGroupBy(seed) : k === 1 ? randomTileBy(seed) : randomExpandBy(seed);
}
