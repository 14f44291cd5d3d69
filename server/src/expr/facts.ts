// What the facts say, in the forms the prover uses: ranges and positive symbols as given, and
// each relation (a 0/1 expression known true) read as equalities of atoms to constants,
// polynomials known >= 0, numeric bounds of symbols and symbolic bounds of symbols.
import { type Expr, childrenOf } from './node.js';
import { type Interval, TOP } from './interval.js';
import { polyOf } from './poly.js';
import { int, mul, sub } from './build.js';

export interface FactsLike {
  ranges: ReadonlyMap<string, { lo: Expr; hi: Expr }>;
  positive: ReadonlySet<string>;
  relations?: readonly Expr[];
}

function freeSymbolsHas(e: Expr, name: string): boolean {
  if (e.kind === 'sym') return e.name === name;
  return e.key.includes(name) && childrenOf(e).some((x) => freeSymbolsHas(x, name));
}

export class FactBase {
  protected readonly ranges: ReadonlyMap<string, { lo: Expr; hi: Expr }>;
  protected readonly positive: ReadonlySet<string>;
  /** numeric bounds of symbols stated by relations (`s <= 7`) */
  protected readonly symBounds = new Map<string, Interval>();
  /** polynomials known to be >= 0 (from relations) */
  protected readonly nonnegFacts: Expr[] = [];
  /** atoms equal to a constant by a relation (`K % BK == 0`) */
  protected readonly subst = new Map<string, Expr>();
  /** symbolic bounds of symbols stated by linear relations (`GM <= num_pid_m`), inclusive */
  protected readonly relLo = new Map<string, Expr>();
  protected readonly relHi = new Map<string, Expr>();

  constructor(facts: FactsLike) {
    this.ranges = facts.ranges;
    this.positive = facts.positive;
    for (const r of facts.relations ?? []) this.addRelation(r);
  }

  protected addRelation(r: Expr): void {
    if (r.kind === 'and') {
      r.args.forEach((x) => this.addRelation(x));
      return;
    }
    if (r.kind !== 'cmp' || r.op === '!=') return;
    const { lhs, rhs, op } = r;
    const c = int(rhs);
    if (op === '==') {
      if (lhs.kind !== 'add' && lhs.kind !== 'mul' && !this.subst.has(lhs.key)) this.subst.set(lhs.key, c);
      this.nonnegFacts.push(sub(lhs, c), sub(c, lhs));
    } else this.nonnegFacts.push(op === '<=' ? sub(c, lhs) : sub(lhs, c));
    if (lhs.kind === 'sym') {
      const prev = this.symBounds.get(lhs.name) ?? TOP;
      this.symBounds.set(lhs.name, {
        lo: op === '>=' || op === '==' ? rhs : prev.lo,
        hi: op === '<=' || op === '==' ? rhs : prev.hi,
      });
    }
    // linear relations bound each unit-coefficient symbol by the rest: s + rest <= c => s <= c - rest
    const p = polyOf(lhs);
    for (const m of p.terms) {
      if (m.factors.length !== 1 || m.factors[0].kind !== 'sym' || (m.coef !== 1n && m.coef !== -1n)) continue;
      const s = m.factors[0] as Expr & { kind: 'sym' };
      const rest = sub(lhs, mul(int(m.coef), s));
      if (freeSymbolsHas(rest, s.name)) continue;
      const bound = m.coef === 1n ? sub(c, rest) : sub(rest, c);
      const isHi = (op === '<=') === (m.coef === 1n);
      for (const hi of op === '==' ? [true, false] : [isHi]) {
        const map = hi ? this.relHi : this.relLo;
        if (!map.has(s.name)) map.set(s.name, bound);
      }
    }
  }
}
