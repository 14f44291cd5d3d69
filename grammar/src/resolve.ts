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
  refs: Map<NameUse, Definition>;
  /** declaring identifier -> its definition */
  declarations: Map<ast.Ident, Definition>;
  /** the free index symbols, in order of first use */
  freeSymbols: Definition[];
  /** the uses of `def` in this file, in source order */
  references(def: Definition): NameUse[];
  /** the use or declaring identifier covering `offset` (end inclusive, for a cursor after a name) */
  symbolAt(offset: number): { node: NameUse; definition: Definition } | undefined;
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

/** Resolves the names of `file`. `text` (or its LineIndex) is only used to print positions in messages. */
export function resolve(file: ast.File, text: string | LineIndex): Resolution {
  const lines = typeof text === 'string' ? new LineIndex(text) : text;
  return new Resolver(lines).run(file);
}

interface Global {
  def: Definition;
  /** uses at or after this offset see the definition */
  visibleFrom: number;
  /** the declaration (or `param` item) that a use inside of is a self-reference */
  own: ast.Range;
}

interface Scope {
  decl: ast.Decl;
  locals: Map<string, Definition>[];
  free: Map<string, Definition>;
  /** names declared in the enclosing declaration but not visible here (a perm's indices in its inverse) */
  hidden?: Map<string, string>;
}

class Resolver {
  private readonly globals = new Map<string, Global>();
  private readonly definitions: Definition[] = [];
  private readonly refs = new Map<NameUse, Definition>();
  private readonly declarations = new Map<ast.Ident, Definition>();
  private readonly freeSymbols: Definition[] = [];
  private readonly diagnostics: Diagnostic[] = [];
  private suggestions = 0;

  constructor(private readonly lines: LineIndex) {}

  run(file: ast.File): Resolution {
    for (const d of file.decls) this.declareGlobals(d);
    for (const d of file.decls) this.resolveDecl(d);
    const globals = new Map<string, Definition>();
    for (const [k, g] of this.globals) globals.set(k, g.def);
    const refs = this.refs;
    const declarations = this.declarations;
    let byDef: Map<Definition, NameUse[]> | undefined;
    const usesOf = (def: Definition): NameUse[] => {
      if (!byDef) {
        byDef = new Map();
        for (const [use, d] of refs) {
          let list = byDef.get(d);
          if (!list) byDef.set(d, (list = []));
          list.push(use);
        }
        for (const list of byDef.values()) list.sort((a, b) => a.range.start - b.range.start);
      }
      return byDef.get(def) ?? [];
    };
    let index: { start: number; end: number; node: NameUse; definition: Definition }[] | undefined;
    this.diagnostics.sort((a, b) => a.range.start - b.range.start);
    return {
      globals,
      definitions: this.definitions,
      refs,
      declarations,
      freeSymbols: this.freeSymbols,
      diagnostics: this.diagnostics,
      references: usesOf,
      symbolAt(offset) {
        if (!index) {
          index = [];
          for (const [node, definition] of refs) index.push({ start: node.range.start, end: node.range.end, node, definition });
          for (const [node, definition] of declarations) index.push({ start: node.range.start, end: node.range.end, node, definition });
          index.sort((a, b) => a.start - b.start);
        }
        let lo = 0;
        let hi = index.length - 1;
        let found = -1;
        while (lo <= hi) {
          const mid = (lo + hi) >> 1;
          if (index[mid].start <= offset) { found = mid; lo = mid + 1; } else hi = mid - 1;
        }
        const hit = found >= 0 ? index[found] : undefined;
        return hit && offset <= hit.end ? { node: hit.node, definition: hit.definition } : undefined;
      },
    };
  }

  // -------------------------------------------------------------- definitions

  private declareGlobals(d: ast.Decl): void {
    switch (d.kind) {
      case 'Param':
        for (const item of d.items) this.declareGlobal(item.name, d.isConst ? 'const' : 'param', d, item.range);
        break;
      case 'Let': this.declareGlobal(d.name, 'let', d, d.range); break;
      case 'Layout': this.declareGlobal(d.name, 'layout', d, d.range); break;
      case 'Perm': this.declareGlobal(d.name, 'perm', d, d.range); break;
      case 'Linear': this.declareGlobal(d.name, 'linear', d, d.range); break;
      case 'Kernel': this.declareGlobal(d.name, 'kernel', d, d.range); break;
      case 'Schedule': this.declareGlobal(d.name, 'schedule', d, d.range); break;
    }
  }

  private declareGlobal(ident: ast.Ident, kind: SymbolKind, decl: ast.Decl, own: ast.Range): void {
    const def = this.define(ident, kind, decl);
    if (!this.allowedName(ident)) return;
    const first = this.globals.get(ident.name);
    if (first) {
      this.duplicate(ident, first.def);
      return;
    }
    this.globals.set(ident.name, { def, visibleFrom: own.end, own });
  }

  /** declares a local in the innermost scope map */
  private declareLocal(scope: Map<string, Definition>, ident: ast.Ident, kind: SymbolKind, decl: ast.Decl, rebind = false): void {
    const def = this.define(ident, kind, decl);
    if (!this.allowedName(ident)) return;
    const first = scope.get(ident.name);
    if (first && !rebind) {
      this.duplicate(ident, first);
      return;
    }
    scope.set(ident.name, def);
  }

  private define(ident: ast.Ident, kind: SymbolKind, decl: ast.Decl): Definition {
    const def: Definition = { name: ident.name, kind, ident, decl };
    this.definitions.push(def);
    this.declarations.set(ident, def);
    return def;
  }

  private allowedName(ident: ast.Ident): boolean {
    const b = builtinDefs.get(ident.name);
    if (!b) return true;
    this.diagnostics.push({
      code: 'name/reserved',
      severity: 'error',
      message: `'${ident.name}' is a built-in ${b.kind === 'constructor' ? 'constructor' : 'function'} and cannot be redeclared`,
      range: ident.range,
    });
    return false;
  }

  private duplicate(ident: ast.Ident, first: Definition): void {
    const at = first.ident!.range;
    this.diagnostics.push({
      code: 'name/duplicate',
      severity: 'error',
      message: `'${ident.name}' is already declared at ${this.lines.format(at.start)}`,
      range: ident.range,
      related: [{ message: `first declaration of '${ident.name}'`, range: at }],
    });
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
            const def = this.declarations.get(p);
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
          if (prim) this.refs.set(st.primitive, prim);
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
      if (def) { this.refs.set(node, def); return; }
    }
    const g = this.globals.get(name);
    if (g) {
      if (node.range.start >= g.visibleFrom) { this.refs.set(node, g.def); return; }
      const own = node.range.start >= g.own.start && node.range.start < g.own.end;
      this.diagnostics.push(own
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
    if (b) { this.refs.set(node, b); return; }
    if (free) {
      let def = scope.free.get(name);
      if (!def) {
        def = { name, kind: 'free', decl: scope.decl };
        scope.free.set(name, def);
        this.freeSymbols.push(def);
        this.definitions.push(def);
      }
      this.refs.set(node, def);
      return;
    }
    const hidden = scope.hidden?.get(name);
    if (hidden) {
      this.diagnostics.push({ code: 'name/undefined', severity: 'error', message: hidden, range: node.range });
      return;
    }
    // did-you-mean costs a scan of every visible name: only the first MAX_SUGGESTIONS unknown
    // names of a file get one, so a generated file with thousands of them stays linear
    let s: string | undefined;
    if (this.suggestions++ < MAX_SUGGESTIONS) {
      const candidates: string[] = [...builtinDefs.keys()];
      for (const m of scope.locals) for (const k of m.keys()) candidates.push(k);
      for (const [k, v] of this.globals) if (node.range.start >= v.visibleFrom) candidates.push(k);
      s = suggest(name, candidates);
    }
    this.diagnostics.push({
      code: 'name/undefined',
      severity: 'error',
      message: s ? `unknown name '${name}' (did you mean '${s}'?)` : `unknown name '${name}'`,
      range: node.range,
      ...(s ? { fixes: [{ title: `Change to '${s}'`, edits: [{ range: node.range, newText: s }] }] } : {}),
    });
  }

  private unknownPrimitive(id: ast.Ident): void {
    const s = suggest(id.name, PRIMITIVES);
    this.diagnostics.push({
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
