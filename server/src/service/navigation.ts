// Go to definition, find references, document highlights and rename, over the symbol index.
import type { Range } from '../../../grammar/src/ast.js';
import type { TokenInfo } from '../../../grammar/src/token-info.js';
import { firstEndingFrom, type LayoutDocument } from './document.js';
import { isIdentifier, isKeyword, isReserved } from './builtins.js';
import { globalKinds, type SymbolDef } from './symbols.js';
import { kernelPlaceholders } from './kernel-checks.js';
import { PARAM_PREFIX } from '../check/kernel.js';
import { findBuiltin } from '../codegen/index.js';
import { dependencyClosure } from '../codegen/gate.js';
import type * as ast from '../../../grammar/src/ast.js';

export type DefinitionTarget = { kind: 'symbol'; range: Range } | { kind: 'file'; path: string; originRange: Range };

export function definition(doc: LayoutDocument, offset: number): DefinitionTarget[] {
  const occ = doc.symbols.at(offset);
  if (occ) return [{ kind: 'symbol', range: occ.def.range }];
  // `template "templates/matmul.py"`: the template file
  for (const d of doc.file.decls) {
    if (d.kind === 'Kernel' && d.template?.kind === 'file') {
      const p = d.template.path;
      if (p.range.start <= offset && offset <= p.range.end && p.value) return [{ kind: 'file', path: p.value, originRange: p.range }];
    }
  }
  return [];
}

export function references(doc: LayoutDocument, offset: number, includeDeclaration: boolean): Range[] {
  const occ = doc.symbols.at(offset);
  if (!occ) return [];
  return doc.symbols.occurrences(occ.def).filter((o) => includeDeclaration || !o.isDeclaration).map((o) => o.range);
}

export interface Highlight {
  range: Range;
  kind: 'read' | 'write';
}

export function highlights(doc: LayoutDocument, offset: number): Highlight[] {
  const occ = doc.symbols.at(offset);
  if (!occ) return [];
  return doc.symbols.occurrences(occ.def).map((o) => ({ range: o.range, kind: o.isDeclaration ? 'write' : 'read' }));
}

export type PrepareRenameResult = { range: Range; placeholder: string } | { error: string };

export function prepareRename(doc: LayoutDocument, offset: number): PrepareRenameResult {
  const occ = doc.symbols.at(offset);
  if (occ) {
    const refused = placeholderLeftUnfilled(doc, occ.def) ?? builtinNameRenamed(doc, occ.def);
    return refused ? { error: refused } : { range: occ.range, placeholder: occ.def.name };
  }
  const tok = tokenAt(doc.tokens, offset);
  if (tok && tok.category === 'keyword') return { error: `'${tok.text}' is a keyword and cannot be renamed` };
  if (tok && isReserved(tok.text)) return { error: `'${tok.text}' is built in and cannot be renamed` };
  if (tok && tok.category === 'identifier') return { error: `'${tok.text}' is not declared in this file` };
  return { error: 'there is no name to rename here' };
}

export type RenameResult = { edits: { range: Range; newText: string }[] } | { error: string };

export function rename(doc: LayoutDocument, offset: number, newName: string): RenameResult {
  const prep = prepareRename(doc, offset);
  if ('error' in prep) return prep;
  const def = doc.symbols.at(offset)!.def;
  if (isKeyword(newName)) return { error: `'${newName}' is a keyword` };
  if (!isIdentifier(newName)) return { error: `'${newName}' is not a valid name: use letters, digits and '_', not starting with a digit` };
  if (isReserved(newName)) return { error: `'${newName}' is a built-in name` };
  if (newName === def.name) return { edits: [] };
  const clash = clashing(doc, def, newName);
  if (clash) return { error: `'${newName}' is already declared: ${describeKind(clash)} at ${doc.lines.format(clash.range.start)}` };
  return { edits: doc.symbols.occurrences(def).map((o) => ({ range: o.range, newText: newName })) };
}

/**
 * Why renaming `def` would leave a kernel template's `{{ placeholder }}` unfilled, if it would: a
 * kernel's binding names are the template's placeholders, and a param or const fills
 * `{{ param_NAME }}` by its name where the kernel does not bind that placeholder itself. The template
 * (a file, a built-in) is not renamed with it: the kernel would stop generating.
 */
function placeholderLeftUnfilled(doc: LayoutDocument, def: SymbolDef): string | undefined {
  const byName = def.kind === 'param' || def.kind === 'const';
  if (def.kind !== 'binding' && !byName) return undefined;
  for (const d of doc.file.decls) {
    if (d.kind !== 'Kernel' || (def.kind === 'binding' && def.container !== d)) continue;
    const bound = new Set(d.bindings.flatMap((b) => b.names.map((n) => n.name)));
    const placeholder = def.kind === 'binding' ? def.name : PARAM_PREFIX + def.name;
    if (byName && bound.has(placeholder)) continue;
    const t = kernelPlaceholders(d, doc.uri);
    if (!t?.names.has(placeholder)) continue;
    // (plain text, as the other refusals: an editor shows it as it is)
    return def.kind === 'binding'
      ? `'${def.name}' fills {{ ${placeholder} }} in ${t.label} of kernel ${d.name.name}: the template names it, so renaming it here would leave the placeholder unfilled`
      : `${def.kind} '${def.name}' fills {{ ${placeholder} }} in ${t.label} of kernel ${d.name.name} by its name: renaming it would leave the placeholder unfilled; bind it in the kernel first (${placeholder} = ${def.name})`;
  }
  return undefined;
}

/**
 * Why renaming `def` would break a built-in kernel's code, if it would: a built-in's code defines some
 * names itself (the matmul's `M`, `BM`, `pid`, `num_pid_m`, ...), and a param, a let of such a name or a
 * free index keeps its name in the generated code: renamed, a kernel whose bindings depend on it
 * would name something its code does not define (`kernel/name-not-in-template`). A const is folded
 * into the code: renaming one is safe.
 */
function builtinNameRenamed(doc: LayoutDocument, def: SymbolDef): string | undefined {
  if (def.kind !== 'param' && def.kind !== 'let' && def.kind !== 'free') return undefined;
  const inside = (r: Range, d: ast.Decl) => d.range.start <= r.start && r.end <= d.range.end;
  for (const d of doc.file.decls) {
    if (d.kind !== 'Kernel' || d.template?.kind !== 'builtin') continue;
    const b = findBuiltin(d.template.name.name);
    if (!b || !b.scope.includes(def.name)) continue;
    const uses = doc.symbols.usesOf(def);
    // (a free index's first use stands for its declaration)
    let depends = uses.some((u) => inside(u.range, d)) || (def.kind === 'free' && inside(def.range, d));
    if (!depends && def.kind !== 'free' && def.container) {
      // what the kernel's bindings name, and what that depends on
      const roots = new Set<ast.Decl>();
      for (const r of doc.symbols.refs) if (inside(r.range, d) && r.def.container && r.def.container !== d) roots.add(r.def.container);
      depends = roots.size > 0 && dependencyClosure({ file: doc.file, resolution: doc.symbols.resolution }, [...roots]).includes(def.container);
    }
    if (!depends) continue;
    return `${describeKind(def)} '${def.name}' keeps its name in the code of builtin ${b.name} (kernel ${d.name.name}), whose code defines '${def.name}' itself: renamed, the kernel's bindings would name something its code does not define`;
  }
  return undefined;
}

/** A declaration that would conflict with (or be captured by) renaming `def` to `name`. */
function clashing(doc: LayoutDocument, def: SymbolDef, name: string): SymbolDef | undefined {
  const ix = doc.symbols;
  if (globalKinds.has(def.kind)) {
    const g = ix.global(name);
    if (g) return g;
    // a local with the new name inside a block that uses the global would capture those uses
    const uses = ix.usesOf(def);
    return ix.defs.find((d) => d.name === name && d.scope && uses.some((u) => d.scope!.start <= u.range.start && u.range.end <= d.scope!.end));
  }
  // a local: another local of the same block, or a global the block uses under that name
  const same = ix.defs.find((d) => d.name === name && d !== def && d.container === def.container && d.scope);
  if (same) return same;
  const g = ix.global(name);
  if (g && def.scope && ix.usesOf(g).some((u) => def.scope!.start <= u.range.start && u.range.end <= def.scope!.end)) return g;
  return undefined;
}

export function describeKind(d: SymbolDef): string {
  switch (d.kind) {
    case 'param': return 'a param';
    case 'const': return 'a const';
    case 'let': return 'a let';
    case 'layout': return 'a layout';
    case 'linear': return 'a linear layout';
    case 'perm': return 'a perm';
    case 'permParam': return 'a perm size parameter';
    case 'permIndex': return 'a perm index';
    case 'inverseArg': return 'the inverse argument';
    case 'kernel': return 'a kernel';
    case 'binding': return 'a kernel binding';
    case 'free': return 'a free index symbol';
    case 'schedule': return 'a schedule';
    case 'handle': return 'a schedule handle';
  }
}

/** The token containing `offset`; at a boundary between two tokens, the one that starts there wins unless it is punctuation. */
export function tokenAt(tokens: TokenInfo[], offset: number): TokenInfo | undefined {
  const lo = firstEndingFrom(tokens, offset); // the first token whose end >= offset
  const a = tokens[lo];
  if (!a || a.range.start > offset) return undefined;
  const b = tokens[lo + 1];
  if (a.range.end === offset && b && b.range.start === offset && isWordish(b) && !isWordish(a)) return b;
  return a;
}

function isWordish(t: TokenInfo): boolean {
  return t.category !== 'punctuation' && t.category !== 'operator';
}
