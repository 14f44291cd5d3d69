// A perm's integer expressions (body, inverse) as `expr` values, for the algebra's GenP check.
// Perm parameters, indices and the inverse's argument become symbols of their own names; params
// become their values at the evaluation point (so they never clash with a local of the same
// name, even through an inlined let); lets are inlined. Anything else (a layout, a string, a
// query) is not an integer expression.
import * as x from '../../expr/index.js';
import type { ast, Resolution } from '../../../../grammar/src/index.js';
import type { ParamValues } from './values.js';

export class NotAnInteger extends Error {}

export interface ToExprContext {
  resolution: Resolution;
  lets: ReadonlyMap<string, ast.LetDecl>;
  /** param values */
  params: ParamValues;
}

export function toExpr(e: ast.Expr, ctx: ToExprContext, depth = 0): x.Expr {
  if (depth > 200) throw new NotAnInteger('expression too deep');
  const { resolution, lets, params } = ctx;
  const go = (y: ast.Expr) => toExpr(y, ctx, depth + 1);
  switch (e.kind) {
    case 'Int':
      return x.int(e.value);
    case 'Name': {
      const def = resolution.refs.get(e);
      if (!def) throw new NotAnInteger(`unknown name '${e.name}'`);
      switch (def.kind) {
        case 'permParam': case 'permIndex': case 'inverseArg': return x.sym(def.name);
        case 'param': case 'const': {
          const v = params.get(def.name);
          if (v === undefined) throw new NotAnInteger(`${def.name} has no value`);
          return x.int(v);
        }
        case 'let': {
          const decl = lets.get(def.name);
          if (!decl) throw new NotAnInteger(`unknown let '${def.name}'`);
          return go(decl.value);
        }
        default: throw new NotAnInteger(`'${e.name}' is not an integer`);
      }
    }
    case 'Unary': {
      const v = go(e.operand);
      return e.op === '-' ? x.neg(v) : e.op === '+' ? v : x.not(v);
    }
    case 'Binary': {
      const a = go(e.left);
      const b = go(e.right);
      switch (e.op) {
        case '+': return x.add(a, b);
        case '-': return x.sub(a, b);
        case '*': return x.mul(a, b);
        case '/': case '//': return x.floorDiv(a, b);
        case '%': return x.mod(a, b);
        case 'and': return x.and(a, b);
        case 'or': return x.or(a, b);
        default: return x.cmp(e.op, a, b);
      }
    }
    case 'If':
      return x.select(go(e.cond), go(e.then), go(e.else));
    case 'Call': {
      const def = resolution.refs.get(e.callee);
      if (def?.kind === 'function' && e.args.length > 0) {
        const args = e.args.map(go);
        return e.callee.name === 'min' ? x.min(...args) : x.max(...args);
      }
      throw new NotAnInteger(`${e.callee.name}(...) is not an integer`);
    }
    default:
      throw new NotAnInteger('not an integer expression');
  }
}
