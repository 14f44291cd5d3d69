// Completion, decided from the tokens before the cursor (so that it works while the line being
// typed does not parse yet) plus the symbol index of the last parse:
// - after `.`: layout methods;
// - after `target`: kernel targets; after `on`: GPUs; after `for` in a schedule header: payload ops;
// - at a statement start in a schedule block: PEAK primitives (and handles);
// - at the start of a top-level line: declaration keywords, then everything an expression may use;
// - elsewhere in an expression: names in scope, constructors (snippets), `min`/`max`, expression keywords.
// Nothing inside comments and strings.
import type * as ast from '../../../grammar/src/ast.js';
import type { TokenInfo } from '../../../grammar/src/token-info.js';
import { PAYLOAD_OPS } from '../check/schedule/index.js';
import { TARGETS as GPU_TARGETS } from '../check/targets.js';
import { firstEndingFrom, type LayoutDocument } from './document.js';
import { CONSTRUCTORS, FUNCTIONS, KERNEL_TARGETS, METHODS, primitives, signatureLabel, type Builtin } from './builtins.js';
import { lineStartOf, tokensOfLines } from './local-tokens.js';
import type { Definition } from '../../../grammar/src/resolve.js';
import { contains, globalKinds, type SymbolDef, type SymbolKind } from './symbols.js';

export type CompletionKind =
  | 'keyword' | 'constructor' | 'function' | 'method' | 'primitive' | 'target' | 'gpu' | 'op'
  | SymbolKind;

export interface CompletionEntry {
  label: string;
  kind: CompletionKind;
  detail?: string;
  documentation?: string;
  /** snippet text (LSP snippet syntax); plain `label` when absent */
  snippet?: string;
  /** sorts entries: lower first */
  sortText: string;
}

export interface CompletionResult {
  /** the text the chosen entry replaces: the partial word before the cursor */
  replace: { start: number; end: number };
  items: CompletionEntry[];
}

const declarationKeywords: [string, string, string][] = [
  ['param', 'param ${1:N} = ${2:64}', 'a size parameter with a default value'],
  ['const', 'const ${1:T} = ${2:32}', 'a parameter folded into generated code'],
  ['let', 'let ${1:name} = ${2:expr}', 'a derived value'],
  ['layout', 'layout ${1:A} = OrderBy(${2:Row(M, N)})', 'a LEGO layout'],
  ['perm', 'perm ${1:name}(${2:n})[${3:i}, ${4:j}] = ${5:expr}', 'a user permutation (GenP)'],
  ['kernel', 'kernel ${1:name} target ${2|triton,cuda,mlir|} template "${3:path}" {\n\t$0\n}', 'a kernel: template and bindings'],
  ['schedule', 'schedule ${1:name} for linalg.matmul(${2:M}, ${3:N}, ${4:K}) on ${5:sm_90} {\n\t${6:mm} = findOp("linalg.matmul")\n\t$0\n}', 'a PEAK schedule'],
  ['linear', 'linear ${1:L} = ${2|blocked,swizzled,mma,bases|}(shape=[${3:16}, ${4:64}]$0)', 'a Triton linear layout (blocked, swizzled, mma, bases)'],
];
const expressionKeywords = ['if', 'then', 'else', 'and', 'or', 'not'];

export function completion(doc: LayoutDocument, offset: number): CompletionResult {
  return completionWith(doc, offset, windowTokens(doc.text, offset));
}

/**
 * Completion at `offset` from `tokens`: every token from the start of the declaration before the
 * one the cursor is in (see `windowTokens`) to the end of the cursor's line, or the whole file's.
 * Exported for the test that both give the same answer.
 */
export function completionWith(doc: LayoutDocument, offset: number, tokens: TokenInfo[]): CompletionResult {
  const text = doc.text;
  let start = offset;
  while (start > 0 && /[A-Za-z0-9_]/.test(text[start - 1])) start--;
  const replace = { start, end: offset };
  const none: CompletionResult = { replace, items: [] };
  // inside a comment or a string: nothing
  const inside = tokens.find((t) => t.range.start < offset && offset <= t.range.end && (t.category === 'comment' || t.category === 'string'));
  if (inside && !(inside.category === 'string' && inside.range.end === offset && /"$/.test(inside.text) && inside.text.length > 1)) return none;
  const before = tokensBefore(tokens, start);
  const prev = before[before.length - 1];
  const items: CompletionEntry[] = [];

  if (prev?.text === '.') {
    // `linalg.` in a schedule header: payload ops; otherwise methods
    if (headerOf(before) === 'schedule-op') {
      for (const op of Object.keys(PAYLOAD_OPS)) items.push({ label: op.split('.').slice(1).join('.'), kind: 'op', detail: PAYLOAD_OPS[op].summary, sortText: '0' });
      return { replace, items };
    }
    for (const m of METHODS) items.push(fromBuiltin(m, 'method', '0'));
    return { replace, items };
  }
  if (prev?.text === 'target') {
    for (const t of KERNEL_TARGETS) items.push({ label: t, kind: 'target', detail: 'kernel target', sortText: '0' });
    return { replace, items };
  }
  if (prev?.text === 'on') {
    for (const [name, t] of Object.entries(GPU_TARGETS)) items.push({ label: name, kind: 'gpu', detail: t.label, sortText: '0' });
    return { replace, items };
  }
  // element types of a schedule header: `(M, N, K) : f16 x f16 -> f32`
  if (prev && inScheduleHeader(before) && ((prev.text === ':' && before[before.length - 2]?.text === ')')
    || (prev.text === 'x' && colonInHeader(before)) || (prev.text === '>' && before[before.length - 2]?.text === '-'))) {
    for (const [name, detail] of [['f16', '16-bit float (tensor cores: mma.sync m16n8k16)'], ['f32', '32-bit float'], ['bf16', '16-bit bfloat']]) {
      items.push({ label: name, kind: 'keyword', detail: `element type: ${detail}`, sortText: '0' });
    }
    return { replace, items };
  }
  if (prev?.text === 'for' && headerOf(before) === 'schedule-op') {
    for (const [name, op] of Object.entries(PAYLOAD_OPS)) items.push({ label: name, kind: 'op', detail: op.summary, snippet: `${name}(\${1:M}, \${2:N}, \${3:K})`, sortText: '0' });
    return { replace, items };
  }
  if (prev && (prev.text === 'template' || prev.text === 'builtin' || prev.text === 'kernel' || prev.text === 'schedule' || prev.text === 'perm' || prev.text === 'layout' || prev.text === 'let' || prev.text === 'param' || prev.text === 'const')) {
    return none; // a new name or a path: nothing to suggest
  }

  const block = enclosingBlock(before);
  const depth = bracketDepth(before, block?.open);
  const atLineStart = text.slice(lineStartOf(text, start), start).trim() === '';

  if (block?.kind === 'schedule' && depth === 0 && isStatementStart(prev)) {
    for (const p of primitives()) {
      items.push({
        label: p.name,
        kind: 'primitive',
        detail: p.signature,
        documentation: p.summary,
        snippet: primitiveSnippet(p.name, p.args.length + p.optionalArgs.length),
        sortText: '0',
      });
    }
    return { replace, items };
  }
  if (!block && atLineStart && depth === 0) {
    for (const [kw, snippet, doc_] of declarationKeywords) items.push({ label: kw, kind: 'keyword', detail: doc_, snippet, sortText: '0' });
  }
  // names in scope, except the one being declared around the cursor
  const earlier = globalsBefore(doc, offset);
  let own: SymbolDef | undefined;
  for (const g of earlier) if (g.declRange.start <= offset && (!own || g.declRange.start > own.declRange.start)) own = g;
  for (const d of visibleNames(doc, offset, earlier)) {
    if (d.kind === 'kernel' || d.kind === 'schedule' || d === own) continue;
    if (d.range.start <= start && start <= d.range.end) continue; // the word being typed
    items.push(nameEntry(d, doc.text));
  }
  if (block?.kind !== 'schedule') {
    for (const c of CONSTRUCTORS) items.push(fromBuiltin(c, 'constructor', '2'));
    for (const f of FUNCTIONS) items.push(fromBuiltin(f, 'function', '2'));
    for (const k of expressionKeywords) items.push({ label: k, kind: 'keyword', sortText: '3' });
  }
  return { replace, items: dedupe(items) };
}

function fromBuiltin(b: Builtin, kind: CompletionKind, sortText: string): CompletionEntry {
  return { label: b.name, kind, detail: signatureLabel(b), documentation: b.doc, snippet: b.snippet, sortText };
}

function primitiveSnippet(name: string, nArgs: number): string {
  if (name === 'findOp') return 'findOp("${1:linalg.matmul}")';
  if (nArgs === 0) return `${name}()`;
  if (name === 'unroll') return 'unroll(${1:mm}, ${2:2})';
  if (name === 'pipeline') return 'pipeline(${1:mm}, ${2:3})';
  if (name === 'multibuffer') return 'multibuffer(${1:3})';
  if (name === 'mma') return 'mma(${1:mm}, [${2:16, 8, 16}])';
  if (name === 'parallelizeForBlocks' || name === 'vectorize') return `${name}(\${1:mm})`;
  return `${name}(\${1:mm}, [\${2}])`;
}

/**
 * The symbols visible at `offset`, exactly `doc.symbols.visibleAt(offset)` (locals of the enclosing
 * declaration, then globals declared before it) without making a symbol of every name of the file:
 * the locals are those of the declarations around `offset` only, the globals those declared before it.
 */
export function visibleNames(doc: LayoutDocument, offset: number, globals = globalsBefore(doc, offset)): SymbolDef[] {
  const locals = new Map<string, SymbolDef>();
  const symbols = doc.symbols;
  const byDecl = localsOf(doc);
  for (const decl of declsAround(doc.file.decls, offset)) {
    for (const r of byDecl.get(decl) ?? []) {
      const d = symbols.defOf(r);
      if (!d || !d.scope || !contains(d.scope, offset)) continue;
      if ((d.kind === 'binding' || d.kind === 'handle') && d.declRange.end > offset) continue;
      if (d.kind === 'inverseArg' && !(d.container?.kind === 'Perm' && d.container.inverse && contains(d.container.inverse.range, offset))) continue;
      if (d.kind === 'permIndex' && d.container?.kind === 'Perm' && d.container.inverse && contains(d.container.inverse.range, offset)) continue;
      if (!locals.has(d.name)) locals.set(d.name, d);
    }
  }
  const out = [...locals.values()];
  // globals have one symbol per name: a local of that name hides it
  for (const d of globals) {
    if (locals.size && locals.has(d.name)) continue;
    if (d.declRange.end > offset && !contains(d.declRange, offset)) continue; // declared later
    if (contains(d.declRange, offset)) continue; // its own declaration
    out.push(d);
  }
  return out;
}

/** The top-level declarations whose range contains `offset` (end inclusive: two when one ends where the next starts). */
function declsAround(decls: readonly ast.Decl[], offset: number): ast.Decl[] {
  const out: ast.Decl[] = [];
  for (let k = firstEndingFrom(decls, offset); k < decls.length && decls[k].range.start <= offset; k++) if (contains(decls[k].range, offset)) out.push(decls[k]);
  return out;
}

/** the resolver's definitions that are not file-wide, by declaration, in the resolver's order; per version */
const localLists = new WeakMap<LayoutDocument, Map<ast.Decl, Definition[]>>();
function localsOf(doc: LayoutDocument): Map<ast.Decl, Definition[]> {
  let m = localLists.get(doc);
  if (!m) {
    m = new Map();
    for (const r of doc.symbols.resolution.definitions) {
      if (!r.decl || globalKinds.has(r.kind as SymbolKind)) continue; // a global's scope is the file: never a local
      let l = m.get(r.decl);
      if (!l) m.set(r.decl, (l = []));
      l.push(r);
    }
    localLists.set(doc, m);
  }
  return m;
}

/**
 * The file-wide symbols whose declaration starts at or before `offset`, in the order of
 * `doc.symbols.globals` (source order; a symbol's declaring item or block lies inside its
 * declaration, so no other can be visible at `offset` or be the one declared around it): found from
 * the declarations, each name looked up, not from the resolution's listing of every global.
 */
function globalsBefore(doc: LayoutDocument, offset: number): SymbolDef[] {
  const out: SymbolDef[] = [];
  const symbols = doc.symbols;
  const globals = symbols.resolution.globals;
  const add = (decl: ast.Decl, ident: ast.Ident) => {
    const r = globals.get(ident.name);
    if (!r || r.decl !== decl || r.ident !== ident) return; // not the name's first declaration
    let d = globalSymbols.get(r);
    if (d === undefined) globalSymbols.set(r, (d = symbols.defOf(r) ?? null));
    if (d) out.push(d);
  };
  for (const decl of doc.file.decls) {
    if (decl.range.start > offset) continue;
    if (decl.kind === 'Param') for (const it of decl.items) add(decl, it.name);
    else if (decl.kind !== 'Assume') add(decl, decl.name);
  }
  return out;
}

/**
 * A file-wide name's symbol, kept with its resolver definition: a later version whose name
 * resolution keeps the declaration (the same declaration object: unchanged, not moved) keeps the
 * definition, and the symbol (made from the definition and its declaration alone) with its entry.
 */
const globalSymbols = new WeakMap<Definition, SymbolDef | null>();

/** a name's entry, made once per symbol */
const nameEntries = new WeakMap<SymbolDef, CompletionEntry>();
function nameEntry(d: SymbolDef, text: string): CompletionEntry {
  let e = nameEntries.get(d);
  if (!e) nameEntries.set(d, (e = { label: d.name, kind: d.kind, detail: describe(d, text), sortText: '1' }));
  return e;
}

function describe(d: SymbolDef, text: string): string {
  switch (d.kind) {
    case 'free': return 'free index symbol';
    case 'permParam': return 'perm size parameter';
    case 'permIndex': return 'perm index';
    case 'inverseArg': return 'inverse argument';
    case 'handle': return `handle: ${clipSource(text, d.declRange.start, d.declRange.end)}`;
    default: return clipSource(text, d.declRange.start, d.declRange.end);
  }
}

/**
 * `text.slice(start, end)` with each run of whitespace (`\s`) made one space, and when longer than
 * 60 characters its first 57 and `...`; reads only as much of the text as that needs.
 */
export function clipSource(text: string, start: number, end: number): string {
  let out = '';
  let space = false;
  for (let i = start; i < end && out.length <= 60; i++) {
    const code = text.charCodeAt(i);
    if (code === 32 || (code >= 9 && code <= 13) || (code > 127 && /\s/.test(text[i]))) {
      if (!space) out += ' ';
      space = true;
    } else {
      out += text[i];
      space = false;
    }
  }
  return out.length > 60 ? out.slice(0, 57) + '...' : out;
}

function dedupe(items: CompletionEntry[]): CompletionEntry[] {
  const seen = new Set<string>();
  return items.filter((i) => (seen.has(i.label) ? false : (seen.add(i.label), true)));
}

/**
 * The tokens completion looks at: from the start of the declaration before the one that `offset`
 * is in to the end of `offset`'s line. A declaration starts at a line that begins with a
 * declaration keyword (`declWords`). Every backward scan below stops at such a keyword, and
 * looks at most two tokens before the one it stops at; the declaration before gives those.
 */
export function windowTokens(text: string, offset: number): TokenInfo[] {
  let start = offset;
  while (start > 0 && /[A-Za-z0-9_]/.test(text[start - 1])) start--;
  const own = declLineBefore(text, start);
  const from = own > 0 ? declLineBefore(text, own) : 0;
  return tokensOfLines(text, from, offset);
}

/** The start of the last line before `offset` (starting strictly before it) that begins with a declaration keyword; 0 if none. */
function declLineBefore(text: string, offset: number): number {
  let i = lineStartOf(text, offset);
  if (i === offset && i > 0) i = lineStartOf(text, i - 1);
  for (;;) {
    if (i < offset && DECL_LINE.test(text.slice(i, i + 10))) return i;
    if (i === 0) return 0;
    i = lineStartOf(text, i - 1);
  }
}
const DECL_LINE = /^(?:param|const|let|layout|perm|kernel|schedule)(?![A-Za-z0-9_])/;

/** Code tokens that end at or before `offset` (comments dropped). */
function tokensBefore(tokens: TokenInfo[], offset: number): TokenInfo[] {
  const out: TokenInfo[] = [];
  for (const t of tokens) {
    if (t.range.end > offset) break;
    if (t.category !== 'comment') out.push(t);
  }
  return out;
}

const declWords = new Set(['param', 'const', 'let', 'layout', 'perm', 'kernel', 'schedule']);

/** The kernel or schedule block whose `{` is open before the cursor. */
function enclosingBlock(before: TokenInfo[]): { kind: 'kernel' | 'schedule'; open: number } | undefined {
  for (let i = before.length - 1; i >= 0; i--) {
    const t = before[i];
    if (t.text === '}') return undefined;
    if (t.text === '{') {
      for (let j = i - 1; j >= 0; j--) {
        if (before[j].text === 'kernel' || before[j].text === 'schedule') return { kind: before[j].text as 'kernel' | 'schedule', open: i };
        if (declWords.has(before[j].text)) return undefined;
      }
      return undefined;
    }
    if (declWords.has(t.text)) return undefined;
  }
  return undefined;
}

/** A `:` in the schedule header before the cursor (after its `schedule` keyword). */
function colonInHeader(before: TokenInfo[]): boolean {
  for (let i = before.length - 1; i >= 0 && before[i].text !== 'schedule'; i--) if (before[i].text === ':') return true;
  return false;
}

/** Inside `schedule NAME for ...` before its `{`. */
function inScheduleHeader(before: TokenInfo[]): boolean {
  for (let i = before.length - 1; i >= 0; i--) {
    const t = before[i];
    if (t.text === 'schedule') return true;
    if (t.text === '{' || t.text === '}' || declWords.has(t.text)) return false;
  }
  return false;
}

function headerOf(before: TokenInfo[]): 'schedule-op' | undefined {
  for (let i = before.length - 1; i >= 0; i--) {
    const t = before[i];
    if (t.text === 'for') return i >= 2 && before[i - 2].text === 'schedule' ? 'schedule-op' : undefined;
    if (t.text === '(' || t.text === '{' || declWords.has(t.text)) return undefined;
  }
  return undefined;
}

/** Open `(`/`[` after token index `from` (the block's `{`) or after the last declaration keyword. */
function bracketDepth(before: TokenInfo[], from?: number): number {
  let start = from !== undefined ? from + 1 : 0;
  if (from === undefined) for (let i = before.length - 1; i >= 0; i--) if (declWords.has(before[i].text)) { start = i; break; }
  let depth = 0;
  for (let i = start; i < before.length; i++) {
    const x = before[i].text;
    if (x === '(' || x === '[') depth++;
    else if ((x === ')' || x === ']') && depth > 0) depth--;
  }
  return depth;
}

/** A schedule statement may start after `{`, after a complete step `)`, or at the very start. */
function isStatementStart(prev: TokenInfo | undefined): boolean {
  return !prev || prev.text === '{' || prev.text === ')' || prev.text === '=';
}
