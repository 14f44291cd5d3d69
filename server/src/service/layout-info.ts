// Layouts and queries as values, for hovers, inlay hints and the picture view, through the
// elaborator (elaboration.ts: the document's model, per declaration and version) and its query
// API (check/elaborate-query.ts): a query's text is exactly what `layout expr FILE QUERY --lang L`
// prints for it (lets by name; the emitted kernel inlines them unless its template defines them),
// with its operation count; numeric tables come from the params' values.
import type * as ast from '../../../grammar/src/ast.js';
import * as A from '../algebra/index.js';
import * as X from '../expr/index.js';
import { printExprs, queryExpr, type Lang, type Model } from '../check/elaborate.js';
import { findBuiltin } from '../codegen/builtins.js';
import type { LayoutDocument } from './document.js';
import { declAt } from './document.js';
import { errorIn, modelOfDecl, modelsKept } from './elaboration.js';
import { acrossVersions, alsoKept, cached, fresh, type Computed } from './hover-cache.js';
import { hasLinearDecls, legoLinearFacts } from './linear-hover.js';
import type { HoverLanguage, Settings } from './settings.js';
import type { SymbolDef } from './symbols.js';


export type LayoutValue = { ok: true; layout: A.Layout; model: Model } | { ok: false; message: string };

/** The algebra value of the layout declared as `name`, with the model it was elaborated in. */
export function layoutNamed(doc: LayoutDocument, name: string): LayoutValue | undefined {
  const def = doc.symbols.global(name);
  if (!def || def.kind !== 'layout' || def.container?.kind !== 'Layout') return undefined;
  const decl = def.container as ast.LayoutDecl;
  const dm = modelOfDecl(doc, decl);
  const L = dm.model.layouts.get(name)?.layout;
  if (L && dm.model.layouts.get(name)?.decl === decl) return { ok: true, layout: L, model: dm.model };
  const why = errorIn(dm, decl.range) ?? dm.diagnostics.find((d) => d.severity === 'error');
  return { ok: false, message: why ? why.message : 'the layout cannot be built' };
}

/** The symbolic context of queries in `model` (as queryExpr builds it). */
export function symContext(model: Model): A.SymContext {
  return { env: model.env, defs: model.defs };
}

/** Names for the logical coordinates that no declaration of the file uses. */
export function coordinateNames(doc: LayoutDocument, L: A.Layout): string[] {
  return coordinateBases(L).map((n) => fresh(doc, n));
}

/** The names `coordinateNames` starts from (before adding `_` to those that the file declares). */
function coordinateBases(L: A.Layout): string[] {
  const rank = A.dims(L).length;
  return rank === 1 ? ['i'] : rank === 2 ? ['i', 'j'] : rank === 3 ? ['i', 'j', 'k']
    : L.kind === 'TileBy' && rank === 4 ? ['ti', 'tj', 'i', 'j'] : Array.from({ length: rank }, (_, k) => `i${k}`);
}


const classes: Record<A.LayoutClass, string> = {
  affine: 'affine (a linear combination of the coordinates)',
  piecewise: 'piecewise (div/mod at tile borders)',
  'user-genp': 'with a user permutation (GenP)',
};

/**
 * The hover of a layout name: its value, shape, class, apply and inv expressions, a table, the
 * number of uses, then its F2 facts (linear-hover.ts); undefined when `def` is no layout the model
 * knows. Kept per version, and (but for the number of uses) across versions: see `acrossVersions`.
 */
export function layoutHover(doc: LayoutDocument, def: SymbolDef, settings: Settings): string | undefined {
  return cached(doc, `L:${def.name}:${settings.hover.language}`, () => {
    const decl = def.container;
    // with `linear` declarations in the file, the F2 facts come from the whole file's model: not kept across versions
    const linear = hasLinearDecls(doc);
    const compute = (): Computed | undefined => {
      const c = computeLayoutHover(doc, def, settings);
      if (c && !linear) c.f2 = legoLinearFacts(doc, def.name);
      return c;
    };
    // only the first declaration of a name is the model's: its texts are decided by its closure
    const r = decl?.kind === 'Layout' && doc.symbols.global(def.name) === def
      ? acrossVersions(doc, decl, `L:${settings.hover.language}:${linear}`, compute)
      : compute();
    if (!r) return undefined;
    const f2 = linear ? legoLinearFacts(doc, def.name) : r.f2;
    const text = r.uses ? `${r.text}\n\n${usesLine(doc.symbols.usesOf(def).length)}` : r.text;
    return f2 ? `${text}\n\n${f2}` : text;
  });
}

function usesLine(uses: number): string {
  return `${uses} use${uses === 1 ? '' : 's'} in this file`;
}

/** The layout's hover but its last line (the number of uses, when `uses`). */
function computeLayoutHover(doc: LayoutDocument, def: SymbolDef, settings: Settings): Computed | undefined {
  const r = layoutNamed(doc, def.name);
  if (!r) return undefined;
  const decl = def.container as ast.LayoutDecl;
  const lines = [`**layout** \`${def.name}\` = \`${oneLine(doc.text.slice(decl.value.range.start, decl.value.range.end))}\``];
  if (!r.ok) {
    lines.push('', `cannot be evaluated: ${r.message}`);
    return { text: lines.join('\n'), keep: false, fresh: [] };
  }
  const L = r.layout;
  const env = r.model.env;
  const ctx = symContext(r.model);
  const ds = A.dims(L);
  const values = safe(() => ds.map((d) => A.evalDim(d, env)));
  const lang = settings.hover.language;
  const symbolic = ds.map((d) => printOne(d, lang === 'mlir' ? 'python' : lang));
  const cls = safe(() => A.classify(L));
  lines.push('');
  // the symbolic dims when they read well (short), then their values at the params' values
  const readable = symbolic.every((x) => x.length <= 24);
  const shown = values ? `[${values.join(', ')}]` : `[${symbolic.join(', ')}]`;
  lines.push(`logical shape: ${readable && values && symbolic.some((x, k) => x !== String(values[k])) ? `\`[${symbolic.join(', ')}]\` = ` : ''}${shown}`);
  if (values) {
    const total = values.reduce((a, b) => a * b, 1);
    const ext = safe(() => A.evalDim(A.extent(L), env));
    lines.push('', `size: ${total} elements${ext !== undefined && ext !== total ? ` (${ext} physical)` : ''}`);
  }
  if (cls) lines.push('', `class: ${classes[cls]}`);
  // apply and inv are the queries `L[names]` and `L.inv(x)`, printed as `layout expr` prints them
  const names = coordinateNames(doc, L);
  const applied = symbolicOnce(`apply ${names.join(',')}`, L, ctx, () => [A.applySym(L, names, ctx)]);
  if (!applied.ok) lines.push('', `apply cannot be computed: ${applied.message}`);
  else lines.push('', ...exprsBlock(`apply \`${def.name}[${names.join(', ')}]\``, applied.value, [], lang));
  const x = fresh(doc, 'x');
  const inverse = symbolicOnce(`inv ${x}`, L, ctx, () => A.invSym(L, x, ctx));
  const inv = inverse.ok ? inverse.value : undefined;
  if (inv) lines.push('', ...exprsBlock(`inv \`${def.name}.inv(${x})\``, inv, names, lang));
  const lets = letsIn([...(applied.ok ? applied.value : []), ...(inv ?? [])], r.model);
  if (lets.length) lines.push('', letsNote(lets));
  const table = values ? safe(() => tableOf(L, env, values)) : undefined;
  if (table) lines.push('', `positions at the params' values (rows: ${table.rowsLabel}, columns: ${table.colsLabel}):`, '', table.markdown);
  const bases = [...coordinateBases(L), 'x'];
  return { text: lines.join('\n'), keep: true, uses: true, fresh: [...names, x].map((n, k): [string, string] => [bases[k], n]) };
}

type Attempt = { ok: true; value: X.Expr[] } | { ok: false; message: string };

/**
 * A layout hover's apply and inv, kept across versions by what decides them (at most
 * `SYMBOLIC_KEPT`, the oldest dropped): the layout's structure (`A.structureKey`), the query
 * (`what`: its coordinate names) and, in `ctx`, the values and let definitions of the symbols the
 * layout names and of those the definitions name. The symbolic walk and the simplifier read nothing
 * else of `ctx` (it is `symContext`'s: no stated ranges or relations). A layout elaborated again to
 * the same value (an edit elsewhere in its declarations: another param's value) is then not
 * simplified again. A layout with a GenP is computed every time.
 */
function symbolicOnce(what: string, L: A.Layout, ctx: A.SymContext, compute: () => X.Expr[]): Attempt {
  const structure = A.structureKey(L);
  if (!symbolicOn() || structure === undefined || ctx.ranges || ctx.relations || ctx.divisibility || ctx.raw || ctx.budget !== undefined) return attempt(compute);
  const names = A.structureSymbols(L);
  for (const n of names) {
    const d = ctx.defs?.get(n);
    if (d) for (const m of X.freeSymbols(d)) names.add(m);
  }
  const inputs = [...names].sort().map((n) => [n, ctx.env?.get(n)?.toString() ?? null, ctx.defs?.has(n) ? A.exprKey(ctx.defs.get(n)!) : null]);
  // the walk names its placeholders `_iN_` avoiding every name the definitions use
  const taken: string[] = [];
  for (const [n, d] of ctx.defs ?? []) for (const m of [n, ...X.freeSymbols(d)]) if (PLACEHOLDER.test(m)) taken.push(m);
  const key = JSON.stringify([what, structure, inputs, ctx.env ? 1 : 0, ctx.defs ? 1 : 0, taken.sort()]);
  let r = symbolicKept.get(key);
  if (r) {
    symbolicStats.hits++;
    symbolicKept.delete(key); // most recently used last
  } else {
    symbolicStats.misses++;
    r = attempt(compute);
    if (!modelsKept()) return r; // work ahead of requests: not kept (elaboration.ts `transientModels`)
    if (symbolicKept.size >= SYMBOLIC_KEPT) symbolicKept.delete(symbolicKept.keys().next().value!);
  }
  symbolicKept.set(key, r);
  return r;
}

const symbolicKept = new Map<string, Attempt>();
const symbolicStats = { hits: 0, misses: 0 };
const symbolicOn = alsoKept(() => symbolicKept.clear());

/** Layout hovers' apply and inv answered from `symbolicOnce`'s results, and the others (for tests). */
export function symbolicKeptStats(): { hits: number; misses: number; entries: number } {
  return { ...symbolicStats, entries: symbolicKept.size };
}
const PLACEHOLDER = /^_i\d+_$/;
const SYMBOLIC_KEPT = 1000;

/**
 * `title → \`n1\`, \`n2\` (N ops, lang):` and a fenced block with exactly what `layout expr`
 * prints for the expressions (one line each; MLIR: one block of SSA lines).
 */
function exprsBlock(title: string, exprs: X.Expr[], names: string[], lang: HoverLanguage): string[] {
  const ops = exprs.reduce((n, e) => n + X.countOps(e), 0);
  const to = names.length ? ` → ${codeList(names)}` : '';
  const head = `${title}${to} (${ops} op${ops === 1 ? '' : 's'}, ${lang}):`;
  let body: string;
  try {
    body = printExprs(exprs, lang).join('\n');
  } catch (e) {
    return [head, '', `cannot be printed in ${lang}: ${e instanceof Error ? e.message : String(e)}`];
  }
  return [head, '', fence(lang, body)];
}

/** The lets (kept by name) that `exprs` name, sorted. */
function letsIn(exprs: X.Expr[], model: Model): string[] {
  const s = new Set<string>();
  for (const e of exprs) for (const n of X.freeSymbols(e)) if (model.defs.has(n)) s.add(n);
  return [...s].sort();
}

function letsNote(lets: string[]): string {
  const one = lets.length === 1;
  const it = one ? 'it' : 'them';
  return `${codeList(lets)}: ${one ? 'a let' : 'lets'}, kept by name as \`layout expr\` prints ${it}; the generated kernel inlines ${it} unless its template defines ${it}`;
}

/** The same for a query of `kernel`: which lets its template defines (and the kernel keeps) and which the kernel inlines. */
function kernelLetsNote(lets: string[], kernel: ast.Decl | undefined): string {
  if (kernel?.kind !== 'Kernel') return letsNote(lets);
  // as codegen/model.ts: a built-in template's scope stays by name, every other let is inlined
  const b = kernel.template?.kind === 'builtin' ? findBuiltin(kernel.template.name.name) : undefined;
  const scope: readonly string[] = b?.scope ?? [];
  const kept = lets.filter((n) => scope.includes(n));
  const inlined = lets.filter((n) => !scope.includes(n));
  const parts: string[] = [];
  if (kept.length) parts.push(`${codeList(kept)}: ${kept.length === 1 ? 'a let' : 'lets'} that the \`${b!.name}\` template defines, by name in the generated kernel too`);
  if (inlined.length) parts.push(`${codeList(inlined)}: ${inlined.length === 1 ? 'a let' : 'lets'} that the generated kernel inlines (\`layout expr\` keeps ${inlined.length === 1 ? 'it' : 'them'} by name)`);
  return parts.join('\n\n');
}

function codeList(xs: string[]): string {
  return xs.map((n) => `\`${n}\``).join(', ');
}

/**
 * A query (`A[...]`, `L.inv(x)`, `L.apply(...)`) evaluated and printed in `lang` the way `layout
 * expr` does it (queryExpr, then printExprs: lets by name), or why it cannot be. Never throws.
 */
export function queryTexts(doc: LayoutDocument, q: ast.IndexExpr | ast.MethodCall, lang: Lang):
  { ok: true; texts: string[]; ops: number[]; exprs: X.Expr[]; model: Model } | { ok: false; message: string } {
  const decl = declAt(doc.file, q.range.start);
  if (!decl) return { ok: false, message: 'this query is outside every declaration' };
  const dm = modelOfDecl(doc, decl);
  const why = errorIn(dm, q.range);
  if (why) return { ok: false, message: why.message };
  const r = queryExpr(dm.model, q);
  if (!r.ok) {
    // not elaborated: a name or syntax error inside, or a problem the check rules report (query/...)
    const inside = (d: { severity: string; range: ast.Range }) => d.severity === 'error' && d.range.start >= q.range.start && d.range.end <= q.range.end;
    const other = doc.parseDiagnostics.find(inside) ?? doc.symbols.resolution.diagnostics.find(inside);
    if (other) return { ok: false, message: other.message };
    if (dm.model.values.get(q)?.k === 'bad') return { ok: false, message: 'this query has an error (see the problem reported on it)' };
    return r;
  }
  try {
    return { ok: true, texts: printExprs(r.exprs, lang), ops: r.exprs.map((e) => X.countOps(e)), exprs: r.exprs, model: dm.model };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * A query's texts and operation counts as `queryTexts` gives them (for inlay hints), undefined when
 * it has none; kept per version and across versions like its hover.
 */
export function queryFigures(doc: LayoutDocument, q: ast.IndexExpr | ast.MethodCall, lang: Lang): { texts: string[]; ops: number[] } | undefined {
  const compute = (): Computed | undefined => {
    const r = queryTexts(doc, q, lang);
    return r.ok ? { text: JSON.stringify([r.texts, r.ops]), keep: true, fresh: [] } : undefined;
  };
  const decl = declAt(doc.file, q.range.start);
  const json = cached(doc, `I:${q.range.start}:${q.range.end}:${lang}`, () => (decl ? acrossVersions(doc, decl, `I:${lang}:${placeIn(decl, q)}`, compute) : compute())?.text);
  if (json === undefined) return undefined;
  const [texts, ops] = JSON.parse(json) as [string[], number[]];
  return { texts, ops };
}

/** A query's place in its declaration's text (what identifies it there across versions): its kind and offsets relative to the declaration. */
function placeIn(decl: ast.Decl, q: ast.IndexExpr | ast.MethodCall): string {
  return `${q.kind}:${q.range.start - decl.range.start}:${q.range.end - decl.range.start}`;
}

/**
 * The language of a kernel's generated file: C for a `cuda` kernel, Triton for a `triton` one;
 * undefined for other targets.
 */
export function kernelLanguage(decl: ast.Decl | undefined): HoverLanguage | undefined {
  if (decl?.kind !== 'Kernel') return undefined;
  return decl.target?.value === 'cuda' ? 'c' : decl.target?.value === 'triton' ? 'triton' : undefined;
}

/**
 * The language a query is shown in (hover and inlay hint alike): inside a kernel the language
 * of its generated file, with that language's semantics (C's `/` and `?:` in a CUDA kernel);
 * elsewhere the `layout.hover.language` setting.
 */
export function queryLanguage(doc: LayoutDocument, q: ast.Node, settings: Settings): HoverLanguage {
  return kernelLanguage(declAt(doc.file, q.range.start)) ?? settings.hover.language;
}

export function queryHover(doc: LayoutDocument, q: ast.IndexExpr | ast.MethodCall, settings: Settings, component?: number): string | undefined {
  const lang = queryLanguage(doc, q, settings);
  return cached(doc, `Q:${q.range.start}:${lang}:${component ?? ''}`, () => {
    const decl = declAt(doc.file, q.range.start);
    const compute = () => computeQueryHover(doc, q, lang, component);
    return (decl ? acrossVersions(doc, decl, `Q:${lang}:${component ?? ''}:${placeIn(decl, q)}`, compute) : compute())?.text;
  });
}

function computeQueryHover(doc: LayoutDocument, q: ast.IndexExpr | ast.MethodCall, lang: HoverLanguage, component?: number): Computed {
  const r = queryTexts(doc, q, lang);
  const src = oneLine(doc.text.slice(q.range.start, q.range.end));
  if (!r.ok) return { text: `**query** \`${src}\`\n\ncannot generate code: ${r.message}`, keep: false, fresh: [] };
  const binding = bindingOf(doc, q);
  const n = r.ops.length;
  const names = binding && binding.value === q && binding.names.length === n ? binding.names.map((x) => x.name) : [];
  // one result of several (hovering one of the names it binds); MLIR prints one block for all
  const one = component !== undefined && component < n && n > 1 && lang !== 'mlir' ? component : undefined;
  const texts = one !== undefined ? [r.texts[one]] : r.texts;
  const ops = one !== undefined ? r.ops[one] : r.ops.reduce((a, b) => a + b, 0);
  const shown = one !== undefined ? names.slice(one, one + 1) : names;
  const to = shown.length ? ` → ${codeList(shown)}` : '';
  const which = one !== undefined ? `result ${one + 1} of ${n}, ` : '';
  const out = [`**query** \`${src}\`${to} (${which}${ops} op${ops === 1 ? '' : 's'}, ${lang}):`, '', fence(lang, texts.join('\n'))];
  const lets = letsIn(one !== undefined ? r.exprs.slice(one, one + 1) : r.exprs, r.model);
  if (lets.length) out.push('', kernelLetsNote(lets, declAt(doc.file, q.range.start)));
  return { text: out.join('\n'), keep: true, fresh: [] };
}

/** The kernel binding whose value contains `q`. */
export function bindingOf(doc: LayoutDocument, q: ast.Node): ast.Binding | undefined {
  // (the kernel that contains it: declarations do not overlap, and a kernel's bindings lie inside it)
  const d = declAt(doc.file, q.range.start);
  if (d?.kind !== 'Kernel') return undefined;
  for (const b of d.bindings) if (b.value.range.start <= q.range.start && q.range.end <= b.value.range.end) return b;
  return undefined;
}

// ------------------------------------------------------------------ printing

/** One expression as `layout expr` prints it (MLIR: its block); a short note when it cannot be printed. */
export function printOne(e: X.Expr, lang: HoverLanguage): string {
  try {
    return printExprs([e], lang)[0];
  } catch (err) {
    return lang === 'c' ? printOne(e, 'python') : `<${err instanceof Error ? err.message : String(err)}>`;
  }
}

function fence(lang: HoverLanguage, body: string): string {
  return '```' + (lang === 'c' ? 'c' : lang === 'mlir' ? 'mlir' : 'python') + '\n' + body + '\n```';
}

// ------------------------------------------------------------------ numeric views

/** Which logical dimensions form the rows and the columns of a 2-D view (as the picture draws it). */
export function gridOf(L: A.Layout, rank: number): { rows: number[]; cols: number[] } {
  // a TileBy's levels have rank d: the last coordinate of each level is a column; an even rank
  // otherwise reads as 2-D levels, an odd one as one level
  const d = L.kind === 'TileBy' ? (L.levels[0]?.length ?? rank) : rank % 2 === 0 ? 2 : rank;
  if (d <= 1) return { rows: [], cols: range(rank) };
  return { rows: range(rank).filter((k) => k % d !== d - 1), cols: range(rank).filter((k) => k % d === d - 1) };
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, k) => k);
}

const MAX_TABLE = 16;

function tableOf(L: A.Layout, env: ReadonlyMap<string, bigint>, dims: number[]): { markdown: string; rowsLabel: string; colsLabel: string } | undefined {
  const rank = dims.length;
  if (rank === 0) return undefined;
  const g = gridOf(L, rank);
  const nRows = g.rows.reduce((a, k) => a * dims[k], 1);
  const nCols = g.cols.reduce((a, k) => a * dims[k], 1);
  if (nRows > MAX_TABLE || nCols > MAX_TABLE) return undefined;
  const table = A.applyTable(L, env, MAX_TABLE * MAX_TABLE);
  const cell = Array.from({ length: nRows }, () => new Array<number>(nCols).fill(0));
  const idx = new Array<number>(rank).fill(0);
  for (let f = 0; f < table.length; f++) {
    let r = 0;
    for (const k of g.rows) r = r * dims[k] + idx[k];
    let c = 0;
    for (const k of g.cols) c = c * dims[k] + idx[k];
    cell[r][c] = table[f];
    for (let k = rank - 1; k >= 0; k--) {
      if (++idx[k] < dims[k]) break;
      idx[k] = 0;
    }
  }
  const head = `| | ${range(nCols).join(' | ')} |`;
  const sep = `|---|${range(nCols).map(() => '---').join('|')}|`;
  const rows = cell.map((row, r) => `| **${r}** | ${row.join(' | ')} |`);
  const label = (ks: number[]) => (ks.length ? ks.map((k) => `dim ${k}`).join(' x ') : 'one');
  return { markdown: [head, sep, ...rows].join('\n'), rowsLabel: label(g.rows), colsLabel: label(g.cols) };
}

function attempt<T>(f: () => T): { ok: true; value: T } | { ok: false; message: string } {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

export function safe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/** A source snippet on one line, at most 120 characters. */
export function oneLine(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > 120 ? one.slice(0, 117) + '...' : one;
}
