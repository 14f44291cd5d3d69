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
  /**
   * `unitOf` of every declaration of the file, in order; each also says what its declaration defines
   * and uses (`UnitSymbols`)
   */
  units(): readonly UnitSymbols[];
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

/** A top-level definition a declaration makes, and the range a use inside of is a self-reference. */
export interface Top {
  def: Definition;
  /**
   * the declaration (or `param` item) that a use inside of is a self-reference; uses at or after its
   * end see the definition (read from the range itself: a kept declaration moves, service/chunks.ts)
   */
  own: ast.Range;
  /**
   * while it is its name's first declaration: how many uses of the latest version resolve to it (set
   * to 0 when it becomes the first: every use that resolved to it before was resolved again since)
   */
  uses: number;
}

/** the first declaration of a name: what a use of the name finds */
export type Global = Top;

/** top-level definitions' kinds (those a use finds in the table of `Global`s) */
export const TOP_LEVEL: ReadonlySet<SymbolKind> = new Set(['param', 'const', 'let', 'layout', 'perm', 'linear', 'kernel', 'schedule']);

/**
 * What one declaration's unit defines and uses, read-only: its top-level definitions, its locals and
 * free symbols (in the order they were made), and its resolved uses and their definitions interleaved
 * (use, definition, ...) in source order. Its part of `Resolution.definitions` is its tops' then its
 * locals, and of `Resolution.refs` its uses, each in that order.
 */
export type UnitSymbols = Pick<Unit, 'decl' | 'tops' | 'definitions' | 'uses'>;

/**
 * The resolution of one declaration's uses and locals, against the file's top-level names. Read-only
 * once made; kept from one version to the next while the declaration resolves the same way.
 */
export interface Unit {
  readonly decl: ast.Decl;
  /** its top-level definitions (made once per declaration object: the same objects in every version) */
  readonly tops: readonly Top[];
  /**
   * its resolved uses and their definitions, interleaved (use, definition, use, definition, ...), in
   * source order; unknown, too-early and self uses are absent
   */
  readonly uses: readonly (NameUse | Definition)[];
  /** its locals and free symbols, in the order they were made */
  readonly definitions: readonly Definition[];
  readonly diagnostics: readonly Diagnostic[];
  /** did-you-mean suggestions it used (of MAX_SUGGESTIONS per file) */
  readonly suggestions: number;
  /** the symbolAt index: uses and declaring identifiers (its top-level ones too), by start, offsets relative to the declaration's start (made on first need) */
  index?: { start: number; end: number; node: NameUse; definition: Definition }[];
}

/**
 * Did a use that resolved to `def` look its name up in the table of top-level names (so that the use
 * resolves differently when that name's first declaration changes)? Locals and schedule primitives are
 * found before (or instead of) the table, built-ins' names are never in it.
 */
export function looksUp(def: Definition): boolean {
  return def.kind === 'free' || TOP_LEVEL.has(def.kind);
}

/** Every top-level definition of one name: one, or the list in source order when it is declared more than once. */
export type Declarers = Top | Top[];

export function declarerList(x: Declarers | undefined): readonly Top[] {
  return x === undefined ? [] : Array.isArray(x) ? x : [x];
}

/** What a document's resolutions keep from one version to the next (see `resolve`). */
export class ResolveCache {
  /** the latest version's declarations and their units */
  decls: readonly ast.Decl[] = [];
  units: Unit[] = [];
  /** every top-level definition by name, in source order */
  readonly declarers = new Map<string, Declarers>();
  /** the first declaration of each name (none for a built-in's name) */
  readonly table = new Map<string, Global>();
  /** names declared more than once (built-ins' names aside) */
  readonly duplicated = new Set<string>();
  /**
   * name -> the units whose uses looked it up (`looksUp`; a set when many), made when first needed (the
   * next version, a hover's count of a name's uses, or `lookersOf`: the server makes it once a
   * just-opened document's first diagnostics are out, which need not wait for it), then kept up to date
   */
  lookers?: Map<string, Unit[] | Set<Unit>>;
  /** units with diagnostics: resolved again every version (they quote positions, count did-you-means) */
  readonly volatile = new Set<Unit>();
  /** the definitions of `table` no use resolves to (`Top.uses` is 0) */
  readonly unused = new Set<Definition>();
  /** counts the versions */
  stamp = 0;
  /** the table in source order, made on first need per version */
  ordered?: [string, Global][];
}

/** The top-level definitions `d` makes (new objects: once per declaration object, see `Unit.tops`). */
function makeTops(d: ast.Decl): Top[] {
  switch (d.kind) {
    case 'Param': {
      const kind = d.isConst ? 'const' : 'param';
      const tops = new Array<Top>(d.items.length);
      for (let k = 0; k < tops.length; k++) tops[k] = top(d.items[k].name, kind, d, d.items[k].range);
      return tops;
    }
    case 'Let': return [top(d.name, 'let', d, d.range)];
    case 'Layout': return [top(d.name, 'layout', d, d.range)];
    case 'Perm': return [top(d.name, 'perm', d, d.range)];
    case 'Linear': return [top(d.name, 'linear', d, d.range)];
    case 'Kernel': return [top(d.name, 'kernel', d, d.range)];
    case 'Schedule': return [top(d.name, 'schedule', d, d.range)];
    default: return NO_TOPS;
  }
}

function top(ident: ast.Ident, kind: SymbolKind, decl: ast.Decl, own: ast.Range): Top {
  return { def: { name: ident.name, kind, ident, decl }, own, uses: 0 };
}

const NO_TOPS: Top[] = [];

/** The first-declaration table of a version's units, in source order (what a resolution of an older version reads). */
export function tableOf(units: readonly Unit[]): Map<string, Global> {
  const table = new Map<string, Global>();
  for (const u of units) {
    for (const t of u.tops) {
      if (builtinDefs.has(t.def.name) || table.has(t.def.name)) continue;
      table.set(t.def.name, t);
    }
  }
  return table;
}

/** the table in source order */
function ordered(cache: ResolveCache): [string, Global][] {
  if (!cache.ordered) cache.ordered = [...cache.table].sort((x, y) => x[1].def.ident!.range.start - y[1].def.ident!.range.start);
  return cache.ordered;
}

/** `t` declares its name (in source order among the name's declarers) */
function addDeclarer(cache: ResolveCache, t: Top): void {
  const name = t.def.name;
  const x = cache.declarers.get(name);
  if (x === undefined) { cache.declarers.set(name, t); return; }
  const list = Array.isArray(x) ? x : [x];
  let k = list.length;
  while (k > 0 && list[k - 1].def.ident!.range.start > t.def.ident!.range.start) k--;
  list.splice(k, 0, t);
  if (list !== x) cache.declarers.set(name, list);
}

function removeDeclarer(cache: ResolveCache, t: Top): void {
  const name = t.def.name;
  const x = cache.declarers.get(name)!;
  if (!Array.isArray(x)) { cache.declarers.delete(name); return; }
  x.splice(x.indexOf(t), 1);
  if (x.length === 1) cache.declarers.set(name, x[0]);
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
  // the units of the unchanged leading and trailing declarations are kept
  const units: Unit[] = new Array(n);
  for (let j = 0; j < a; j++) units[j] = cache.units[j];
  for (let j = 0; j < b; j++) units[n - 1 - j] = cache.units[prev.length - 1 - j];
  // between them: those in both versions keep their units
  let kept: Map<ast.Decl, Unit> | undefined;
  if (a < prev.length - b && a < n - b) {
    const now = new Set<ast.Decl>();
    for (let j = a; j < n - b; j++) now.add(decls[j]);
    kept = new Map();
    for (let j = a; j < prev.length - b; j++) if (now.has(prev[j])) kept.set(prev[j], cache.units[j]);
  }
  if (prev.length && (a < prev.length - b || a < n - b) && !cache.lookers) lookersOf(cache);
  const names = new Set<string>();
  for (let j = a; j < prev.length - b; j++) {
    if (kept?.has(prev[j])) continue;
    const u = cache.units[j];
    for (const t of u.tops) {
      removeDeclarer(cache, t);
      names.add(t.def.name);
    }
    leave(cache, u);
  }
  /** the declarations to resolve (again), by index */
  const redo = new Uint8Array(n);
  /** the top-level definitions of new declarations, by index - a */
  const made: Top[][] = [];
  if (prev.length === 0) {
    // the first version (the tables are empty): every declaration is new, met in source order
    for (let j = 0; j < n; j++) {
      redo[j] = 1;
      const tops = (made[j] = makeTops(decls[j]));
      for (let k = 0; k < tops.length; k++) {
        const t = tops[k];
        const name = t.def.name;
        if (!cache.declarers.has(name)) {
          cache.declarers.set(name, t);
          if (!builtinDefs.has(name)) cache.table.set(name, t);
        } else {
          addDeclarer(cache, t);
          if (!builtinDefs.has(name)) cache.duplicated.add(name);
        }
      }
    }
  }
  for (let j = a; j < n - b && prev.length; j++) {
    const u = kept?.get(decls[j]);
    if (u) { units[j] = u; continue; }
    redo[j] = 1;
    const tops = makeTops(decls[j]);
    made[j - a] = tops;
    for (const t of tops) {
      addDeclarer(cache, t);
      names.add(t.def.name);
    }
  }
  // the names whose first declaration changed: their lookers are resolved again
  const at = (u: Unit): number => {
    const j = lastStartingAt(decls, u.decl.range.start);
    return j >= 0 && decls[j] === u.decl ? j : decls.indexOf(u.decl);
  };
  for (const name of names) {
    const x = cache.declarers.get(name);
    const first = x === undefined || builtinDefs.has(name) ? undefined : Array.isArray(x) ? x[0] : x;
    const was = cache.table.get(name);
    if (first?.def !== was?.def) {
      // every use of the name is resolved again: those that find `first` count from 0
      if (first) {
        cache.table.set(name, first);
        first.uses = 0;
        cache.unused.add(first.def);
      } else cache.table.delete(name);
      if (was) cache.unused.delete(was.def);
      for (const u of cache.lookers?.get(name) ?? []) redo[at(u)] = 1;
    }
    if (Array.isArray(x) && !builtinDefs.has(name)) cache.duplicated.add(name);
    else cache.duplicated.delete(name);
  }
  for (const u of cache.volatile) redo[at(u)] = 1;
  // the units: kept, or resolved again (in source order)
  let suggestions = 0;
  const resolver = new DeclResolver(cache.table, cache.unused, lines, () => ordered(cache));
  for (let j = 0; j < n; j++) {
    if (!redo[j]) continue;
    const old = units[j];
    if (old) leave(cache, old); // a kept unit resolved again
    const u = resolver.run(decls[j], old ? old.tops : made[j - a], suggestions);
    suggestions += u.suggestions;
    join(cache, u);
    units[j] = u;
  }
  // the first version's unused definitions, once its uses are counted (not each one added, then most taken out)
  if (prev.length === 0) {
    cache.table.forEach((t) => {
      if (t.uses === 0) cache.unused.add(t.def);
    });
  }
  cache.decls = decls;
  cache.units = units;

  // name/... diagnostics: reserved and duplicate names, then the units' (sorted by start, stably)
  const diagnostics: Diagnostic[] = [];
  for (const name of builtinDefs.keys()) for (const t of declarerList(cache.declarers.get(name))) diagnostics.push(reserved(t.def.ident!)!);
  for (const name of cache.duplicated) {
    const [first, ...others] = declarerList(cache.declarers.get(name));
    for (const t of others) diagnostics.push(duplicate(lines, t.def.ident!, first.def));
  }
  diagnostics.sort((x, y) => x.range.start - y.range.start);
  if (cache.volatile.size) {
    for (const u of [...cache.volatile].sort((x, y) => x.decl.range.start - y.decl.range.start)) for (const x of u.diagnostics) diagnostics.push(x);
    diagnostics.sort((x, y) => x.range.start - y.range.start);
  }
  return new Composed(decls, units, cache, stamp, diagnostics);
}

/** The cache's lookers (made from the latest version's units on first need). */
export function lookersOf(cache: ResolveCache): Map<string, Unit[] | Set<Unit>> {
  if (!cache.lookers) {
    cache.lookers = new Map();
    for (const u of cache.units) addLooker(cache.lookers, u);
  }
  return cache.lookers;
}

/** a name's lookers are a list up to this many, a set beyond (a unit leaves in constant time) */
const LOOKERS_LIST = 8;

function addLooker(lookers: Map<string, Unit[] | Set<Unit>>, u: Unit): void {
  const uses = u.uses;
  for (let k = 1; k < uses.length; k += 2) {
    const def = uses[k] as Definition;
    if (!looksUp(def)) continue;
    const s = lookers.get(def.name);
    if (s === undefined) lookers.set(def.name, [u]);
    else if (Array.isArray(s)) {
      // a unit's uses are added together: it is already there if it is the last one
      if (s[s.length - 1] === u) continue;
      if (s.length < LOOKERS_LIST) s.push(u);
      else lookers.set(def.name, new Set(s).add(u));
    } else s.add(u);
  }
}

function removeLooker(lookers: Map<string, Unit[] | Set<Unit>>, u: Unit): void {
  const uses = u.uses;
  for (let k = 1; k < uses.length; k += 2) {
    const def = uses[k] as Definition;
    if (!looksUp(def)) continue;
    const s = lookers.get(def.name);
    if (s === undefined) continue; // removed with an earlier use of the same name
    if (Array.isArray(s)) {
      const i = s.indexOf(u);
      if (i < 0) continue;
      if (s.length === 1) lookers.delete(def.name);
      else s.splice(i, 1);
    } else {
      s.delete(u);
      if (s.size === 0) lookers.delete(def.name);
    }
  }
}

/** a unit leaves the latest version (its uses of a definition that is no longer the first of its name were counted for nothing) */
function leave(cache: ResolveCache, u: Unit): void {
  if (cache.lookers) removeLooker(cache.lookers, u);
  const uses = u.uses;
  for (let k = 1; k < uses.length; k += 2) {
    const def = uses[k] as Definition;
    if (!TOP_LEVEL.has(def.kind)) continue;
    const t = cache.table.get(def.name);
    if (t?.def === def && --t.uses === 0) cache.unused.add(def);
  }
  cache.volatile.delete(u);
}

/** a unit joins the latest version (its uses were counted as they were resolved: DeclResolver) */
function join(cache: ResolveCache, u: Unit): void {
  if (cache.lookers) addLooker(cache.lookers, u);
  if (u.diagnostics.length) cache.volatile.add(u);
}
