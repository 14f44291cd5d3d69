// LEGO's index arithmetic with ranges (issue 14): `(a:b)` and `(a:b:s)` inside an index
// expression (`A[2 * (0:8), k]`, `X[row, (0:B) + 1]`) and step slices `a:b:s`. A range is a
// `tl.arange` value (Triton); inside a key item it is broadcast like a slice at that position,
// and the item is assumed in its dimension's range, as LEGO assumes of any index expression.
// `elab/range-outside-index`: a range anywhere but inside an index list; `elab/bad-step`: a
// step that is not a positive constant at the param values.
import type * as ast from '../../../grammar/src/ast.js';
import * as X from '../expr/index.js';
import type { Elaborator } from './elaborate.js';
import { BAD, type Val } from './elaborate-model.js';

/** A step: an integer expression that is a positive constant at the param values (reported otherwise). */
export function stepOf(el: Elaborator, e: ast.Expr): X.Expr | undefined {
  const s = el.int(e);
  if (!s) return undefined;
  let v: bigint | undefined;
  try {
    v = X.evaluate(s, el.model.env);
  } catch {
    v = undefined;
  }
  if (v === undefined || v < 1n) {
    el.report('elab/bad-step', e.range, v === undefined ? 'the step of a range must be a constant (params and lets only)' : `the step of a range must be positive; this is ${v} at the param values`);
    return undefined;
  }
  return s;
}

/** `(a:b)` = tl.arange(a, b); `(a:b:s)` = a + s * tl.arange(0, ceil((b - a) / s)). */
export function rangeValue(el: Elaborator, e: ast.RangeExpr): Val {
  if (el.role !== 'index') {
    el.report('elab/range-outside-index', e.range, 'a range (a:b) has a meaning only inside an index list, e.g. A[2 * (0:8), k]');
    return BAD;
  }
  const start = el.int(e.start);
  const stop = el.int(e.stop);
  const step = e.step ? stepOf(el, e.step) : undefined;
  if (!start || !stop || (e.step && !step)) return BAD;
  if (!step || (step.kind === 'int' && step.value === 1n)) return { k: 'int', e: X.arange(start, stop) };
  // the count ceil((b - a) / s), simplified with the params positive (a tl.arange bound)
  const n = X.floorDiv(X.add(X.sub(stop, start), X.sub(step, X.int(1))), step);
  const positive = new Set([...X.freeSymbols(n)].filter((s) => el.model.params.has(s)));
  const count = X.simplify(n, { ranges: new Map(), positive });
  return { k: 'int', e: X.add(start, X.mul(step, X.arange(X.int(0), count))) };
}
