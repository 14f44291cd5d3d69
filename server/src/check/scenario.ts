// Scenarios: the points at which checks evaluate the model. The base scenario is the params'
// values; a candidate scenario gives some params one of their tuning candidates (`in [...]`)
// and recomputes everything computed from them (dependent params, lets). One policy for every
// check (layout rules and schedule checks): the combinations of the candidates of the params a
// checked value depends on, all of them, in source order, up to `MAX_COMBINATIONS`; beyond it the
// caller reports `check/candidates-limited` (information) saying how many were left out.
//
// Values come from the elaborated model only (`model.values`, `model.env`, param and let
// definitions): this module interprets no AST.
import type * as ast from '../../../grammar/src/ast.js';
import type { Diagnostic } from '../../../grammar/src/diagnostic.js';
import * as X from '../expr/index.js';
import type { Model } from './elaborate-model.js';

/** Most combinations of tuning candidates a check tries. */
export const MAX_COMBINATIONS = 1024;

export interface Scenario {
  /** params, consts and lets with a value at this point */
  env: ReadonlyMap<string, bigint>;
  /** the candidate each tuned param takes (empty for the base scenario), in source order */
  assignment: ReadonlyMap<string, bigint>;
  /** the params whose value differs from the base scenario, with the candidate node that gives it */
  changed: ReadonlyMap<string, { value: bigint; node: ast.Expr }>;
}

export interface ScenarioSet {
  /** the base scenario first, then the candidate scenarios that differ from it */
  scenarios: Scenario[];
  /** the params whose candidates were combined */
  params: string[];
  /** how many combinations there are, and whether `MAX_COMBINATIONS` cut them */
  total: number;
  cut: boolean;
}

export class Scenarios {
  readonly base: Scenario;
  private readonly memo = new Map<string, Scenario>();
  private readonly symsMemo = new Map<X.Expr, ReadonlySet<string>>();
  private readonly depsMemo = new Map<string, ReadonlySet<string>>();

  constructor(readonly model: Model) {
    this.base = { env: model.env, assignment: new Map(), changed: new Map() };
  }

  /** The value of an integer-valued node in `sc`, or undefined (not an integer, not evaluable). */
  value(node: ast.Expr, sc: Scenario = this.base): bigint | undefined {
    const v = this.model.values.get(node);
    return v && v.k === 'int' ? this.evaluate(v.e, sc) : undefined;
  }

  /** `e` evaluated in `sc`, or undefined (a free index, a division by zero, ...). */
  evaluate(e: X.Expr, sc: Scenario = this.base): bigint | undefined {
    if (e.kind === 'int') return e.value >= -X.EVAL_LIMIT && e.value <= X.EVAL_LIMIT ? e.value : undefined;
    // the rules evaluate the same sizes at the same scenarios many times: one evaluation each
    let memo = this.valueMemo.get(sc);
    if (!memo) this.valueMemo.set(sc, (memo = new Map()));
    if (memo.has(e)) return memo.get(e);
    let v: bigint | undefined;
    // a free symbol (an index like `pid`) is the common reason for no value: known without the
    // evaluator's exception (which costs a stack trace)
    if (this.bound(e, sc)) {
      try {
        v = X.evaluate(e, sc.env);
      } catch {
        v = undefined;
      }
    }
    memo.set(e, v);
    return v;
  }

  /** does `sc` give every symbol of `e` a value */
  private bound(e: X.Expr, sc: Scenario): boolean {
    for (const s of this.syms(e)) if (!sc.env.has(s)) return false;
    return true;
  }

  /** per scenario, the value of each expression evaluated there */
  private readonly valueMemo = new WeakMap<Scenario, Map<X.Expr, bigint | undefined>>();

  /** The params with tuning candidates the values of `es` depend on (through lets and other params), in source order. */
  tunable(es: readonly X.Expr[]): string[] {
    if (!this.withCandidates) {
      this.withCandidates = new Map();
      for (const p of this.model.params.values()) if (p.candidates.length > 0 && !p.isConst) this.withCandidates.set(p.name, this.withCandidates.size);
    }
    if (this.withCandidates.size === 0) return [];
    // (the few params `es` depend on, not every tuned param of the file: a check per value must not cost the file's size)
    const out: string[] = [];
    for (const e of es) for (const p of this.paramsOf(e)) if (this.withCandidates.has(p) && !out.includes(p)) out.push(p);
    return out.sort((a, b) => this.withCandidates!.get(a)! - this.withCandidates!.get(b)!);
  }

  /** the params with tuning candidates, each with its rank in source order (computed on first use) */
  private withCandidates?: Map<string, number>;

  /** The params `e` depends on, directly or through lets and the definitions of other params. */
  paramsOf(e: X.Expr): ReadonlySet<string> {
    const hit = this.paramsMemo.get(e);
    if (hit) return hit;
    const out = new Set<string>();
    for (const s of this.syms(e)) for (const p of this.depsOfName(s)) out.add(p);
    this.paramsMemo.set(e, out);
    return out;
  }

  private readonly paramsMemo = new Map<X.Expr, ReadonlySet<string>>();

  /** The base scenario, then every combination of the candidates of the params `es` depend on that differs from it. */
  for(es: readonly X.Expr[]): ScenarioSet {
    const params = this.tunable(es);
    const key = params.join(',');
    const hit = this.setMemo.get(key);
    if (hit) return hit;
    const { scenarios, total, cut } = this.combinations(params);
    const differ = scenarios.filter((sc) => sc.changed.size > 0);
    const set: ScenarioSet = { scenarios: [this.base, ...differ], params, total, cut };
    this.setMemo.set(key, set);
    return set;
  }

  /** `for`'s result by the params combined (most checked values depend on the same few params) */
  private readonly setMemo = new Map<string, ScenarioSet>();

  /** Every combination of the candidates of `params` (each over its list, in order), at most `MAX_COMBINATIONS`. */
  combinations(params: readonly string[]): { scenarios: Scenario[]; total: number; cut: boolean } {
    const key = params.join(',');
    let hit = this.comboMemo.get(key);
    if (!hit) this.comboMemo.set(key, (hit = this.combine(params)));
    return hit;
  }

  private readonly comboMemo = new Map<string, { scenarios: Scenario[]; total: number; cut: boolean }>();

  private combine(params: readonly string[]): { scenarios: Scenario[]; total: number; cut: boolean } {
    const lists = params.map((p) => dedupe(this.model.params.get(p)!));
    let total = 1;
    for (const l of lists) total *= l.length;
    const out: Scenario[] = [];
    if (params.length === 0) return { scenarios: out, total: 0, cut: false };
    const pick: number[] = params.map(() => 0);
    while (out.length < MAX_COMBINATIONS) {
      out.push(this.at(new Map(params.map((p, k) => [p, lists[k][pick[k]]]))));
      let k = params.length - 1;
      while (k >= 0 && ++pick[k] === lists[k].length) pick[k--] = 0;
      if (k < 0) break;
    }
    return { scenarios: out, total, cut: total > out.length };
  }

  /** The scenario where each param of `assignment` takes the given candidate. */
  at(assignment: ReadonlyMap<string, { value: bigint; node: ast.Expr }>): Scenario {
    const key = [...assignment].map(([p, c]) => `${p}=${c.value}`).join(',');
    const hit = this.memo.get(key);
    if (hit) return hit;
    const own = new Map<string, bigint | undefined>();
    for (const [p, c] of assignment) own.set(p, c.value);
    const env = new Overlay(this.model.env, own);
    // recompute, in declaration order, whatever is defined in terms of a changed name
    for (const name of this.dependents([...assignment.keys()])) {
      if (assignment.has(name)) continue;
      const def = this.model.params.get(name)?.def ?? this.model.lets.get(name)?.def;
      if (def) own.set(name, this.evaluate(def, { env, assignment: new Map(), changed: new Map() }));
    }
    const changed = new Map<string, { value: bigint; node: ast.Expr }>();
    for (const [p, c] of assignment) if (c.value !== this.model.env.get(p)) changed.set(p, c);
    const sc: Scenario = { env, assignment: new Map([...assignment].map(([p, c]) => [p, c.value])), changed };
    this.memo.set(key, sc);
    return sc;
  }

  /** The params and lets defined (transitively) in terms of `names`, in declaration order. */
  private dependents(names: readonly string[]): string[] {
    if (!this.users) {
      this.users = new Map();
      for (const { kind, name } of this.model.order) {
        const def = kind === 'param' ? this.model.params.get(name)?.def : this.model.lets.get(name)?.def;
        if (!def) continue;
        for (const s of this.syms(def)) {
          let l = this.users.get(s);
          if (!l) this.users.set(s, (l = []));
          l.push(name);
        }
      }
      this.position = new Map(this.model.order.map((o, k) => [o.name, k]));
    }
    const out = new Set<string>();
    const work = [...names];
    while (work.length) {
      for (const u of this.users.get(work.pop()!) ?? []) {
        if (out.has(u)) continue;
        out.add(u);
        work.push(u);
      }
    }
    return [...out].sort((a, b) => this.position!.get(a)! - this.position!.get(b)!);
  }

  private users?: Map<string, string[]>;
  private position?: Map<string, number>;

  private syms(e: X.Expr): ReadonlySet<string> {
    let s = this.symsMemo.get(e);
    if (!s) this.symsMemo.set(e, (s = X.freeSymbols(e)));
    return s;
  }

  /** The params a name's value depends on: itself for a param, and through definitions. */
  private depsOfName(name: string): ReadonlySet<string> {
    const hit = this.depsMemo.get(name);
    if (hit) return hit;
    const out = new Set<string>();
    this.depsMemo.set(name, out); // definitions are acyclic; a cycle sees the partial set
    const p = this.model.params.get(name);
    const def = p ? p.def : this.model.lets.get(name)?.def;
    if (p) out.add(name);
    if (def) for (const s of this.syms(def)) if (s !== name) for (const q of this.depsOfName(s)) out.add(q);
    return out;
  }
}

function dedupe(p: { candidates: bigint[]; candidateNodes: ast.Expr[] }): { value: bigint; node: ast.Expr }[] {
  const seen = new Set<bigint>();
  const out: { value: bigint; node: ast.Expr }[] = [];
  p.candidates.forEach((value, k) => {
    if (seen.has(value)) return;
    seen.add(value);
    out.push({ value, node: p.candidateNodes[k] });
  });
  return out;
}

/** `N = 32 (a candidate of N)`, `BM = 64 and BN = 32 (tuning candidates)`, or `` for the base scenario. */
export function describeScenario(sc: Scenario): string {
  const parts = [...sc.changed].map(([p, c]) => `${p} = ${c.value}`);
  if (parts.length === 0) return '';
  if (parts.length === 1) {
    const [p] = [...sc.changed.keys()];
    return `${parts[0]} (a candidate of ${p})`;
  }
  return `${parts.join(' and ')} (tuning candidates)`;
}

/** The information diagnostic of a check whose candidate combinations were cut at MAX_COMBINATIONS. */
export function limitedDiagnostic(set: Pick<ScenarioSet, 'params' | 'total' | 'cut'>, range: ast.Range, what: string): Diagnostic[] {
  if (!set.cut) return [];
  return [{
    code: 'check/candidates-limited',
    severity: 'information',
    message: `${what} is checked for the first ${MAX_COMBINATIONS} of ${set.total} combinations of the tuning candidates of ${set.params.join(', ')}`,
    range,
  }];
}

/** The base values with some names overridden (undefined: no value in this scenario). */
class Overlay implements ReadonlyMap<string, bigint> {
  constructor(private readonly base: ReadonlyMap<string, bigint>, private readonly own: ReadonlyMap<string, bigint | undefined>) {}
  get(k: string): bigint | undefined {
    return this.own.has(k) ? this.own.get(k) : this.base.get(k);
  }
  has(k: string): boolean {
    return this.get(k) !== undefined;
  }
  get size(): number {
    return [...this.keys()].length;
  }
  *entries(): MapIterator<[string, bigint]> {
    for (const k of this.keys()) yield [k, this.get(k)!];
  }
  *keys(): MapIterator<string> {
    for (const k of this.base.keys()) if (this.has(k)) yield k;
    for (const k of this.own.keys()) if (!this.base.has(k) && this.has(k)) yield k;
  }
  *values(): MapIterator<bigint> {
    for (const [, v] of this.entries()) yield v;
  }
  forEach(f: (value: bigint, key: string, map: ReadonlyMap<string, bigint>) => void): void {
    for (const [k, v] of this.entries()) f(v, k, this);
  }
  [Symbol.iterator](): MapIterator<[string, bigint]> {
    return this.entries();
  }
}
