// lego/mutated-receiver: LEGO's Python parity warning. In LEGO, `Y = X.OrderBy(B)` appends B to
// X's own chain and returns X (the method mutates its receiver), so a later `X.GroupBy(...)`
// (or any later use of X) includes B. Here layouts are values: X is unchanged. Pasted LEGO code
// that relies on the mutation silently computes something else, so every use of a layout X
// after an `X.OrderBy(...)` chain is reported, with a quick fix that writes the chain out
// (X's value followed by the `.OrderBy(B)` chain in place of `X`: LEGO's value of X at that point,
// written so that it extends nothing itself). A syntactic rule over the
// whole file (uses are in source order, as LEGO's statements run), from per-declaration summaries
// (the extensions and layout uses of each) kept while a declaration resolves the same way.
import type { ast, Diagnostic } from '../../../../grammar/src/index.js';
import { children } from '../../../../grammar/src/ast.js';
import type { Definition, Resolution } from '../../../../grammar/src/resolve.js';
import type { RuleContext } from './types.js';

interface Extension {
  /** the outermost `.OrderBy(...)` of the chain rooted at the layout's name */
  outer: ast.MethodCall;
  root: ast.NameRef;
  /** the chain's text after the name: `.OrderBy(B).OrderBy(C)` */
  suffix: string;
}

/** the name at the root of a chain of `.OrderBy(...)` calls, or undefined */
function chainRoot(m: ast.MethodCall): ast.NameRef | undefined {
  let r: ast.Expr = m;
  while (r.kind === 'MethodCall' && r.method.name === 'OrderBy') r = r.receiver;
  return r.kind === 'Name' ? r : undefined;
}

function lineOf(text: string, offset: number): number {
  let n = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** One declaration's part: the extensions it makes, and (asked only when a file has extensions) the uses of layouts in it. */
interface Summary {
  exts: { def: Definition; ext: Extension }[];
  uses?: { def: Definition; node: ast.NameRef }[];
}

/**
 * Per declaration resolution unit (`Resolution.unitOf`): the same object in the next version while the
 * declaration and what its names mean are unchanged, so an edit walks only the declarations it touched.
 */
const summaries = new WeakMap<object, Summary>();

function layoutDef(resolution: Resolution, n: ast.NameRef): Definition | undefined {
  const def = resolution.refs.get(n);
  return def && def.kind === 'layout' ? def : undefined;
}

function summaryOf(d: ast.Decl, key: object | undefined, resolution: Resolution, text: string): Summary {
  const kept = key && summaries.get(key);
  if (kept) return kept;
  const out: Summary = { exts: mayCallOrderBy(d, text) ? extensionsIn(d, resolution, text) : [] };
  if (key) summaries.set(key, out);
  return out;
}

/**
 * Can `d` hold a `.OrderBy(...)` call: its text has `OrderBy` after a `.` (white space between), or
 * a comment (which may stand between the two). Most declarations cannot, and are not walked.
 */
function mayCallOrderBy(d: ast.Decl, text: string): boolean {
  // (searched in the declaration's own text: a search of the file from its start could run to the end, for each declaration)
  const src = text.slice(d.range.start, d.range.end);
  if (src.includes('#')) return true;
  for (let i = src.indexOf('OrderBy'); i >= 0; i = src.indexOf('OrderBy', i + 7)) {
    let j = i - 1;
    while (j > 0 && /\s/.test(src[j])) j--;
    if (src[j] === '.') return true;
  }
  return false;
}

/** the `.OrderBy(...)` chains rooted at a layout's name in `d`, outermost call of each */
function extensionsIn(d: ast.Decl, resolution: Resolution, text: string): Summary['exts'] {
  const out: Summary['exts'] = [];
  const walk = (n: ast.AnyNode): void => {
    if (n.kind === 'MethodCall' && n.method.name === 'OrderBy') {
      const root = chainRoot(n);
      const def = root && layoutDef(resolution, root);
      if (root && def) {
        out.push({ def, ext: { outer: n, root, suffix: text.slice(root.range.end, n.range.end) } });
        // the chain's receivers are part of this extension; its arguments may hold more
        for (let r: ast.Expr = n; r.kind === 'MethodCall' && r.method.name === 'OrderBy'; r = r.receiver) r.args.forEach(walk);
        return;
      }
    }
    for (const c of children(n)) walk(c);
  };
  walk(d);
  return out;
}

/** the uses of layouts in `d` (every name that means a layout) */
function usesIn(s: Summary, d: ast.Decl, resolution: Resolution): NonNullable<Summary['uses']> {
  if (s.uses) return s.uses;
  const out: NonNullable<Summary['uses']> = [];
  const walk = (n: ast.AnyNode): void => {
    if (n.kind === 'Name') {
      const def = layoutDef(resolution, n);
      if (def) out.push({ def, node: n });
      return;
    }
    for (const c of children(n)) walk(c);
  };
  walk(d);
  s.uses = out;
  return out;
}

/**
 * The summaries of the last file checked, by its units, and how many extensions they make in all:
 * the next version's declarations with the same units (an edit keeps all but those it touched, at
 * the file's start and end) take theirs without a lookup, and a file that makes none (most) is
 * answered without a walk over its declarations. (It holds one file's units until the next check:
 * the rule runs in the analysis worker, which keeps its documents' analyses anyway.)
 */
let lastRun: { units: readonly object[]; sums: Summary[]; extensions: number } | undefined;

/** the summaries of `file`'s declarations (by their units when there is one per declaration), and their extensions in all */
function summariesOf(file: ast.File, resolution: Resolution, text: string): { sums: Summary[]; extensions: number } {
  const units = resolution.units();
  if (units.length !== file.decls.length) {
    const sums = file.decls.map((d) => summaryOf(d, resolution.unitOf(d), resolution, text));
    lastRun = undefined;
    return { sums, extensions: sums.reduce((n, x) => n + x.exts.length, 0) };
  }
  // the declarations the last file had at its start and end, by their units, keep their summaries
  const was = lastRun ?? { units: [], sums: [], extensions: 0 };
  const n = units.length;
  const m = was.units.length;
  let head = 0;
  let tail = 0;
  while (head < n && head < m && units[head] === was.units[head]) head++;
  while (tail < n - head && tail < m - head && units[n - 1 - tail] === was.units[m - 1 - tail]) tail++;
  let extensions = was.extensions;
  for (let j = head; j < m - tail; j++) extensions -= was.sums[j].exts.length;
  const middle: Summary[] = [];
  for (let j = head; j < n - tail; j++) {
    const x = summaryOf(file.decls[j], units[j], resolution, text);
    extensions += x.exts.length;
    middle.push(x);
  }
  const sums = was.sums.slice(0, head).concat(middle, was.sums.slice(m - tail));
  lastRun = { units, sums, extensions };
  return { sums, extensions };
}

export function checkLegoMutation(ctx: RuleContext): Diagnostic[] {
  const { file, resolution, text } = ctx;
  const { sums, extensions } = summariesOf(file, resolution, text);
  if (extensions === 0) return [];
  const exts = new Map<Definition, Extension[]>();
  for (const s of sums) for (const { def, ext } of s.exts) (exts.get(def) ?? exts.set(def, []).get(def)!).push(ext);
  if (exts.size === 0) return [];
  const uses = new Map<Definition, ast.NameRef[]>();
  sums.forEach((s, j) => {
    for (const { def, node } of usesIn(s, file.decls[j], resolution)) if (exts.has(def)) (uses.get(def) ?? uses.set(def, []).get(def)!).push(node);
  });
  const only = ctx.decls === file.decls ? undefined : new Set<ast.Decl>(ctx.decls);
  const inChecked = (n: ast.Node): boolean => !only || ctx.decls.some((d) => n.range.start >= d.range.start && n.range.end <= d.range.end);
  const out: Diagnostic[] = [];
  for (const [def, list] of exts) {
    list.sort((a, b) => a.outer.range.start - b.outer.range.start);
    for (const use of uses.get(def) ?? []) {
      const before = list.filter((e) => e.outer.range.end <= use.range.start);
      if (before.length === 0 || !inChecked(use)) continue;
          const suffixes = before.map((e) => e.suffix).join('');
      const chain = def.name + suffixes;
      // the fix starts from X's own value, so that the new text is no extension of X itself
      const value = def.decl?.kind === 'Layout' ? def.decl.value : undefined;
      const base = value ? text.slice(value.range.start, value.range.end) : def.name;
      const bare = !value || value.kind === 'Call' || value.kind === 'MethodCall' || value.kind === 'Name';
      const explicit = (bare ? base : `(${base})`) + suffixes;
      out.push({
        code: 'lego/mutated-receiver',
        severity: 'warning',
        message: `in LEGO's Python, .OrderBy(...) mutates its receiver: after line ${lineOf(text, before[before.length - 1].outer.range.start)}, ${def.name} is ${chain}; here ${def.name} is unchanged (layouts are values)`,
        range: use.range,
        related: before.map((e) => ({ message: `${def.name} extended here (LEGO mutates the receiver of .OrderBy)`, range: e.outer.range })),
        fixes: [{ title: `Write LEGO's value of ${def.name} out: ${explicit}`, edits: [{ range: use.range, newText: explicit }] }],
      });
    }
  }
  return out.sort((a, b) => a.range.start - b.range.start);
}
