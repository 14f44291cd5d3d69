// Dimensions as rational monomials, to decide when mixed-radix digits line up: `M/BM * BM`
// is `M` once the floor division is known to be exact (as LEGO's rational `M/BM` always is).
// A floor division counts as exact when no environment is given, or when it divides evenly
// at the environment's values (docs/algebra.md, "Assumptions"). Sums, min, max, ... are atoms.
import { floorDiv, int, mul, type Expr } from '../expr/index.js';
import { evaluate } from '../expr/index.js';

export interface RMono {
  /** coefficient num/den, den > 0, in lowest terms */
  readonly num: bigint;
  readonly den: bigint;
  /** atom key -> exponent (non-zero) */
  readonly pow: ReadonlyMap<string, number>;
  readonly atoms: ReadonlyMap<string, Expr>;
}

export interface MonoContext {
  /** let definitions to look through */
  readonly defs?: ReadonlyMap<string, Expr>;
  /** param values: a floor division that does not divide evenly here stays an atom */
  readonly env?: ReadonlyMap<string, bigint>;
  /** quotients known to be integers (the exact floor divisions of the layout's dims) */
  readonly units?: readonly RMono[];
}

export const MONO_ONE: RMono = { num: 1n, den: 1n, pow: new Map(), atoms: new Map() };

function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b) [a, b] = [b, a % b];
  return a;
}

function make(num: bigint, den: bigint, pow: Map<string, number>, atoms: Map<string, Expr>): RMono {
  if (den < 0n) [num, den] = [-num, -den];
  const g = gcd(num, den) || 1n;
  for (const [k, v] of [...pow]) if (v === 0) pow.delete(k);
  for (const k of [...atoms.keys()]) if (!pow.has(k)) atoms.delete(k);
  return { num: num / g, den: den / g, pow, atoms };
}

export function monoMul(a: RMono, b: RMono, sign = 1): RMono {
  const pow = new Map(a.pow);
  const atoms = new Map(a.atoms);
  for (const [k, v] of b.pow) {
    pow.set(k, (pow.get(k) ?? 0) + sign * v);
    atoms.set(k, b.atoms.get(k)!);
  }
  return sign === 1 ? make(a.num * b.num, a.den * b.den, pow, atoms) : make(a.num * b.den, a.den * b.num, pow, atoms);
}
export function monoDiv(a: RMono, b: RMono): RMono {
  return b.num === 0n ? a : monoMul(a, b, -1);
}
export function monoEq(a: RMono, b: RMono): boolean {
  if (a.num !== b.num || a.den !== b.den || a.pow.size !== b.pow.size) return false;
  for (const [k, v] of a.pow) if (b.pow.get(k) !== v) return false;
  return true;
}
export function isOne(m: RMono): boolean {
  return m.num === 1n && m.den === 1n && m.pow.size === 0;
}
/** An integer-valued monomial with no negative exponent: `a` divides `b` when `isIntegral(b / a)`. */
export function isIntegral(m: RMono): boolean {
  if (m.den !== 1n || m.num <= 0n) return false;
  for (const v of m.pow.values()) if (v < 0) return false;
  return true;
}

/** `isIntegral`, or a product of at most two known-integer `units` times an integral monomial. */
export function isIntegralWith(m: RMono, units: readonly RMono[] = []): boolean {
  if (isIntegral(m)) return true;
  if (m.num <= 0n) return false;
  for (const u of units) {
    const q = monoDiv(m, u);
    if (isIntegral(q)) return true;
    for (const v of units) if (isIntegral(monoDiv(q, v))) return true;
  }
  return false;
}

/** Every exact floor division inside `e` (through `defs`), as the monomial of its quotient. */
export function unitsOf(es: readonly Expr[], ctx: MonoContext): RMono[] {
  const out = new Map<string, RMono>();
  const seen = new Set<string>();
  const walk = (x: Expr, depth: number): void => {
    if (seen.has(x.key) || depth > 32) return;
    seen.add(x.key);
    if (x.kind === 'floordiv' && exactAtEnv(x.a, x.b, ctx.env)) out.set(x.key, monoOf(x, ctx));
    if (x.kind === 'sym') {
      const d = ctx.defs?.get(x.name);
      if (d) walk(d, depth + 1);
    } else if (x.kind === 'mul') x.factors.forEach((f) => walk(f, depth));
    else if (x.kind === 'add') x.terms.forEach((f) => walk(f, depth));
    else if (x.kind === 'floordiv' || x.kind === 'mod') { walk(x.a, depth); walk(x.b, depth); }
    else if (x.kind === 'min' || x.kind === 'max') x.args.forEach((f) => walk(f, depth));
  };
  for (const e of es) walk(e, 0);
  return [...out.values()].filter((m) => !isIntegral(m));
}

/** The rational monomial of a dimension expression. */
export function monoOf(e: Expr, ctx: MonoContext = {}, depth = 0): RMono {
  switch (e.kind) {
    case 'int':
      return make(e.value, 1n, new Map(), new Map());
    case 'sym': {
      const def = ctx.defs?.get(e.name);
      if (def && depth < 32) return monoOf(def, ctx, depth + 1);
      return atom(e);
    }
    case 'mul': {
      let m = make(e.coef, 1n, new Map(), new Map());
      for (const f of e.factors) m = monoMul(m, monoOf(f, ctx, depth));
      return m;
    }
    case 'floordiv':
      if (exactAtEnv(e.a, e.b, ctx.env)) {
        const d = monoOf(e.b, ctx, depth);
        if (d.num !== 0n) return monoDiv(monoOf(e.a, ctx, depth), d);
      }
      return atom(e);
    default:
      return atom(e);
  }
}

function atom(e: Expr): RMono {
  return make(1n, 1n, new Map([[e.key, 1]]), new Map([[e.key, e]]));
}

function exactAtEnv(a: Expr, b: Expr, env: ReadonlyMap<string, bigint> | undefined): boolean {
  if (!env) return true;
  try {
    const bv = evaluate(b, env);
    return bv !== 0n && evaluate(a, env) % bv === 0n;
  } catch {
    return false;
  }
}

/** An expression for a monomial: `num * Π pos` floor-divided by `den * Π neg` (exact by construction). */
export function monoToExpr(m: RMono): Expr {
  const top: Expr[] = [int(m.num)];
  const bottom: Expr[] = [int(m.den)];
  for (const [k, v] of m.pow) {
    const a = m.atoms.get(k)!;
    for (let i = 0; i < Math.abs(v); i++) (v > 0 ? top : bottom).push(a);
  }
  const t = mul(...top);
  return bottom.length === 1 && m.den === 1n ? t : floorDiv(t, mul(...bottom));
}
