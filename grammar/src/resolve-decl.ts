// One declaration's name resolution (resolve.ts composes a file's from them): binds its uses to its
// locals, the file's top-level names and the built-ins; reports unknown, too-early and duplicate names.
import type * as ast from './ast.js';
import { CONSTRUCTORS, FUNCTIONS, PRIMITIVES, QUERY_METHODS } from './builtins.js';
import type { Diagnostic } from './diagnostic.js';
import type { LineIndex } from './line-index.js';
import { editDistance } from './parse.js';
import type { Definition, Global, NameUse, SymbolKind, Top, Unit } from './resolve.js';

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

const NONE: readonly Definition[] = Object.freeze([]);
/** locals of one declaration found by a scan of the list up to this many (by a map beyond) */
const SMALL_SCOPE = 16;
const NO_DIAGNOSTICS: readonly Diagnostic[] = Object.freeze([]);
const NO_USES: readonly (NameUse | Definition)[] = Object.freeze([]);

/**
 * Resolves the uses and locals of declarations (one at a time) against the file's top-level names.
 * What one declaration's resolution collects goes into scratch lists shared by every run (their storage
 * kept, their counts reset after each) and is copied into its unit at exactly its size: no map per declaration.
 */
export class DeclResolver {
  /**
   * the uses and their definitions, interleaved: the first `nUses` entries (scratch lists keep their
   * size from one declaration to the next: emptying one would free its storage, regrown for each)
   */
  private readonly uses: (NameUse | Definition)[] = [];
  private nUses = 0;
  /** are `uses` in source order (they are, in the order the walk visits them, unless a construct says otherwise) */
  private sorted = true;
  private lastStart = -1;
  /** the locals and free symbols made: the first `nDefs` */
  private readonly defs: Definition[] = [];
  private nDefs = 0;
  private readonly reports: Diagnostic[] = [];
  private used = 0;
  private suggestions = 0;
  private d!: ast.Decl;
  /**
   * the locals visible here: the first `nVis` (a declaration's scope is one list: a perm's body or
   * inverse, a kernel's bindings, a schedule's step results); a name's last one is the one seen (a
   * step result may be re-bound); beyond `SMALL_SCOPE` of them they are found through `big`
   */
  private readonly vis: Definition[] = [];
  private nVis = 0;
  private big?: Map<string, Definition>;
  /** the free index symbols by name (made on first need) */
  private free?: Map<string, Definition>;
  /** names declared in the declaration but not visible here (a perm's indices in its inverse) */
  private hidden?: Map<string, string>;

  constructor(
    private readonly globals: ReadonlyMap<string, Global>,
    /** the first declarations no use resolves to: a use that resolves to one takes it out (and counts in `Top.uses`) */
    private readonly unused: Set<Definition>,
    private readonly lines: LineIndex,
    /** the top-level names in source order (for did-you-means) */
    private readonly inOrder: () => readonly [string, Global][],
  ) {
  }

  /**
   * The unit of `d` (whose top-level definitions are `tops`), `suggestions` did-you-means having been
   * given in the file before it.
   */
  run(d: ast.Decl, tops: readonly Top[], suggestions: number): Unit {
    this.d = d;
    this.suggestions = suggestions;
    this.used = 0;
    this.sorted = true;
    this.lastStart = -1;
    this.nVis = 0;
    this.big = undefined;
    this.free = undefined;
    this.hidden = undefined;
    this.resolveDecl(d);
    const uses = this.nUses ? (this.sorted ? this.uses.slice(0, this.nUses) : bySource(this.uses.slice(0, this.nUses))) : NO_USES;
    const unit: Unit = {
      decl: d, tops, uses, definitions: this.nDefs ? this.defs.slice(0, this.nDefs) : NONE,
      diagnostics: this.reports.length ? this.reports.slice() : NO_DIAGNOSTICS, suggestions: this.used,
    };
    this.nUses = 0;
    this.nDefs = 0;
    if (this.reports.length) this.reports.length = 0;
    return unit;
  }

  private report(d: Diagnostic): void {
    this.reports.push(d);
  }

  private bind(node: NameUse, def: Definition): void {
    const s = node.range.start;
    if (s < this.lastStart) this.sorted = false;
    this.lastStart = s;
    this.uses[this.nUses++] = node;
    this.uses[this.nUses++] = def;
  }

  /** the local `ident` declares (this run's) */
  private localOf(ident: ast.Ident): Definition | undefined {
    for (let k = 0; k < this.nDefs; k++) if (this.defs[k].ident === ident) return this.defs[k];
    return undefined;
  }

  /** the visible local named `name` */
  private local(name: string): Definition | undefined {
    if (this.big) return this.big.get(name);
    for (let k = this.nVis - 1; k >= 0; k--) if (this.vis[k].name === name) return this.vis[k];
    return undefined;
  }

  /** `def` becomes visible */
  private show(def: Definition): void {
    this.vis[this.nVis++] = def;
    if (this.big) this.big.set(def.name, def);
    else if (this.nVis > SMALL_SCOPE) {
      this.big = new Map();
      for (let k = 0; k < this.nVis; k++) this.big.set(this.vis[k].name, this.vis[k]);
    }
  }

  /** the scope is emptied */
  private hideAll(): void {
    this.nVis = 0;
    this.big = undefined;
  }

  /** declares a local in the scope */
  private declareLocal(ident: ast.Ident, kind: SymbolKind, decl: ast.Decl, rebind = false): void {
    const def: Definition = { name: ident.name, kind, ident, decl };
    this.defs[this.nDefs++] = def;
    const r = reserved(ident);
    if (r) {
      this.report(r);
      return;
    }
    const first = this.local(ident.name);
    if (first && !rebind) {
      this.report(duplicate(this.lines, ident, first));
      return;
    }
    this.show(def);
  }

  // -------------------------------------------------------------- uses

  private resolveDecl(d: ast.Decl): void {
    switch (d.kind) {
      case 'Param':
        for (let k = 0; k < d.items.length; k++) {
          const item = d.items[k];
          this.expr(item.value, false);
          if (item.candidates) this.expr(item.candidates, false);
        }
        break;
      case 'Let':
        this.expr(d.value, false);
        break;
      case 'Layout':
        this.expr(d.value, false);
        // facts may name free index symbols (`where tid < T * T`)
        if (d.where) this.exprs(d.where.facts, true);
        break;
      case 'Assume':
        this.exprs(d.facts, true);
        break;
      case 'Linear':
        // `operand=acc` names a word, not a declaration
        for (const a of d.args) if (!(a.name.name === 'operand' && a.value.kind === 'Name')) this.expr(a.value, false);
        break;
      case 'Perm': {
        for (const p of d.params) this.declareLocal(p, 'permParam', d);
        for (const i of d.indices) this.declareLocal(i, 'permIndex', d);
        this.expr(d.body, false);
        if (d.inverse) {
          // the params seen in the body (not a duplicate or reserved name) are seen in the inverse
          const seen: Definition[] = [];
          for (const p of d.params) {
            const def = this.localOf(p);
            if (def && this.local(p.name) === def) seen.push(def);
          }
          this.hideAll();
          for (const def of seen) this.show(def);
          this.declareLocal(d.inverse.arg, 'inverseArg', d);
          this.hidden = new Map(d.indices.map((i) => [i.name, `'${i.name}' is an index of the perm, not visible in its inverse: the inverse computes the indices from '${d.inverse!.arg.name}'`]));
          this.exprs(d.inverse.results, false);
        }
        break;
      }
      case 'Kernel': {
        if (d.where) this.exprs(d.where.facts, true);
        for (let k = 0; k < d.bindings.length; k++) {
          const b = d.bindings[k];
          this.expr(b.value, false);
          for (let i = 0; i < b.names.length; i++) this.declareLocal(b.names[i], 'binding', d);
        }
        break;
      }
      case 'Schedule': {
        if (d.op) this.exprs(d.op.args, false);
        for (let k = 0; k < d.steps.length; k++) {
          const st = d.steps[k];
          const prim = primitiveDefs.get(st.primitive.name);
          if (prim) this.bind(st.primitive, prim);
          else this.unknownPrimitive(st.primitive);
          this.exprs(st.args, false);
          if (st.result) this.declareLocal(st.result, 'stepResult', d, true);
        }
        break;
      }
    }
  }

  /** (indexed loops: no iterator objects in code that runs cold, at open) */
  private exprs(es: readonly ast.Expr[], free: boolean): void {
    for (let k = 0; k < es.length; k++) this.expr(es[k], free);
  }

  /** `free`: inside an index list or the arguments of `.inv`/`.apply`, where unknown names are index symbols */
  private expr(e: ast.Expr, free: boolean): void {
    switch (e.kind) {
      case 'Name': this.use(e, free); break;
      case 'Int': case 'String': break;
      case 'Unary': this.expr(e.operand, free); break;
      case 'Binary': this.expr(e.left, free); this.expr(e.right, free); break;
      case 'If': this.expr(e.cond, free); this.expr(e.then, free); this.expr(e.else, free); break;
      case 'Call':
        this.use(e.callee, false);
        this.exprs(e.args, free);
        break;
      case 'MethodCall': {
        this.expr(e.receiver, free);
        this.exprs(e.args, free || queryMethods.has(e.method.name));
        break;
      }
      case 'Index':
        this.expr(e.receiver, free);
        for (let k = 0; k < e.indices.length; k++) {
          const i = e.indices[k];
          if (i.kind === 'Slice') {
            if (i.start) this.expr(i.start, true);
            if (i.stop) this.expr(i.stop, true);
            if (i.step) this.expr(i.step, true);
          } else this.expr(i, true);
        }
        break;
      case 'Range':
        this.expr(e.start, free);
        this.expr(e.stop, free);
        if (e.step) this.expr(e.step, free);
        break;
      case 'List': case 'Tuple':
        this.exprs(e.items, free);
        break;
      case 'Error':
        if (e.partial) this.expr(e.partial, free);
        break;
    }
  }

  private use(node: NameUse, free: boolean): void {
    const name = node.name;
    if (this.nVis) {
      const def = this.local(name);
      if (def) { this.bind(node, def); return; }
    }
    const g = this.globals.get(name);
    if (g) {
      if (node.range.start >= g.own.end) {
        this.bind(node, g.def);
        if (g.uses++ === 0) this.unused.delete(g.def);
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
    if (b) { this.bind(node, b); return; }
    if (free) {
      let def = this.free?.get(name);
      if (!def) {
        def = { name, kind: 'free', decl: this.d };
        (this.free ??= new Map()).set(name, def);
        this.defs[this.nDefs++] = def;
      }
      this.bind(node, def);
      return;
    }
    const hidden = this.hidden?.get(name);
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
      for (let k = 0; k < this.nVis; k++) candidates.push(this.vis[k].name);
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

/** interleaved [use, definition] pairs sorted by the use's start (stably), at exactly their size */
function bySource(pairs: readonly (NameUse | Definition)[]): (NameUse | Definition)[] {
  const order = Array.from({ length: pairs.length / 2 }, (_, k) => k);
  order.sort((x, y) => (pairs[2 * x] as NameUse).range.start - (pairs[2 * y] as NameUse).range.start);
  const out = new Array<NameUse | Definition>(pairs.length);
  for (let k = 0; k < order.length; k++) {
    out[2 * k] = pairs[2 * order[k]];
    out[2 * k + 1] = pairs[2 * order[k] + 1];
  }
  return out;
}

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
