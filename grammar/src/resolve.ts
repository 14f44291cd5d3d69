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
import type * as ast from './ast.js';
import { CONSTRUCTORS, FUNCTIONS, PRIMITIVES, QUERY_METHODS } from './builtins.js';
import type { Diagnostic } from './diagnostic.js';
import { LineIndex } from './line-index.js';
import { editDistance } from './parse.js';
import { Composed } from './resolution-view.js';

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
  /** top-level definitions by name (the first one where a name is declared twice) */
  globals: Map<string, Definition>;
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
  /**
   * The resolution of one declaration of the file (its uses, locals, diagnostics) as an opaque key: the
   * same object in the next version's resolution when the declaration resolves exactly the same way
   * there (rules keep per-declaration summaries under it). Undefined for a declaration not in the file.
   */
  unitOf(decl: ast.Decl): object | undefined;
  /** `name/...` diagnostics, in source order */
  diagnostics: Diagnostic[];
}

/** unknown names per file that get a did-you-mean suggestion (see `use`) */
export const MAX_SUGGESTIONS = 100;

const builtinDefs = new Map<string, Definition>();
for (const n of CONSTRUCTORS) builtinDefs.set(n, { name: n, kind: 'constructor' });
for (const n of FUNCTIONS) builtinDefs.set(n, { name: n, kind: 'function' });
const primitiveDefs = new Map<string, Definition>(PRIMITIVES.map((n) => [n, { name: n, kind: 'primitive' }]));
const queryMethods = new Set(QUERY_METHODS);

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
  /** uses at or after this offset see the definition */
  visibleFrom: number;
  /** the declaration (or `param` item) that a use inside of is a self-reference */
  own: ast.Range;
}

/** A top-level definition a declaration makes, and the range a use inside of is a self-reference. */
export interface Top {
  def: Definition;
  own: ast.Range;
}

/** The resolution of one declaration's uses and locals, against the file's top-level names. */
export interface Unit {
  decl: ast.Decl;
  refs: Map<NameUse, Definition>;
  /** its locals' declaring identifiers */
  declarations: Map<ast.Ident, Definition>;
  /** its locals and free symbols, in the order they were made */
  definitions: Definition[];
  freeSymbols: Definition[];
  diagnostics: Diagnostic[];
  /** did-you-mean suggestions it used (of MAX_SUGGESTIONS per file) */
  suggestions: number;
  /** every top-level name it looked up -> the definition it found (undefined: none) */
  looked: Map<string, Definition | undefined>;
  /** the top-level definitions its uses resolve to */
  bound: Set<Definition>;
  /** the symbolAt index: uses and declaring identifiers (its top-level ones too), by start */
  index?: { start: number; end: number; node: NameUse; definition: Definition }[];
  /** the last resolution it was part of (ResolveCache bookkeeping) */
  stamp: number;
}

/** What a document's resolutions keep from one version to the next (see `resolve`). */
export class ResolveCache {
  /** per declaration object: its top-level definitions (made once: the same objects in every version) */
  readonly tops = new WeakMap<ast.Decl, Top[]>();
  /** per declaration object: its last resolution */
  readonly units = new WeakMap<ast.Decl, Unit>();
  /** the units of the latest resolution, and how many of their uses resolve to each top-level definition */
  live: Unit[] = [];
  binders = new Map<Definition, number>();
  stamp = 0;
}

function topsOf(cache: ResolveCache, d: ast.Decl): Top[] {
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

function reserved(ident: ast.Ident): Diagnostic | undefined {
  const b = builtinDefs.get(ident.name);
  if (!b) return undefined;
  return {
    code: 'name/reserved',
    severity: 'error',
    message: `'${ident.name}' is a built-in ${b.kind === 'constructor' ? 'constructor' : 'function'} and cannot be redeclared`,
    range: ident.range,
  };
}

function duplicate(lines: LineIndex, ident: ast.Ident, first: Definition): Diagnostic {
  const at = first.ident!.range;
  return {
    code: 'name/duplicate',
    severity: 'error',
    message: `'${ident.name}' is already declared at ${lines.format(at.start)}`,
    range: ident.range,
    related: [{ message: `first declaration of '${ident.name}'`, range: at }],
  };
}

/** can `u` (resolved in an earlier version) stand for `d`'s resolution against `globals` */
function stillValid(u: Unit, globals: ReadonlyMap<string, Global>): boolean {
  if (u.diagnostics.length > 0) return false;
  for (const [name, def] of u.looked) if (globals.get(name)?.def !== def) return false;
  return true;
}

function run(file: ast.File, lines: LineIndex, cache: ResolveCache): Resolution {
  // the top-level names, in source order (the first declaration of a name wins)
  const table = new Map<string, Global>();
  const globals = new Map<string, Definition>();
  const declared: Diagnostic[] = [];
  const decls = file.decls;
  const tops: Top[][] = new Array(decls.length);
  for (let j = 0; j < decls.length; j++) {
    const t = (tops[j] = topsOf(cache, decls[j]));
    for (const { def, own } of t) {
      const r = reserved(def.ident!);
      if (r) {
        declared.push(r);
        continue;
      }
      const first = table.get(def.name);
      if (first) {
        declared.push(duplicate(lines, def.ident!, first.def));
        continue;
      }
      table.set(def.name, { def, visibleFrom: own.end, own });
      globals.set(def.name, def);
    }
  }
  // each declaration's uses: kept where nothing it depends on changed, resolved again otherwise
  const stamp = ++cache.stamp;
  const units: Unit[] = new Array(decls.length);
  let suggestions = 0;
  for (let j = 0; j < decls.length; j++) {
    const d = decls[j];
    let u = cache.units.get(d);
    if (!u || !stillValid(u, table)) {
      u = new DeclResolver(d, table, lines, suggestions).run();
      cache.units.set(d, u);
    }
    suggestions += u.suggestions;
    units[j] = u;
  }
  // how many uses resolve to each top-level definition: updated by the units that came and went
  const prev = cache.live;
  for (const u of units) {
    if (u.stamp === stamp - 1) {
      u.stamp = stamp;
      continue;
    }
    u.stamp = stamp;
    for (const def of u.bound) cache.binders.set(def, (cache.binders.get(def) ?? 0) + 1);
  }
  for (const u of prev) {
    if (u.stamp === stamp) continue;
    for (const def of u.bound) {
      const n = cache.binders.get(def)! - 1;
      if (n === 0) cache.binders.delete(def);
      else cache.binders.set(def, n);
    }
  }
  cache.live = units;
  const binders = cache.binders;

  const diagnostics: Diagnostic[] = declared;
  for (const u of units) for (const x of u.diagnostics) diagnostics.push(x);
  diagnostics.sort((a, b) => a.range.start - b.range.start);
  return new Composed(decls, tops, units, globals, diagnostics, () => (cache.stamp === stamp ? binders : undefined));
}

interface Scope {
  decl: ast.Decl;
  locals: Map<string, Definition>[];
  free: Map<string, Definition>;
  /** names declared in the enclosing declaration but not visible here (a perm's indices in its inverse) */
  hidden?: Map<string, string>;
}

/** Resolves the uses and locals of one declaration against the file's top-level names. */
class DeclResolver {
  private readonly unit: Unit;

  constructor(private readonly d: ast.Decl, private readonly globals: ReadonlyMap<string, Global>, private readonly lines: LineIndex, private suggestions: number) {
    this.unit = {
      decl: d, refs: new Map(), declarations: new Map(), definitions: [], freeSymbols: [], diagnostics: [], suggestions: 0,
      looked: new Map(), bound: new Set(), stamp: -1,
    };
  }

  run(): Unit {
    this.resolveDecl(this.d);
    return this.unit;
  }

  /** declares a local in the innermost scope map */
  private declareLocal(scope: Map<string, Definition>, ident: ast.Ident, kind: SymbolKind, decl: ast.Decl, rebind = false): void {
    const def: Definition = { name: ident.name, kind, ident, decl };
    this.unit.definitions.push(def);
    this.unit.declarations.set(ident, def);
    const r = reserved(ident);
    if (r) {
      this.unit.diagnostics.push(r);
      return;
    }
    const first = scope.get(ident.name);
    if (first && !rebind) {
      this.unit.diagnostics.push(duplicate(this.lines, ident, first));
      return;
    }
    scope.set(ident.name, def);
  }

  // -------------------------------------------------------------- uses

  private resolveDecl(d: ast.Decl): void {
    const scope: Scope = { decl: d, locals: [], free: new Map() };
    switch (d.kind) {
      case 'Param':
        for (const item of d.items) {
          this.expr(item.value, scope, false);
          if (item.candidates) this.expr(item.candidates, scope, false);
        }
        break;
      case 'Let':
        this.expr(d.value, scope, false);
        break;
      case 'Layout':
        this.expr(d.value, scope, false);
        // facts may name free index symbols (`where tid < T * T`)
        for (const f of d.where?.facts ?? []) this.expr(f, scope, true);
        break;
      case 'Assume':
        for (const f of d.facts) this.expr(f, scope, true);
        break;
      case 'Linear':
        // `operand=acc` names a word, not a declaration
        for (const a of d.args) if (!(a.name.name === 'operand' && a.value.kind === 'Name')) this.expr(a.value, scope, false);
        break;
      case 'Perm': {
        const body = new Map<string, Definition>();
        for (const p of d.params) this.declareLocal(body, p, 'permParam', d);
        for (const i of d.indices) this.declareLocal(body, i, 'permIndex', d);
        scope.locals = [body];
        this.expr(d.body, scope, false);
        if (d.inverse) {
          const inv = new Map<string, Definition>();
          for (const p of d.params) {
            const def = this.unit.declarations.get(p);
            if (def && body.get(p.name) === def) inv.set(p.name, def);
          }
          this.declareLocal(inv, d.inverse.arg, 'inverseArg', d);
          scope.locals = [inv];
          scope.hidden = new Map(d.indices.map((i) => [i.name, `'${i.name}' is an index of the perm, not visible in its inverse: the inverse computes the indices from '${d.inverse!.arg.name}'`]));
          for (const r of d.inverse.results) this.expr(r, scope, false);
        }
        break;
      }
      case 'Kernel': {
        const names = new Map<string, Definition>();
        scope.locals = [names];
        for (const f of d.where?.facts ?? []) this.expr(f, scope, true);
        for (const b of d.bindings) {
          this.expr(b.value, scope, false);
          for (const n of b.names) this.declareLocal(names, n, 'binding', d);
        }
        break;
      }
      case 'Schedule': {
        for (const a of d.op?.args ?? []) this.expr(a, scope, false);
        const results = new Map<string, Definition>();
        scope.locals = [results];
        for (const st of d.steps) {
          const prim = primitiveDefs.get(st.primitive.name);
          if (prim) this.unit.refs.set(st.primitive, prim);
          else this.unknownPrimitive(st.primitive);
          for (const a of st.args) this.expr(a, scope, false);
          if (st.result) this.declareLocal(results, st.result, 'stepResult', d, true);
        }
        break;
      }
    }
  }

  /** `free`: inside an index list or the arguments of `.inv`/`.apply`, where unknown names are index symbols */
  private expr(e: ast.Expr, scope: Scope, free: boolean): void {
    switch (e.kind) {
      case 'Name': this.use(e, scope, free); break;
      case 'Int': case 'String': break;
      case 'Unary': this.expr(e.operand, scope, free); break;
      case 'Binary': this.expr(e.left, scope, free); this.expr(e.right, scope, free); break;
      case 'If': this.expr(e.cond, scope, free); this.expr(e.then, scope, free); this.expr(e.else, scope, free); break;
      case 'Call':
        this.use(e.callee, scope, false);
        for (const a of e.args) this.expr(a, scope, free);
        break;
      case 'MethodCall': {
        this.expr(e.receiver, scope, free);
        const q = free || queryMethods.has(e.method.name);
        for (const a of e.args) this.expr(a, scope, q);
        break;
      }
      case 'Index':
        this.expr(e.receiver, scope, free);
        for (const i of e.indices) {
          if (i.kind === 'Slice') {
            if (i.start) this.expr(i.start, scope, true);
            if (i.stop) this.expr(i.stop, scope, true);
            if (i.step) this.expr(i.step, scope, true);
          } else this.expr(i, scope, true);
        }
        break;
      case 'Range':
        this.expr(e.start, scope, free);
        this.expr(e.stop, scope, free);
        if (e.step) this.expr(e.step, scope, free);
        break;
      case 'List': case 'Tuple':
        for (const i of e.items) this.expr(i, scope, free);
        break;
      case 'Error':
        if (e.partial) this.expr(e.partial, scope, free);
        break;
    }
  }

  private use(node: NameUse, scope: Scope, free: boolean): void {
    const name = node.kind === 'Name' ? node.name : node.name;
    for (let k = scope.locals.length - 1; k >= 0; k--) {
      const def = scope.locals[k].get(name);
      if (def) { this.unit.refs.set(node, def); return; }
    }
    const g = this.globals.get(name);
    this.unit.looked.set(name, g?.def);
    if (g) {
      if (node.range.start >= g.visibleFrom) {
        this.unit.refs.set(node, g.def);
        this.unit.bound.add(g.def);
        return;
      }
      const own = node.range.start >= g.own.start && node.range.start < g.own.end;
      this.unit.diagnostics.push(own
        ? {
            code: 'name/self-reference',
            severity: 'error',
            message: `'${name}' is used in its own declaration`,
            range: node.range,
          }
        : {
            code: 'name/use-before-declaration',
            severity: 'error',
            message: `'${name}' is used before its declaration at ${this.lines.format(g.def.ident!.range.start)}`,
            range: node.range,
            related: [{ message: `'${name}' is declared here`, range: g.def.ident!.range }],
          });
      return;
    }
    const b = builtinDefs.get(name);
    if (b) { this.unit.refs.set(node, b); return; }
    if (free) {
      let def = scope.free.get(name);
      if (!def) {
        def = { name, kind: 'free', decl: scope.decl };
        scope.free.set(name, def);
        this.unit.freeSymbols.push(def);
        this.unit.definitions.push(def);
      }
      this.unit.refs.set(node, def);
      return;
    }
    const hidden = scope.hidden?.get(name);
    if (hidden) {
      this.unit.diagnostics.push({ code: 'name/undefined', severity: 'error', message: hidden, range: node.range });
      return;
    }
    // did-you-mean costs a scan of every visible name: only the first MAX_SUGGESTIONS unknown
    // names of a file get one, so a generated file with thousands of them stays linear
    let s: string | undefined;
    this.unit.suggestions++;
    if (this.suggestions++ < MAX_SUGGESTIONS) {
      const candidates: string[] = [...builtinDefs.keys()];
      for (const m of scope.locals) for (const k of m.keys()) candidates.push(k);
      for (const [k, v] of this.globals) if (node.range.start >= v.visibleFrom) candidates.push(k);
      s = suggest(name, candidates);
    }
    this.unit.diagnostics.push({
      code: 'name/undefined',
      severity: 'error',
      message: s ? `unknown name '${name}' (did you mean '${s}'?)` : `unknown name '${name}'`,
      range: node.range,
      ...(s ? { fixes: [{ title: `Change to '${s}'`, edits: [{ range: node.range, newText: s }] }] } : {}),
    });
  }

  private unknownPrimitive(id: ast.Ident): void {
    const s = suggest(id.name, PRIMITIVES);
    this.unit.diagnostics.push({
      code: 'name/unknown-primitive',
      severity: 'error',
      message: s
        ? `unknown schedule primitive '${id.name}' (did you mean '${s}'?)`
        : `unknown schedule primitive '${id.name}': expected one of ${PRIMITIVES.join(', ')}`,
      range: id.range,
      ...(s ? { fixes: [{ title: `Change to '${s}'`, edits: [{ range: id.range, newText: s }] }] } : {}),
    });
  }
}

/**
 * The closest candidate to `name`, if close enough: same letters in another case first, then the
 * smallest edit distance (at most a third of the name's length, at least 1, and less than its
 * length), ties broken alphabetically.
 */
/** Names longer than this get no did-you-mean (and candidates longer than this are not proposed). */
export const MAX_SUGGEST_NAME = 64;
/** Most edit-distance table cells one suggestion computes: bounds the work on files with many long names. */
export const MAX_SUGGEST_CELLS = 500_000;

export function suggest(name: string, candidates: Iterable<string>): string | undefined {
  if (name.length > MAX_SUGGEST_NAME) return undefined;
  const lower = name.toLowerCase();
  const limit = Math.max(1, Math.floor((name.length + 1) / 3));
  let best: string | undefined;
  let bestScore = Infinity;
  let cells = 0;
  for (const c of new Set(candidates)) {
    if (c === name || c.length > MAX_SUGGEST_NAME || Math.abs(c.length - name.length) > limit) continue;
    cells += (name.length + 1) * (c.length + 1);
    if (cells > MAX_SUGGEST_CELLS) break;
    const score = c.toLowerCase() === lower ? 0 : editDistance(lower, c.toLowerCase());
    if (score !== 0 && (score > limit || score >= name.length)) continue;
    if (score < bestScore || (score === bestScore && best !== undefined && c < best)) {
      best = c;
      bestScore = score;
    }
  }
  return best;
}
