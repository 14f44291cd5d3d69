// regp/not-a-permutation: the permutation of a `RegP(dims, perm)` must be a permutation of
// 0..d-1, d the number of dims. LEGO's paper prints permutations 1-based (σ = [1, 3, 2, 4]);
// when the list is exactly a permutation of 1..d the message says so and a fix converts it.
import type { ast, Diagnostic, Fix } from '../../../../grammar/src/index.js';
import type { RuleContext } from './types.js';
import { expressions, fmtList, isConstructorCall, itemsOf } from './walk.js';

export function checkRegP(ctx: RuleContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  // only declarations whose text holds `RegP` can call it (no walk of the others' expressions)
  const withRegP = ctx.decls.filter((d) => ctx.text.slice(d.range.start, d.range.end).includes('RegP'));
  for (const e of withRegP.flatMap((d) => expressions(d))) {
    if (e.kind !== 'Call' || !isConstructorCall(e, 'RegP', ctx.resolution) || e.args.length < 2) continue;
    const permNode = e.args[1];
    const items = itemsOf(permNode);
    if (!items) continue;
    const values: bigint[] = [];
    for (const it of items) {
      const v = ctx.scenarios.value(it);
      if (v === undefined) break;
      values.push(v);
    }
    if (values.length !== items.length) continue; // not evaluable: the elaborator says why
    const dims = itemsOf(e.args[0]);
    const d = dims ? dims.length : values.length;
    const problem = describeProblem(values, d);
    if (!problem) continue;
    const diag: Diagnostic = { code: 'regp/not-a-permutation', severity: 'error', message: '', range: permNode.range };
    if (values.length === d && isPermOf(values, 1)) {
      const zero = values.map((v) => v - 1n);
      diag.message = `${fmtList(values)} looks 1-based (as printed in the LEGO paper); RegP permutations are 0-based`;
      diag.fixes = [toZeroBased(items, zero, permNode)];
    } else {
      diag.message = `${fmtList(values)} is not a permutation of 0..${d - 1}: ${problem}`;
    }
    out.push(diag);
  }
  return out;
}

/** Why `p` is not a permutation of 0..d-1, or undefined when it is. */
function describeProblem(p: readonly bigint[], d: number): string | undefined {
  if (p.length !== d) return `it has ${p.length} ${p.length === 1 ? 'entry' : 'entries'} for ${d} ${d === 1 ? 'dim' : 'dims'}`;
  const parts: string[] = [];
  const count = new Map<bigint, number>();
  for (const v of p) count.set(v, (count.get(v) ?? 0) + 1);
  const outside = [...new Set(p.filter((v) => v < 0n || v >= BigInt(d)))];
  if (outside.length) parts.push(`${outside.join(', ')} ${outside.length === 1 ? 'is' : 'are'} out of range`);
  for (const [v, n] of count) if (n > 1 && v >= 0n && v < BigInt(d)) parts.push(`${v} appears ${n === 2 ? 'twice' : `${n} times`}`);
  const missing: bigint[] = [];
  for (let k = 0n; k < BigInt(d); k++) if (!count.has(k)) missing.push(k);
  if (missing.length) parts.push(`${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing`);
  return parts.length ? parts.join(', ') : undefined;
}

function isPermOf(p: readonly bigint[], base: bigint | number): boolean {
  const b = BigInt(base);
  const seen = new Set<bigint>();
  for (const v of p) {
    if (v < b || v >= b + BigInt(p.length) || seen.has(v)) return false;
    seen.add(v);
  }
  return true;
}

/** Rewrites each integer literal in place (keeping the user's spacing); the whole list otherwise. */
function toZeroBased(items: readonly ast.Expr[], zero: readonly bigint[], list: ast.Expr): Fix {
  const title = `Convert to 0-based: ${fmtList(zero)}`;
  if (items.every((it) => it.kind === 'Int')) {
    return { title, edits: items.map((it, i) => ({ range: it.range, newText: String(zero[i]) })) };
  }
  const [open, close] = list.kind === 'Tuple' ? ['(', ')'] : ['[', ']'];
  return { title, edits: [{ range: list.range, newText: `${open}${zero.join(', ')}${close}` }] };
}
