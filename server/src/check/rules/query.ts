// query/arity, query/out-of-range: a query must give one index per logical dimension of its
// layout (`L[i, j]`, `L.apply(i, j)`) or exactly one flat index (`L.inv(x)`), and an index that
// is a constant (a literal, or built from params and lets) must lie inside its dimension; so must
// the constant bounds of a slice `a:b`. Checked at the params' values.
import type { ast, Diagnostic } from '../../../../grammar/src/index.js';
import type { RuleContext } from './types.js';
import { expressions, fmtList, textOf } from './walk.js';

export function checkQueries(ctx: RuleContext): Diagnostic[] {
  const shapes = ctx.index.shapes;
  const out: Diagnostic[] = [];
  for (const e of ctx.decls.flatMap((d) => expressions(d))) {
    if (e.kind === 'Index') {
      const s = shapes.of(e.receiver);
      const dims = s && shapes.logicalDims(s);
      if (dims) out.push(...indices(ctx, e.receiver, e.indices, dims, { start: e.receiver.range.end, end: e.range.end }));
    } else if (e.kind === 'MethodCall' && (e.method.name === 'apply' || e.method.name === 'inv')) {
      const s = shapes.of(e.receiver);
      if (!s) continue;
      if (e.method.name === 'apply') {
        const dims = shapes.logicalDims(s);
        if (dims) out.push(...indices(ctx, e.receiver, e.args, dims, e.argsRange));
      } else {
        const dims = shapes.physicalDims(s);
        if (dims) out.push(...inv(ctx, e, dims));
      }
    }
  }
  return out;
}

function name(ctx: RuleContext, recv: ast.Expr): string {
  return recv.kind === 'Name' ? recv.name : 'the layout';
}

function shapeText(ctx: RuleContext, dims: readonly ast.Expr[]): string {
  const vs = dims.map((d) => ctx.values.value(d, ctx.values.base));
  return vs.every((v) => v !== undefined) ? fmtList(vs as bigint[]) : `[${dims.map((d) => textOf(ctx.text, d)).join(', ')}]`;
}

function indices(ctx: RuleContext, recv: ast.Expr, idx: readonly (ast.Expr | ast.Slice)[], dims: readonly ast.Expr[], where: ast.Range): Diagnostic[] {
  const L = name(ctx, recv);
  if (idx.length !== dims.length) {
    return [{
      code: 'query/arity',
      severity: 'error',
      message: `${L} takes ${dims.length} ${dims.length === 1 ? 'index' : 'indices'} (its logical shape is ${shapeText(ctx, dims)}) but ${idx.length} ${idx.length === 1 ? 'is' : 'are'} given`,
      range: where,
    }];
  }
  const out: Diagnostic[] = [];
  idx.forEach((it, k) => {
    const size = ctx.values.value(dims[k], ctx.values.base);
    if (size === undefined) return;
    const at = `dimension ${k} of ${L} (size ${size})`;
    if (it.kind !== 'Slice') {
      const v = ctx.values.value(it, ctx.values.base);
      if (v !== undefined && (v < 0n || v >= size)) out.push(outOfRange(it, `index ${v} is outside ${at}`));
      return;
    }
    const a = it.start ? ctx.values.value(it.start, ctx.values.base) : 0n;
    const b = it.stop ? ctx.values.value(it.stop, ctx.values.base) : size;
    if (it.start && a !== undefined && (a < 0n || a > size)) out.push(outOfRange(it.start, `slice start ${a} is outside ${at}`));
    else if (it.stop && b !== undefined && (b < 0n || b > size)) out.push(outOfRange(it.stop, `slice end ${b} is beyond ${at}`));
    else if (a !== undefined && b !== undefined && a >= b) out.push(outOfRange(it, `slice ${a}:${b} of ${at} is empty`));
  });
  return out;
}

function inv(ctx: RuleContext, e: ast.MethodCall, dims: readonly ast.Expr[]): Diagnostic[] {
  const L = name(ctx, e.receiver);
  if (e.args.length !== 1) {
    return [{
      code: 'query/arity',
      severity: 'error',
      message: `${L}.inv takes 1 flat index but ${e.args.length} ${e.args.length === 1 ? 'is' : 'are'} given`,
      range: e.argsRange,
    }];
  }
  let size = 1n;
  for (const d of dims) {
    const v = ctx.values.value(d, ctx.values.base);
    if (v === undefined) return [];
    size *= v;
  }
  const x = ctx.values.value(e.args[0], ctx.values.base);
  if (x === undefined || (x >= 0n && x < size)) return [];
  return [outOfRange(e.args[0], `flat index ${x} is outside ${L}, which has ${size} elements`)];
}

function outOfRange(n: ast.Node, message: string): Diagnostic {
  return { code: 'query/out-of-range', severity: 'error', message, range: n.range };
}
