// Print trees: the form every printer writes and `countOps` counts. A polynomial is laid out
// either expanded (the canonical sum of monomials) or factored (common atoms and integer
// content pulled out greedily, e.g. `K*(BM*pid_m + r) + BK*k + c`), whichever has strictly
// fewer operations; ties keep the expanded form. Deterministic: depends only on the keys.
import { type Bcast, type BitOp, type CanonCmpOp, type Expr, childrenOf, exprDepth } from './node.js';
import { type Mono, absBig, gcdBig, mono, polyOf } from './poly.js';

export type PT =
  | { k: 'num'; v: bigint; ops: number }
  | { k: 'sym'; name: string; ops: number }
  | { k: 'arange'; start: PT; stop: PT; bcast?: Bcast; ops: number }
  | { k: 'sum'; terms: readonly Term[]; ops: number }
  | { k: 'prod'; factors: readonly PT[]; ops: number }
  | { k: 'fdiv' | 'mod'; a: PT; b: PT; nonneg: boolean; ops: number }
  | { k: 'min' | 'max'; args: readonly PT[]; ops: number }
  | { k: 'cmp'; op: CanonCmpOp; a: PT; b: PT; ops: number }
  | { k: 'and' | 'or'; args: readonly PT[]; ops: number }
  | { k: 'not'; a: PT; ops: number }
  | { k: 'sel'; c: PT; a: PT; b: PT; ops: number }
  | { k: 'bit'; op: BitOp; a: PT; b: PT; ops: number };

export interface Term {
  readonly neg: boolean;
  readonly t: PT;
}

const sumOps = (xs: readonly PT[]) => xs.reduce((s, x) => s + x.ops, 0);

function num(v: bigint): PT {
  return { k: 'num', v, ops: 0 };
}

function prod(factors: readonly PT[]): PT {
  const flat: PT[] = [];
  for (const f of factors) {
    if (f.k === 'prod') flat.push(...f.factors);
    else flat.push(f);
  }
  const coef = flat.filter((f) => f.k === 'num').reduce((p, f) => p * (f as { v: bigint }).v, 1n);
  const rest = flat.filter((f) => f.k !== 'num');
  const all = coef === 1n && rest.length > 0 ? rest : [num(coef), ...rest];
  if (all.length === 1) return all[0];
  return { k: 'prod', factors: all, ops: all.length - 1 + sumOps(all) };
}

/** a sum of signed terms; a single positive term is returned as is */
function sum(terms: readonly Term[]): PT {
  const flat: Term[] = [];
  for (const x of terms) {
    if (x.t.k === 'sum') for (const y of x.t.terms) flat.push({ neg: x.neg !== y.neg, t: y.t });
    else flat.push(x);
  }
  if (flat.length === 0) return num(0n);
  if (flat.length === 1 && !flat[0].neg) return flat[0].t;
  return { k: 'sum', terms: flat, ops: flat.length - 1 + sumOps(flat.map((x) => x.t)) };
}

/** sort key of a term: names first (alphabetical), then compound atoms, numbers last */
function sortKey(p: PT): string {
  switch (p.k) {
    case 'num':
      return '\uffff';
    case 'sym':
      return p.name;
    case 'prod':
      return p.factors.filter((f) => f.k !== 'num').map(sortKey).join('*');
    case 'sum':
      return `~(${p.terms.map((x) => sortKey(x.t)).join('+')}`;
    default:
      return `~${p.k}`;
  }
}

export class PrintTreeBuilder {
  private memo = new Map<Expr, PT>();

  build(e: Expr): PT {
    const hit = this.memo.get(e);
    if (hit) return hit;
    const r = this.make(e);
    this.memo.set(e, r);
    return r;
  }

  private make(e: Expr): PT {
    switch (e.kind) {
      case 'int':
        return num(e.value);
      case 'sym':
        return { k: 'sym', name: e.name, ops: 0 };
      case 'arange': {
        const start = this.build(e.start);
        const stop = this.build(e.stop);
        return { k: 'arange', start, stop, bcast: e.bcast, ops: start.ops + stop.ops };
      }
      case 'add':
      case 'mul': {
        const p = polyOf(e);
        return this.poly(p.terms, p.c);
      }
      case 'floordiv':
      case 'mod': {
        const a = this.build(e.a);
        const b = this.build(e.b);
        return { k: e.kind === 'floordiv' ? 'fdiv' : 'mod', a, b, nonneg: e.nonneg === true, ops: 1 + a.ops + b.ops };
      }
      case 'min':
      case 'max':
      case 'and':
      case 'or': {
        const args = e.args.map((x) => this.build(x));
        return { k: e.kind, args, ops: args.length - 1 + sumOps(args) };
      }
      case 'cmp': {
        const a = this.build(e.lhs);
        return { k: 'cmp', op: e.op, a, b: num(e.rhs), ops: 1 + a.ops };
      }
      case 'not': {
        const a = this.build(e.arg);
        return { k: 'not', a, ops: 1 + a.ops };
      }
      case 'select': {
        const c = this.build(e.cond);
        const a = this.build(e.then);
        const b = this.build(e.otherwise);
        return { k: 'sel', c, a, b, ops: 1 + c.ops + a.ops + b.ops };
      }
      case 'bit': {
        const a = this.build(e.a);
        const b = this.build(e.b);
        return { k: 'bit', op: e.op, a, b, ops: 1 + a.ops + b.ops };
      }
    }
  }

  private term(m: Mono): Term {
    const fs = m.factors.map((f) => this.build(f));
    const c = absBig(m.coef);
    return { neg: m.coef < 0n, t: prod(c === 1n ? fs : [num(c), ...fs]) };
  }

  private expanded(monos: readonly Mono[], c: bigint): PT {
    const terms = monos.map((m) => this.term(m));
    if (c !== 0n) terms.push({ neg: c < 0n, t: num(absBig(c)) });
    return sum(terms);
  }

  /** best layout of Σ monos + c */
  poly(monos: readonly Mono[], c: bigint): PT {
    const expanded = this.expanded(monos, c);
    if (monos.length < 2) return expanded;
    const factored = this.factored(monos, c);
    return factored && factored.ops < expanded.ops ? factored : expanded;
  }

  private factored(monos: readonly Mono[], c: bigint): PT | null {
    let best: PT | null = null;
    const consider = (p: PT) => {
      if (!best || p.ops < best.ops) best = p;
    };
    // common atom: the one in most monomials (>= 2), ties broken by key
    const count = new Map<string, { n: number; atom: Expr }>();
    for (const m of monos) {
      const seen = new Set<string>();
      for (const f of m.factors) {
        if (seen.has(f.key)) continue;
        seen.add(f.key);
        const prev = count.get(f.key);
        count.set(f.key, { n: (prev?.n ?? 0) + 1, atom: f });
      }
    }
    let pick: { n: number; atom: Expr } | null = null;
    for (const [k, v] of count) {
      if (v.n < 2) continue;
      if (!pick || v.n > pick.n || (v.n === pick.n && k < pick.atom.key)) pick = v;
    }
    if (pick) {
      const atom = pick.atom;
      const inner: Mono[] = [];
      const rest: Mono[] = [];
      for (const m of monos) {
        const i = m.factors.findIndex((f) => f.key === atom.key);
        if (i < 0) rest.push(m);
        else inner.push(mono(m.coef, m.factors.filter((_, j) => j !== i)));
      }
      consider(this.withRest(this.factorTerm(this.build(atom), inner), rest, c));
    }
    // integer content
    const g = monos.reduce((acc, m) => gcdBig(acc, m.coef), 0n);
    if (g > 1n) {
      const divC = c % g === 0n;
      const inner = monos.map((m) => ({ coef: m.coef / g, factors: m.factors, mk: m.mk }));
      const innerPT = this.poly(inner, divC ? c / g : 0n);
      const t = this.scaled(num(g), innerPT);
      const terms: Term[] = [t];
      if (!divC) terms.push({ neg: c < 0n, t: num(absBig(c)) });
      consider(sum(terms));
    }
    return best;
  }

  /** atom * (Σ inner), with a common minus sign pulled out */
  private factorTerm(atom: PT, inner: readonly Mono[]): Term {
    const allNeg = inner.every((m) => m.coef < 0n);
    const q = allNeg ? inner.map((m) => ({ ...m, coef: -m.coef })) : inner;
    const qp = this.poly(q, 0n);
    return { neg: allNeg, t: prod([atom, qp]) };
  }

  private scaled(k: PT, inner: PT): Term {
    if (inner.k === 'sum' && inner.terms.every((x) => x.neg)) {
      return { neg: true, t: prod([k, sum(inner.terms.map((x) => ({ neg: false, t: x.t })))]) };
    }
    return { neg: false, t: prod([k, inner]) };
  }

  private withRest(first: Term, rest: readonly Mono[], c: bigint): PT {
    const restPT = rest.length > 0 ? this.poly(rest, c) : c !== 0n ? num(c) : null;
    const terms: Term[] = [first];
    if (restPT) {
      if (restPT.k === 'sum') terms.push(...restPT.terms);
      else if (restPT.k === 'num' && restPT.v < 0n) terms.push({ neg: true, t: num(-restPT.v) });
      else terms.push({ neg: false, t: restPT });
    }
    terms.sort((x, y) => {
      const a = sortKey(x.t);
      const b = sortKey(y.t);
      return a < b ? -1 : a > b ? 1 : 0;
    });
    return sum(terms);
  }
}

/** printers and countOps refuse expressions nested deeper than this (PrintError) */
export const MAX_PRINT_DEPTH = 500;

/** raised when an expression has no form in the requested language (e.g. tl.arange in C) */
export class PrintError extends Error {
  override name = 'PrintError';
}

export function checkPrintDepth(e: Expr): void {
  const d = exprDepth(e);
  if (d > MAX_PRINT_DEPTH) throw new PrintError(`expression nested too deeply to print (depth ${d} > ${MAX_PRINT_DEPTH})`);
}

/** print trees by expression (both immutable): counting an expression's operations and printing it build one tree */
const treeMemo = new WeakMap<Expr, PT>();

/** the print tree of e (built by a fresh builder, once per expression) */
export function printTree(e: Expr): PT {
  const hit = treeMemo.get(e);
  if (hit) return hit;
  checkPrintDepth(e);
  const t = new PrintTreeBuilder().build(e);
  treeMemo.set(e, t);
  return t;
}

/**
 * Operation count (LEGO's Table IV metric), counted on the printed form:
 * - a sum of n terms: n-1 (each `+`/`-`; a leading minus, i.e. a negative coefficient, is free);
 * - a product of n factors: n-1 (`x*x` is one op; a coefficient other than ±1 is one factor);
 * - floor division and modulo: 1 each; min/max of n arguments: n-1;
 * - a comparison: 1; and/or of n arguments: n-1; not: 1; select: 1;
 * - constants, symbols and `tl.arange` (including its broadcast) : 0, plus its bounds' ops.
 * Throws PrintError beyond MAX_PRINT_DEPTH nesting.
 */
export function countOps(e: Expr): number {
  return printTree(e).ops;
}

const rawMemo = new WeakMap<Expr, number>();

/** operation count of the expanded (unfactored) form: a cheap cost measure for rewriting */
export function rawOps(e: Expr): number {
  const hit = rawMemo.get(e);
  if (hit !== undefined) return hit;
  let n: number;
  switch (e.kind) {
    case 'int':
    case 'sym':
      n = 0;
      break;
    case 'add':
      n = e.terms.length - (e.constant === 0n ? 1 : 0) + e.terms.reduce((s, t) => s + rawOps(t), 0);
      break;
    case 'mul':
      n = e.factors.length - (e.coef === 1n || e.coef === -1n ? 1 : 0) + e.factors.reduce((s, t) => s + rawOps(t), 0);
      break;
    default: {
      const kids = childrenOf(e);
      const extra = e.kind === 'min' || e.kind === 'max' || e.kind === 'and' || e.kind === 'or' ? kids.length - 1 : 1;
      n = extra + kids.reduce((s, t) => s + rawOps(t), 0) - (e.kind === 'arange' ? 1 : 0);
    }
  }
  rawMemo.set(e, n);
  return n;
}
