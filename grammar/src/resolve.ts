// Name resolution: binds every name use of a file to its definition and reports unknown,
// duplicate and too-early names. Pure function of the AST (plus the text, for positions in
// messages). Scoping rules (docs/language.md, "Names and scopes"):
// - top-level names are visible after their declaration (a `param` item after its item);
// - perm parameters and indices inside the perm body; parameters and the inverse's argument
//   inside the inverse; kernel binding names in the later bindings of the same kernel; schedule
//   step results in the later steps of the same schedule (a result may be re-bound);
// - built-in constructors and functions everywhere, schedule primitives as step names;
// - an undeclared name inside an index list `L[...]` or in the arguments of `.inv(...)` /
//   `.apply(...)` is a free index symbol (LEGO's string indices), one per name and declaration;
//   so is one in the facts of `assume` / `where` (`assume tid < T * T`);
// - method names after `.`, strings, kernel targets/templates and the GPU of a schedule are not names.
// Each declaration is resolved on its own (resolve-decl.ts) against the table of top-level names; the
// file's `Resolution` is a view over those per-declaration units (resolution-view.ts). A document's
// `ResolveCache` keeps the table and the units from one version to the next (see `resolve`).
import type * as ast from './ast.js';
import type { Diagnostic } from './diagnostic.js';
import { LineIndex } from './line-index.js';
import { builtinDefs, DeclResolver, duplicate, reserved } from './resolve-decl.js';
import { Composed, lastStartingAt } from './resolution-view.js';

export { MAX_SUGGESTIONS, MAX_SUGGEST_CELLS, MAX_SUGGEST_NAME, suggest } from './resolve-decl.js';

export type SymbolKind =
  // top level
  | 'param' | 'const' | 'let' | 'layout' | 'perm' | 'kernel' | 'schedule' | 'linear'
  // local
  | 'permParam' | 'permIndex' | 'inverseArg' | 'binding' | 'stepResult'
  // built in
  | 'constructor' | 'function' | 'primitive'
  // an undeclared name used as an index (LEGO's string indices)
  | 'free';

export interface Definition {
  name: string;
  kind: SymbolKind;
  /** the declaring identifier; absent for built-ins and free symbols */
  ident?: ast.Ident;
  /** the top-level declaration that makes it (for locals and free symbols: the enclosing one); absent for built-ins */
  decl?: ast.Decl;
}

/** a name use: a `Name` expression, a call's callee or a schedule step's primitive */
export type NameUse = ast.NameRef | ast.Ident;

export interface Resolution {
  /** top-level definitions by name (the first one where a name is declared twice), in source order */
  globals: ReadonlyMap<string, Definition>;
  /** every definition the file makes: the top-level ones in source order, then per declaration its locals and free symbols */
  definitions: Definition[];
  /** every resolved use -> its definition; unknown, too-early and self uses are absent */
  refs: ReadonlyMap<NameUse, Definition>;
  /** declaring identifier -> its definition */
  declarations: ReadonlyMap<ast.Ident, Definition>;
  /** the free index symbols, in order of first use */
  freeSymbols: Definition[];
  /** the uses of `def` in this file, in source order */
  references(def: Definition): NameUse[];
  /** the use or declaring identifier covering `offset` (end inclusive, for a cursor after a name) */
  symbolAt(offset: number): { node: NameUse; definition: Definition } | undefined;
  /** does any use in the file resolve to `def` */
  isUsed(def: Definition): boolean;
  /** the top-level definitions of `globals` that no use resolves to, in source order */
  unusedGlobals(): Definition[];
  /**
   * The resolution of one declaration of the file (its uses, locals, diagnostics) as an opaque key: the
   * same object in the next version's resolution when the declaration resolves exactly the same way
   * there (rules keep per-declaration summaries under it). Undefined for a declaration not in the file.
   */
  unitOf(decl: ast.Decl): object | undefined;
  /** `unitOf` of every declaration of the file, in order */
  units(): readonly object[];
  /**
   * The declarations that declare `name` (duplicates and built-ins' names too), in source order, when
   * the resolution keeps that table (the latest version of a cached document); undefined otherwise.
   */
  declarersOf(name: string): readonly ast.Decl[] | undefined;
  /** `name/...` diagnostics, in source order */
  diagnostics: Diagnostic[];
}


/**
 * Resolves the names of `file`. `text` (or its LineIndex) is only used to print positions in messages.
 * With a `cache` (one per document, given every version in turn), a declaration whose resolution cannot
 * have changed keeps it: the same declaration object (unchanged text at the same place) whose global
 * names all still mean the same definitions, and which had no `name/...` diagnostic (those quote other
 * positions and count did-you-means file-wide: such declarations are resolved again every time). The
 * result is exactly what resolving the whole file gives.
 */
export function resolve(file: ast.File, text: string | LineIndex, cache?: ResolveCache): Resolution {
  const lines = typeof text === 'string' ? new LineIndex(text) : text;
  return run(file, lines, cache ?? new ResolveCache());
}

export interface Global {
  def: Definition;
  /**
   * the declaration (or `param` item) that a use inside of is a self-reference; uses at or after its
   * end see the definition (read from the range itself: a kept declaration moves, service/chunks.ts)
   */
  own: ast.Range;
}

/** A top-level definition a declaration makes, and the range a use inside of is a self-reference. */
export interface Top {
  def: Definition;
  own: ast.Range;
}

/** The resolution of one declaration's uses and locals, against the file's top-level names. */
export interface Unit {
  readonly decl: ast.Decl;
  readonly refs: ReadonlyMap<NameUse, Definition>;
  /** its locals' declaring identifiers */
  readonly declarations: ReadonlyMap<ast.Ident, Definition>;
  /** its locals and free symbols, in the order they were made */
  readonly definitions: readonly Definition[];
  readonly freeSymbols: readonly Definition[];
  readonly diagnostics: readonly Diagnostic[];
  /** did-you-mean suggestions it used (of MAX_SUGGESTIONS per file) */
  suggestions: number;
  /** every top-level name it looked up -> the definition it found (undefined: none) */
  looked: Map<string, Definition | undefined>;
  /** the top-level definitions its uses resolve to */
  bound: Set<Definition>;
  /** the symbolAt index: uses and declaring identifiers (its top-level ones too), by start, offsets relative to the declaration's start */
  index?: { start: number; end: number; node: NameUse; definition: Definition }[];
}

/** What a document's resolutions keep from one version to the next (see `resolve`). */
export class ResolveCache {
  /** per declaration object: its top-level definitions (made once: the same objects in every version) */
  readonly tops = new WeakMap<ast.Decl, Top[]>();
  /** the latest version's declarations and their units */
  decls: readonly ast.Decl[] = [];
  units: Unit[] = [];
  /** every top-level definition by name, in source order */
  readonly declarers = new Map<string, Top[]>();
  /** the first declaration of each name (none for a built-in's name) */
  readonly table = new Map<string, Global>();
  /** names declared more than once (built-ins' names aside) */
  readonly duplicated = new Set<string>();
  /** name -> the units that looked it up */
  readonly lookers = new Map<string, Set<Unit>>();
  /** units with diagnostics: resolved again every version (they quote positions, count did-you-means) */
  readonly volatile = new Set<Unit>();
  /** how many units' uses resolve to each top-level definition */
  readonly binders = new Map<Definition, number>();
  /** the definitions of `table` no use resolves to */
  readonly unused = new Set<Definition>();
  /** counts the versions */
  stamp = 0;
  /** the table in source order, made on first need per version */
  ordered?: [string, Global][];
}

export function topsOf(cache: ResolveCache, d: ast.Decl): Top[] {
  let t = cache.tops.get(d);
  if (t) return t;
  t = [];
  const add = (ident: ast.Ident, kind: SymbolKind, own: ast.Range) => t!.push({ def: { name: ident.name, kind, ident, decl: d }, own });
  switch (d.kind) {
    case 'Param':
      for (const item of d.items) add(item.name, d.isConst ? 'const' : 'param', item.range);
      break;
    case 'Let': add(d.name, 'let', d.range); break;
    case 'Layout': add(d.name, 'layout', d.range); break;
    case 'Perm': add(d.name, 'perm', d.range); break;
    case 'Linear': add(d.name, 'linear', d.range); break;
    case 'Kernel': add(d.name, 'kernel', d.range); break;
    case 'Schedule': add(d.name, 'schedule', d.range); break;
  }
  cache.tops.set(d, t);
  return t;
}

/** The first-declaration table of `decls`, in source order (what a resolution of an older version reads). */
export function tableOf(decls: readonly ast.Decl[], cache: ResolveCache): Map<string, Global> {
  const table = new Map<string, Global>();
  for (const d of decls) {
    for (const { def, own } of topsOf(cache, d)) {
      if (builtinDefs.has(def.name) || table.has(def.name)) continue;
      table.set(def.name, { def, own });
    }
  }
  return table;
}

/** the table in source order */
function ordered(cache: ResolveCache): [string, Global][] {
  if (!cache.ordered) cache.ordered = [...cache.table].sort((x, y) => x[1].def.ident!.range.start - y[1].def.ident!.range.start);
  return cache.ordered;
}

/**
 * Brings the cache from its latest version to `file`: the declarations that changed (those not in
 * both versions, compared by identity: a kept declaration is the same object, moved in place or not)
 * leave and join the name table; the units of new declarations, of those that looked up a name whose
 * first declaration changed and of those with diagnostics are resolved (in source order:
 * did-you-means are counted file-wide); the others are kept.
 */
function run(file: ast.File, lines: LineIndex, cache: ResolveCache): Resolution {
  const decls = file.decls;
  const prev = cache.decls;
  const n = decls.length;
  let a = 0;
  while (a < n && a < prev.length && decls[a] === prev[a]) a++;
  let b = 0;
  while (b < n - a && b < prev.length - a && decls[n - 1 - b] === prev[prev.length - 1 - b]) b++;
  const stamp = ++cache.stamp;
  cache.ordered = undefined;
  // between the unchanged leading and trailing declarations: those in both versions keep their units
  const kept = new Map<ast.Decl, Unit>();
  if (a < prev.length - b && a < n - b) {
    const now = new Set<ast.Decl>();
    for (let j = a; j < n - b; j++) now.add(decls[j]);
    for (let j = a; j < prev.length - b; j++) if (now.has(prev[j])) kept.set(prev[j], cache.units[j]);
  }
  const names = new Set<string>();
  for (let j = a; j < prev.length - b; j++) {
    if (kept.has(prev[j])) continue;
    for (const t of topsOf(cache, prev[j])) {
      const list = cache.declarers.get(t.def.name)!;
      list.splice(list.indexOf(t), 1);
      names.add(t.def.name);
    }
    leave(cache, cache.units[j]);
  }
  for (let j = a; j < n - b; j++) {
    if (kept.has(decls[j])) continue;
    for (const t of topsOf(cache, decls[j])) {
      let list = cache.declarers.get(t.def.name);
      if (!list) cache.declarers.set(t.def.name, (list = []));
      let k = list.length;
      while (k > 0 && list[k - 1].def.ident!.range.start > t.def.ident!.range.start) k--;
      list.splice(k, 0, t);
      names.add(t.def.name);
    }
  }
  // the names whose first declaration changed
  const rebound: string[] = [];
  for (const name of names) {
    const list = cache.declarers.get(name)!;
    const first = builtinDefs.has(name) ? undefined : list[0];
    const was = cache.table.get(name);
    if (first && was?.def !== first.def) cache.table.set(name, { def: first.def, own: first.own });
    else if (!first && was) cache.table.delete(name);
    if ((first?.def ?? undefined) !== was?.def) {
      rebound.push(name);
      if (was) cache.unused.delete(was.def);
      if (first && !cache.binders.has(first.def)) cache.unused.add(first.def);
    }
    if (list.length > 1 && !builtinDefs.has(name)) cache.duplicated.add(name);
    else cache.duplicated.delete(name);
    if (list.length === 0) cache.declarers.delete(name);
  }
  // the units: kept, or resolved again
  const units: Unit[] = new Array(n);
  for (let j = 0; j < a; j++) units[j] = cache.units[j];
  for (let j = 0; j < b; j++) units[n - 1 - j] = cache.units[prev.length - 1 - j];
  const redo = new Set<number>();
  for (let j = a; j < n - b; j++) {
    const u = kept.get(decls[j]);
    if (u) units[j] = u;
    else redo.add(j);
  }
  const at = (u: Unit): number => {
    const j = lastStartingAt(decls, u.decl.range.start);
    return j >= 0 && decls[j] === u.decl ? j : decls.indexOf(u.decl);
  };
  for (const name of rebound) for (const u of cache.lookers.get(name) ?? []) redo.add(at(u));
  for (const u of cache.volatile) redo.add(at(u));
  let suggestions = 0;
  const inOrder = () => ordered(cache);
  for (const j of [...redo].sort((x, y) => x - y)) {
    if (units[j]) leave(cache, units[j]); // a kept unit resolved again
    const u = new DeclResolver(decls[j], cache.table, lines, suggestions, inOrder).run();
    suggestions += u.suggestions;
    join(cache, u);
    units[j] = u;
  }
  cache.decls = decls;
  cache.units = units;

  // name/... diagnostics: reserved and duplicate names, then the units' (sorted by start, stably)
  const diagnostics: Diagnostic[] = [];
  for (const name of builtinDefs.keys()) for (const t of cache.declarers.get(name) ?? []) diagnostics.push(reserved(t.def.ident!)!);
  for (const name of cache.duplicated) {
    const [first, ...others] = cache.declarers.get(name)!;
    for (const t of others) diagnostics.push(duplicate(lines, t.def.ident!, first.def));
  }
  diagnostics.sort((x, y) => x.range.start - y.range.start);
  if (cache.volatile.size) {
    for (const u of [...cache.volatile].sort((x, y) => x.decl.range.start - y.decl.range.start)) for (const x of u.diagnostics) diagnostics.push(x);
    diagnostics.sort((x, y) => x.range.start - y.range.start);
  }
  return new Composed(decls, units, cache, stamp, diagnostics);
}

/** a unit leaves the latest version */
function leave(cache: ResolveCache, u: Unit): void {
  for (const name of u.looked.keys()) {
    const s = cache.lookers.get(name)!;
    s.delete(u);
    if (s.size === 0) cache.lookers.delete(name);
  }
  for (const def of u.bound) {
    const k = cache.binders.get(def)! - 1;
    if (k > 0) cache.binders.set(def, k);
    else {
      cache.binders.delete(def);
      if (cache.table.get(def.name)?.def === def) cache.unused.add(def);
    }
  }
  cache.volatile.delete(u);
}

/** a unit joins the latest version */
function join(cache: ResolveCache, u: Unit): void {
  for (const name of u.looked.keys()) {
    let s = cache.lookers.get(name);
    if (!s) cache.lookers.set(name, (s = new Set()));
    s.add(u);
  }
  for (const def of u.bound) {
    const k = cache.binders.get(def) ?? 0;
    cache.binders.set(def, k + 1);
    if (k === 0) cache.unused.delete(def);
  }
  if (u.diagnostics.length) cache.volatile.add(u);
}
