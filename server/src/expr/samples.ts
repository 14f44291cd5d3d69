// Sample points satisfying the facts, used only to refute side conditions quickly: if P < 0 at
// a point where every fact holds, P >= 0 cannot be proven, so the prover skips its search.
// Deterministic, and independent of how symbols are spelled: values come from fixed pools indexed
// by a hash of the symbol's ordinal (its place among the facts' symbols, in the order the facts
// were stated, then in order of first use), never of its name. (Hashing names made the prover's
// work depend on them: a layout with `Pid5`'s names took 3-10x the time of the same layout named
// `Pid0`, because its samples refuted fewer side conditions and the proof search ran instead.)
import { type Expr, childrenOf } from './node.js';
import { EvalError, evaluate } from './eval.js';

export interface SampleFacts {
  ranges: ReadonlyMap<string, { lo: Expr; hi: Expr }>;
  positive: ReadonlySet<string>;
  relations?: readonly Expr[];
}

const POSITIVE = [4n, 16n, 2n, 3n, 8n, 1n, 5n, 6n, 32n, 7n, 12n, 9n, 64n, 10n];
const ANY = [3n, -2n, 0n, 7n, -5n, 1n, 16n, -1n];
const WANT = 8;
const ATTEMPTS = 64;

function hash(n: number, salt: number): number {
  let h = 2166136261 ^ salt;
  h = Math.imul(h ^ (n & 0xffff), 16777619);
  h = Math.imul(h ^ (n >>> 16), 16777619);
  h ^= h >>> 13;
  h = Math.imul(h, 0x5bd1e995);
  return (h ^ (h >>> 15)) >>> 0;
}

function symbolsOf(e: Expr, out: Set<string>): void {
  if (e.kind === 'sym') out.add(e.name);
  else childrenOf(e).forEach((x) => symbolsOf(x, out));
}

function aranges(e: Expr, out: Map<string, Expr & { kind: 'arange' }>): void {
  if (e.kind === 'arange') out.set(e.key, e);
  childrenOf(e).forEach((x) => aranges(x, out));
}

function valueOf(e: Expr, env: ReadonlyMap<string, bigint>): bigint | null {
  try {
    return evaluate(e, env);
  } catch (err) {
    if (err instanceof EvalError) return null;
    throw err;
  }
}

export class Sampler {
  private envs: Map<string, bigint>[] | null = null;
  /** symbol -> ordinal, and arange key -> ordinal (first come, first numbered) */
  private readonly ordinals = new Map<string, number>();
  private readonly arangeOrdinals = new Map<string, number>();
  constructor(private readonly facts: SampleFacts) {}

  private ordinal(name: string): number {
    let o = this.ordinals.get(name);
    if (o === undefined) this.ordinals.set(name, (o = this.ordinals.size));
    return o;
  }

  private free(name: string, attempt: number): bigint {
    const pool = this.facts.positive.has(name) ? POSITIVE : ANY;
    return pool[hash(this.ordinal(name), attempt) % pool.length];
  }

  private make(): Map<string, bigint>[] {
    const names = new Set<string>();
    for (const n of this.facts.positive) names.add(n);
    for (const [n, r] of this.facts.ranges) {
      names.add(n);
      symbolsOf(r.lo, names);
      symbolsOf(r.hi, names);
    }
    for (const r of this.facts.relations ?? []) symbolsOf(r, names);
    const order = [...names];
    for (const n of order) this.ordinal(n);
    const out: Map<string, bigint>[] = [];
    for (let a = 0; a < ATTEMPTS && out.length < WANT; a++) {
      const env = new Map<string, bigint>();
      for (const n of order) if (!this.facts.ranges.has(n)) env.set(n, this.free(n, a));
      this.makeDivisible(env);
      if (this.assignRanges(env, a) && this.holds(env)) out.push(env);
    }
    return out;
  }

  /** `X % Y == 0` relations with X a free symbol: scale X to a multiple of Y's value */
  private makeDivisible(env: Map<string, bigint>): void {
    for (const r of this.facts.relations ?? []) {
      if (r.kind !== 'cmp' || r.op !== '==' || r.rhs !== 0n || r.lhs.kind !== 'mod' || r.lhs.a.kind !== 'sym') continue;
      const x = r.lhs.a.name;
      if (this.facts.ranges.has(x)) continue;
      const y = valueOf(r.lhs.b, env);
      const v = env.get(x);
      if (y !== null && y > 0n && v !== undefined) env.set(x, y * (v < 1n ? 1n : v));
    }
  }

  private assignRanges(env: Map<string, bigint>, attempt: number): boolean {
    const pending = [...this.facts.ranges.keys()];
    // ranges may refer to other range variables: assign in dependency order (bounded passes)
    for (let pass = 0; pass <= pending.length && pending.length > 0; pass++) {
      for (let i = 0; i < pending.length; i++) {
        const n = pending[i];
        const r = this.facts.ranges.get(n)!;
        const lo = valueOf(r.lo, env);
        const hi = valueOf(r.hi, env);
        if (lo === null || hi === null) continue;
        if (hi <= lo) return false;
        const pick = hash(this.ordinal(n), attempt) % 3;
        env.set(n, pick === 0 ? hi - 1n : pick === 1 ? lo : lo + (hi - lo) / 2n);
        pending.splice(i--, 1);
      }
    }
    return pending.length === 0;
  }

  private holds(env: Map<string, bigint>): boolean {
    for (const n of this.facts.positive) if ((env.get(n) ?? 1n) < 1n) return false;
    for (const r of this.facts.relations ?? []) {
      const v = valueOf(r, env);
      if (v === null || v === 0n) return false;
    }
    return true;
  }

  /** true when p < 0 at some sample point (so p >= 0 is not provable) */
  refutesNonNeg(p: Expr): boolean {
    this.envs ??= this.make();
    if (this.envs.length === 0) return false;
    const syms = new Set<string>();
    symbolsOf(p, syms);
    const ars = new Map<string, Expr & { kind: 'arange' }>();
    aranges(p, ars);
    for (let i = 0; i < this.envs.length; i++) {
      const env = this.envs[i];
      for (const n of syms) if (!env.has(n)) env.set(n, this.free(n, 1000 + i));
      const atoms = new Map<string, bigint>();
      let ok = true;
      for (const [k, a] of ars) {
        const s = valueOf(a.start, env);
        const e = valueOf(a.stop, env);
        if (s === null || e === null || e <= s) {
          ok = false;
          break;
        }
        let ao = this.arangeOrdinals.get(k);
        if (ao === undefined) this.arangeOrdinals.set(k, (ao = this.arangeOrdinals.size));
        atoms.set(k, hash(ao, i) % 2 === 0 ? s : e - 1n);
      }
      if (!ok) continue;
      try {
        if (evaluate(p, env, { atoms }) < 0n) return true;
      } catch (err) {
        if (!(err instanceof EvalError)) throw err;
      }
    }
    return false;
  }
}
