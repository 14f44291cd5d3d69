// Range-aware simplifier: bottom-up rewriting to a fixpoint, with LEGO's rules (paper Table II)
// and their side conditions proven by reasoner.ts from the facts. Deterministic (no timeouts,
// fixed search limits) and sound: the result equals the input wherever the facts hold.
//
// Rules (x, d expressions; the constructors in build.ts already apply the unconditional ones):
//  A1  (d*q + r) % d -> r % d                       constructors (monomial d)
//  A2  (d*q + r) // d -> q + r // d                 constructors (monomial d)
//  A3  (x % d) // d -> 0                            constructors; also via A4 bounds
//  A4  x // d -> 0      if 0 <= x < d;   x // d -> -1 if -d <= x < 0
//  A5  x % d -> x       if 0 <= x < d;   x % d -> x + d if -d <= x < 0
//  A6  floor(n + y) -> n + floor(y)                 constructors pull integer parts out of //
//  B/C a*(x // a) + x % a -> x, as terms of a sum (any sum where the rewrite
//      a*(x // a) -> x - x % a lowers the operation count), and a*(x // a) -> x when
//      x % a is known to be 0 (e.g. from a relation `K % BK == 0`)
// and further: (x // a) // b -> x // (a*b) for a, b >= 1; cancelling a common positive atom
// in x // d; min/max argument dominance; deciding comparisons and selects; atoms equated to
// constants by relations (`K % BK == 0`) are replaced. Floor divisions and remainders whose
// operands are proven non-negative are marked `nonneg` for the C and MLIR printers.
import { type Expr, childrenOf, exprDepth, mkFloorDiv, mkMod } from './node.js';
import { rebuild, replaceAtom } from './eval.js';
import { add, floorDiv, int, max, min, mod, mul, sub } from './build.js';
import { cmp as mkCmpExpr } from './logic.js';
import { type Mono, type Poly, ONE, ZERO, asMono, divideAtoms, makePoly, mono, polyContent, polyOf, polyToExpr } from './poly.js';
import { Reasoner } from './reasoner.js';
import { rawOps } from './ptree.js';

/** facts the simplifier may use: symbol ranges lo <= s < hi, positive symbols, relations known true */
export interface Facts {
  ranges: ReadonlyMap<string, { lo: Expr; hi: Expr }>;
  positive: ReadonlySet<string>;
  relations?: readonly Expr[];
}

const FIXPOINT_ROUNDS = 6;
const MAX_CASE_DEPTH = 2;
const MAX_CASES = 4;

function firstMinMax(e: Expr): (Expr & { kind: 'min' | 'max' }) | null {
  let best: (Expr & { kind: 'min' | 'max' }) | null = null;
  const seen = new Set<string>();
  const walk = (x: Expr) => {
    if (seen.has(x.key)) return;
    seen.add(x.key);
    if ((x.kind === 'min' || x.kind === 'max') && (!best || x.key < best.key)) best = x;
    childrenOf(x).forEach(walk);
  };
  walk(e);
  return best;
}


class Simplifier extends Reasoner {
  private cache = new Map<string, Expr>();
  private opsCache = new Map<string, number>();

  constructor(
    private readonly facts: Facts,
    private readonly caseDepth = 0,
  ) {
    super(facts);
  }

  /**
   * Case analysis on a min/max atom m of P: P >= 0 holds if it holds with m replaced by each
   * argument in turn, under the extra relation that this argument is the extreme one.
   * Only for shallow proofs, at most MAX_CASE_DEPTH nested splits.
   */
  protected proveByCases(p: Expr): boolean {
    if (this.caseDepth >= MAX_CASE_DEPTH || this.depth > 2) return false;
    const atom = firstMinMax(p);
    if (!atom || atom.args.length > MAX_CASES) return false;
    for (let i = 0; i < atom.args.length; i++) {
      const a = atom.args[i];
      const rels = atom.args.filter((_, j) => j !== i).map((b) => (atom.kind === 'max' ? mkCmpExpr('>=', a, b) : mkCmpExpr('<=', a, b)));
      const child = new Simplifier({ ...this.facts, relations: [...(this.facts.relations ?? []), ...rels] }, this.caseDepth + 1);
      const ok = child.proveNonNeg(child.simp(replaceAtom(p, atom.key, a)));
      this.cutoffs += child.cutoffs;
      if (!ok) return false;
    }
    return true;
  }

  simp(e: Expr): Expr {
    if (e.kind === 'int') return e;
    const hit = this.cache.get(e.key) ?? this.cache.get(`${this.depth}|${e.key}`);
    if (hit) return hit;
    const before = this.cutoffs;
    let cur = this.step(e);
    for (let i = 0; i < FIXPOINT_ROUNDS; i++) {
      const next = this.step(cur);
      if (next.key === cur.key) {
        cur = next.kind === cur.kind && flagged(next) && !flagged(cur) ? next : cur;
        break;
      }
      cur = next;
    }
    if (this.cutoffs === before) {
      this.cache.set(e.key, cur);
      this.cache.set(cur.key, cur);
    } else this.cache.set(`${this.depth}|${e.key}`, cur);
    return cur;
  }

  private step(e: Expr): Expr {
    if (e.kind === 'int') return e;
    if (e.kind === 'sym') return this.subst.get(e.key) ?? e;
    const r = rebuild(e, (x) => this.simp(x), true);
    const s = this.subst.get(r.key);
    if (s) return s;
    switch (r.kind) {
      case 'floordiv':
        return this.ruleDiv(r.a, r.b);
      case 'mod':
        return this.ruleMod(r.a, r.b);
      case 'add':
      case 'mul':
        return this.rulePoly(r);
      case 'min':
      case 'max':
        return this.ruleMinMax(r.kind, r.args);
      case 'cmp':
        return this.ruleCmp(r);
      case 'bit':
        return this.ruleBit(r);
      default:
        return r;
    }
  }

  /**
   * Disjoint bits: when a is a multiple of 2^k (its low k bits are 0, in two's complement whatever
   * its sign) and 0 <= b < 2^k, then a ^ b = a | b = a + b and a & b = 0.
   */
  private ruleBit(e: Expr & { kind: 'bit' }): Expr {
    if (e.op === 'shl' || e.op === 'shr') return e;
    for (const [a, b] of [[e.a, e.b], [e.b, e.a]] as const) {
      const c = polyContent(polyOf(a));
      if (c === 0n) continue;
      let p = 1n;
      while ((c % (p * 2n)) === 0n) p *= 2n;
      if (p === 1n) continue;
      if (!this.proveNonNeg(b) || !this.proveLt(b, int(p))) continue;
      return e.op === 'and' ? ZERO : add(a, b);
    }
    return e;
  }

  /**
   * Terms of x that are multiples of the monomial d only through divisibility relations
   * (`C % c == 0` makes C*a*b*i a multiple of a*b*c): x = d*q + r, or null when none.
   */
  private multiplesOf(x: Expr, d: Expr): { q: Expr; r: Expr } | null {
    const md = asMono(polyOf(d));
    if (!md || this.subst.size === 0) return null;
    const px = polyOf(x);
    const q: Expr[] = [];
    const r: Mono[] = [];
    for (const t of px.terms) {
      const rest = [...t.factors];
      let ok = t.coef % md.coef === 0n;
      for (const m of md.factors) {
        if (!ok) break;
        const i = rest.findIndex((f) => f.key === m.key);
        if (i >= 0) {
          rest.splice(i, 1);
          continue;
        }
        // an atom s of the term with s % m == 0 known: s = m * (s // m)
        const j = rest.findIndex((s) => this.subst.get(mod(s, m).key)?.key === '0');
        if (j < 0) ok = false;
        else rest[j] = floorDiv(rest[j], m);
      }
      if (ok) q.push(mul(int(t.coef / md.coef), ...rest));
      else r.push(t);
    }
    if (q.length === 0) return null;
    return { q: add(...q), r: polyToExpr(makePoly(r, px.c)) };
  }

  private ruleDiv(x: Expr, d: Expr): Expr {
    if (!this.provePositive(d)) return floorDiv(x, d);
    const split = this.multiplesOf(x, d);
    if (split) return add(split.q, floorDiv(split.r, d));
    const xNonNeg = this.proveNonNeg(x);
    if (xNonNeg && this.proveLt(x, d)) return ZERO; // A4, A3
    if (!xNonNeg && this.proveLt(x, ZERO) && this.proveNonNeg(add(x, d))) return int(-1);
    if (x.kind === 'floordiv' && this.provePositive(x.b)) return floorDiv(x.a, mul(x.b, d));
    const cancelled = this.cancelCommon(x, d);
    if (cancelled) return floorDiv(cancelled[0], cancelled[1]);
    const r = floorDiv(x, d);
    if (xNonNeg && r.kind === 'floordiv' && r.a.key === x.key && r.b.key === d.key) return mkFloorDiv(r.a, r.b, true);
    return r;
  }

  private ruleMod(x: Expr, d: Expr): Expr {
    if (!this.provePositive(d)) return mod(x, d);
    const split = this.multiplesOf(x, d);
    if (split) return mod(split.r, d);
    const xNonNeg = this.proveNonNeg(x);
    if (xNonNeg && this.proveLt(x, d)) return x; // A5
    if (!xNonNeg && this.proveLt(x, ZERO) && this.proveNonNeg(add(x, d))) return add(x, d);
    const r = mod(x, d);
    if (xNonNeg && r.kind === 'mod' && r.a.key === x.key && r.b.key === d.key) return mkMod(r.a, r.b, true);
    return r;
  }

  /** x // d with an atom s >= 1 common to d and every term of x: (x/s) // (d/s) */
  private cancelCommon(x: Expr, d: Expr): [Expr, Expr] | null {
    const md = asMono(polyOf(d));
    const px = polyOf(x);
    if (!md || px.c !== 0n || px.terms.length === 0) return null;
    for (const s of md.factors) {
      if (!px.terms.every((t) => t.factors.some((f) => f.key === s.key))) continue;
      if (!this.provePositive(s)) continue;
      const drop = (m: Mono) => mono(m.coef, divideAtoms(m.factors, [s]) as Expr[]);
      return [polyToExpr(makePoly(px.terms.map(drop), 0n)), polyToExpr(makePoly([drop(md)], 0n))];
    }
    return null;
  }

  private ruleMinMax(kind: 'min' | 'max', args: readonly Expr[]): Expr {
    const keep = args.map(() => true);
    for (let i = 0; i < args.length; i++) {
      for (let j = 0; j < args.length; j++) {
        if (i === j || !keep[i] || !keep[j]) continue;
        // drop j when i is at least as good: min keeps the smaller
        const iWins = kind === 'min' ? this.proveLe(args[i], args[j]) : this.proveLe(args[j], args[i]);
        if (iWins) keep[j] = false;
      }
    }
    const rest = args.filter((_, i) => keep[i]);
    return kind === 'min' ? min(...rest) : max(...rest);
  }

  private ruleCmp(c: Expr & { kind: 'cmp' }): Expr {
    const lhs = c.lhs;
    const rhs = int(c.rhs);
    switch (c.op) {
      case '<=':
        if (this.proveLe(lhs, rhs)) return ONE;
        if (this.proveLt(rhs, lhs)) return ZERO;
        break;
      case '>=':
        if (this.proveLe(rhs, lhs)) return ONE;
        if (this.proveLt(lhs, rhs)) return ZERO;
        break;
      case '==':
      case '!=': {
        const differ = this.proveLt(lhs, rhs) || this.proveLt(rhs, lhs);
        if (differ) return c.op === '==' ? ZERO : ONE;
        if (this.proveLe(lhs, rhs) && this.proveLe(rhs, lhs)) return c.op === '==' ? ONE : ZERO;
        break;
      }
    }
    return mkCmpExpr(c.op, lhs, rhs);
  }

  private ops(e: Expr): number {
    let n = this.opsCache.get(e.key);
    if (n === undefined) {
      n = rawOps(e);
      this.opsCache.set(e.key, n);
    }
    return n;
  }

  private polyCost(p: Poly): number {
    let n = p.terms.length + (p.c !== 0n ? 1 : 0) - 1;
    for (const m of p.terms) {
      n += m.factors.length - 1 + (m.coef === 1n || m.coef === -1n ? 0 : 1);
      for (const f of m.factors) n += this.ops(f);
    }
    return n;
  }

  /** B/C: rewrite terms R*a*(x // a) as R*(x - x % a) when that lowers the cost or x % a == 0 */
  private rulePoly(e: Expr): Expr {
    let p = polyOf(e);
    for (let round = 0; round < 8; round++) {
      const next = this.bcOnce(p) ?? this.divModOnce(p);
      if (!next) break;
      p = next;
    }
    return polyToExpr(p);
  }

  /**
   * D: k*c*M*(x // (c*d)) + k*M*((x % (c*d)) // d) -> k*M*(x // d), for monomials c, d (d != 0,
   * as the constructors assume). Sound for every integer x: x = c*d*(x // (c*d)) + x % (c*d), and
   * the first part is a multiple of d, so x // d = c*(x // (c*d)) + (x % (c*d)) // d.
   */
  private divModOnce(p: Poly): Poly | null {
    if (p.terms.length < 2) return null;
    for (let i = 0; i < p.terms.length; i++) {
      const t2 = p.terms[i];
      for (let j2 = 0; j2 < t2.factors.length; j2++) {
        const f2 = t2.factors[j2];
        if (f2.kind !== 'floordiv' || f2.a.kind !== 'mod') continue;
        const x = f2.a.a;
        const D = monoOfExpr(f2.a.b);
        const d = monoOfExpr(f2.b);
        if (!D || !d || d.coef === 0n || D.coef % d.coef !== 0n) continue;
        const cAtoms = divideAtoms(D.factors, d.factors);
        if (!cAtoms) continue;
        const cCoef = D.coef / d.coef;
        const M = t2.factors.filter((_, k) => k !== j2);
        // the partner term: coefficient k*cCoef, atoms M + c + (x // D)
        const want = mono(t2.coef * cCoef, [...M, ...cAtoms, floorDiv(x, f2.a.b)]);
        const j = p.terms.findIndex((t, k) => k !== i && t.mk === want.mk && t.coef === want.coef);
        if (j < 0) continue;
        const rest = p.terms.filter((_, k) => k !== i && k !== j);
        return makePoly([...rest, mono(t2.coef, [...M, floorDiv(x, f2.b)])], p.c);
      }
    }
    return null;
  }

  private bcOnce(p: Poly): Poly | null {
    const cost = this.polyCost(p);
    for (let i = 0; i < p.terms.length; i++) {
      const t = p.terms[i];
      for (let j = 0; j < t.factors.length; j++) {
        const f = t.factors[j];
        if (f.kind !== 'floordiv') continue;
        const a = f.b.kind === 'int' ? (f.b.value > 0n ? mono(f.b.value, []) : null) : asMono(polyOf(f.b));
        if (!a) continue;
        const others = divideAtoms(
          t.factors.filter((_, k) => k !== j),
          a.factors,
        );
        if (!others || t.coef % a.coef !== 0n) continue;
        const r = mul(int(t.coef / a.coef), ...others);
        const m = this.simp(mod(f.a, f.b));
        const repl = polyOf(mul(r, sub(f.a, m)));
        const rest = p.terms.filter((_, k) => k !== i);
        const cand = makePoly([...rest, ...repl.terms], p.c + repl.c);
        if ((m.kind === 'int' && m.value === 0n) || this.polyCost(cand) < cost) return cand;
      }
    }
    return null;
  }
}

/** a monomial (positive or negative coefficient) or a non-zero constant, as a Mono */
function monoOfExpr(e: Expr): Mono | null {
  if (e.kind === 'int') return e.value !== 0n ? mono(e.value, []) : null;
  return asMono(polyOf(e));
}

function flagged(e: Expr): boolean {
  return (e.kind === 'floordiv' || e.kind === 'mod') && e.nonneg === true;
}

/** expressions nested deeper than this are returned as constructed (still canonical) */
export const MAX_SIMPLIFY_DEPTH = 200;

/** simplify e under the facts (deterministic, sound wherever the facts hold) */
export function simplify(e: Expr, facts: Facts): Expr {
  if (exprDepth(e) > MAX_SIMPLIFY_DEPTH) return e;
  return new Simplifier(facts).simp(e);
}

/** simplify each of es under the same facts, sharing one simplifier's caches (faster than one call each) */
export function simplifyAll(es: readonly Expr[], facts: Facts): Expr[] {
  const s = new Simplifier(facts);
  return es.map((e) => (exprDepth(e) > MAX_SIMPLIFY_DEPTH ? e : s.simp(e)));
}

/** true when e >= 0 is proven from the facts (false means "not proven", not "negative") */
export function proveNonNeg(e: Expr, facts: Facts): boolean {
  if (exprDepth(e) > MAX_SIMPLIFY_DEPTH) return false;
  const s = new Simplifier(facts);
  return s.proveNonNeg(s.simp(e));
}
