// The symbol index of one file, over the grammar's name resolution (`resolve`): every declared
// name with its scope, every use, linked. It drives definition, references, rename, highlights,
// hover targets and completion scopes. Built-in names (constructors, functions, primitives) are
// not symbols here: they cannot be navigated to or renamed.
//
// A free index symbol (`pid`, `k` in `A[pid_m, k, :, :]`) has no declaration: its first use
// stands as one.
import type * as ast from '../../../grammar/src/ast.js';
import type { Range } from '../../../grammar/src/ast.js';
import type { LineIndex } from '../../../grammar/src/line-index.js';
import { resolve, type Definition, type NameUse, type Resolution, type ResolveCache, type UnitSymbols } from '../../../grammar/src/resolve.js';

export type SymbolKind =
  | 'param' | 'const' | 'let' | 'layout' | 'perm' | 'linear'
  | 'permParam' | 'permIndex' | 'inverseArg'
  | 'kernel' | 'binding' | 'free'
  | 'schedule' | 'handle';

export interface SymbolDef {
  name: string;
  kind: SymbolKind;
  /** the declaring identifier (a free symbol: its first use) */
  range: Range;
  /** the whole declaration (a ParamItem, a LetDecl, a Binding, a Step, ...) */
  declRange: Range;
  /** where the name is visible; undefined for file-wide names */
  scope?: Range;
  /** the enclosing top-level declaration (for top-level names: their own) */
  container?: ast.Decl;
  /** the resolver's definition */
  definition: Definition;
}

export interface SymbolRef {
  name: string;
  range: Range;
  def: SymbolDef;
}

export interface Occurrence {
  def: SymbolDef;
  range: Range;
  isDeclaration: boolean;
}

/** File-wide declaration kinds. */
export const globalKinds: ReadonlySet<SymbolKind> = new Set(['param', 'const', 'let', 'layout', 'perm', 'linear', 'kernel', 'schedule']);

export class SymbolIndex {
  readonly resolution: Resolution;
  /** `defOf`'s results of this version for definitions without an identifier */
  private readonly byDefinition = new Map<Definition, SymbolDef | null>();
  private _defs?: SymbolDef[];
  private _refs?: SymbolRef[];
  private _globals?: Map<string, SymbolDef>;
  private readonly usesByDef = new Map<SymbolDef, SymbolRef[]>();

  /**
   * Resolves the file (with a document's `cache`: re-using the earlier versions' resolution of every
   * declaration that resolves the same way); everything else is computed on first use (a hover on a new version needs
   * one definition and its uses, not an index of the whole file).
   */
  constructor(readonly file: ast.File, lines: LineIndex, cache?: ResolveCache) {
    this.resolution = resolve(file, lines, cache);
  }

  /** every symbol, in the resolver's order (top-level ones in source order, then locals and free symbols) */
  get defs(): SymbolDef[] {
    if (!this._defs) {
      const out: SymbolDef[] = [];
      for (const d of this.resolution.definitions) {
        const def = this.defOf(d);
        if (def) out.push(def);
      }
      this._defs = out;
    }
    return this._defs;
  }

  /** every resolved use of a symbol, in source order */
  get refs(): SymbolRef[] {
    if (!this._refs) {
      const out: SymbolRef[] = [];
      for (const [use, d] of this.resolution.refs) this.pushRef(out, use, d);
      this._refs = out.sort((a, b) => a.range.start - b.range.start);
    }
    return this._refs;
  }

  /**
   * `defs` and `refs` restricted to the declarations of `units` (consecutive units of this version's
   * resolution), each sorted by start as a semantic-tokens request reads them: in ties, `defs` keeps the
   * resolver's order (top-level definitions before locals) and `refs` the units' order.
   */
  symbolsOf(units: readonly UnitSymbols[]): { defs: SymbolDef[]; refs: SymbolRef[] } {
    const defs: SymbolDef[] = [];
    for (const u of units) {
      for (const { def: d } of u.tops) {
        const def = this.defOf(d);
        if (def) defs.push(def);
      }
    }
    for (const u of units) {
      for (const d of u.definitions) {
        const def = this.defOf(d);
        if (def) defs.push(def);
      }
    }
    const refs: SymbolRef[] = [];
    for (const u of units) for (let k = 0; k < u.uses.length; k += 2) this.pushRef(refs, u.uses[k] as NameUse, u.uses[k + 1] as Definition);
    return { defs: defs.sort((x, y) => x.range.start - y.range.start), refs: refs.sort((a, b) => a.range.start - b.range.start) };
  }

  /** `use` of `d` as a symbol reference onto `out`; none for a built-in or a free index's stand-in declaration */
  private pushRef(out: SymbolRef[], use: NameUse, d: Definition): void {
    const def = this.defOf(d);
    if (!def || (def.kind === 'free' && use.range.start === def.range.start)) return;
    out.push({ name: d.name, range: use.range, def });
  }

  /** file-wide names; the first declaration of a name wins */
  get globals(): Map<string, SymbolDef> {
    if (!this._globals) {
      const out = new Map<string, SymbolDef>();
      for (const [name, d] of this.resolution.globals) {
        const def = this.defOf(d);
        if (def) out.set(name, def);
      }
      this._globals = out;
    }
    return this._globals;
  }

  /** the file-wide symbol `name` (as `globals.get(name)`, without indexing every global) */
  global(name: string): SymbolDef | undefined {
    const d = this.resolution.globals.get(name);
    return d ? this.defOf(d) : undefined;
  }

  /** The declaration or use whose identifier contains `offset` (touching its end counts). */
  at(offset: number): Occurrence | undefined {
    const hit = this.resolution.symbolAt(offset);
    if (hit) {
      const def = this.defOf(hit.definition);
      if (def) return { def, range: hit.node.range, isDeclaration: hit.node.range.start === def.range.start };
    }
    // a name right before the cursor when another symbol starts there is found above; free stand-ins
    // (as `defs`, in order; a symbol's range lies in its declaration: only those around `offset` are
    // made, not a symbol of every name of the file on a hover over a number or a bracket)
    for (const r of this.resolution.definitions) {
      if (r.decl && (offset < r.decl.range.start || offset > r.decl.range.end)) continue;
      const d = this.defOf(r);
      if (d && d.range.start <= offset && offset <= d.range.end) return { def: d, range: d.range, isDeclaration: true };
    }
    return undefined;
  }

  /** Every occurrence of `def`, the declaration first, then uses in source order. */
  occurrences(def: SymbolDef): Occurrence[] {
    return [{ def, range: def.range, isDeclaration: true }, ...this.usesOf(def).map((r) => ({ def, range: r.range, isDeclaration: false }))];
  }

  usesOf(def: SymbolDef): SymbolRef[] {
    let list = this.usesByDef.get(def);
    if (!list) {
      list = [];
      for (const use of this.resolution.references(def.definition)) {
        if (def.kind === 'free' && use.range.start === def.range.start) continue; // the stand-in declaration
        list.push({ name: def.name, range: use.range, def });
      }
      this.usesByDef.set(def, list);
    }
    return list;
  }

  /** the symbol of a resolver definition (made once); undefined for built-ins */
  defOf(d: Definition): SymbolDef | undefined {
    // a definition with an identifier is a function of itself (its ranges are the AST's objects, which
    // an unchanged declaration keeps, moved in place): kept across versions; one without (a free index's
    // stand-in) takes its first use's range, which other declarations can change: kept per version
    const kept = d.ident ? acrossVersions : this.byDefinition;
    let def = kept.get(d);
    if (def === undefined) kept.set(d, (def = makeDef(d, this.resolution) ?? null));
    return def ?? undefined;
  }

  /** Names visible at `offset`: locals of the enclosing block declared before `offset`, then globals declared before it. */
  visibleAt(offset: number): SymbolDef[] {
    const out = new Map<string, SymbolDef>();
    for (const d of this.defs) {
      if (!d.scope || !contains(d.scope, offset)) continue;
      if ((d.kind === 'binding' || d.kind === 'handle') && d.declRange.end > offset) continue;
      if (d.kind === 'inverseArg' && !(d.container?.kind === 'Perm' && d.container.inverse && contains(d.container.inverse.range, offset))) continue;
      if (d.kind === 'permIndex' && d.container?.kind === 'Perm' && d.container.inverse && contains(d.container.inverse.range, offset)) continue;
      if (!out.has(d.name)) out.set(d.name, d);
    }
    for (const d of this.globals.values()) {
      if (out.has(d.name)) continue;
      if (d.declRange.end > offset && !contains(d.declRange, offset)) continue; // declared later
      if (contains(d.declRange, offset)) continue; // its own declaration
      out.set(d.name, d);
    }
    return [...out.values()];
  }
}

export function contains(r: Range, offset: number): boolean {
  return r.start <= offset && offset <= r.end;
}

/**
 * `SymbolIndex.defOf`'s results for definitions with an identifier, across versions (name resolution
 * keeps an unchanged declaration's definitions): at 20,000 lines, making them again for every version
 * was about a fifth of a semantic-tokens request after an edit.
 */
const acrossVersions = new WeakMap<Definition, SymbolDef | null>();

function makeDef(d: Definition, r: Resolution): SymbolDef | undefined {
  const kind = kindOf(d);
  if (!kind) return undefined;
  let range = d.ident?.range;
  if (!range) {
    const first = r.references(d)[0];
    if (!first) return undefined;
    range = first.range;
  }
  return {
    name: d.name,
    kind,
    range,
    declRange: declRangeOf(d, range),
    scope: globalKinds.has(kind) ? undefined : scopeOf(d.decl),
    container: d.decl,
    definition: d,
  };
}

function kindOf(d: Definition): SymbolKind | undefined {
  switch (d.kind) {
    case 'stepResult': return 'handle';
    case 'constructor': case 'function': case 'primitive': return undefined;
    default: return d.kind;
  }
}

function scopeOf(decl: ast.Decl | undefined): Range | undefined {
  if (!decl) return undefined;
  if (decl.kind === 'Kernel' || decl.kind === 'Schedule') return decl.bodyRange;
  return decl.range;
}

/** The ParamItem, Binding or Step that declares a name; the declaration itself otherwise. */
function declRangeOf(d: Definition, at: Range): Range {
  const decl = d.decl;
  if (!decl) return at;
  const inside = (r: Range) => r.start <= at.start && at.end <= r.end;
  switch (decl.kind) {
    case 'Param': return decl.items.find((it) => inside(it.range))?.range ?? decl.range;
    case 'Kernel': return d.kind === 'kernel' ? decl.range : decl.bindings.find((b) => inside(b.range))?.range ?? at;
    case 'Schedule': return d.kind === 'schedule' ? decl.range : decl.steps.find((s) => inside(s.range))?.range ?? at;
    case 'Perm': return d.kind === 'perm' ? decl.range : at;
    default: return decl.range;
  }
}
