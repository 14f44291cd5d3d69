// Exact evaluation (bigint), structural queries and substitution.
import { type Expr, childrenOf, exprDepth } from './node.js';
import { add, arange, bit, floorDiv, int, max, min, mod, mul } from './build.js';
import { and, cmp, not, or, select } from './logic.js';
import { floorDivBig, modBig } from './poly.js';
import { mkFloorDiv, mkMod } from './node.js';

/** raised by `evaluate`: unbound symbol, division by zero, a value beyond 2^53 in magnitude, an arange */
export class EvalError extends Error {
  override name = 'EvalError';
}

/** the largest magnitude `evaluate` returns or accepts: 2^53 */
export const EVAL_LIMIT = 2n ** 53n;

export function equals(a: Expr, b: Expr): boolean {
  return a === b || a.key === b.key;
}

/** every symbol name in e, including those inside arange bounds (an arange itself is not a symbol) */
export function freeSymbols(e: Expr): Set<string> {
  const out = new Set<string>();
  const seen = new Set<Expr>();
  const stack: Expr[] = [e];
  while (stack.length > 0) {
    const x = stack.pop() as Expr;
    if (seen.has(x)) continue;
    seen.add(x);
    if (x.kind === 'sym') out.add(x.name);
    else forEachChild(x, (c) => stack.push(c));
  }
  return out;
}

function forEachChild(e: Expr, f: (x: Expr) => void): void {
  switch (e.kind) {
    case 'int':
    case 'sym':
      return;
    case 'arange':
      f(e.start);
      f(e.stop);
      return;
    case 'add':
      e.terms.forEach(f);
      return;
    case 'mul':
      e.factors.forEach(f);
      return;
    case 'floordiv':
    case 'mod':
    case 'bit':
      f(e.a);
      f(e.b);
      return;
    case 'min':
    case 'max':
    case 'and':
    case 'or':
      e.args.forEach(f);
      return;
    case 'cmp':
      f(e.lhs);
      return;
    case 'not':
      f(e.arg);
      return;
    case 'select':
      f(e.cond);
      f(e.then);
      f(e.otherwise);
      return;
  }
}

/**
 * Rebuild e through the canonicalising constructors, mapping each direct child through f.
 * With `keepNonneg`, the simplifier's non-negativity hint of floordiv/mod nodes survives when
 * the rebuilt node is still a floordiv/mod of the mapped children.
 */
export function rebuild(e: Expr, f: (x: Expr) => Expr, keepNonneg = false): Expr {
  if (e.kind === 'int' || e.kind === 'sym') return e;
  const kids = childrenOf(e);
  const mapped = kids.map(f);
  if (mapped.every((x, i) => x === kids[i])) return e;
  let i = 0;
  const next = () => mapped[i++];
  return rebuildWith(e, next, keepNonneg);
}

function rebuildWith(e: Expr, f: () => Expr, keepNonneg: boolean): Expr {
  switch (e.kind) {
    case 'int':
    case 'sym':
      return e;
    case 'arange': {
      const a = f();
      const b = f();
      return arange(a, b, e.bcast);
    }
    case 'add':
      return add(...e.terms.map(() => f()), int(e.constant));
    case 'mul':
      return mul(int(e.coef), ...e.factors.map(() => f()));
    case 'floordiv': {
      const a = f();
      const b = f();
      const r = floorDiv(a, b);
      if (keepNonneg && e.nonneg && r.kind === 'floordiv' && !r.nonneg && r.a === a && r.b === b) return mkFloorDiv(a, b, true);
      return r;
    }
    case 'mod': {
      const a = f();
      const b = f();
      const r = mod(a, b);
      if (keepNonneg && e.nonneg && r.kind === 'mod' && !r.nonneg && r.a === a && r.b === b) return mkMod(a, b, true);
      return r;
    }
    case 'min':
      return min(...e.args.map(() => f()));
    case 'max':
      return max(...e.args.map(() => f()));
    case 'cmp':
      return cmp(e.op, f(), int(e.rhs));
    case 'and':
      return e.args.map(() => f()).reduce((x, y) => and(x, y));
    case 'or':
      return e.args.map(() => f()).reduce((x, y) => or(x, y));
    case 'not':
      return not(f());
    case 'select': {
      const c = f();
      const t = f();
      const o = f();
      return select(c, t, o);
    }
    case 'bit': {
      const a = f();
      const b = f();
      return bit(e.op, a, b);
    }
  }
}

/**
 * Replace symbols by expressions (simultaneously) and re-canonicalise. `keepNonneg`: the caller
 * promises each replacement takes only values of the symbol it replaces (e.g. an in-range
 * placeholder), so the simplifier's non-negativity hints stay valid.
 */
export function substitute(e: Expr, m: ReadonlyMap<string, Expr>, opts?: { keepNonneg?: boolean }): Expr {
  if (m.size === 0) return e;
  const d = exprDepth(e);
  if (d > MAX_REBUILD_DEPTH) throw new RangeError(`expression nested too deeply to substitute into (depth ${d} > ${MAX_REBUILD_DEPTH})`);
  const keep = opts?.keepNonneg === true;
  const memo = new Map<Expr, Expr>();
  const go = (x: Expr): Expr => {
    if (x.kind === 'sym') return m.get(x.name) ?? x;
    if (x.kind === 'int') return x;
    const hit = memo.get(x);
    if (hit) return hit;
    const r = rebuild(x, go, keep);
    memo.set(x, r);
    return r;
  };
  return go(e);
}

function checked(v: bigint, what: () => string): bigint {
  if (v > EVAL_LIMIT || v < -EVAL_LIMIT) {
    throw new EvalError(`value ${v} of ${what()} exceeds 2^53 in magnitude; results are exact only up to 2^53`);
  }
  return v;
}

function describe(e: Expr): string {
  const k = e.key.length > 60 ? `${e.key.slice(0, 57)}...` : e.key;
  return `\`${k}\``;
}

/**
 * Exact value of e (bigint arithmetic, Python floor semantics for // and %). Every intermediate
 * node value, and every symbol value, must lie within [-2^53, 2^53]; otherwise EvalError.
 * `opts.atoms` gives values of whole sub-expressions by key (e.g. a `tl.arange` at one lane).
 * and/or evaluate all their arguments; select evaluates only the chosen branch.
 */
export function evaluate(e: Expr, env: ReadonlyMap<string, bigint>, opts?: { atoms?: ReadonlyMap<string, bigint> }): bigint {
  const d = exprDepth(e);
  if (d > MAX_EVAL_DEPTH) throw new EvalError(`expression nested too deeply to evaluate (depth ${d} > ${MAX_EVAL_DEPTH})`);
  return new Evaluator(env, opts?.atoms).ev(e);
}

/** evaluate refuses expressions nested deeper than this (EvalError) */
export const MAX_EVAL_DEPTH = 1000;
/** substitute refuses expressions nested deeper than this (RangeError) */
export const MAX_REBUILD_DEPTH = 1000;

class Evaluator {
  private readonly memo = new Map<Expr, bigint>();
  constructor(
    private readonly env: ReadonlyMap<string, bigint>,
    private readonly atoms: ReadonlyMap<string, bigint> | undefined,
  ) {}

  ev(x: Expr): bigint {
    if (x.kind === 'int') return checked(x.value, () => describe(x));
    const hit = this.memo.get(x) ?? this.atoms?.get(x.key);
    if (hit !== undefined) return hit;
    const v = checked(evalNode(x, this, this.env), () => describe(x));
    this.memo.set(x, v);
    return v;
  }
}

function evalNode(e: Expr, E: Evaluator, env: ReadonlyMap<string, bigint>): bigint {
  switch (e.kind) {
    case 'int':
      return e.value;
    case 'sym': {
      const v = env.get(e.name);
      if (v === undefined) throw new EvalError(`unbound symbol '${e.name}'`);
      return checked(v, () => `symbol '${e.name}'`);
    }
    case 'arange':
      throw new EvalError(`tl.arange(...) is a tensor and has no single integer value (${describe(e)})`);
    case 'add':
      return e.terms.reduce((s, t) => s + E.ev(t), e.constant);
    case 'mul':
      return e.factors.reduce((p, f) => p * E.ev(f), e.coef);
    case 'floordiv':
    case 'mod': {
      const a = E.ev(e.a);
      const b = E.ev(e.b);
      if (b === 0n) throw new EvalError(`division by zero in ${describe(e)}`);
      return e.kind === 'floordiv' ? floorDivBig(a, b) : modBig(a, b);
    }
    case 'min':
    case 'max': {
      let best = E.ev(e.args[0]);
      for (const x of e.args.slice(1)) {
        const v = E.ev(x);
        if (e.kind === 'min' ? v < best : v > best) best = v;
      }
      return best;
    }
    case 'cmp': {
      const l = E.ev(e.lhs);
      const r = e.rhs;
      const ok = e.op === '<=' ? l <= r : e.op === '>=' ? l >= r : e.op === '==' ? l === r : l !== r;
      return ok ? 1n : 0n;
    }
    case 'and':
    case 'or': {
      // strict: every argument is evaluated (Python/Triton `&`, `|` and MLIR andi/ori are)
      const vs = e.args.map((x) => E.ev(x) !== 0n);
      return (e.kind === 'and' ? vs.every(Boolean) : vs.some(Boolean)) ? 1n : 0n;
    }
    case 'not':
      return E.ev(e.arg) === 0n ? 1n : 0n;
    case 'select':
      return E.ev(e.cond) !== 0n ? E.ev(e.then) : E.ev(e.otherwise);
    case 'bit': {
      const a = E.ev(e.a);
      const b = E.ev(e.b);
      switch (e.op) {
        case 'xor': return a ^ b;
        case 'and': return a & b;
        case 'or': return a | b;
        default:
          if (b < 0n) throw new EvalError(`negative shift amount ${b} in ${describe(e)}`);
          if (b > 256n) throw new EvalError(`shift amount ${b} is too large in ${describe(e)}`);
          return e.op === 'shl' ? a << b : a >> b;
      }
    }
  }
}

/** replace every occurrence of the sub-expression with key `key` by `repl`, re-canonicalising */
export function replaceAtom(e: Expr, key: string, repl: Expr): Expr {
  const memo = new Map<string, Expr>();
  const go = (x: Expr): Expr => {
    if (x.key === key) return repl;
    if (!x.key.includes(key)) return x;
    const hit = memo.get(x.key);
    if (hit) return hit;
    const r = rebuild(x, go);
    memo.set(x.key, r);
    return r;
  };
  return go(e);
}

/**
 * Every un-broadcast `tl.arange` of e given the broadcast `bcast` (a range inside an index
 * expression, `2 * (0:8)`, broadcast like a slice at that key position); e itself when it has none.
 */
export function broadcastAranges(e: Expr, bcast: { axis: number; rank: number }): Expr {
  const go = (x: Expr): Expr => {
    if (x.kind === 'arange') return x.bcast ? x : arange(x.start, x.stop, bcast);
    if (x.kind === 'int' || x.kind === 'sym') return x;
    return rebuild(x, go, true);
  };
  return go(e);
}

/** true when e contains a `tl.arange` */
export function hasArange(e: Expr): boolean {
  if (e.kind === 'arange') return true;
  return childrenOf(e).some(hasArange);
}
