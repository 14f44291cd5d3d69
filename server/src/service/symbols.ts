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
import { resolve, type Definition, type Resolution } from '../../../grammar/src/resolve.js';

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
  readonly defs: SymbolDef[] = [];
  readonly refs: SymbolRef[] = [];
  /** file-wide names; the first declaration of a name wins */
  readonly globals = new Map<string, SymbolDef>();
  readonly resolution: Resolution;
  private readonly byDefinition = new Map<Definition, SymbolDef>();
  private readonly usesByDef = new Map<SymbolDef, SymbolRef[]>();

  constructor(readonly file: ast.File, lines: LineIndex) {
    this.resolution = resolve(file, lines);
    const r = this.resolution;
    for (const d of r.definitions) {
      const kind = kindOf(d);
      if (!kind) continue;
      let range = d.ident?.range;
      if (!range) {
        const first = r.references(d)[0];
        if (!first) continue;
        range = first.range;
      }
      const def: SymbolDef = {
        name: d.name,
        kind,
        range,
        declRange: declRangeOf(d, range),
        scope: globalKinds.has(kind) ? undefined : scopeOf(d.decl),
        container: d.decl,
        definition: d,
      };
      this.defs.push(def);
      this.byDefinition.set(d, def);
    }
    for (const [name, d] of r.globals) {
      const def = this.byDefinition.get(d);
      if (def) this.globals.set(name, def);
    }
    for (const [use, d] of r.refs) {
      const def = this.byDefinition.get(d);
      if (!def) continue;
      if (def.kind === 'free' && use.range.start === def.range.start) continue; // the stand-in declaration
      const ref = { name: d.name, range: use.range, def };
      this.refs.push(ref);
      let list = this.usesByDef.get(def);
      if (!list) this.usesByDef.set(def, (list = []));
      list.push(ref);
    }
    this.refs.sort((a, b) => a.range.start - b.range.start);
    for (const list of this.usesByDef.values()) list.sort((a, b) => a.range.start - b.range.start);
  }

  /** The declaration or use whose identifier contains `offset` (touching its end counts). */
  at(offset: number): Occurrence | undefined {
    const hit = this.resolution.symbolAt(offset);
    if (hit) {
      const def = this.byDefinition.get(hit.definition);
      if (def) return { def, range: hit.node.range, isDeclaration: hit.node.range.start === def.range.start };
    }
    // a name right before the cursor when another symbol starts there is found above; free stand-ins:
    for (const d of this.defs) if (d.range.start <= offset && offset <= d.range.end) return { def: d, range: d.range, isDeclaration: true };
    return undefined;
  }

  /** Every occurrence of `def`, the declaration first, then uses in source order. */
  occurrences(def: SymbolDef): Occurrence[] {
    return [{ def, range: def.range, isDeclaration: true }, ...this.usesOf(def).map((r) => ({ def, range: r.range, isDeclaration: false }))];
  }

  usesOf(def: SymbolDef): SymbolRef[] {
    return this.usesByDef.get(def) ?? [];
  }

  defOf(d: Definition): SymbolDef | undefined {
    return this.byDefinition.get(d);
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
