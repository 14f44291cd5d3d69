// Small AST helpers shared by the rules.
import type { ast, Resolution } from '../../../../grammar/src/index.js';

/** Every expression node under `root` (pre-order), not entering Error nodes. */
export function expressions(root: ast.AnyNode): (ast.Expr | ast.Slice)[] {
  const out: (ast.Expr | ast.Slice)[] = [];
  const stack: ast.AnyNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.kind === 'Error') continue;
    if (isExpr(n)) out.push(n);
    const cs = childrenOf(n);
    for (let i = cs.length - 1; i >= 0; i--) stack.push(cs[i]);
  }
  return out;
}

function childrenOf(n: ast.AnyNode): ast.AnyNode[] {
  switch (n.kind) {
    case 'File': return n.decls;
    case 'Param': return n.items;
    case 'ParamItem': return n.candidates ? [n.value, n.candidates] : [n.value];
    case 'Let': case 'Layout': return [n.value];
    case 'Perm': return [n.body, ...(n.inverse ? n.inverse.results : [])];
    case 'Kernel': return n.bindings.map((b) => b.value);
    case 'Schedule': return [...(n.op?.args ?? []), ...n.steps.flatMap((s) => s.args)];
    case 'Unary': return [n.operand];
    case 'Binary': return [n.left, n.right];
    case 'If': return [n.cond, n.then, n.else];
    case 'Call': return n.args;
    case 'MethodCall': return [n.receiver, ...n.args];
    case 'Index': return [n.receiver, ...n.indices];
    case 'Slice': return [...(n.start ? [n.start] : []), ...(n.stop ? [n.stop] : []), ...(n.step ? [n.step] : [])];
    case 'Range': return [n.start, n.stop, ...(n.step ? [n.step] : [])];
    case 'List': case 'Tuple': return n.items;
    default: return [];
  }
}

function isExpr(n: ast.AnyNode): n is ast.Expr | ast.Slice {
  switch (n.kind) {
    case 'Int': case 'String': case 'Name': case 'Unary': case 'Binary': case 'If': case 'Call':
    case 'MethodCall': case 'Index': case 'List': case 'Tuple': case 'Slice': case 'Range':
      return true;
    default:
      return false;
  }
}

/** Is `c` a call of the built-in constructor `name` (not shadowed)? */
export function isConstructorCall(c: ast.Expr, name: string, resolution: Resolution): boolean {
  return c.kind === 'Call' && c.callee.name === name && resolution.refs.get(c.callee)?.kind === 'constructor';
}

/** Items of a list or tuple literal, or undefined. */
export function itemsOf(e: ast.Expr | undefined): ast.Expr[] | undefined {
  return e && (e.kind === 'List' || e.kind === 'Tuple') ? e.items : undefined;
}

/** The source text of a node. */
export function textOf(text: string, n: ast.Node): string {
  return text.slice(n.range.start, n.range.end);
}

/** `[1, 2, 3]` */
export function fmtList(xs: readonly (bigint | number)[]): string {
  return `[${xs.join(', ')}]`;
}
