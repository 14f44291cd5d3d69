// Canonicalising constructors. Every Expr is built through these, so structurally equal
// inputs give identical keys. Rewrites here hold for all integer values of the symbols,
// with one stated assumption: a division or remainder by a non-constant divisor assumes that
// divisor is non-zero (e.g. `floorDiv(N*a, N)` becomes `a`). Constant zero divisors are kept
// as nodes, and `evaluate` reports them.
import {
  type Bcast,
  type Expr,
  type BitOp,
  byKey,
  mkArange,
  mkBit,
  mkFloorDiv,
  mkInt,
  mkMinMax,
  mkMod,
  mkSym,
} from './node.js';
import {
  type Mono,
  type Poly,
  ONE,
  ZERO,
  asMono,
  divideAtoms,
  floorDivBig,
  gcdBig,
  makePoly,
  modBig,
  mono,
  polyAdd,
  polyContent,
  polyMul,
  polyOf,
  polyScale,
  polyToExpr,
} from './poly.js';

export function int(n: bigint | number): Expr {
  if (typeof n === 'number') {
    if (!Number.isSafeInteger(n)) throw new RangeError(`int() needs a safe integer, got ${n}`);
    return mkInt(BigInt(n));
  }
  return mkInt(n);
}

export function sym(name: string): Expr {
  return mkSym(name);
}

/** a Triton range `tl.arange(start, stop)`, optionally broadcast (rank >= 2) along `axis` */
export function arange(start: Expr, stop: Expr, bcast?: { axis: number; rank: number }): Expr {
  if (!bcast || bcast.rank === 1) return mkArange(start, stop);
  const { axis, rank } = bcast;
  if (!Number.isInteger(rank) || !Number.isInteger(axis) || rank < 1 || axis < 0 || axis >= rank) {
    throw new RangeError(`arange broadcast needs 0 <= axis < rank, got axis ${axis}, rank ${rank}`);
  }
  return mkArange(start, stop, { axis, rank } satisfies Bcast);
}

export function add(...xs: Expr[]): Expr {
  return polyToExpr(polyAdd(xs.map(polyOf)));
}

export function neg(a: Expr): Expr {
  return polyToExpr(polyScale(polyOf(a), -1n));
}

export function sub(a: Expr, b: Expr): Expr {
  return polyToExpr(polyAdd([polyOf(a), polyScale(polyOf(b), -1n)]));
}

export function mul(...xs: Expr[]): Expr {
  let acc: Poly = { terms: [], c: 1n };
  const opaque: Expr[] = [];
  for (const x of xs) {
    const r = polyMul(acc, polyOf(x));
    if (r) acc = r;
    else opaque.push(x); // expansion cap: keep this sum as a factor
  }
  if (opaque.length > 0) acc = polyMul(acc, { terms: [mono(1n, opaque)], c: 0n }) as Poly;
  return polyToExpr(acc);
}

/** floor division (Python `//`) */
export function floorDiv(a: Expr, b: Expr): Expr {
  if (b.kind === 'int') {
    const d = b.value;
    if (d === 0n) return mkFloorDiv(a, b);
    if (a.kind === 'int') return mkInt(floorDivBig(a.value, d));
    if (d < 0n) return floorDiv(neg(a), mkInt(-d));
    if (d === 1n) return a;
    return splitDiv(polyOf(a), mono(d, []));
  }
  if (a.kind === 'int' && a.value === 0n) return ZERO;
  const pb = polyOf(b);
  if (pb.terms[0].coef < 0n) return floorDiv(neg(a), neg(b));
  const m = asMono(pb);
  if (m) return splitDiv(polyOf(a), m);
  if (a.key === b.key) return ONE;
  return mkFloorDiv(a, b);
}

/** a // d for a monomial d with positive coefficient: content cancelled, multiples of d pulled out */
function splitDiv(pa: Poly, d: Mono): Expr {
  const g = gcdBig(polyContent(pa), d.coef);
  if (g > 1n) {
    pa = { terms: pa.terms.map((t) => ({ ...t, coef: t.coef / g })), c: pa.c / g };
    d = { ...d, coef: d.coef / g };
  }
  if (d.factors.length === 0 && d.coef === 1n) return polyToExpr(pa);
  const out: Mono[] = [];
  const inner: Mono[] = [];
  for (const t of pa.terms) {
    const q = divideAtoms(t.factors, d.factors);
    if (!q) {
      inner.push(t);
      continue;
    }
    const k = t.coef / d.coef; // truncating: the remainder keeps the sign of the term
    if (k !== 0n) out.push(mono(k, q));
    if (t.coef - k * d.coef !== 0n) inner.push({ ...t, coef: t.coef - k * d.coef });
  }
  let c = pa.c;
  if (d.factors.length === 0) {
    const k = floorDivBig(c, d.coef);
    if (k !== 0n) out.push(mono(k, []));
    c -= k * d.coef;
  }
  const rest = makePoly(inner, c);
  const dExpr = polyToExpr({ terms: d.factors.length ? [d] : [], c: d.factors.length ? 0n : d.coef });
  const q = polyToExpr(makePoly(out, 0n));
  if (rest.terms.length === 0) {
    if (d.factors.length === 0) return q; // 0 <= c < d
    if (rest.c === 0n) return q;
  }
  const r = polyToExpr(rest);
  return add(q, innerDiv(r, dExpr));
}

function innerDiv(r: Expr, d: Expr): Expr {
  // A3: (x % d) // d == 0 for any non-zero d (the remainder lies strictly between 0 and d)
  if (r.kind === 'mod' && r.b.key === d.key) return ZERO;
  // (x // e) // d == x // (e*d) for positive constants e, d
  if (r.kind === 'floordiv' && r.b.kind === 'int' && r.b.value > 0n && d.kind === 'int' && d.value > 0n) {
    return mkFloorDiv(r.a, mkInt(r.b.value * d.value));
  }
  return mkFloorDiv(r, d);
}

/** non-negative remainder for b > 0 (Python `%`: the result has the sign of b) */
export function mod(a: Expr, b: Expr): Expr {
  if (b.kind === 'int') {
    const d = b.value;
    if (d === 0n) return mkMod(a, b);
    if (a.kind === 'int') return mkInt(modBig(a.value, d));
    if (d < 0n) return neg(mod(neg(a), mkInt(-d)));
    if (d === 1n) return ZERO;
    return reduceMod(polyOf(a), mono(d, []));
  }
  if (a.kind === 'int' && a.value === 0n) return ZERO;
  const pb = polyOf(b);
  if (pb.terms[0].coef < 0n) return neg(mod(neg(a), neg(b)));
  const m = asMono(pb);
  if (m) return reduceMod(polyOf(a), m);
  if (a.key === b.key) return ZERO;
  return mkMod(a, b);
}

/** a % d for a monomial d with positive coefficient */
function reduceMod(pa: Poly, d: Mono): Expr {
  const g = gcdBig(polyContent(pa), d.coef);
  if (g > 1n) {
    const pa2 = { terms: pa.terms.map((t) => ({ ...t, coef: t.coef / g })), c: pa.c / g };
    return mul(mkInt(g), reduceMod(pa2, { ...d, coef: d.coef / g }));
  }
  if (d.factors.length === 0 && d.coef === 1n) return ZERO;
  const inner: Mono[] = [];
  for (const t of pa.terms) {
    const q = divideAtoms(t.factors, d.factors);
    if (!q) {
      inner.push(t);
      continue;
    }
    const r = t.coef - (t.coef / d.coef) * d.coef;
    if (r !== 0n) inner.push({ ...t, coef: r });
  }
  const c = d.factors.length === 0 ? modBig(pa.c, d.coef) : pa.c;
  const rest = makePoly(inner, c);
  const dExpr = polyToExpr({ terms: d.factors.length ? [d] : [], c: d.factors.length ? 0n : d.coef });
  if (rest.terms.length === 0 && (rest.c === 0n || d.factors.length === 0)) return mkInt(rest.c);
  const r = polyToExpr(rest);
  // (x % e) % d == x % d when d divides e
  if (r.kind === 'mod') {
    const pb = polyOf(r.b);
    const pe = pb.terms.length === 0 ? mono(pb.c, []) : asMono(pb);
    if (pe && divideAtoms(pe.factors, d.factors) && pe.coef % d.coef === 0n) return mkMod(r.a, dExpr);
  }
  return mkMod(r, dExpr);
}

function minMax(kind: 'min' | 'max', xs: readonly Expr[]): Expr {
  if (xs.length === 0) throw new TypeError(`${kind}() needs at least one argument`);
  const flat: Expr[] = [];
  for (const x of xs) {
    if (x.kind === kind) flat.push(...x.args);
    else flat.push(x);
  }
  let constant: bigint | null = null;
  const seen = new Map<string, Expr>();
  for (const x of flat) {
    if (x.kind === 'int') {
      if (constant === null) constant = x.value;
      else constant = kind === 'min' ? (x.value < constant ? x.value : constant) : x.value > constant ? x.value : constant;
    } else seen.set(x.key, x);
  }
  let args = [...seen.values()];
  if (constant !== null) args.push(mkInt(constant));
  // drop an argument dominated by another at a constant distance (x vs x + 3)
  if (args.length > 1 && args.length <= 12) {
    const drop = new Set<number>();
    for (let i = 0; i < args.length; i++) {
      for (let j = i + 1; j < args.length; j++) {
        if (drop.has(i) || drop.has(j)) continue;
        const diff = sub(args[i], args[j]);
        if (diff.kind !== 'int') continue;
        const iSmaller = diff.value <= 0n;
        drop.add((kind === 'min') === iSmaller ? j : i);
      }
    }
    args = args.filter((_, i) => !drop.has(i));
  }
  if (args.length === 1) return args[0];
  return mkMinMax(kind, args.sort(byKey));
}

export function min(...xs: Expr[]): Expr {
  return minMax('min', xs);
}
export function max(...xs: Expr[]): Expr {
  return minMax('max', xs);
}

/** largest shift amount folded or turned into a multiplication / division (2^256 is far past any index) */
const MAX_SHIFT = 256n;

/**
 * Bitwise operators on two's-complement integers (C on int64 and Python agree): `xor`, `and`,
 * `or` are commutative (operands sorted by key); constants fold; `x ^ 0 = x`, `x | 0 = x`,
 * `x & 0 = 0`, `x ^ x = 0`, `x & x = x | x = x`, `x & (2^k - 1) = x mod 2^k` (true for negative x
 * too). `a << c` for a constant 0 <= c is `a * 2^c`, `a >> c` is `a // 2^c` (an arithmetic shift
 * is a floor division); other shifts stay `bit` nodes (a negative amount is an error at
 * evaluation, as in C it is undefined).
 */
export function bit(op: BitOp, a: Expr, b: Expr): Expr {
  if (op === 'shl' || op === 'shr') {
    if (b.kind === 'int' && b.value >= 0n && b.value <= MAX_SHIFT) {
      const p = mkInt(1n << b.value);
      return op === 'shl' ? mul(a, p) : floorDiv(a, p);
    }
    if (a.kind === 'int' && a.value === 0n) return ZERO;
    return mkBit(op, a, b);
  }
  if (a.kind === 'int' && b.kind === 'int') {
    return mkInt(op === 'xor' ? a.value ^ b.value : op === 'and' ? a.value & b.value : a.value | b.value);
  }
  if (byKey(a, b) > 0) [a, b] = [b, a];
  // a constant sorts first (its key is a number)
  if (a.kind === 'int') {
    if (a.value === 0n) return op === 'and' ? ZERO : b;
    if (op === 'and' && a.value > 0n && (a.value & (a.value + 1n)) === 0n) return mod(b, mkInt(a.value + 1n));
    if (op === 'and' && a.value === -1n) return b;
  }
  if (a.key === b.key) return op === 'xor' ? ZERO : a;
  return mkBit(op, a, b);
}
