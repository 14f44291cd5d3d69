// tile/not-divisible: a size division `a / b` whose divisor does not divide the dividend, at the
// params' values and at the combinations of tuning candidates it depends on (check/scenario.ts).
//
// Sizes are the values of params, lets and layouts; there `/` means an exact division (LEGO's
// `M/BM` is a rational, meaningful only when BM divides M) and `//` an intended floor division,
// which is never reported. Divisions inside `min(...)`/`max(...)` are clamps, not reported either.
// The divisions and their role come from the elaborated model (`model.divisions`).
// Fixes: "use a dividing size" (the nearest dividing values below and above the divisor, when
// the divisor is a literal or a param, or the candidate, written as a literal) and, for a
// division in the outermost level of `OrderBy(Row|Col(...)).TileBy(...)`, "wrap in ExpandBy":
// round the tiled extents up, tile the padded space and keep the original shape as ExpandBy's.
import type { ast, Diagnostic, Fix } from '../../../../grammar/src/index.js';
import type { Division } from '../elaborate-model.js';
import { limitedDiagnostic, type Scenario } from '../scenario.js';
import { partsOf, type RuleContext } from './types.js';
import { isConstructorCall, itemsOf, textOf } from './walk.js';

/** How far a dividing size is searched for on each side of the current divisor. */
const SEARCH = 100_000;

export function checkTiles(ctx: RuleContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const d of partsOf(ctx, 'divisions')) {
    if (d.floor || d.role !== 'size') continue;
    const division = d.node;
    const set = ctx.scenarios.for([d.left, d.right]);
    for (const sc of set.scenarios) {
      const a = ctx.scenarios.evaluate(d.left, sc);
      const b = ctx.scenarios.evaluate(d.right, sc);
      if (a === undefined || b === undefined || a <= 0n || b <= 0n || a % b === 0n) continue;
      // a candidate that changes nothing here repeats the params' diagnostic: skip it
      if (sc.changed.size && !dependsOn(ctx, d, sc)) continue;
      const related = [...sc.changed].map(([p, c]) => ({ message: `the candidate ${c.value} of ${p}`, range: c.node.range }));
      out.push({
        code: 'tile/not-divisible',
        severity: 'error',
        message: message(ctx, division, a, b, sc),
        range: division.range,
        ...(related.length ? { related } : {}),
        fixes: [...dividingFixes(ctx, division, d.tileBy, a, b, sc), ...expandFix(ctx, d.tileBy, sc)],
      });
    }
    out.push(...limitedDiagnostic(set, division.range, 'this division'));
  }
  return out;
}

type TileByItem = Division['tileBy'];

/** The level arguments of `chain.TileBy(levels...)` or `TileBy(chain, levels...)`. */
function levelsOf(call: ast.Call | ast.MethodCall): ast.Expr[] {
  return call.kind === 'MethodCall' ? call.args : call.args.slice(1);
}

/** Does the candidate's param change the value of either operand? */
function dependsOn(ctx: RuleContext, d: Division, sc: Scenario): boolean {
  const v = ctx.scenarios;
  return v.evaluate(d.left, sc) !== v.evaluate(d.left) || v.evaluate(d.right, sc) !== v.evaluate(d.right);
}

/** `M = 100`, `32`, `BM = 96 (a candidate of BM)`. */
function side(ctx: RuleContext, e: ast.Expr, v: bigint, sc: Scenario): { text: string; isCandidate: boolean } {
  const p = e.kind === 'Name' ? paramOf(ctx, e) : undefined;
  const isCandidate = p !== undefined && sc.changed.has(p);
  if (e.kind === 'Int') return { text: `${v}`, isCandidate: false };
  const src = textOf(ctx.text, e).replace(/\s+/g, ' ');
  return { text: isCandidate ? `${src} = ${v} (a candidate of ${src})` : `${src} = ${v}`, isCandidate };
}

function message(ctx: RuleContext, b: ast.Binary, a: bigint, d: bigint, sc: Scenario): string {
  const l = side(ctx, b.left, a, sc);
  const r = side(ctx, b.right, d, sc);
  // the candidates not already named by a side
  const shown = new Set([b.left, b.right].map((e) => (e.kind === 'Name' ? paramOf(ctx, e) : undefined)));
  const rest = [...sc.changed].filter(([p]) => !shown.has(p));
  const when = rest.length === 0 ? ''
    : rest.length === 1 ? ` when ${rest[0][0]} = ${rest[0][1].value} (a candidate of ${rest[0][0]})`
    : ` when ${rest.map(([p, c]) => `${p} = ${c.value}`).join(' and ')} (tuning candidates)`;
  return `${r.text} does not divide ${l.text}${when}`;
}

function paramOf(ctx: RuleContext, n: ast.NameRef): string | undefined {
  const def = ctx.resolution.refs.get(n);
  return def && (def.kind === 'param' || def.kind === 'const') ? def.name : undefined;
}

// ------------------------------------------------------------------ use a dividing size

/** The nearest divisors of `a` below and above `b` (excluding `skip`), within SEARCH steps. */
export function nearestDivisors(a: bigint, b: bigint, skip: ReadonlySet<bigint> = new Set()): bigint[] {
  const out: bigint[] = [];
  for (let d = b - 1n, n = 0; d >= 1n && n < SEARCH; d--, n++) {
    if (a % d === 0n && !skip.has(d)) { out.push(d); break; }
  }
  for (let d = b + 1n, n = 0; d <= a && n < SEARCH; d++, n++) {
    if (a % d === 0n && !skip.has(d)) { out.push(d); break; }
  }
  return out;
}

function dividingFixes(ctx: RuleContext, b: ast.Binary, tileBy: TileByItem, a: bigint, d: bigint, sc: Scenario): Fix[] {
  // which literal holds the divisor's value in this scenario
  let literal: ast.IntLit | undefined;
  let skip = new Set<bigint>();
  const r = b.right;
  if (r.kind === 'Int') literal = r;
  else if (r.kind === 'Name') {
    const p = paramOf(ctx, r);
    const c = p !== undefined ? sc.changed.get(p) : undefined;
    if (p !== undefined && c) {
      if (c.node.kind === 'Int') literal = c.node;
      skip = candidateValues(ctx, p);
    } else if (p !== undefined && sc.changed.size === 0) {
      const item = paramItem(ctx, p);
      if (item?.value.kind === 'Int') literal = item.value;
    }
  }
  if (!literal) return [];
  // the same literal repeated in the inner levels of a TileBy is the tile size: change it too
  const twins: ast.IntLit[] = [];
  if (tileBy && r.kind === 'Int') {
    for (const lv of levelsOf(tileBy.call).slice(1)) {
      const it = itemsOf(lv)?.[tileBy.dim];
      if (it?.kind === 'Int' && it.value === r.value) twins.push(it);
    }
  }
  const left = side(ctx, b.left, a, sc).text;
  return nearestDivisors(a, d, skip).map((v) => ({
    title: `Use ${v}, which divides ${left}`,
    edits: [literal!, ...twins].map((n) => ({ range: n.range, newText: `${v}` })),
  }));
}

/** Every value in the candidate list of `param` (so a replacement never repeats one). */
function candidateValues(ctx: RuleContext, param: string): Set<bigint> {
  return new Set(ctx.model.params.get(param)?.candidates ?? []);
}

function paramItem(ctx: RuleContext, name: string): ast.ParamItem | undefined {
  return ctx.model.params.get(name)?.item;
}

// ------------------------------------------------------------------ wrap in ExpandBy

/**
 * For `OrderBy(Row(D0, D1)).TileBy([D0/T0, D1/T1], [T0, T1])` with T0 not dividing D0: tile the
 * padded extent, `Row((D0 + T0 - 1)//T0*T0, D1)`, with `[(D0 + T0 - 1)//T0, ...]` tiles, and
 * wrap: `ExpandBy(<that>, [D0, D1])`. Every non-dividing outer division of the TileBy is padded.
 */
function expandFix(ctx: RuleContext, tileBy: TileByItem, sc: Scenario): Fix[] {
  if (!tileBy) return [];
  const call = tileBy.call;
  const levels = levelsOf(call);
  const recv = call.kind === 'MethodCall' ? call.receiver : call.args[0];
  if (recv.kind !== 'Call' || !isConstructorCall(recv, 'OrderBy', ctx.resolution) || recv.args.length !== 1) return [];
  const block = recv.args[0];
  if (block.kind !== 'Call' || !(isConstructorCall(block, 'Row', ctx.resolution) || isConstructorCall(block, 'Col', ctx.resolution))) return [];
  const level0 = itemsOf(levels[0]);
  if (!level0 || level0.length !== block.args.length) return [];
  const edits: Fix['edits'] = [];
  const padded: string[] = [];
  level0.forEach((item, k) => {
    if (item.kind !== 'Binary' || item.op !== '/') return;
    const a = ctx.scenarios.value(item.left, sc);
    const b = ctx.scenarios.value(item.right, sc);
    if (a === undefined || b === undefined || a <= 0n || b <= 0n || a % b === 0n) return;
    const dimText = textOf(ctx.text, block.args[k]);
    if (textOf(ctx.text, item.left) !== dimText) return;
    // the inner levels must multiply to the divisor, or the padded space is not tiled exactly
    let inner = 1n;
    for (const lv of levels.slice(1)) {
      const it = itemsOf(lv)?.[k];
      const v = it ? ctx.scenarios.value(it, sc) : undefined;
      if (v === undefined) return;
      inner *= v;
    }
    if (inner !== b) return;
    const left = wrap(item.left, dimText);
    const right = wrap(item.right, textOf(ctx.text, item.right));
    const tiles = item.right.kind === 'Int' ? `(${left} + ${b - 1n})//${right}` : `(${left} + ${right} - 1)//${right}`;
    edits.push({ range: block.args[k].range, newText: `${tiles}*${right}` });
    edits.push({ range: item.range, newText: tiles });
    padded.push(`${dimText} to ${((a + b - 1n) / b) * b}`);
  });
  if (edits.length === 0) return [];
  const original = block.args.map((d) => textOf(ctx.text, d)).join(', ');
  edits.unshift({ range: { start: call.range.start, end: call.range.start }, newText: 'ExpandBy(' });
  edits.push({ range: { start: call.range.end, end: call.range.end }, newText: `, [${original}])` });
  edits.sort((x, y) => x.range.start - y.range.start || x.range.end - y.range.end);
  return [{ title: `Wrap in ExpandBy (pad ${padded.join(', ')})`, edits }];
}

/** Parenthesises an operand unless it is a name, a literal or already bracketed. */
function wrap(e: ast.Expr, text: string): string {
  return e.kind === 'Name' || e.kind === 'Int' || e.kind === 'Call' ? text : `(${text})`;
}
