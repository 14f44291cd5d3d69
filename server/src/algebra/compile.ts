// Expressions compiled to closure trees over JS numbers, for enumeration (tables, GenP
// checks). Built from data by a plain recursive walk: nothing is ever passed to eval/Function.
// Every intermediate value is checked against 2^53, so a result is either exact or an error.
import { EvalError, freeSymbols, int, substitute, type Expr } from '../expr/index.js';
import { AlgebraError } from './types.js';

/** Evaluates a compiled expression at the given slot values (slot i = `slots[i]`). */
export type NumFn = (vals: ArrayLike<number>) => number;

const LIMIT = 2 ** 53;

function big(v: number, what: string): never {
  throw new EvalError(`value ${v} of ${what} reaches 2^53 in magnitude; results are exact only below 2^53`);
}

/** Python floor division on safe integers (b != 0), exact. */
export function floorDivNum(a: number, b: number): number {
  return (a - modNum(a, b)) / b;
}
/** Python remainder (sign of b) on safe integers (b != 0), exact. */
export function modNum(a: number, b: number): number {
  const r = a % b;
  return r !== 0 && r < 0 !== b < 0 ? r + b : r;
}

/**
 * Compiles `e`; symbols in `slots` read the argument vector, every other symbol takes its
 * value from `env` (AlgebraError when unbound). Division by zero and overflow raise EvalError
 * when the function runs.
 */
export function compileNum(e: Expr, slots: readonly string[], env: ReadonlyMap<string, bigint>): NumFn {
  const slotOf = new Map(slots.map((s, i) => [s, i]));
  // fold the environment's values in first: constants combine with the canonical form
  const fold = new Map<string, Expr>();
  for (const s of freeSymbols(e)) {
    const v = env.get(s);
    if (!slotOf.has(s) && v !== undefined && v < 2n ** 53n && v > -(2n ** 53n)) fold.set(s, int(v));
  }
  if (fold.size) {
    try {
      e = substitute(e, fold);
    } catch {
      // keep e: its symbols then read the environment one by one
    }
  }
  const memo = new Map<Expr, NumFn>();
  const go = (x: Expr): NumFn => {
    let f = memo.get(x);
    if (!f) {
      f = build(x, go, slotOf, env);
      memo.set(x, f);
    }
    return f;
  };
  return go(e);
}

function build(x: Expr, go: (x: Expr) => NumFn, slotOf: ReadonlyMap<string, number>, env: ReadonlyMap<string, bigint>): NumFn {
  switch (x.kind) {
    case 'int': {
      const v = Number(x.value);
      if (!(Math.abs(v) < LIMIT)) return () => big(v, `the constant ${x.value}`);
      return () => v;
    }
    case 'sym': {
      const i = slotOf.get(x.name);
      if (i !== undefined) return (vals) => vals[i];
      const b = env.get(x.name);
      if (b === undefined) throw new AlgebraError(`'${x.name}' has no value`);
      const v = Number(b);
      if (!(Math.abs(v) < LIMIT)) throw new AlgebraError(`the value of '${x.name}' is beyond 2^53`);
      return () => v;
    }
    case 'arange':
      throw new AlgebraError('tl.arange(...) has no single integer value');
    case 'add': {
      const ts = x.terms.map(go);
      const c = Number(x.constant);
      if (ts.length === 1) {
        const [a] = ts;
        return (v) => {
          const r = a(v) + c;
          return r < LIMIT && r > -LIMIT ? r : big(r, 'a sum');
        };
      }
      if (ts.length === 2 && c === 0) {
        const [a, b] = ts;
        return (v) => {
          const r = a(v) + b(v);
          return r < LIMIT && r > -LIMIT ? r : big(r, 'a sum');
        };
      }
      if (ts.length === 2) {
        const [a, b] = ts;
        return (v) => {
          const r = a(v) + b(v) + c;
          return r < LIMIT && r > -LIMIT ? r : big(r, 'a sum');
        };
      }
      if (ts.length === 3) {
        const [a, b, d] = ts;
        return (v) => {
          const r = a(v) + b(v) + d(v) + c;
          return r < LIMIT && r > -LIMIT ? r : big(r, 'a sum');
        };
      }
      if (ts.length === 4) {
        const [a, b, d, e] = ts;
        return (v) => {
          const r = a(v) + b(v) + d(v) + e(v) + c;
          return r < LIMIT && r > -LIMIT ? r : big(r, 'a sum');
        };
      }
      return (v) => {
        let r = c;
        for (let i = 0; i < ts.length; i++) r += ts[i](v);
        return r < LIMIT && r > -LIMIT ? r : big(r, 'a sum');
      };
    }
    case 'mul': {
      const c = Number(x.coef);
      const slotIdx = x.factors.map((f) => (f.kind === 'sym' ? slotOf.get(f.name) : undefined));
      if (slotIdx.every((k) => k !== undefined) && slotIdx.length <= 2) {
        const [a, b] = slotIdx as number[];
        if (slotIdx.length === 1) return (v) => {
          const r = c * v[a];
          return r < LIMIT && r > -LIMIT ? r : big(r, 'a product');
        };
        return (v) => {
          const r = c * v[a] * v[b];
          return r < LIMIT && r > -LIMIT ? r : big(r, 'a product');
        };
      }
      const fs = x.factors.map(go);
      if (fs.length === 1) {
        const [a] = fs;
        return (v) => {
          const r = c * a(v);
          return r < LIMIT && r > -LIMIT ? r : big(r, 'a product');
        };
      }
      if (fs.length === 2) {
        const [a, b] = fs;
        return (v) => {
          const r = c * a(v) * b(v);
          return r < LIMIT && r > -LIMIT ? r : big(r, 'a product');
        };
      }
      return (v) => {
        let r = c;
        for (let i = 0; i < fs.length; i++) {
          r *= fs[i](v);
          if (!(r < LIMIT && r > -LIMIT)) big(r, 'a product');
        }
        return r;
      };
    }
    case 'floordiv': case 'mod': {
      const a = go(x.a);
      const b = go(x.b);
      if (x.b.kind === 'int' && x.b.value > 0n) {
        const d = Number(x.b.value);
        if (x.kind === 'mod') return (v) => modNum(a(v), d);
        return (v) => floorDivNum(a(v), d);
      }
      const isDiv = x.kind === 'floordiv';
      return (v) => {
        const q = b(v);
        if (q === 0) throw new EvalError('division by zero');
        return isDiv ? floorDivNum(a(v), q) : modNum(a(v), q);
      };
    }
    case 'min': case 'max': {
      const as = x.args.map(go);
      const isMin = x.kind === 'min';
      return (v) => {
        let best = as[0](v);
        for (let i = 1; i < as.length; i++) {
          const y = as[i](v);
          if (isMin ? y < best : y > best) best = y;
        }
        return best;
      };
    }
    case 'cmp': {
      const l = go(x.lhs);
      const r = Number(x.rhs);
      switch (x.op) {
        case '<=': return (v) => (l(v) <= r ? 1 : 0);
        case '>=': return (v) => (l(v) >= r ? 1 : 0);
        case '==': return (v) => (l(v) === r ? 1 : 0);
        case '!=': return (v) => (l(v) !== r ? 1 : 0);
      }
      break;
    }
    case 'and': {
      const as = x.args.map(go);
      return (v) => {
        for (let i = 0; i < as.length; i++) if (as[i](v) === 0) return 0;
        return 1;
      };
    }
    case 'or': {
      const as = x.args.map(go);
      return (v) => {
        for (let i = 0; i < as.length; i++) if (as[i](v) !== 0) return 1;
        return 0;
      };
    }
    case 'not': {
      const a = go(x.arg);
      return (v) => (a(v) === 0 ? 1 : 0);
    }
    case 'select': {
      const c = go(x.cond);
      const t = go(x.then);
      const o = go(x.otherwise);
      return (v) => (c(v) !== 0 ? t(v) : o(v));
    }
    case 'bit': {
      const a = go(x.a);
      const b = go(x.b);
      const op = x.op;
      // exact on safe integers: 32-bit operands use JS operators, larger ones go through bigint
      const small = (n: number) => n >= -(2 ** 31) && n < 2 ** 31;
      return (v) => {
        const p = a(v);
        const q = b(v);
        if (op === 'shl' || op === 'shr') {
          if (q < 0) throw new EvalError(`negative shift amount ${q}`);
          const r = op === 'shl' ? p * 2 ** q : Math.floor(p / 2 ** q);
          if (!Number.isSafeInteger(r)) big(r, 'a shift');
          return r;
        }
        if (small(p) && small(q)) return op === 'xor' ? p ^ q : op === 'and' ? p & q : p | q;
        const P = BigInt(p);
        const Q = BigInt(q);
        return Number(op === 'xor' ? P ^ Q : op === 'and' ? P & Q : P | Q);
      };
    }
  }
  throw new AlgebraError(`cannot compile an expression of kind ${(x as Expr).kind}`);
}
