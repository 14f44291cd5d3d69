// Integer intervals with optional infinite ends (null = unbounded), used for numeric bounds.
import { type Expr } from './node.js';
import { floorDivBig } from './poly.js';

export interface Interval {
  readonly lo: bigint | null;
  readonly hi: bigint | null;
}

export const TOP: Interval = { lo: null, hi: null };
export const BOOL: Interval = { lo: 0n, hi: 1n };

export function point(v: bigint): Interval {
  return { lo: v, hi: v };
}

export function iAdd(a: Interval, b: Interval): Interval {
  return { lo: a.lo === null || b.lo === null ? null : a.lo + b.lo, hi: a.hi === null || b.hi === null ? null : a.hi + b.hi };
}

type Ext = bigint | 'inf' | '-inf';

function extMul(x: Ext, y: Ext): Ext {
  if (x === 0n || y === 0n) return 0n;
  if (typeof x === 'bigint' && typeof y === 'bigint') return x * y;
  const neg = (v: Ext) => (v === '-inf' ? true : v === 'inf' ? false : (v as bigint) < 0n);
  return neg(x) !== neg(y) ? '-inf' : 'inf';
}

export function iMul(a: Interval, b: Interval): Interval {
  const ends = (i: Interval): Ext[] => [i.lo ?? '-inf', i.hi ?? 'inf'];
  const products: Ext[] = [];
  for (const x of ends(a)) for (const y of ends(b)) products.push(extMul(x, y));
  let lo: Ext = products[0];
  let hi: Ext = products[0];
  const lt = (x: Ext, y: Ext) => (x === y ? false : x === '-inf' || y === 'inf' ? true : x === 'inf' || y === '-inf' ? false : (x as bigint) < (y as bigint));
  for (const p of products) {
    if (lt(p, lo)) lo = p;
    if (lt(hi, p)) hi = p;
  }
  return { lo: typeof lo === 'bigint' ? lo : null, hi: typeof hi === 'bigint' ? hi : null };
}

/** floor(x / d) for d >= 1 */
export function iFloorDiv(x: Interval, d: Interval): Interval {
  if (d.lo === null || d.lo < 1n) return TOP;
  const dl = d.lo;
  const dh = d.hi;
  let lo: bigint | null = null;
  if (x.lo !== null) lo = x.lo >= 0n ? (dh === null ? 0n : floorDivBig(x.lo, dh)) : floorDivBig(x.lo, dl);
  let hi: bigint | null = null;
  if (x.hi !== null) hi = x.hi >= 0n ? floorDivBig(x.hi, dl) : dh === null ? -1n : floorDivBig(x.hi, dh);
  return { lo, hi };
}

/** x mod d (Python) for d >= 1 or d <= -1 */
export function iMod(x: Interval, d: Interval): Interval {
  if (d.lo !== null && d.lo >= 1n) {
    if (x.lo !== null && x.lo >= 0n && x.hi !== null && x.hi < d.lo) return x;
    let hi = d.hi === null ? null : d.hi - 1n;
    if (x.lo !== null && x.lo >= 0n && x.hi !== null && (hi === null || x.hi < hi)) hi = x.hi;
    return { lo: 0n, hi };
  }
  if (d.hi !== null && d.hi <= -1n) return { lo: d.lo === null ? null : d.lo + 1n, hi: 0n };
  return TOP;
}

export function iMin(xs: readonly Interval[]): Interval {
  let lo: bigint | null = xs[0].lo;
  let hi: bigint | null = null;
  for (const x of xs) {
    lo = lo === null || x.lo === null ? null : x.lo < lo ? x.lo : lo;
    if (x.hi !== null) hi = hi === null || x.hi < hi ? x.hi : hi;
  }
  return { lo, hi };
}

export function iMax(xs: readonly Interval[]): Interval {
  let lo: bigint | null = null;
  let hi: bigint | null = xs[0].hi;
  for (const x of xs) {
    if (x.lo !== null) lo = lo === null || x.lo > lo ? x.lo : lo;
    hi = hi === null || x.hi === null ? null : x.hi > hi ? x.hi : hi;
  }
  return { lo, hi };
}

export function iUnion(a: Interval, b: Interval): Interval {
  return {
    lo: a.lo === null || b.lo === null ? null : a.lo < b.lo ? a.lo : b.lo,
    hi: a.hi === null || b.hi === null ? null : a.hi > b.hi ? a.hi : b.hi,
  };
}

export function iIntersect(a: Interval, b: Interval): Interval {
  return {
    lo: a.lo === null ? b.lo : b.lo === null ? a.lo : a.lo > b.lo ? a.lo : b.lo,
    hi: a.hi === null ? b.hi : b.hi === null ? a.hi : a.hi < b.hi ? a.hi : b.hi,
  };
}

/** interval of a non-symbol node from the intervals of its children (`num`) */
export function intervalOf(e: Expr, num: (x: Expr) => Interval): Interval {
  switch (e.kind) {
    case 'int':
      return point(e.value);
    case 'arange': {
      const hi = num(e.stop).hi;
      return { lo: num(e.start).lo, hi: hi === null ? null : hi - 1n };
    }
    case 'add':
      return e.terms.reduce((acc, t) => iAdd(acc, num(t)), point(e.constant));
    case 'mul': {
      let acc = point(e.coef);
      for (let i = 0; i < e.factors.length; i++) {
        const f = e.factors[i];
        // x*x >= 0: an even power of one atom is non-negative
        if (i + 1 < e.factors.length && e.factors[i + 1].key === f.key) {
          const sq = iMul(num(f), num(f));
          acc = iMul(acc, { lo: sq.lo === null || sq.lo < 0n ? 0n : sq.lo, hi: sq.hi });
          i++;
        } else acc = iMul(acc, num(f));
      }
      return acc;
    }
    case 'floordiv':
      return iFloorDiv(num(e.a), num(e.b));
    case 'mod':
      return iMod(num(e.a), num(e.b));
    case 'min':
      return iMin(e.args.map(num));
    case 'max':
      return iMax(e.args.map(num));
    case 'select':
      return iUnion(num(e.then), num(e.otherwise));
    case 'sym':
      return TOP;
    case 'bit':
      return iBit(e.op, num(e.a), num(e.b));
    default:
      return BOOL;
  }
}

/** below 2^k for the smallest k with hi < 2^k */
function pow2Above(hi: bigint): bigint {
  let p = 1n;
  while (p <= hi) p <<= 1n;
  return p;
}

/** bitwise operators on non-negative operands; anything else is unbounded */
export function iBit(op: 'xor' | 'and' | 'or' | 'shl' | 'shr', a: Interval, b: Interval): Interval {
  const nonneg = (x: Interval) => x.lo !== null && x.lo >= 0n;
  if (!nonneg(a) || !nonneg(b)) {
    // x & m with m >= 0 lies in [0, m] whatever x is
    if (op === 'and' && (nonneg(a) || nonneg(b))) return { lo: 0n, hi: nonneg(a) ? a.hi : b.hi };
    return TOP;
  }
  switch (op) {
    case 'and':
      return { lo: 0n, hi: a.hi === null ? b.hi : b.hi === null ? a.hi : a.hi < b.hi ? a.hi : b.hi };
    case 'xor':
    case 'or':
      if (a.hi === null || b.hi === null) return { lo: 0n, hi: null };
      return { lo: op === 'or' ? (a.lo! > b.lo! ? a.lo : b.lo) : 0n, hi: pow2Above(a.hi > b.hi ? a.hi : b.hi) - 1n };
    case 'shl':
      if (a.hi === null || b.hi === null || b.hi > 256n) return { lo: 0n, hi: null };
      return { lo: a.lo! << b.lo!, hi: a.hi << b.hi };
    case 'shr':
      return { lo: b.hi === null || b.hi > 256n ? 0n : a.lo! >> b.hi, hi: a.hi === null ? null : a.hi >> b.lo! };
  }
}
