// Known ranges of emitted index expressions (docs/codegen.md, "Index width"). Every binding's value
// gets a bound on the magnitude of every intermediate value the printed expression computes (each
// node, each partial sum, each partial product), from:
// - params and consts: their value (the largest of the value and the tuning candidates);
// - lets kept by name (built-in scope): their value;
// - free index symbols of a query `L[a, b, ...]`: every index argument is assumed inside its dimension
//   and every free symbol non-negative, so a symbol is in [0, d - 1] for the smallest dimension d of the
//   arguments it appears in; `.inv(x)`: x in [0, extent - 1];
// - slices: their `tl.arange` ranges.
// A symbol with no such bound (a plain integer binding over free names) makes the bound unknown.
import * as A from '../algebra/index.js';
import * as X from '../expr/index.js';
import type { Expr } from '../expr/node.js';
import { type Interval, TOP, intervalOf, iAdd, iMul, point } from '../expr/interval.js';
import type { Model, Query } from '../check/elaborate-model.js';

export const INT32_MAX = 2n ** 31n - 1n;

/** Bounds of the free symbols of a query (see the file comment); params and lets are added by `magnitude`. */
export function queryBounds(model: Model, q: Query | undefined, env: ReadonlyMap<string, bigint> = maxEnv(model)): Map<string, Interval> {
  const out = new Map<string, Interval>();
  if (!q) return out;
  const val = (e: Expr): bigint | undefined => {
    try {
      return X.evaluate(e, env);
    } catch {
      return undefined;
    }
  };
  const bound = (s: string, hi: bigint | undefined) => {
    if (hi === undefined || model.params.has(s) || model.env.has(s)) return;
    const prev = out.get(s);
    const h = hi < 0n ? 0n : hi;
    out.set(s, { lo: 0n, hi: prev?.hi != null && prev.hi < h ? prev.hi : h });
  };
  try {
    if (q.kind === 'inv') {
      const ext = val(A.extent(q.layout));
      const hi = ext === undefined ? undefined : ext - 1n;
      if (typeof q.x === 'string') bound(q.x, hi);
      else if (q.x) for (const s of X.freeSymbols(q.x)) bound(s, hi);
      return out;
    }
    const ds = A.dims(q.layout);
    if (ds.length !== q.key.length) return out;
    q.key.forEach((k, i) => {
      const d = val(ds[i]);
      const hi = d === undefined ? undefined : d - 1n;
      if (typeof k === 'string') bound(k, hi);
      else if (typeof k === 'object' && !('slice' in k)) for (const s of X.freeSymbols(k)) bound(s, hi);
    });
  } catch {
    /* no bounds: the magnitude is unknown */
  }
  return out;
}

/** Params and consts at their largest value (value or tuning candidate), lets at their value. */
export function maxEnv(model: Model): Map<string, bigint> {
  const env = new Map(model.env);
  for (const [name, p] of model.params) {
    let v = p.value;
    for (const c of p.candidates) if (v === undefined || c > v) v = c;
    if (v !== undefined) env.set(name, v);
  }
  return env;
}

/**
 * The largest magnitude of any intermediate value of `e` (every node, partial sum and partial product),
 * or undefined when a symbol has no known bound.
 */
export function magnitude(e: Expr, symbols: ReadonlyMap<string, Interval>, env: ReadonlyMap<string, bigint>): bigint | undefined {
  let worst = 0n;
  let unknown = false;
  const note = (i: Interval) => {
    if (i.lo === null || i.hi === null) {
      unknown = true;
      return;
    }
    const m = i.lo < 0n ? -i.lo : i.lo;
    const n = i.hi < 0n ? -i.hi : i.hi;
    if (m > worst) worst = m;
    if (n > worst) worst = n;
  };
  const memo = new Map<Expr, Interval>();
  // post-order without recursion: expression depth never reaches the call stack
  const stack: { e: Expr; done: boolean }[] = [{ e, done: false }];
  while (stack.length > 0) {
    const top = stack.pop()!;
    if (memo.has(top.e)) continue;
    const kids = children(top.e);
    if (!top.done) {
      stack.push({ e: top.e, done: true });
      for (const k of kids) if (!memo.has(k)) stack.push({ e: k, done: false });
      continue;
    }
    const num = (x: Expr) => memo.get(x) ?? TOP;
    let iv: Interval;
    if (top.e.kind === 'sym') {
      const v = env.get(top.e.name);
      iv = v !== undefined ? point(v) : symbols.get(top.e.name) ?? TOP;
    } else iv = intervalOf(top.e, num);
    // the partial results the printed form computes
    if (top.e.kind === 'add') {
      let acc = point(top.e.constant);
      for (const t of top.e.terms) {
        acc = iAdd(acc, num(t));
        note(acc);
      }
    } else if (top.e.kind === 'mul') {
      let acc = point(top.e.coef);
      for (const f of top.e.factors) {
        acc = iMul(acc, num(f));
        note(acc);
      }
    }
    memo.set(top.e, iv);
    note(iv);
  }
  return unknown ? undefined : worst;
}

function children(e: Expr): readonly Expr[] {
  switch (e.kind) {
    case 'add': return e.terms;
    case 'mul': return e.factors;
    case 'floordiv': case 'mod': return [e.a, e.b];
    case 'min': case 'max': return e.args;
    case 'arange': return [e.start, e.stop];
    case 'select': return [e.cond, e.then, e.otherwise];
    default: {
      const x = e as unknown as Record<string, unknown>;
      const out: Expr[] = [];
      for (const k of ['a', 'b', 'lhs', 'rhs', 'arg']) {
        const v = x[k];
        if (v && typeof v === 'object' && 'kind' in (v as object)) out.push(v as Expr);
      }
      if (Array.isArray(x.args)) out.push(...(x.args as Expr[]));
      return out;
    }
  }
}
