// Layouts and queries as values, for hovers, inlay hints and the picture view. The AST is turned
// into algebra values by codegen's Binder (the elaboration code generation uses, so the editor
// shows exactly what is generated); apply/inv are computed symbolically and printed in the
// chosen language, with their operation counts; numeric tables come from the params' values.
import type * as ast from '../../../grammar/src/ast.js';
import * as A from '../algebra/index.js';
import * as X from '../expr/index.js';
import { Binder } from '../codegen/bind.js';
import { Values } from '../check/rules/values.js';
import type { LayoutDocument } from './document.js';
import { envOf, oneLine } from './values.js';
import type { HoverLanguage, Settings } from './settings.js';
import type { SymbolDef } from './symbols.js';

interface Model {
  binder: Binder;
  env: Map<string, bigint>;
  layouts: Map<string, { ok: true; layout: A.Layout } | { ok: false; message: string }>;
  /** hover texts by key (layout name or query offset, language, component) */
  hovers: Map<string, string | undefined>;
  queries: Map<ast.Node, { ok: true; exprs: X.Expr[] } | { ok: false; message: string }>;
}

const models = new WeakMap<LayoutDocument, Model>();

function modelOf(doc: LayoutDocument): Model {
  let m = models.get(doc);
  if (!m) {
    // the params' values as code generation computes them (check's Values), else the schedule evaluator's
    const env = new Map<string, bigint>();
    const values = safe(() => new Values(doc.file, doc.symbols.resolution, doc.text).base.params);
    if (values) for (const [name, v] of values) env.set(name, v);
    else for (const [name, p] of envOf(doc).params) env.set(name, p.value);
    const binder = new Binder({ file: doc.file, resolution: doc.symbols.resolution, paramValues: env });
    m = { binder, env, layouts: new Map(), hovers: new Map(), queries: new Map() };
    models.set(doc, m);
  }
  return m;
}

/** The algebra value of the layout declared as `name`. */
export function layoutNamed(doc: LayoutDocument, name: string): { ok: true; layout: A.Layout } | { ok: false; message: string } | undefined {
  const def = doc.symbols.globals.get(name);
  if (!def || def.kind !== 'layout' || def.container?.kind !== 'Layout') return undefined;
  const m = modelOf(doc);
  let r = m.layouts.get(name);
  if (!r) {
    const v = safe(() => m.binder.layoutValue((def.container as ast.LayoutDecl).value));
    r = !v ? { ok: false, message: 'the layout cannot be built' } : v.ok ? v : { ok: false, message: v.message };
    m.layouts.set(name, r);
  }
  return r;
}

export function paramEnv(doc: LayoutDocument): ReadonlyMap<string, bigint> {
  return modelOf(doc).env;
}

/** Names for the logical coordinates that no declaration of the file uses. */
export function coordinateNames(doc: LayoutDocument, L: A.Layout): string[] {
  const rank = A.dims(L).length;
  const base = rank === 1 ? ['i'] : rank === 2 ? ['i', 'j'] : rank === 3 ? ['i', 'j', 'k']
    : L.kind === 'TileBy' && rank === 4 ? ['ti', 'tj', 'i', 'j'] : Array.from({ length: rank }, (_, k) => `i${k}`);
  return base.map((n) => fresh(doc, n));
}

function fresh(doc: LayoutDocument, n: string): string {
  let name = n;
  while (doc.symbols.globals.has(name)) name += '_';
  return name;
}

const classes: Record<A.LayoutClass, string> = {
  affine: 'affine (a linear combination of the coordinates)',
  piecewise: 'piecewise (div/mod at tile borders)',
  'user-genp': 'with a user permutation (GenP)',
};

export function layoutHover(doc: LayoutDocument, def: SymbolDef, settings: Settings): string | undefined {
  return cached(doc, `L:${def.name}:${settings.hover.language}`, () => computeLayoutHover(doc, def, settings));
}

function cached(doc: LayoutDocument, key: string, f: () => string | undefined): string | undefined {
  const h = modelOf(doc).hovers;
  if (!h.has(key)) h.set(key, f());
  return h.get(key);
}

function computeLayoutHover(doc: LayoutDocument, def: SymbolDef, settings: Settings): string | undefined {
  const r = layoutNamed(doc, def.name);
  if (!r) return undefined;
  const decl = def.container as ast.LayoutDecl;
  const uses = doc.symbols.usesOf(def).length;
  const lines = [`**layout** \`${def.name}\` = \`${oneLine(doc.text.slice(decl.value.range.start, decl.value.range.end))}\``];
  if (!r.ok) {
    lines.push('', `cannot be evaluated: ${r.message}`);
    return lines.join('\n');
  }
  const L = r.layout;
  const env = paramEnv(doc);
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
  const names = coordinateNames(doc, L);
  const applied = attempt(() => A.applySym(L, names, { env }));
  const apply = applied.ok ? applied.value : undefined;
  if (!applied.ok) lines.push('', `apply cannot be computed: ${applied.message}`);
  if (apply) lines.push('', `apply \`${def.name}[${names.join(', ')}]\` (${X.countOps(apply)} ops, ${lang}):`, '', fence(lang, printIn(lang, [apply], ['offset'])));
  const x = fresh(doc, 'x');
  const inv = safe(() => A.invSym(L, x, { env }));
  if (inv) {
    const ops = inv.reduce((n, e) => n + X.countOps(e), 0);
    lines.push('', `inv \`${def.name}.inv(${x})\` (${ops} ops, ${lang}):`, '', fence(lang, printIn(lang, inv, names)));
  }
  const table = values ? safe(() => tableOf(L, env, values)) : undefined;
  if (table) lines.push('', `positions at the params' values (rows: ${table.rowsLabel}, columns: ${table.colsLabel}):`, '', table.markdown);
  lines.push('', `${uses} use${uses === 1 ? '' : 's'} in this file`);
  return lines.join('\n');
}

/** The generated expressions of a query (`A[...]`, `L.inv(x)`, `L.apply(...)`), or why there are none. */
export function queryExprs(doc: LayoutDocument, q: ast.IndexExpr | ast.MethodCall): { ok: true; exprs: X.Expr[] } | { ok: false; message: string } {
  const m = modelOf(doc);
  let out = m.queries.get(q);
  if (!out) {
    const r = safe(() => m.binder.evaluate({ kind: 'Binding', names: [], value: q, range: q.range }));
    out = !r ? { ok: false, message: 'cannot evaluate this query' } : r.ok ? { ok: true, exprs: r.exprs } : { ok: false, message: r.diagnostics.map((d) => d.message).join('; ') };
    m.queries.set(q, out);
  }
  return out;
}

export function queryHover(doc: LayoutDocument, q: ast.IndexExpr | ast.MethodCall, settings: Settings, component?: number): string | undefined {
  return cached(doc, `Q:${q.range.start}:${settings.hover.language}:${component ?? ''}`, () => computeQueryHover(doc, q, settings, component));
}

function computeQueryHover(doc: LayoutDocument, q: ast.IndexExpr | ast.MethodCall, settings: Settings, component?: number): string | undefined {
  const r = queryExprs(doc, q);
  const src = oneLine(doc.text.slice(q.range.start, q.range.end));
  if (!r.ok) return `**query** \`${src}\`\n\ncannot generate code: ${r.message}`;
  const lang = settings.hover.language;
  const binding = bindingOf(doc, q);
  const names = binding && binding.value === q && binding.names.length === r.exprs.length ? binding.names.map((n) => n.name) : r.exprs.map((_, k) => (r.exprs.length === 1 ? 'offset' : `r${k}`));
  const exprs = component !== undefined && component < r.exprs.length ? [r.exprs[component]] : r.exprs;
  const shown = component !== undefined && component < r.exprs.length ? [names[component]] : names;
  const ops = exprs.reduce((n, e) => n + X.countOps(e), 0);
  return [`**query** \`${src}\` (${ops} op${ops === 1 ? '' : 's'}, ${lang}):`, '', fence(lang, printIn(lang, exprs, shown))].join('\n');
}

/** The kernel binding whose value contains `q`. */
export function bindingOf(doc: LayoutDocument, q: ast.Node): ast.Binding | undefined {
  for (const d of doc.file.decls) {
    if (d.kind !== 'Kernel') continue;
    for (const b of d.bindings) if (b.value.range.start <= q.range.start && q.range.end <= b.value.range.end) return b;
  }
  return undefined;
}

// ------------------------------------------------------------------ printing

export function printOne(e: X.Expr, lang: Exclude<HoverLanguage, 'mlir'>): string {
  try {
    return lang === 'c' ? X.printC(e) : lang === 'triton' ? X.printTriton(e) : X.printPython(e);
  } catch (err) {
    return lang === 'c' ? printOne(e, 'python') : `<${err instanceof Error ? err.message : String(err)}>`;
  }
}

/** `name = expr` lines (C: `name = expr;`); MLIR: SSA lines over the free symbols. */
export function printIn(lang: HoverLanguage, exprs: X.Expr[], names: string[]): string {
  if (lang === 'mlir') {
    const symbols = new Map<string, string>();
    for (const e of exprs) for (const s of X.freeSymbols(e)) symbols.set(s, `%${s.replace(/[^A-Za-z0-9_]/g, '_')}`);
    try {
      const r = X.printMlir(exprs, { symbols, type: 'index' });
      return [...r.lines, ...r.results.map((v, k) => `// ${names[k]} = ${v}`)].join('\n');
    } catch (err) {
      return `// ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  return exprs.map((e, k) => `${names[k]} = ${printOne(e, lang)}${lang === 'c' ? ';' : ''}`).join('\n');
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
