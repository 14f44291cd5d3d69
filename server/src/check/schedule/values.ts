// The values of a schedule's integer arguments (payload sizes, tile sizes, thread counts, ...),
// read from the elaborated model: the elaborator elaborates every argument node through name
// resolution (check/elaborate.ts), and a scenario (check/scenario.ts) gives the params' values or
// a combination of tuning candidates. No AST is interpreted here; when a node has no integer
// value, `reason` says why in the words of the schedule checks.
import type { Expr, File, Range } from '../../../../grammar/src/ast.js';
import { resolve, type Resolution } from '../../../../grammar/src/resolve.js';
import * as X from '../../expr/index.js';
import { Elaborator } from '../elaborate.js';
import type { Model } from '../elaborate-model.js';
import { Scenarios, type Scenario } from '../scenario.js';

export type EvalResult = { ok: true; value: bigint } | { ok: false; message: string; range: Range };
/** The value of an argument node, or why it has none. */
export type ArgValues = (e: Expr) => EvalResult;

/** What the schedule checks read: the model, the resolution (for unknown names) and the scenarios. */
export interface ScheduleEnv {
  model: Model;
  resolution: Resolution;
  scenarios: Scenarios;
  /** every name the file declares at top level (params, lets, layouts, perms, kernels, schedules) */
  declared: { has(name: string): boolean };
  /** source file name, for generated headers */
  file?: string;
}

/** The schedule environment of an analysed file. */
export function scheduleEnvOf(model: Model, resolution: Resolution, fileName?: string, scenarios?: Scenarios): ScheduleEnv {
  return { model, resolution, scenarios: scenarios ?? new Scenarios(model), declared: resolution.globals, file: fileName };
}

/**
 * Resolves and elaborates `file` for its schedules (for callers holding only the AST: code
 * generation, tests). `overrides` replace params' values, as `--set NAME=VALUE` does.
 */
export function scheduleEnvFromFile(file: File, fileName?: string, overrides?: ReadonlyMap<string, bigint>): ScheduleEnv {
  const resolution = resolve(file, '');
  const el = new Elaborator(resolution, overrides ? { overrides } : {});
  for (const d of file.decls) {
    try {
      el.decl(d);
    } catch {
      // reported by `analyze`; here the declaration simply has no values
    }
  }
  return scheduleEnvOf(el.model, resolution, fileName);
}

/** Argument values at `sc` (default: the params' values). */
export function argValues(env: ScheduleEnv, sc: Scenario = env.scenarios.base): ArgValues {
  return (e) => {
    const v = env.model.values.get(e);
    if (v?.k === 'int') {
      // the scenarios keep every value they computed (the same sizes come up in every schedule check)
      const known = env.scenarios.evaluate(v.e, sc);
      if (known !== undefined) return { ok: true, value: known };
      try {
        return { ok: true, value: X.evaluate(v.e, sc.env) };
      } catch (err) {
        const msg = err instanceof Error ? err.message : String(err);
        const unbound = /unbound symbol '?([A-Za-z_][A-Za-z_0-9]*)/.exec(msg);
        if (unbound) return { ok: false, message: `\`${unbound[1]}\` has no integer value`, range: e.range };
        return { ok: false, message: /division by zero/.test(msg) ? 'division by zero' : msg, range: e.range };
      }
    }
    return reason(env, e, sc);
  };
}

/** Why `e` has no integer value: the first part of it that has none. */
function reason(env: ScheduleEnv, e: Expr, sc: Scenario, depth = 0): EvalResult & { ok: false } {
  const err = (message: string, range = e.range): EvalResult & { ok: false } => ({ ok: false, message, range });
  if (depth > 64) return err('expected an integer expression');
  const sub = (xs: Expr[]): (EvalResult & { ok: false }) | undefined => {
    for (const x of xs) {
      const r = argValues(env, sc)(x);
      if (!r.ok) return r;
    }
    return undefined;
  };
  switch (e.kind) {
    case 'Name': {
      const def = env.resolution.refs.get(e);
      return err(def ? `\`${e.name}\` has no integer value` : `unknown name \`${e.name}\``);
    }
    case 'String': return err('expected an integer, found a string');
    case 'List': case 'Tuple': return err('expected an integer, found a list');
    case 'Error': return err('this expression did not parse');
    case 'Unary': return sub([e.operand]) ?? err('expected an integer expression');
    case 'If': return sub([e.cond, e.then, e.else]) ?? err('expected an integer expression');
    case 'Binary': {
      const inner = sub([e.left, e.right]);
      if (inner) return inner;
      if (e.op === '/' || e.op === '//') return err('division by zero', e.right.range);
      if (e.op === '%') return err('remainder by zero', e.right.range);
      return err('expected an integer expression');
    }
    case 'Call': {
      const f = e.callee.name;
      if ((f === 'min' || f === 'max') && env.resolution.refs.get(e.callee)?.kind === 'function') return sub(e.args) ?? err('expected an integer expression');
      return err(`\`${f}(...)\` is not an integer here; only min and max can be called`);
    }
    default: return err('expected an integer expression');
  }
}
