// Integer evaluation of schedule arguments: names are looked up in the file's params and lets.
import type { Expr, File, Range } from '../../../../grammar/src/ast.js';

export type EvalResult = { ok: true; value: bigint } | { ok: false; message: string; range: Range };
/** Resolves a name to its value, or says why it has none. */
export type NameLookup = (name: string, range: Range) => EvalResult;

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

/** Evaluates an integer expression: literals, names, + - * / % (floor), comparisons, and/or/not, if, min, max. */
export function evalIntExpr(e: Expr, lookup: NameLookup): EvalResult {
  const err = (message: string, range = e.range): EvalResult => ({ ok: false, message, range });
  switch (e.kind) {
    case 'Int': return { ok: true, value: e.value };
    case 'Name': return lookup(e.name, e.range);
    case 'Unary': {
      const v = evalIntExpr(e.operand, lookup);
      if (!v.ok) return v;
      if (e.op === '-') return { ok: true, value: -v.value };
      if (e.op === '+') return v;
      return { ok: true, value: v.value === 0n ? 1n : 0n };
    }
    case 'Binary': {
      const l = evalIntExpr(e.left, lookup);
      if (!l.ok) return l;
      const r = evalIntExpr(e.right, lookup);
      if (!r.ok) return r;
      const a = l.value, b = r.value;
      const bool = (x: boolean): EvalResult => ({ ok: true, value: x ? 1n : 0n });
      switch (e.op) {
        case '+': return { ok: true, value: a + b };
        case '-': return { ok: true, value: a - b };
        case '*': return { ok: true, value: a * b };
        case '/': case '//': return b === 0n ? err('division by zero', e.right.range) : { ok: true, value: floorDiv(a, b) };
        case '%': return b === 0n ? err('remainder by zero', e.right.range) : { ok: true, value: a - b * floorDiv(a, b) };
        case '<': return bool(a < b);
        case '<=': return bool(a <= b);
        case '>': return bool(a > b);
        case '>=': return bool(a >= b);
        case '==': return bool(a === b);
        case '!=': return bool(a !== b);
        case 'and': return bool(a !== 0n && b !== 0n);
        case 'or': return bool(a !== 0n || b !== 0n);
      }
      return err(`operator ${(e as { op: string }).op} is not supported here`);
    }
    case 'If': {
      const c = evalIntExpr(e.cond, lookup);
      if (!c.ok) return c;
      return evalIntExpr(c.value !== 0n ? e.then : e.else, lookup);
    }
    case 'Call': {
      const f = e.callee.name;
      if ((f === 'min' || f === 'max') && e.args.length > 0) {
        let best: bigint | undefined;
        for (const a of e.args) {
          const v = evalIntExpr(a, lookup);
          if (!v.ok) return v;
          if (best === undefined || (f === 'min' ? v.value < best : v.value > best)) best = v.value;
        }
        return { ok: true, value: best! };
      }
      return err(`\`${f}(...)\` is not an integer here; only min and max can be called`);
    }
    case 'String': return err('expected an integer, found a string');
    case 'List': case 'Tuple': return err('expected an integer, found a list');
    case 'Error': return err('this expression did not parse');
    default: return err('expected an integer expression');
  }
}

/** Parameters and lets a schedule's expressions may name. */
export interface ParamInfo {
  value: bigint;
  /** the declared value expression, re-evaluated when a tuning candidate of another param is tried */
  expr?: Expr;
  /** `in [64, 128, 256]` */
  candidates?: bigint[];
}
export interface ScheduleEnv {
  params: ReadonlyMap<string, ParamInfo>;
  lets?: ReadonlyMap<string, Expr>;
  /** every name the file declares at top level (params, lets, layouts, perms, kernels, schedules) */
  declared?: ReadonlySet<string>;
  /** source file name, for generated headers */
  file?: string;
}

/** Name lookup for one assignment of candidate values; params and lets are evaluated on demand. */
export function envLookup(env: ScheduleEnv, assignment: ReadonlyMap<string, bigint> = new Map()): NameLookup {
  const memo = new Map<string, EvalResult>();
  const active = new Set<string>();
  const lookup: NameLookup = (name, range) => {
    const fixed = assignment.get(name);
    if (fixed !== undefined) return { ok: true, value: fixed };
    const cached = memo.get(name);
    if (cached) return cached.ok ? cached : { ok: false, message: cached.message, range };
    const p = env.params.get(name);
    const letExpr = env.lets?.get(name);
    let r: EvalResult;
    if (!p && !letExpr) return { ok: false, message: `unknown name \`${name}\``, range };
    if (active.has(name)) return { ok: false, message: `\`${name}\` is defined in terms of itself`, range };
    active.add(name);
    if (p) {
      r = p.expr && assignment.size > 0 ? evalIntExpr(p.expr, lookup) : { ok: true, value: p.value };
      if (!r.ok) r = { ok: true, value: p.value };
    } else {
      const v = evalIntExpr(letExpr!, lookup);
      r = v.ok ? v : { ok: false, message: `\`${name}\` has no integer value (${v.message})`, range };
    }
    active.delete(name);
    memo.set(name, r);
    return r.ok ? r : { ok: false, message: r.message, range };
  };
  return lookup;
}

/** Collects the params and lets of a file (values evaluated in declaration order). */
export function scheduleEnvFromFile(file: File, fileName?: string): ScheduleEnv {
  const params = new Map<string, ParamInfo>();
  const lets = new Map<string, Expr>();
  const declared = new Set<string>();
  const env: ScheduleEnv = { params, lets, declared, file: fileName };
  for (const d of file.decls) {
    if (d.kind === 'Param') d.items.forEach((it) => declared.add(it.name.name));
    else if (d.kind !== 'Assume') declared.add(d.name.name);
    if (d.kind === 'Param') {
      for (const item of d.items) {
        const v = evalIntExpr(item.value, envLookup(env));
        if (!v.ok) continue;
        const candidates: bigint[] = [];
        for (const c of item.candidates?.items ?? []) {
          const cv = evalIntExpr(c, envLookup(env));
          if (cv.ok) candidates.push(cv.value);
        }
        params.set(item.name.name, { value: v.value, expr: item.value, candidates: candidates.length ? candidates : undefined });
      }
    } else if (d.kind === 'Let') {
      lets.set(d.name.name, d.value);
    }
  }
  return env;
}
