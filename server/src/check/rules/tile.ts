// tile/not-divisible: a size division `a / b` whose divisor does not divide the dividend, at the
// params' values and at each tuning candidate (one param varied at a time).
//
// Sizes are the values of params, lets and layouts; there `/` means an exact division (LEGO's
// `M/BM` is a rational, meaningful only when BM divides M) and `//` an intended floor division,
// which is never reported. Divisions inside `min(...)`/`max(...)` are clamps, not reported either.
// Fixes: "use a dividing size" (the nearest dividing values below and above the divisor, when
// the divisor is a literal or a param, or the candidate, written as a literal) and, for a
// division in the outermost level of `OrderBy(Row|Col(...)).TileBy(...)`, "wrap in ExpandBy":
// round the tiled extents up, tile the padded space and keep the original shape as ExpandBy's.
import type { ast, Diagnostic, Fix } from '../../../../grammar/src/index.js';
import type { RuleContext } from './types.js';
import type { Scenario } from './values.js';
import { isConstructorCall, itemsOf, textOf } from './walk.js';

/** How far a dividing size is searched for on each side of the current divisor. */
const SEARCH = 100_000;

export function checkTiles(ctx: RuleContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { division, tileBy } of sizeDivisions(ctx)) {
    for (const sc of ctx.values.scenariosFor([division.left, division.right])) {
      const a = ctx.values.value(division.left, sc);
      const b = ctx.values.value(division.right, sc);
      if (a === undefined || b === undefined || a <= 0n || b <= 0n || a % b === 0n) continue;
      // a candidate that changes nothing here repeats the params' diagnostic: skip it
      if (sc.candidate && !dependsOn(ctx, division, sc)) continue;
      out.push({
        code: 'tile/not-divisible',
        severity: 'error',
        message: message(ctx, division, a, b, sc),
        range: division.range,
        ...(sc.candidate ? { related: [{ message: `the candidate ${sc.candidate.value} of ${sc.candidate.param}`, range: sc.candidate.node.range }] } : {}),
        fixes: [...dividingFixes(ctx, division, tileBy, a, b, sc), ...expandFix(ctx, tileBy, sc)],
      });
    }
  }
  return out;
}

interface SizeDivision {
  division: ast.Binary;
  /** set when the division is an item of the outermost level of this TileBy */
  tileBy?: { call: ast.MethodCall; dim: number };
}

/** Every `/` of a param, let or layout value, outside min/max and query indices. */
function sizeDivisions(ctx: RuleContext): SizeDivision[] {
  const out: SizeDivision[] = [];
  const walk = (e: ast.Expr | ast.Slice): void => {
    switch (e.kind) {
      case 'Binary':
        if (e.op === '/' && !ctx.values.isFloorOp(e)) out.push({ division: e });
        walk(e.left);
        walk(e.right);
        return;
      case 'Unary': walk(e.operand); return;
      case 'If': walk(e.cond); walk(e.then); walk(e.else); return;
      case 'List': case 'Tuple': e.items.forEach(walk); return;
      case 'Call': {
        const def = ctx.resolution.refs.get(e.callee);
        if (def?.kind === 'function') return; // min/max clamp
        if (def?.kind === 'constructor') e.args.forEach(walk);
        return;
      }
      case 'MethodCall': {
        walk(e.receiver);
        if (e.method.name === 'inv' || e.method.name === 'apply') return;
        const first = out.length;
        e.args.forEach(walk);
        if (e.method.name === 'TileBy') {
          const level0 = itemsOf(e.args[0]) ?? [];
          for (const d of out.slice(first)) {
            const k = level0.indexOf(d.division);
            if (k >= 0) d.tileBy = { call: e, dim: k };
          }
        }
        return;
      }
      default: return; // names, literals, queries, errors
    }
  };
  for (const d of ctx.decls) {
    if (d.kind === 'Param') for (const it of d.items) walk(it.value);
    else if (d.kind === 'Let' || d.kind === 'Layout') walk(d.value);
  }
  return out;
}

/** Does the candidate's param change the value of either operand? */
function dependsOn(ctx: RuleContext, b: ast.Binary, sc: Scenario): boolean {
  const v = ctx.values;
  return v.value(b.left, sc) !== v.value(b.left, v.base) || v.value(b.right, sc) !== v.value(b.right, v.base);
}

/** `M = 100`, `32`, `BM = 96 (a candidate of BM)`. */
function side(ctx: RuleContext, e: ast.Expr, v: bigint, sc: Scenario): { text: string; isCandidate: boolean } {
  const isCandidate = sc.candidate !== undefined && e.kind === 'Name' && paramOf(ctx, e) === sc.candidate.param;
  if (e.kind === 'Int') return { text: `${v}`, isCandidate: false };
  const src = textOf(ctx.text, e).replace(/\s+/g, ' ');
  return { text: isCandidate ? `${src} = ${v} (a candidate of ${src})` : `${src} = ${v}`, isCandidate };
}

function message(ctx: RuleContext, b: ast.Binary, a: bigint, d: bigint, sc: Scenario): string {
  const l = side(ctx, b.left, a, sc);
  const r = side(ctx, b.right, d, sc);
  const when = sc.candidate && !l.isCandidate && !r.isCandidate
    ? ` when ${sc.candidate.param} = ${sc.candidate.value} (a candidate of ${sc.candidate.param})`
    : '';
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

function dividingFixes(ctx: RuleContext, b: ast.Binary, tileBy: SizeDivision['tileBy'], a: bigint, d: bigint, sc: Scenario): Fix[] {
  // which literal holds the divisor's value in this scenario
  let literal: ast.IntLit | undefined;
  let skip = new Set<bigint>();
  const r = b.right;
  if (r.kind === 'Int') literal = r;
  else if (r.kind === 'Name') {
    const p = paramOf(ctx, r);
    if (p !== undefined && sc.candidate?.param === p) {
      if (sc.candidate.node.kind === 'Int') literal = sc.candidate.node;
      skip = candidateValues(ctx, p);
    } else if (p !== undefined && !sc.candidate) {
      const item = paramItem(ctx, p);
      if (item?.value.kind === 'Int') literal = item.value;
    }
  }
  if (!literal) return [];
  // the same literal repeated in the inner levels of a TileBy is the tile size: change it too
  const twins: ast.IntLit[] = [];
  if (tileBy && r.kind === 'Int') {
    for (const lv of tileBy.call.args.slice(1)) {
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
  const out = new Set<bigint>();
  for (const c of paramItem(ctx, param)?.candidates?.items ?? []) {
    const v = ctx.values.value(c, ctx.values.base);
    if (v !== undefined) out.add(v);
  }
  return out;
}

function paramItem(ctx: RuleContext, name: string): ast.ParamItem | undefined {
  return ctx.index.paramItem(name);
}

// ------------------------------------------------------------------ wrap in ExpandBy

/**
 * For `OrderBy(Row(D0, D1)).TileBy([D0/T0, D1/T1], [T0, T1])` with T0 not dividing D0: tile the
 * padded extent, `Row((D0 + T0 - 1)//T0*T0, D1)`, with `[(D0 + T0 - 1)//T0, ...]` tiles, and
 * wrap: `ExpandBy(<that>, [D0, D1])`. Every non-dividing outer division of the TileBy is padded.
 */
function expandFix(ctx: RuleContext, tileBy: SizeDivision['tileBy'], sc: Scenario): Fix[] {
  if (!tileBy) return [];
  const call = tileBy.call;
  const recv = call.receiver;
  if (recv.kind !== 'Call' || !isConstructorCall(recv, 'OrderBy', ctx.resolution) || recv.args.length !== 1) return [];
  const block = recv.args[0];
  if (block.kind !== 'Call' || !(isConstructorCall(block, 'Row', ctx.resolution) || isConstructorCall(block, 'Col', ctx.resolution))) return [];
  const level0 = itemsOf(call.args[0]);
  if (!level0 || level0.length !== block.args.length) return [];
  const edits: Fix['edits'] = [];
  const padded: string[] = [];
  level0.forEach((item, k) => {
    if (item.kind !== 'Binary' || item.op !== '/' || ctx.values.isFloorOp(item)) return;
    const a = ctx.values.value(item.left, sc);
    const b = ctx.values.value(item.right, sc);
    if (a === undefined || b === undefined || a <= 0n || b <= 0n || a % b === 0n) return;
    const dimText = textOf(ctx.text, block.args[k]);
    if (textOf(ctx.text, item.left) !== dimText) return;
    // the inner levels must multiply to the divisor, or the padded space is not tiled exactly
    let inner = 1n;
    for (const lv of call.args.slice(1)) {
      const it = itemsOf(lv)?.[k];
      const v = it ? ctx.values.value(it, sc) : undefined;
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
