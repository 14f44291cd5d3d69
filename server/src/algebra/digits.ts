// Symbolic flat indices as mixed-radix digit trees. A flat value is a list of digits, most
// significant first, `Σ e_k · Π r_{j>k}` with `0 <= e_k < r_k`. Re-reading a flat index in
// other dims (unflatten) regroups digits whose radices line up (as rational monomials, see
// mono.ts) instead of building `floor(f / d) % r` over a flattened sum; only when radices do
// not line up are `//` and `%` emitted. This keeps LEGO's compact nested forms, e.g.
// `K*(BM*pid_m + r) + BK*k + c`, without asking the simplifier to undo a flatten.
import { add, floorDiv, int, mod, mul, type Expr } from '../expr/index.js';
import { isIntegralWith, isOne, monoDiv, monoEq, monoMul, monoOf, monoToExpr, MONO_ONE, type MonoContext, type RMono } from './mono.js';

/** A digit: a leaf expression, or a group of digits (a coordinate made of several digits). */
export interface Digit {
  /** radix (the digit's value lies in [0, r)) */
  readonly r: Expr;
  readonly m: RMono;
  readonly e?: Expr;
  readonly parts?: readonly Digit[];
}

export interface Radix {
  readonly r: Expr;
  readonly m: RMono;
}

export class DigitOps {
  private values = new WeakMap<Digit, Expr>();
  constructor(readonly ctx: MonoContext) {}

  radix(r: Expr): Radix {
    return { r, m: monoOf(r, this.ctx) };
  }
  leaf(e: Expr, r: Expr | Radix): Digit {
    const x = 'm' in r ? r : this.radix(r);
    return { r: x.r, m: x.m, e: isOne(x.m) ? int(0) : e };
  }
  /** A group of digits with the given radix (defaults to the product of the parts'). */
  group(parts: readonly Digit[], r?: Expr | Radix): Digit {
    const ps = parts.filter((p) => !isOne(p.m));
    const x = r === undefined ? this.productRadix(ps) : 'm' in r ? r : this.radix(r);
    if (ps.length === 1 && (r === undefined || monoEq(ps[0].m, x.m))) return { ...ps[0], r: x.r, m: x.m };
    if (ps.length === 0) return { r: x.r, m: x.m, e: int(0) };
    return { r: x.r, m: x.m, parts: ps };
  }
  productRadix(ps: readonly Digit[]): Radix {
    if (ps.length === 0) return { r: int(1), m: MONO_ONE };
    if (ps.length === 1) return { r: ps[0].r, m: ps[0].m };
    let m = MONO_ONE;
    for (const p of ps) m = monoMul(m, p.m);
    return { r: mul(...ps.map((p) => p.r)), m };
  }

  /** The value of a digit (Horner over its parts). */
  value(d: Digit): Expr {
    if (d.e) return d.e;
    let v = this.values.get(d);
    if (!v) {
      v = this.horner(d.parts!);
      this.values.set(d, v);
    }
    return v;
  }
  /** The value of a digit list. */
  horner(ds: readonly Digit[]): Expr {
    let acc: Expr | undefined;
    for (const d of ds) {
      if (isOne(d.m)) continue;
      acc = acc === undefined ? this.value(d) : add(mul(acc, d.r), this.value(d));
    }
    return acc ?? int(0);
  }

  /**
   * Splits a digit list into `high * R + low` with `low` in [0, R): whole digits where radices
   * line up, one digit split by `//` and `%` where R divides it, else `//`/`%` over the rest.
   */
  splitLow(ds: readonly Digit[], R: Radix): { low: Digit[]; high: Digit[] } {
    const low: Digit[] = [];
    let q = R.m;
    let qe: Expr = R.r;
    let i = ds.length - 1;
    for (; i >= 0 && !isOne(q); i--) {
      const d = ds[i];
      if (isOne(d.m)) continue;
      if (monoEq(d.m, q)) {
        low.unshift(d);
        q = MONO_ONE;
        continue;
      }
      const rest = monoDiv(q, d.m);
      if (isIntegralWith(rest, this.ctx.units)) {
        low.unshift(d);
        q = rest;
        qe = monoToExpr(rest);
        continue;
      }
      const over = monoDiv(d.m, q);
      const Q: Radix = { r: qe, m: q };
      if (isIntegralWith(over, this.ctx.units)) {
        const { hi, lo } = this.splitDigit(d, Q, { r: monoToExpr(over), m: over });
        low.unshift(lo);
        return { low, high: [...ds.slice(0, i), hi] };
      }
      // radices do not line up: `%` and `//` over everything from d upwards
      const top = ds.slice(0, i + 1);
      const f = this.horner(top);
      const topM = this.productRadix(top).m;
      const hiM = monoDiv(topM, q);
      low.unshift(this.leaf(mod(f, qe), Q));
      return { low, high: [this.leaf(floorDiv(f, qe), { r: monoToExpr(hiM), m: hiM })] };
    }
    return { low, high: ds.slice(0, i + 1) };
  }

  /** `d = hi * Q + lo` for a Q that divides d's radix. */
  private splitDigit(d: Digit, Q: Radix, H: Radix): { hi: Digit; lo: Digit } {
    if (d.parts) {
      const { low, high } = this.splitLow(d.parts, Q);
      return { hi: this.group(high, H), lo: this.group(low, Q) };
    }
    const e = d.e!;
    const hiE = e.kind === 'floordiv' ? floorDiv(e.a, mul(e.b, Q.r)) : floorDiv(e, Q.r);
    return { hi: this.leaf(hiE, H), lo: this.leaf(mod(e, Q.r), Q) };
  }

  /** Re-reads a digit list in `dims` (row-major): one coordinate digit per dim; the first takes what remains. */
  unflatten(ds: readonly Digit[], dims: readonly Radix[]): Digit[] {
    const out = new Array<Digit>(dims.length);
    let rest = ds;
    for (let k = dims.length - 1; k > 0; k--) {
      const { low, high } = this.splitLow(rest, dims[k]);
      out[k] = this.group(low, dims[k]);
      rest = high;
    }
    if (dims.length) out[0] = this.group(rest, dims[0]);
    return out;
  }
}
