// Bounds reasoning over Facts: numeric intervals, symbolic lower/upper bounds and a
// deterministic, depth-limited prover of `P >= 0`. No timeouts: every search is bounded by
// fixed depths and counts, so the same input always gives the same answer.
//
// Proof of P >= 0 (P canonical), first success wins:
//  1. the numeric interval of P (interval arithmetic over atoms) has lo >= 0;
//  2. a symbolic lower bound L of P, obtained by replacing each range variable by its lower or
//     upper bound according to the sign of its term (range bounds may be symbolic, e.g.
//     floorDiv(K, BK)), simplified (which recombines `K - BK*floorDiv(K, BK)` into
//     `K % BK`, and uses relations), is proven >= 0 recursively;
//  3. P = a*Q + R for an atom a >= 0, with Q >= 0 and R >= 0 proven recursively;
//  4. P - F >= 0 for a relation F >= 0 from the facts.
import { type Expr } from './node.js';
import { type Interval, TOP, iIntersect, intervalOf } from './interval.js';
import { type Mono, ONE, ZERO, polyOf } from './poly.js';
import { add, floorDiv, int, max, min, mul, sub } from './build.js';
import { Sampler } from './samples.js';
import { type FactsLike, FactBase } from './facts.js';

const MAX_DEPTH = 6;

/** 0: range variables, aranges and remainders are bounded; 1: also symbols bounded by relations */
type Mode = 0 | 1;

export abstract class Reasoner extends FactBase {
  protected depth = 0;
  /**
   * bumped whenever a search is cut off (depth limit or a cycle); answers reached after a
   * cut-off are cached only for the depth they were computed at
   */
  protected cutoffs = 0;
  private numCache = new Map<string, Interval>();
  private varCache: [Map<string, boolean>, Map<string, boolean>] = [new Map(), new Map()];
  private proveCache = new Map<string, boolean>();
  private boundMaps = new Map<string, Map<string, Expr>>();
  private inProgress = new Set<string>();
  private numInProgress = new Set<string>();

  private readonly sampler: Sampler;

  constructor(facts: FactsLike) {
    super(facts);
    this.sampler = new Sampler(facts);
  }

  abstract simp(e: Expr): Expr;
  /** last resort of a proof: case analysis (implemented by the simplifier) */
  protected abstract proveByCases(p: Expr): boolean;

  // ---- numeric intervals ----

  num(e: Expr): Interval {
    const hit = this.numCache.get(e.key);
    if (hit) return hit;
    if (this.numInProgress.has(e.key)) return TOP;
    this.numInProgress.add(e.key);
    const r = this.numNode(e);
    this.numInProgress.delete(e.key);
    this.numCache.set(e.key, r);
    return r;
  }

  private numNode(e: Expr): Interval {
    if (e.kind !== 'sym') return intervalOf(e, (x) => this.num(x));
    let r = TOP;
    const rg = this.ranges.get(e.name);
    if (rg) {
      const hi = this.num(rg.hi).hi;
      r = { lo: this.num(rg.lo).lo, hi: hi === null ? null : hi - 1n };
    }
    if (this.positive.has(e.name)) r = iIntersect(r, { lo: 1n, hi: null });
    const sb = this.symBounds.get(e.name);
    return sb ? iIntersect(r, sb) : r;
  }

  // ---- symbolic bounds ----

  /** true when e mentions a range variable, an arange or a remainder (whose bounds we know) */
  protected hasVar(e: Expr, mode: Mode = 0): boolean {
    const hit = this.varCache[mode].get(e.key);
    if (hit !== undefined) return hit;
    let r: boolean;
    switch (e.kind) {
      case 'int':
        r = false;
        break;
      case 'sym':
        r = this.ranges.has(e.name) || (mode === 1 && (this.relLo.has(e.name) || this.relHi.has(e.name)));
        break;
      case 'arange':
      case 'mod':
        r = true;
        break;
      case 'add':
        r = e.terms.some((t) => this.hasVar(t, mode));
        break;
      case 'mul':
        r = e.factors.some((t) => this.hasVar(t, mode));
        break;
      case 'floordiv':
      case 'bit':
        r = this.hasVar(e.a, mode) || this.hasVar(e.b, mode);
        break;
      case 'min':
      case 'max':
      case 'and':
      case 'or':
        r = e.args.some((t) => this.hasVar(t, mode));
        break;
      case 'cmp':
        r = this.hasVar(e.lhs, mode);
        break;
      case 'not':
        r = this.hasVar(e.arg, mode);
        break;
      case 'select':
        r = this.hasVar(e.cond, mode) || this.hasVar(e.then, mode) || this.hasVar(e.otherwise, mode);
        break;
    }
    this.varCache[mode].set(e.key, r);
    return r;
  }

  /** an expression B with e >= B (dir 'lo') or e <= B (dir 'hi') wherever the facts hold */
  bound(e: Expr, dir: 'lo' | 'hi', mode: Mode = 0): Expr {
    if (!this.hasVar(e, mode)) return e;
    const bm = this.boundMap(`${dir}${mode}`);
    const hit = bm.get(e.key) ?? this.boundMap(`${dir}${mode}${this.depth}`).get(e.key);
    if (hit) return hit;
    const ck = `${dir}${mode}${e.key}`;
    if (this.inProgress.has(ck) || this.depth > MAX_DEPTH) {
      this.cutoffs++;
      return e;
    }
    this.inProgress.add(ck);
    this.depth++;
    const before = this.cutoffs;
    let r = this.boundNode(e, dir, mode);
    if (r !== e) r = this.simp(r);
    this.depth--;
    this.inProgress.delete(ck);
    (this.cutoffs === before ? bm : this.boundMap(`${dir}${mode}${this.depth}`)).set(e.key, r);
    return r;
  }

  private boundMap(k: string): Map<string, Expr> {
    let m = this.boundMaps.get(k);
    if (!m) this.boundMaps.set(k, (m = new Map()));
    return m;
  }

  private boundNode(e: Expr, dir: 'lo' | 'hi', mode: Mode): Expr {
    const other = dir === 'lo' ? 'hi' : 'lo';
    const B = (x: Expr, d: 'lo' | 'hi') => this.bound(x, d, mode);
    switch (e.kind) {
      case 'sym': {
        const rg = this.ranges.get(e.name);
        if (!rg) {
          const rb = (dir === 'lo' ? this.relLo : this.relHi).get(e.name);
          return rb && mode === 1 ? B(rb, dir) : e;
        }
        return dir === 'lo' ? B(rg.lo, 'lo') : B(sub(rg.hi, ONE), 'hi');
      }
      case 'arange':
        return dir === 'lo' ? B(e.start, 'lo') : B(sub(e.stop, ONE), 'hi');
      case 'add':
      case 'mul': {
        const p = polyOf(e);
        return add(int(p.c), ...p.terms.map((m) => this.monoBound(m, dir, mode)));
      }
      case 'floordiv': {
        const d = e.b;
        // floor(x/d) is non-decreasing in x for d >= 1: keep d exact unless it has range variables
        if (!this.hasVar(d, 0)) {
          if (!this.proveNonNeg(sub(d, ONE))) return e;
          return floorDiv(B(e.a, dir), d);
        }
        if ((this.num(d).lo ?? 0n) < 1n || (this.num(e.a).lo ?? -1n) < 0n) return e;
        return floorDiv(B(e.a, dir), B(d, other));
      }
      case 'mod': {
        const n = this.num(e.b);
        if (n.lo === null || n.lo < 1n) {
          if (!this.proveNonNeg(sub(e.b, ONE))) return e;
        }
        return dir === 'lo' ? ZERO : sub(B(e.b, 'hi'), ONE);
      }
      case 'min':
        return min(...e.args.map((x) => B(x, dir)));
      case 'max':
        return max(...e.args.map((x) => B(x, dir)));
      case 'select':
        return dir === 'lo' ? min(B(e.then, 'lo'), B(e.otherwise, 'lo')) : max(B(e.then, 'hi'), B(e.otherwise, 'hi'));
      case 'cmp':
      case 'and':
      case 'or':
      case 'not':
        return dir === 'lo' ? ZERO : ONE;
      default:
        return e;
    }
  }

  private monoBound(m: Mono, dir: 'lo' | 'hi', mode: Mode): Expr {
    const self = mul(int(m.coef), ...m.factors);
    if (!m.factors.some((f) => this.hasVar(f, mode))) return self;
    const want: 'lo' | 'hi' = (m.coef > 0n) === (dir === 'lo') ? 'lo' : 'hi';
    if (m.factors.length === 1) return mul(int(m.coef), this.bound(m.factors[0], want, mode));
    // a product: bound factor by factor, which needs every factor non-negative
    for (const f of m.factors) if ((this.num(f).lo ?? -1n) < 0n) return self;
    const fs = m.factors.map((f) => {
      const b = this.bound(f, want, mode);
      if (want === 'hi') return b;
      const lo = this.num(b).lo;
      return lo !== null && lo >= 0n ? b : int(this.num(f).lo as bigint);
    });
    return mul(int(m.coef), ...fs);
  }

  // ---- proofs ----

  proveNonNeg(p: Expr): boolean {
    if (p.kind === 'int') return p.value >= 0n;
    const hit = this.proveCache.get(p.key) ?? this.proveCache.get(`${this.depth}|${p.key}`);
    if (hit !== undefined) return hit;
    const n = this.num(p);
    if (n.lo !== null && n.lo >= 0n) return true;
    if ((n.hi !== null && n.hi < 0n) || this.sampler.refutesNonNeg(p)) {
      this.proveCache.set(p.key, false);
      return false;
    }
    if (this.depth > MAX_DEPTH || this.inProgress.has(`p${p.key}`)) {
      this.cutoffs++;
      return false;
    }
    this.inProgress.add(`p${p.key}`);
    this.depth++;
    const before = this.cutoffs;
    const r = this.tryProve(p);
    this.depth--;
    this.inProgress.delete(`p${p.key}`);
    this.proveCache.set(r || this.cutoffs === before ? p.key : `${this.depth}|${p.key}`, r);
    return r;
  }

  private tryProve(p: Expr): boolean {
    const sp = this.simp(p);
    if (sp.key !== p.key) return this.proveNonNeg(sp);
    let l0: Expr | null = null;
    if (this.hasVar(p, 0)) {
      l0 = this.bound(p, 'lo', 0);
      if (l0.key !== p.key && this.proveNonNeg(l0)) return true;
    }
    if (this.hasVar(p, 1)) {
      const l1 = this.bound(p, 'lo', 1);
      if (l1.key !== p.key && l1.key !== l0?.key && this.proveNonNeg(l1)) return true;
    }
    if (this.proveBySplit(p)) return true;
    for (const f of this.nonnegFacts) {
      const d = this.simp(sub(p, f));
      const lo = this.num(d).lo;
      if (lo !== null && lo >= 0n) return true;
    }
    return this.proveByCases(p);
  }

  /** P = a*Q + R with a >= 0, Q >= 0, R >= 0 */
  private proveBySplit(p: Expr): boolean {
    const poly = polyOf(p);
    if (poly.terms.length < 2) return false;
    const atoms = new Map<string, Expr>();
    for (const m of poly.terms) for (const f of m.factors) if (m.coef < 0n) atoms.set(f.key, f);
    const cands = [...atoms.values()].sort((a, b) => (a.key < b.key ? -1 : 1)).slice(0, 3);
    for (const a of cands) {
      if ((this.num(a).lo ?? -1n) < 0n) continue;
      const q: Expr[] = [];
      const r: Expr[] = [int(poly.c)];
      for (const m of poly.terms) {
        const i = m.factors.findIndex((f) => f.key === a.key);
        if (i < 0) r.push(mul(int(m.coef), ...m.factors));
        else q.push(mul(int(m.coef), ...m.factors.filter((_, j) => j !== i)));
      }
      if (q.length < 2 && r.length === 1 && poly.c === 0n) continue;
      if (this.proveNonNeg(add(...q)) && this.proveNonNeg(add(...r))) return true;
    }
    return false;
  }

  /** lhs <= rhs - 1 */
  proveLt(a: Expr, b: Expr): boolean {
    return this.proveNonNeg(sub(sub(b, a), ONE));
  }
  proveLe(a: Expr, b: Expr): boolean {
    return this.proveNonNeg(sub(b, a));
  }
  provePositive(a: Expr): boolean {
    return this.proveNonNeg(sub(a, ONE));
  }
}
