// query/arity, query/out-of-range: a query must give one index per logical dimension of its
// layout (`L[i, j]`, `L.apply(i, j)`) or exactly one flat index (`L.inv(x)`), and an index that
// is a constant (a literal, or built from params and lets) must lie inside its dimension; so must
// the constant bounds of a slice `a:b`. Checked at the params' values, on the query uses the
// elaborator recorded (the layout value, whatever spelling built it).
import type { ast, Diagnostic } from '../../../../grammar/src/index.js';
import * as A from '../../algebra/index.js';
import * as X from '../../expr/index.js';
import type { QueryUse } from '../elaborate-model.js';
import type { Scenarios } from '../scenario.js';
import { partsOf, type RuleContext } from './types.js';
import { fmtList } from './walk.js';

export function checkQueries(ctx: RuleContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const q of partsOf(ctx, 'queryUses')) out.push(...queryDiagnostics(ctx.scenarios, q));
  return out;
}

/** The query/... diagnostics of one query use, at the base scenario (`layout expr` uses it too). */
export function queryDiagnostics(scenarios: Scenarios, q: QueryUse): Diagnostic[] {
  const ctx = { scenarios };
  return q.kind === 'apply' ? indices(ctx, q, A.dims(q.layout)) : inv(ctx, q);
}

type Ctx = Pick<RuleContext, 'scenarios'>;

function name(q: QueryUse): string {
  return q.layoutName ?? 'the layout';
}

function shapeText(ctx: Ctx, dims: readonly X.Expr[]): string {
  const vs = dims.map((d) => ctx.scenarios.evaluate(d));
  return vs.every((v) => v !== undefined) ? fmtList(vs as bigint[]) : `[${dims.map((d) => X.printPython(d)).join(', ')}]`;
}

function indices(ctx: Ctx, q: QueryUse, dims: readonly X.Expr[]): Diagnostic[] {
  const L = name(q);
  const idx = q.indices;
  if (idx.length !== dims.length) {
    return [{
      code: 'query/arity',
      severity: 'error',
      message: `${L} takes ${dims.length} ${dims.length === 1 ? 'index' : 'indices'} (its logical shape is ${shapeText(ctx, dims)}) but ${idx.length} ${idx.length === 1 ? 'is' : 'are'} given`,
      range: q.indicesRange,
    }];
  }
  const out: Diagnostic[] = [];
  idx.forEach((it, k) => {
    const size = ctx.scenarios.evaluate(dims[k]);
    if (size === undefined) return;
    const at = `dimension ${k} of ${L} (size ${size})`;
    if (it.kind !== 'Slice') {
      const v = ctx.scenarios.value(it);
      if (v !== undefined && (v < 0n || v >= size)) out.push(outOfRange(it, `index ${v} is outside ${at}`));
      return;
    }
    const a = it.start ? ctx.scenarios.value(it.start) : 0n;
    const b = it.stop ? ctx.scenarios.value(it.stop) : size;
    if (it.start && a !== undefined && (a < 0n || a > size)) out.push(outOfRange(it.start, `slice start ${a} is outside ${at}`));
    else if (it.stop && b !== undefined && (b < 0n || b > size)) out.push(outOfRange(it.stop, `slice end ${b} is beyond ${at}`));
    else if (a !== undefined && b !== undefined && a >= b) out.push(outOfRange(it, `slice ${a}:${b} of ${at} is empty`));
  });
  return out;
}

function inv(ctx: Ctx, q: QueryUse): Diagnostic[] {
  const L = name(q);
  if (q.indices.length !== 1) {
    return [{
      code: 'query/arity',
      severity: 'error',
      message: `${L}.inv takes 1 flat index but ${q.indices.length} ${q.indices.length === 1 ? 'is' : 'are'} given`,
      range: q.indicesRange,
    }];
  }
  const size = ctx.scenarios.evaluate(A.extent(q.layout));
  const arg = q.indices[0];
  if (size === undefined || arg.kind === 'Slice') return [];
  const x = ctx.scenarios.value(arg);
  if (x === undefined || (x >= 0n && x < size)) return [];
  return [outOfRange(arg, `flat index ${x} is outside ${L}, which has ${size} elements`)];
}

function outOfRange(n: ast.Node, message: string): Diagnostic {
  return { code: 'query/out-of-range', severity: 'error', message, range: n.range };
}
