// Canonicalising constructors of comparisons, logic and selects (0/1-valued expressions).
// A comparison is kept as `lhs op c` (op one of <=, >=, ==, !=) with c a constant, the integer
// content of lhs divided out and its leading term positive; `select` conditions are kept as
// `<=`, `==` or and/or (`>=`, `!=` and `not` swap the branches).
import { type CanonCmpOp, type CmpOp, type Expr, byKey, isBoolean, mkAndOr, mkCmp, mkInt, mkNot, mkSelect } from './node.js';
import { type Mono, ONE, ZERO, floorDivBig, polyContent, polyOf, polyToExpr } from './poly.js';
import { sub } from './build.js';

const FLIP: Record<CanonCmpOp, CanonCmpOp> = { '<=': '>=', '>=': '<=', '==': '==', '!=': '!=' };

/** comparison, 0/1 valued; canonical form `lhs op c` with c constant, lhs free of constants */
export function cmp(op: CmpOp, a: Expr, b: Expr): Expr {
  const d = polyOf(sub(a, b));
  let rhs = -d.c;
  let cop: CanonCmpOp;
  switch (op) {
    case '<':
      cop = '<=';
      rhs -= 1n;
      break;
    case '>':
      cop = '>=';
      rhs += 1n;
      break;
    default:
      cop = op;
  }
  if (d.terms.length === 0) return truth(evalCmp(cop, 0n, rhs));
  let terms: readonly Mono[] = d.terms;
  const g = polyContent({ terms, c: 0n });
  if (g > 1n) {
    terms = terms.map((t) => ({ ...t, coef: t.coef / g }));
    if (cop === '<=') rhs = floorDivBig(rhs, g);
    else if (cop === '>=') rhs = -floorDivBig(-rhs, g);
    else if (rhs % g !== 0n) return truth(cop === '!=');
    else rhs /= g;
  }
  if (terms[0].coef < 0n) {
    terms = terms.map((t) => ({ ...t, coef: -t.coef }));
    rhs = -rhs;
    cop = FLIP[cop];
  }
  const lhs = polyToExpr({ terms, c: 0n });
  if (isBoolean(lhs)) return boolCmp(cop, lhs, rhs);
  return mkCmp(cop, lhs, rhs);
}

function boolCmp(op: CanonCmpOp, b: Expr, c: bigint): Expr {
  // b is 0/1 valued
  const holdsAt = (v: bigint) => evalCmp(op, v, c);
  const at0 = holdsAt(0n);
  const at1 = holdsAt(1n);
  if (at0 && at1) return ONE;
  if (!at0 && !at1) return ZERO;
  return at1 ? b : not(b);
}

export function evalCmp(op: CanonCmpOp | CmpOp, x: bigint, y: bigint): boolean {
  switch (op) {
    case '<':
      return x < y;
    case '<=':
      return x <= y;
    case '>':
      return x > y;
    case '>=':
      return x >= y;
    case '==':
      return x === y;
    case '!=':
      return x !== y;
  }
}

function truth(b: boolean): Expr {
  return b ? ONE : ZERO;
}

/** x as a 0/1 value: x itself when already boolean, else `x != 0` */
export function toBool(x: Expr): Expr {
  return isBoolean(x) ? x : cmp('!=', x, ZERO);
}

function andOr(kind: 'and' | 'or', xs: readonly Expr[]): Expr {
  const absorbing = kind === 'and' ? 0n : 1n;
  const seen = new Map<string, Expr>();
  for (const x0 of xs) {
    const x = toBool(x0);
    const parts = x.kind === kind ? x.args : [x];
    for (const p of parts) {
      if (p.kind === 'int') {
        if (p.value === absorbing) return mkInt(absorbing);
        continue;
      }
      seen.set(p.key, p);
    }
  }
  const args = [...seen.values()];
  for (const p of args) if (seen.has(not(p).key)) return mkInt(absorbing);
  if (args.length === 0) return mkInt(1n - absorbing);
  if (args.length === 1) return args[0];
  return mkAndOr(kind, args.sort(byKey));
}

export function and(a: Expr, b: Expr): Expr {
  return andOr('and', [a, b]);
}
export function or(a: Expr, b: Expr): Expr {
  return andOr('or', [a, b]);
}

export function not(a: Expr): Expr {
  const b = toBool(a);
  switch (b.kind) {
    case 'int':
      return truth(b.value === 0n);
    case 'not':
      return b.arg;
    case 'cmp':
      switch (b.op) {
        case '<=':
          return mkCmp('>=', b.lhs, b.rhs + 1n);
        case '>=':
          return mkCmp('<=', b.lhs, b.rhs - 1n);
        case '==':
          return mkCmp('!=', b.lhs, b.rhs);
        case '!=':
          return mkCmp('==', b.lhs, b.rhs);
      }
    // falls through: unreachable
    default:
      return mkNot(b);
  }
}

/** piecewise: `then` where cond != 0, else `otherwise` */
export function select(cond: Expr, then: Expr, otherwise: Expr): Expr {
  const c = toBool(cond);
  if (c.kind === 'int') return c.value !== 0n ? then : otherwise;
  // canonical conditions: `<=`, `==`, and/or; `>=`, `!=` and `not` swap the branches
  if (c.kind === 'not' || (c.kind === 'cmp' && (c.op === '>=' || c.op === '!='))) return select(not(c), otherwise, then);
  if (then.key === otherwise.key) return then;
  if (then.kind === 'select' && then.cond.key === c.key) return select(c, then.then, otherwise);
  if (otherwise.kind === 'select' && otherwise.cond.key === c.key) return select(c, then, otherwise.otherwise);
  if (then.kind === 'int' && otherwise.kind === 'int') {
    if (then.value === 1n && otherwise.value === 0n) return c;
    if (then.value === 0n && otherwise.value === 1n) return not(c);
  }
  return mkSelect(c, then, otherwise);
}
