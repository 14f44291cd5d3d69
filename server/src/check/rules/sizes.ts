// Helpers of the size rules over the model: the integer expressions of nodes, and whether a size
// holds a `/` that leaves a remainder (reported once, by tile/not-divisible, so that the size
// rules do not cascade).
import type { ast } from '../../../../grammar/src/index.js';
import type * as X from '../../expr/index.js';
import type { Division } from '../elaborate-model.js';
import type { Scenario } from '../scenario.js';
import type { RuleContext } from './types.js';
import { expressions } from './walk.js';

/** The elaborated integer expressions of `es` (nodes without one are left out). */
export function intExprs(ctx: RuleContext, es: readonly ast.Expr[]): X.Expr[] {
  const out: X.Expr[] = [];
  for (const e of es) {
    const v = ctx.model.values.get(e);
    if (v?.k === 'int') out.push(v.e);
  }
  return out;
}

const byNode = new WeakMap<RuleContext['model'], Map<ast.Binary, Division>>();
function divisionOf(ctx: RuleContext, b: ast.Binary): Division | undefined {
  let m = byNode.get(ctx.model);
  if (!m) {
    m = new Map();
    for (const d of ctx.model.divisions) m.set(d.node, d);
    byNode.set(ctx.model, m);
  }
  return m.get(b);
}

/** Is `d` a `/` (not `//`) that leaves a remainder in `sc` (operands positive)? */
export function inexact(ctx: RuleContext, d: Division, sc: Scenario): boolean {
  if (d.floor) return false;
  const a = ctx.scenarios.evaluate(d.left, sc);
  const b = ctx.scenarios.evaluate(d.right, sc);
  return a !== undefined && b !== undefined && a > 0n && b > 0n && a % b !== 0n;
}

/**
 * Does the size `e` hold a non-dividing `/` in `sc`, following lets (a let's division counts
 * wherever the let is used), but not entering calls (min/max clamps)?
 */
export function inexactIn(ctx: RuleContext, e: ast.Expr, sc: Scenario): boolean {
  let memo = inexactMemo.get(sc);
  if (!memo) inexactMemo.set(sc, (memo = new Map()));
  const hit = memo.get(e);
  if (hit !== undefined) return hit;
  let out = false;
  for (const d of sizeDivisions(ctx, e)) {
    if (inexact(ctx, d, sc)) {
      out = true;
      break;
    }
  }
  memo.set(e, out);
  return out;
}

/** per scenario (one model each), per node: does it hold a non-dividing `/` */
const inexactMemo = new WeakMap<Scenario, Map<ast.Expr, boolean>>();

/**
 * The `size` divisions in `e` and in the lets it uses (transitively, at most 64 deep), in the order
 * met: what `inexactIn` checks at each scenario (the same for all of them: found once per node).
 */
function sizeDivisions(ctx: RuleContext, e: ast.Expr, depth = 0): readonly Division[] {
  if (depth > 64) return [];
  let memo = divisionsMemo.get(ctx.model);
  if (!memo) divisionsMemo.set(ctx.model, (memo = new Map()));
  const hit = memo.get(e);
  if (hit) return hit;
  const out: Division[] = [];
  memo.set(e, NONE); // a cycle (reported by resolution) adds nothing
  for (const n of expressions(e)) {
    if (n.kind === 'Binary') {
      const d = divisionOf(ctx, n);
      if (d && d.role === 'size') out.push(d);
    } else if (n.kind === 'Name') {
      const def = ctx.resolution.refs.get(n);
      const let_ = def?.kind === 'let' ? ctx.model.lets.get(def.name) : undefined;
      if (let_) for (const d of sizeDivisions(ctx, let_.decl.value, depth + 1)) out.push(d);
    }
  }
  memo.set(e, out);
  return out;
}

const NONE: readonly Division[] = [];

/** per model, per node: its size divisions (see `sizeDivisions`) */
const divisionsMemo = new WeakMap<RuleContext['model'], Map<ast.Expr, readonly Division[]>>();
