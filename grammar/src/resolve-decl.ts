// One declaration's name resolution (resolve.ts composes a file's from them): binds its uses to its
// locals, the file's top-level names and the built-ins; reports unknown, too-early and duplicate names.
import type * as ast from './ast.js';
import { CONSTRUCTORS, FUNCTIONS, PRIMITIVES, QUERY_METHODS } from './builtins.js';
import type { Diagnostic } from './diagnostic.js';
import type { LineIndex } from './line-index.js';
import { editDistance } from './parse.js';
import type { Definition, Global, NameUse, SymbolKind, Unit } from './resolve.js';

/** unknown names per file that get a did-you-mean suggestion (see `use`) */
export const MAX_SUGGESTIONS = 100;

export const builtinDefs = new Map<string, Definition>();
for (const n of CONSTRUCTORS) builtinDefs.set(n, { name: n, kind: 'constructor' });
for (const n of FUNCTIONS) builtinDefs.set(n, { name: n, kind: 'function' });
export const primitiveDefs = new Map<string, Definition>(PRIMITIVES.map((n) => [n, { name: n, kind: 'primitive' }]));
const queryMethods = new Set(QUERY_METHODS);

export function reserved(ident: ast.Ident): Diagnostic | undefined {
  const b = builtinDefs.get(ident.name);
  if (!b) return undefined;
  return {
    code: 'name/reserved',
    severity: 'error',
    message: `'${ident.name}' is a built-in ${b.kind === 'constructor' ? 'constructor' : 'function'} and cannot be redeclared`,
    range: ident.range,
  };
}

export function duplicate(lines: LineIndex, ident: ast.Ident, first: Definition): Diagnostic {
  const at = first.ident!.range;
  return {
    code: 'name/duplicate',
    severity: 'error',
    message: `'${ident.name}' is already declared at ${lines.format(at.start)}`,
    range: ident.range,
    related: [{ message: `first declaration of '${ident.name}'`, range: at }],
  };
}

interface Scope {
  decl: ast.Decl;
  locals: Map<string, Definition>[];
  free: Map<string, Definition>;
  /** names declared in the enclosing declaration but not visible here (a perm's indices in its inverse) */
  hidden?: Map<string, string>;
}

const NONE: readonly Definition[] = Object.freeze([]);
const NO_DIAGNOSTICS: readonly Diagnostic[] = Object.freeze([]);
const NO_DECLARATIONS: ReadonlyMap<ast.Ident, Definition> = new Map();

/** Resolves the uses and locals of one declaration against the file's top-level names. */
export class DeclResolver {
  private readonly refs = new Map<NameUse, Definition>();
  private readonly looked = new Map<string, Definition | undefined>();
  private readonly bound = new Set<Definition>();
  private used = 0;
  // made on first need: most declarations have no locals, free symbols or diagnostics
  private declared?: Map<ast.Ident, Definition>;
  private defs?: Definition[];
  private free?: Definition[];
  private reports?: Diagnostic[];

  constructor(
    private readonly d: ast.Decl,
    private readonly globals: ReadonlyMap<string, Global>,
    private readonly lines: LineIndex,
    private suggestions: number,
    /** the top-level names in source order (for did-you-means) */
    private readonly inOrder: () => readonly [string, Global][],
  ) {
  }

  run(): Unit {
    this.resolveDecl(this.d);
    return {
      decl: this.d, refs: this.refs, declarations: this.declared ?? NO_DECLARATIONS, definitions: this.defs ?? NONE, freeSymbols: this.free ?? NONE,
      diagnostics: this.reports ?? NO_DIAGNOSTICS, suggestions: this.used, looked: this.looked, bound: this.bound,
    };
  }

  private report(d: Diagnostic): void {
    (this.reports ??= []).push(d);
  }

  private define(def: Definition): void {
    (this.defs ??= []).push(def);
  }

  /** declares a local in the innermost scope map */
  private declareLocal(scope: Map<string, Definition>, ident: ast.Ident, kind: SymbolKind, decl: ast.Decl, rebind = false): void {
    const def: Definition = { name: ident.name, kind, ident, decl };
    this.define(def);
    (this.declared ??= new Map()).set(ident, def);
    const r = reserved(ident);
    if (r) {
      this.report(r);
      return;
    }
    const first = scope.get(ident.name);
    if (first && !rebind) {
      this.report(duplicate(this.lines, ident, first));
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
            const def = this.declared?.get(p);
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
    this.looked.set(name, g?.def);
    if (g) {
      if (node.range.start >= g.own.end) {
        this.refs.set(node, g.def);
        this.bound.add(g.def);
        return;
      }
      const own = node.range.start >= g.own.start && node.range.start < g.own.end;
      this.report(own
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
        (this.free ??= []).push(def);
        this.define(def);
      }
      this.refs.set(node, def);
      return;
    }
    const hidden = scope.hidden?.get(name);
    if (hidden) {
      this.report({ code: 'name/undefined', severity: 'error', message: hidden, range: node.range });
      return;
    }
    // did-you-mean costs a scan of every visible name: only the first MAX_SUGGESTIONS unknown
    // names of a file get one, so a generated file with thousands of them stays linear
    let s: string | undefined;
    this.used++;
    if (this.suggestions++ < MAX_SUGGESTIONS) {
      const candidates: string[] = [...builtinDefs.keys()];
      for (const m of scope.locals) for (const k of m.keys()) candidates.push(k);
      for (const [k, v] of this.inOrder()) if (node.range.start >= v.own.end) candidates.push(k);
      s = suggest(name, candidates);
    }
    this.report({
      code: 'name/undefined',
      severity: 'error',
      message: s ? `unknown name '${name}' (did you mean '${s}'?)` : `unknown name '${name}'`,
      range: node.range,
      ...(s ? { fixes: [{ title: `Change to '${s}'`, edits: [{ range: node.range, newText: s }] }] } : {}),
    });
  }

  private unknownPrimitive(id: ast.Ident): void {
    const s = suggest(id.name, PRIMITIVES);
    this.report({
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
