// Integer values of AST expressions at evaluation points ("scenarios"): the params' values, and
// each tuning candidate of each param with every other param at its value (one param varied at
// a time, not the cross product). Lets are re-evaluated in every scenario, so `let n = M / BM`
// follows a candidate of BM. Exact bigint arithmetic with Python floor semantics for `/` and `%`;
// anything that has no single integer value (a layout, a free index, a division by zero) is
// `undefined`, never an exception.
import type { ast, Resolution } from '../../../../grammar/src/index.js';

/** Param values by name. */
export interface ParamValues {
  get(name: string): bigint | undefined;
}

/** An evaluation point: every param's value. */
export interface Scenario {
  /** param name -> value */
  params: ParamValues;
  /** set for a candidate scenario: which param takes which candidate */
  candidate?: { param: string; value: bigint; node: ast.Expr };
  /** the params whose value differs from the base scenario (the candidate's and those computed from it) */
  changed: ReadonlySet<string>;
}

export class Values {
  /** the params' values (scenario 0) */
  readonly base: Scenario & { params: ReadonlyMap<string, bigint> };
  private readonly memo = new WeakMap<Scenario, Map<ast.Expr, bigint | undefined>>();
  private readonly params: { name: string; item: ast.ParamItem }[] = [];
  /** the first item of each param name */
  private readonly firstItem = new Map<string, ast.ParamItem>();
  /** indices into `params` of the items declaring each name */
  private readonly itemsOf = new Map<string, number[]>();
  private readonly lets = new Map<string, ast.LetDecl>();
  private readonly depMemo = new WeakMap<ast.Expr, ReadonlySet<string>>();
  private readonly inexactMemo = new WeakMap<Scenario, Map<ast.Expr, ast.Binary[]>>();
  /** param -> the params whose value expressions name it directly (built on first use) */
  private _dependents?: Map<string, string[]>;
  /** per item of `params`, its candidate scenarios (built on first use: most checks need few) */
  private readonly itemScenarios: (Scenario[] | undefined)[] = [];
  private readonly anyCandidates: boolean;
  private _candidates?: Scenario[];

  constructor(file: ast.File, private readonly resolution: Resolution, private readonly text: string) {
    for (const d of file.decls) {
      if (d.kind === 'Param') {
        for (const item of d.items) {
          const name = item.name.name;
          let list = this.itemsOf.get(name);
          if (!list) this.itemsOf.set(name, (list = []));
          list.push(this.params.length);
          this.params.push({ name, item });
          if (!this.firstItem.has(name)) this.firstItem.set(name, item);
        }
      }
      else if (d.kind === 'Let') this.lets.set(d.name.name, d);
    }
    this.base = this.scenario();
    this.anyCandidates = this.params.some((p) => (p.item.candidates?.items.length ?? 0) > 0);
  }

  /** one scenario per candidate that differs from its param's value, in source order */
  get candidates(): Scenario[] {
    if (!this._candidates) {
      this._candidates = [];
      for (let k = 0; k < this.params.length; k++) this._candidates.push(...this.scenariosOfItem(k));
    }
    return this._candidates;
  }

  /** The base scenario, then every candidate scenario. */
  all(): Scenario[] {
    return [this.base, ...this.candidates];
  }

  /** The base scenario, then the candidate scenarios that can change a value of `es`. */
  scenariosFor(es: readonly ast.Expr[]): Scenario[] {
    if (!this.anyCandidates) return [this.base];
    const want = new Set<string>();
    for (const e of es) for (const p of this.deps(e)) want.add(p);
    if (want.size === 0) return [this.base];
    // a candidate of P changes P and the params computed from it: only the candidates of the
    // params that `want` is computed from (and of `want` itself) can change one of them
    const from = new Set<string>();
    const work = [...want];
    while (work.length) {
      const p = work.pop()!;
      if (from.has(p)) continue;
      from.add(p);
      const item = this.firstItem.get(p);
      if (item) for (const q of this.deps(item.value)) if (!from.has(q)) work.push(q);
    }
    const items: number[] = [];
    for (const p of from) for (const k of this.itemsOf.get(p) ?? []) items.push(k);
    items.sort((a, b) => a - b);
    const out: Scenario[] = [this.base];
    for (const k of items) {
      for (const sc of this.scenariosOfItem(k)) {
        for (const p of sc.changed) {
          if (want.has(p)) {
            out.push(sc);
            break;
          }
        }
      }
    }
    return out;
  }

  /** the candidate scenarios of `params[k]` (each candidate value that differs from the param's, once) */
  private scenariosOfItem(k: number): Scenario[] {
    let out = this.itemScenarios[k];
    if (!out) {
      out = [];
      const { name, item } = this.params[k];
      const own = this.base.params.get(name);
      const seen = new Set<bigint>();
      for (const c of item.candidates?.items ?? []) {
        const v = this.value(c, this.base);
        if (v === undefined || v === own || seen.has(v)) continue;
        seen.add(v);
        out.push(this.scenario({ param: name, value: v, node: c }));
      }
      this.itemScenarios[k] = out;
    }
    return out;
  }

  private get dependents(): Map<string, string[]> {
    if (!this._dependents) {
      this._dependents = new Map();
      const seenParam = new Set<string>();
      for (const { name, item } of this.params) {
        if (seenParam.has(name)) continue;
        seenParam.add(name);
        for (const p of this.deps(item.value)) {
          let list = this._dependents.get(p);
          if (!list) this._dependents.set(p, (list = []));
          list.push(name);
        }
      }
    }
    return this._dependents;
  }

  /** The params (and consts) the value of `e` depends on, through lets too. */
  deps(e: ast.Expr): ReadonlySet<string> {
    const hit = this.depMemo.get(e);
    if (hit) return hit;
    const out = new Set<string>();
    this.depMemo.set(e, out); // a cycle sees the partial set
    const stack: ast.AnyNode[] = [e];
    let steps = 0;
    while (stack.length && steps++ < 100_000) {
      const n = stack.pop()!;
      switch (n.kind) {
        case 'Name': {
          const t = this.target(n);
          if (t?.kind === 'param') out.add(t.name);
          else if (t?.kind === 'let') for (const p of this.deps(t.decl.value)) out.add(p);
          break;
        }
        case 'Unary': stack.push(n.operand); break;
        case 'Binary': stack.push(n.left, n.right); break;
        case 'If': stack.push(n.cond, n.then, n.else); break;
        case 'Call': stack.push(...n.args); break;
        case 'MethodCall': stack.push(n.receiver, ...n.args); break;
        case 'Index': stack.push(n.receiver, ...n.indices); break;
        case 'Slice': if (n.start) stack.push(n.start); if (n.stop) stack.push(n.stop); break;
        case 'List': case 'Tuple': stack.push(...n.items); break;
        default: break;
      }
    }
    return out;
  }

  /** The value of `e` in `sc`, or undefined when it has none. */
  value(e: ast.Expr, sc: Scenario): bigint | undefined {
    let m = this.memo.get(sc);
    if (!m) this.memo.set(sc, (m = new Map()));
    if (m.has(e)) return m.get(e);
    m.set(e, undefined); // a cycle (reported by resolution) evaluates to undefined
    let v: bigint | undefined;
    try {
      v = this.compute(e, sc, 0);
    } catch {
      v = undefined;
    }
    m.set(e, v);
    return v;
  }

  /** Is `b` written `//` (an intended floor division) rather than `/`? */
  isFloorOp(b: ast.Binary): boolean {
    return b.op === '//';
  }

  /**
   * The `/` divisions (not `//`) that leave a remainder when `e` is evaluated in `sc`, following
   * lets (a let's division counts wherever the let is used) but not entering min/max. Used to
   * avoid cascades: a size check is skipped where a division it depends on is already reported.
   */
  inexactDivisions(e: ast.Expr, sc: Scenario, depth = 0): ast.Binary[] {
    let m = this.inexactMemo.get(sc);
    if (!m) this.inexactMemo.set(sc, (m = new Map()));
    const hit = m.get(e);
    if (hit) return hit;
    const out: ast.Binary[] = [];
    m.set(e, out);
    const walk = (x: ast.Expr, d: number): void => {
      if (d > 200) return;
      switch (x.kind) {
        case 'Binary':
          if (x.op === '/' && !this.isFloorOp(x)) {
            const a = this.value(x.left, sc);
            const b = this.value(x.right, sc);
            if (a !== undefined && b !== undefined && a > 0n && b > 0n && a % b !== 0n) out.push(x);
          }
          walk(x.left, d + 1);
          walk(x.right, d + 1);
          return;
        case 'Unary': walk(x.operand, d + 1); return;
        case 'If': walk(x.cond, d + 1); walk(x.then, d + 1); walk(x.else, d + 1); return;
        case 'List': case 'Tuple': for (const i of x.items) walk(i, d + 1); return;
        case 'Name': {
          const t = this.target(x);
          if (t?.kind === 'let') walk(t.decl.value, d + 1);
          return;
        }
        default: return;
      }
    };
    walk(e, depth);
    return out;
  }

  /** Which top-level declaration a name use refers to, when it is a param or a let. */
  private target(n: ast.NameRef): { kind: 'param'; name: string } | { kind: 'let'; decl: ast.LetDecl } | undefined {
    const def = this.resolution.refs.get(n);
    if (!def) return undefined;
    if (def.kind === 'param' || def.kind === 'const') return { kind: 'param', name: def.name };
    if (def.kind === 'let') {
      const decl = this.lets.get(def.name);
      return decl ? { kind: 'let', decl } : undefined;
    }
    return undefined;
  }

  private scenario(): Scenario & { params: ReadonlyMap<string, bigint> };
  private scenario(candidate: Scenario['candidate']): Scenario;
  private scenario(candidate?: Scenario['candidate']): Scenario {
    const changed = new Set<string>();
    if (candidate) {
      // the base values, overridden for the candidate's param and the params computed from it
      const own = new Map<string, bigint | undefined>();
      const base = this.base.params;
      const params: ParamValues = { get: (n) => (own.has(n) ? own.get(n) : base.get(n)) };
      const sc: Scenario = { params, candidate, changed };
      own.set(candidate.param, candidate.value);
      changed.add(candidate.param);
      const work = [candidate.param];
      while (work.length) {
        for (const d of this.dependents.get(work.shift()!) ?? []) {
          if (changed.has(d)) continue;
          const item = this.firstItem.get(d)!;
          const v = this.evalQuiet(item.value, sc);
          own.set(d, v);
          if (v !== base.get(d)) {
            changed.add(d);
            work.push(d);
          }
        }
      }
      return sc;
    }
    const params = new Map<string, bigint>();
    const sc = { params, changed };
    for (const { name, item } of this.params) {
      if (params.has(name)) continue; // a duplicate: the first one counts
      const v = this.evalQuiet(item.value, sc);
      if (v !== undefined) params.set(name, v);
    }
    return sc;
  }

  private evalQuiet(e: ast.Expr, sc: Scenario): bigint | undefined {
    try {
      return this.compute(e, sc, 0);
    } catch {
      return undefined;
    }
  }

  private compute(e: ast.Expr, sc: Scenario, depth: number): bigint {
    if (depth > 200) throw new Error('too deep');
    const d = depth + 1;
    switch (e.kind) {
      case 'Int':
        return e.value;
      case 'Name': {
        const t = this.target(e);
        if (t?.kind === 'param') {
          const v = sc.params.get(t.name);
          if (v === undefined) throw new Error('no value');
          return v;
        }
        if (t?.kind === 'let') {
          const v = this.value(t.decl.value, sc);
          if (v === undefined) throw new Error('no value');
          return v;
        }
        throw new Error('not a value');
      }
      case 'Unary': {
        const v = this.compute(e.operand, sc, d);
        return e.op === '-' ? -v : e.op === '+' ? v : v === 0n ? 1n : 0n;
      }
      case 'Binary': {
        if (e.op === 'and') return this.compute(e.left, sc, d) !== 0n && this.compute(e.right, sc, d) !== 0n ? 1n : 0n;
        if (e.op === 'or') return this.compute(e.left, sc, d) !== 0n || this.compute(e.right, sc, d) !== 0n ? 1n : 0n;
        const a = this.compute(e.left, sc, d);
        const b = this.compute(e.right, sc, d);
        switch (e.op) {
          case '+': return a + b;
          case '-': return a - b;
          case '*': return a * b;
          case '/': case '//': return floorDiv(a, b);
          case '%': return a - b * floorDiv(a, b);
          case '<': return a < b ? 1n : 0n;
          case '<=': return a <= b ? 1n : 0n;
          case '>': return a > b ? 1n : 0n;
          case '>=': return a >= b ? 1n : 0n;
          case '==': return a === b ? 1n : 0n;
          case '!=': return a !== b ? 1n : 0n;
        }
        throw new Error('operator');
      }
      case 'If':
        return this.compute(e.cond, sc, d) !== 0n ? this.compute(e.then, sc, d) : this.compute(e.else, sc, d);
      case 'Call': {
        const def = this.resolution.refs.get(e.callee);
        if (def?.kind === 'function' && e.args.length > 0 && (e.callee.name === 'min' || e.callee.name === 'max')) {
          const vs = e.args.map((x) => this.compute(x, sc, d));
          return vs.reduce((x, y) => (e.callee.name === 'min' ? (y < x ? y : x) : y > x ? y : x));
        }
        throw new Error('not a value');
      }
      default:
        throw new Error('not a value');
    }
  }
}

export function floorDiv(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new Error('division by zero');
  const q = a / b;
  return (a % b !== 0n) && ((a < 0n) !== (b < 0n)) ? q - 1n : q;
}

/** How a scenario is named in messages: `` or ` when BM = 96 (a candidate of BM)`. */
export function candidateNote(sc: Scenario): string {
  return sc.candidate ? `${sc.candidate.param} = ${sc.candidate.value} (a candidate of ${sc.candidate.param})` : '';
}
