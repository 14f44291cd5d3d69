// Polynomial view of expressions: a sum of monomials (integer coefficient times a sorted list
// of atoms) plus a constant. Used by the constructors, the simplifier and the printers.
import { spend } from './budget.js';
import { type Expr, byKey, compareKeys, mkAdd, mkInt, mkMul, monoKey } from './node.js';

export interface Mono {
  readonly coef: bigint;
  /** atoms sorted by key, repeated for powers */
  readonly factors: readonly Expr[];
  /** monoKey(factors) */
  readonly mk: string;
}
export interface Poly {
  /** sorted by mk, distinct mk, non-zero coefficients */
  readonly terms: readonly Mono[];
  readonly c: bigint;
}

/** the largest number of monomials a product is expanded into; bigger products keep a sum as a factor */
export const EXPANSION_CAP = 512;

export const ZERO = mkInt(0n);
export const ONE = mkInt(1n);

export function absBig(a: bigint): bigint {
  return a < 0n ? -a : a;
}
export function gcdBig(a: bigint, b: bigint): bigint {
  a = absBig(a);
  b = absBig(b);
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}
/** Python floor division (b != 0) */
export function floorDivBig(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}
/** Python modulo: result has the sign of b (b != 0) */
export function modBig(a: bigint, b: bigint): bigint {
  return a - b * floorDivBig(a, b);
}

export function mono(coef: bigint, factors: readonly Expr[]): Mono {
  const fs = [...factors].sort(byKey);
  return { coef, factors: fs, mk: monoKey(fs) };
}

export function polyOf(e: Expr): Poly {
  switch (e.kind) {
    case 'int':
      return { terms: [], c: e.value };
    case 'add':
      return { terms: e.terms.map(termMono), c: e.constant };
    default:
      return { terms: [termMono(e)], c: 0n };
  }
}

function termMono(t: Expr): Mono {
  if (t.kind === 'mul') return { coef: t.coef, factors: t.factors, mk: t.mk };
  return { coef: 1n, factors: [t], mk: t.key };
}

export function monoToExpr(m: Mono): Expr {
  if (m.coef === 0n) return ZERO;
  if (m.factors.length === 0) return mkInt(m.coef);
  if (m.factors.length === 1 && m.coef === 1n) return m.factors[0];
  return mkMul(m.coef, m.factors, m.mk);
}

/** normalise a list of monomials (any order, repeats allowed) and a constant into a Poly */
export function makePoly(monos: readonly Mono[], c: bigint): Poly {
  spend(monos.length + 1);
  const acc = new Map<string, Mono>();
  let constant = c;
  for (const m of monos) {
    if (m.coef === 0n) continue;
    if (m.factors.length === 0) {
      constant += m.coef;
      continue;
    }
    const prev = acc.get(m.mk);
    acc.set(m.mk, prev ? { coef: prev.coef + m.coef, factors: prev.factors, mk: m.mk } : m);
  }
  const terms = [...acc.values()].filter((m) => m.coef !== 0n).sort((x, y) => compareKeys(x.mk, y.mk));
  return { terms, c: constant };
}

export function polyToExpr(p: Poly): Expr {
  if (p.terms.length === 0) return mkInt(p.c);
  if (p.terms.length === 1 && p.c === 0n) return monoToExpr(p.terms[0]);
  return mkAdd(p.terms.map(monoToExpr), p.c);
}

export function polyAdd(ps: readonly Poly[]): Poly {
  const monos: Mono[] = [];
  let c = 0n;
  for (const p of ps) {
    monos.push(...p.terms);
    c += p.c;
  }
  return makePoly(monos, c);
}

export function polyScale(p: Poly, k: bigint): Poly {
  if (k === 0n) return { terms: [], c: 0n };
  return { terms: p.terms.map((m) => ({ coef: m.coef * k, factors: m.factors, mk: m.mk })), c: p.c * k };
}

function monoMul(a: Mono, b: Mono): Mono {
  return mono(a.coef * b.coef, [...a.factors, ...b.factors]);
}

/** product of two polynomials, or null when the result would exceed EXPANSION_CAP monomials */
export function polyMul(a: Poly, b: Poly): Poly | null {
  const na = a.terms.length + (a.c !== 0n ? 1 : 0);
  const nb = b.terms.length + (b.c !== 0n ? 1 : 0);
  if (na > 1 && nb > 1 && na * nb > EXPANSION_CAP) return null;
  spend(na * nb);
  const aa: Mono[] = [...a.terms];
  if (a.c !== 0n) aa.push(mono(a.c, []));
  const bb: Mono[] = [...b.terms];
  if (b.c !== 0n) bb.push(mono(b.c, []));
  const out: Mono[] = [];
  for (const x of aa) for (const y of bb) out.push(monoMul(x, y));
  return makePoly(out, 0n);
}

/**
 * Divide monomial m by the atom list `d` (multiset inclusion). Returns the quotient atoms, or
 * null when some atom of d is missing from m.
 */
export function divideAtoms(m: readonly Expr[], d: readonly Expr[]): Expr[] | null {
  const rest = [...m];
  for (const f of d) {
    const i = rest.findIndex((x) => x.key === f.key);
    if (i < 0) return null;
    rest.splice(i, 1);
  }
  return rest;
}

/** gcd of all coefficients and the constant (0 for the zero polynomial) */
export function polyContent(p: Poly): bigint {
  let g = p.c;
  for (const m of p.terms) g = gcdBig(g, m.coef);
  return absBig(g);
}

/** true when the polynomial is a single monomial (no constant) */
export function asMono(p: Poly): Mono | null {
  return p.terms.length === 1 && p.c === 0n ? p.terms[0] : null;
}

export function isZeroPoly(p: Poly): boolean {
  return p.terms.length === 0 && p.c === 0n;
}
