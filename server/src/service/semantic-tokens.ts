// Semantic tokens: each token of the file classified by what its name refers to (a param, a
// layout, a perm, a free index symbol...), beyond what the TextMate grammar can see. VS Code asks for
// them after every change: each chunk's classified tokens are kept across versions while its
// declarations resolve as they did (`ChunkTokens`), so an edit classifies the chunks it touched and
// those whose names now mean something else; the tokens go out as numbers, without an object each (at
// 20,000 lines a request after an edit took 400 ms on the server's main thread, then 81 over stdio and
// 41 in process; 11 in process with the chunks kept: `bench/lsp-vs-mlir.ts`).
import type * as ast from '../../../grammar/src/ast.js';
import { children as childrenOf } from '../../../grammar/src/ast.js';
import type { LayoutDocument, ParsedChunk } from './document.js';
import { method as builtinMethod, primitive as builtinPrimitive } from './builtins.js';
import type { SymbolDef, SymbolKind, SymbolRef } from './symbols.js';
import { Lex, Lib, lexPiece } from './lexed-pieces.js';

export const tokenTypes = [
  'keyword', 'number', 'string', 'comment', 'operator',
  'variable', 'parameter', 'function', 'method', 'class', 'type', 'namespace', 'enumMember',
] as const;
export const tokenModifiers = ['declaration', 'readonly', 'defaultLibrary'] as const;

export type SemanticType = (typeof tokenTypes)[number];
export type SemanticModifier = (typeof tokenModifiers)[number];

export interface SemanticToken {
  range: ast.Range;
  type: SemanticType;
  modifiers: SemanticModifier[];
}

/** How a name is classified by the kind of what it refers to. */
export const byKind: Readonly<Record<SymbolKind, { type: SemanticType; modifiers: SemanticModifier[] }>> = {
  param: { type: 'variable', modifiers: ['readonly'] },
  const: { type: 'variable', modifiers: ['readonly'] },
  let: { type: 'variable', modifiers: [] },
  layout: { type: 'type', modifiers: [] },
  linear: { type: 'type', modifiers: [] },
  perm: { type: 'function', modifiers: [] },
  permParam: { type: 'parameter', modifiers: [] },
  permIndex: { type: 'parameter', modifiers: [] },
  inverseArg: { type: 'parameter', modifiers: [] },
  kernel: { type: 'function', modifiers: [] },
  binding: { type: 'variable', modifiers: [] },
  free: { type: 'parameter', modifiers: [] },
  schedule: { type: 'namespace', modifiers: [] },
  handle: { type: 'variable', modifiers: [] },
};

/** The token types' and modifiers' indices (in `tokenTypes` / bits of `tokenModifiers`), as the LSP encodes them. */
const TYPE = Object.fromEntries(tokenTypes.map((t, i) => [t, i])) as Record<SemanticType, number>;
const modBits = (ms: readonly SemanticModifier[]): number => ms.reduce((b, m) => b | (1 << tokenModifiers.indexOf(m)), 0);
const DECLARATION = modBits(['declaration']);
const DEFAULT_LIBRARY = modBits(['defaultLibrary']);
/** the types of the lexical kinds below `Lex.Punctuation`, by kind */
const LEX_TYPE = [TYPE.keyword, TYPE.number, TYPE.string, TYPE.comment, TYPE.operator];
const byKindCode = Object.fromEntries(Object.entries(byKind).map(([k, v]) => [k, { type: TYPE[v.type], mods: modBits(v.modifiers) }])) as Record<SymbolKind, { type: number; mods: number }>;

/**
 * One chunk's classified tokens (the parse's chunks: service/chunks.ts), kept in the document's history
 * while the chunk is and its classification cannot have changed: each of its declarations resolves as
 * it did (the same resolution unit, grammar/src/resolve.ts `unitOf`: the same definitions, so the same
 * kinds). What else a token's class depends on is the chunk's own text and declarations (its lexing,
 * the built-in names it uses): a name after a `.` is a method's, and a chunk other than the first
 * starts with a declaration keyword, so no `.` before it counts.
 */
export interface ChunkTokens {
  /** the resolution units of its declarations, in order, when it was classified */
  readonly units: readonly object[];
  /**
   * per token, two numbers: its start relative to the chunk's, then `length << 8 | mods << 4 | type`
   * (the LSP's indices: `tokenTypes`, bits of `tokenModifiers`); a plain array of exactly its length
   */
  readonly data: readonly number[];
}

/**
 * The classified tokens in runs, in source order: each run's tokens as `ChunkTokens.data` gives them,
 * offsets relative to its `base` (one run per chunk of a chunked document; the whole text otherwise).
 * Punctuation gets none. A chunked document's chunks are classified one by one, and each chunk's
 * tokens are kept in the document's history while valid (`ChunkTokens`): after an edit, the chunks it
 * touched and those whose names now resolve differently are classified again, the others are read back.
 * With `span` (offsets, end excluded), only the chunks that overlap it (an editor's visible lines): the
 * others are neither classified nor read.
 */
export function semanticTokenRuns(doc: LayoutDocument, span?: { start: number; end: number }): { base: number; data: readonly number[] }[] {
  const ix = doc.symbols;
  const all = doc.chunks();
  const { chunks, firstUnit } = all && span ? overlapping(all, span, doc.text.length) : { chunks: all, firstUnit: 0 };
  // parsed whole (too many syntax errors): one run, nothing kept
  const units = ix.resolution.units();
  if (!chunks) {
    const { defs, refs } = ix.symbolsOf(units);
    return [{ base: 0, data: classify(doc.text, doc.file.decls, 0, defs, refs) }];
  }
  const kept = doc.history?.semanticTokens;
  const out: { base: number; data: readonly number[] }[] = [];
  let u = firstUnit;
  for (const { chunk, base } of chunks) {
    const n = chunk.decls.length;
    let c = kept?.get(chunk);
    if (!c || !sameUnits(c.units, units, u, n)) {
      const own = units.slice(u, u + n);
      const { defs, refs } = ix.symbolsOf(own);
      c = { data: classify(chunk.text, chunk.decls, base, defs, refs), units: own };
      kept?.set(chunk, c);
    }
    out.push({ base, data: c.data });
    u += n;
  }
  return out;
}

/**
 * The chunks that overlap `span` (consecutive; an empty span overlaps the chunk it is in), and the index
 * (into the resolution's units) of the first one's first declaration.
 */
function overlapping(all: { chunk: ParsedChunk; base: number }[], span: { start: number; end: number }, length: number): { chunks: { chunk: ParsedChunk; base: number }[]; firstUnit: number } {
  const chunks: { chunk: ParsedChunk; base: number }[] = [];
  let unit = 0;
  let firstUnit = 0;
  for (let k = 0; k < all.length; k++) {
    const end = k + 1 < all.length ? all[k + 1].base : length;
    if (end > span.start && all[k].base < Math.max(span.end, span.start + 1)) {
      if (chunks.length === 0) firstUnit = unit;
      chunks.push(all[k]);
    }
    unit += all[k].chunk.decls.length;
  }
  return { chunks, firstUnit };
}

function sameUnits(was: readonly object[], units: readonly object[], from: number, n: number): boolean {
  if (was.length !== n) return false;
  for (let k = 0; k < n; k++) if (was[k] !== units[from + k]) return false;
  return true;
}

/**
 * Classifies the tokens of `text` (starting at offset `base`, holding `decls`): the lexing of the text,
 * the built-in names of its declarations, and what each name declares or refers to (`defs`, `refs`:
 * those of `decls`, each sorted by start).
 */
function classify(text: string, decls: readonly ast.Decl[], base: number, defs: readonly SymbolDef[], refs: readonly SymbolRef[]): number[] {
  const { m: special, opRanges } = specialNames(decls);
  // declarations and uses in file order, each read with a pointer as the tokens go (maps of them cost
  // 10-20 ms a request at 20,000 lines)
  let di = 0;
  let ri = 0;
  // the payload ops' ranges, in file order as the tokens are: the first that does not end before the token
  let op = 0;
  let prevDot = false;
  const out: number[] = [];
  const put = (start: number, length: number, type: number, mods: number): void => {
    out.push(start - base, (length << 8) | (mods << 4) | type);
  };
  const data = lexPiece(text).data;
  for (let i = 0; i < data.length; i += 2) {
    const packed = data[i + 1];
    const kind = packed & 15;
    const length = packed >>> 8;
    const wasDot = prevDot;
    prevDot = kind === Lex.Dot;
    if (kind !== Lex.Name) {
      if (kind < LEX_TYPE.length) put(base + data[i], length, LEX_TYPE[kind], 0);
      continue;
    }
    const start = base + data[i];
    const end = start + length;
    const sp = special.get(start);
    if (sp !== undefined) { put(start, end - start, TYPE[sp], DEFAULT_LIBRARY); continue; }
    // every name segment of a payload op such as `linalg.matmul` (one pointer over the ranges: a
    // search of them all for each name took 0.1-0.2 s a request at 20,000 lines, 400 schedules)
    while (op < opRanges.length && opRanges[op].end <= start) op++;
    if (op < opRanges.length && opRanges[op].start <= start && end <= opRanges[op].end) { put(start, end - start, TYPE.type, DEFAULT_LIBRARY); continue; }
    di = lastFrom(defs, di, start);
    const def = defs[di]?.range.start === start ? defs[di] : undefined;
    if (def && def.range.end === end) {
      const k = byKindCode[def.kind];
      put(start, end - start, k.type, DECLARATION | k.mods);
      continue;
    }
    ri = lastFrom(refs, ri, start);
    const ref = refs[ri]?.range.start === start ? refs[ri].def : undefined;
    if (ref) {
      const k = byKindCode[ref.kind];
      put(start, end - start, k.type, k.mods);
      continue;
    }
    const l = (packed >>> 4) & 15;
    if (wasDot && l & Lib.Method) { put(start, end - start, TYPE.method, DEFAULT_LIBRARY); continue; }
    if (l & Lib.Function) { put(start, end - start, TYPE.function, DEFAULT_LIBRARY); continue; }
    if (l & Lib.Constructor) { put(start, end - start, TYPE.class, DEFAULT_LIBRARY); continue; }
    put(start, end - start, TYPE.variable, 0);
  }
  return out.slice();
}

/** Every classified token as an object (tests, the fuzzer); the server encodes the runs themselves (lsp/semantic-tokens.ts). */
export function semanticTokens(doc: LayoutDocument): SemanticToken[] {
  const out: SemanticToken[] = [];
  for (const { base, data: t } of semanticTokenRuns(doc)) {
    for (let i = 0; i < t.length; i += 2) {
      const start = base + t[i];
      const mods = (t[i + 1] >>> 4) & 15;
      out.push({ range: { start, end: start + (t[i + 1] >>> 8) }, type: tokenTypes[t[i + 1] & 15], modifiers: tokenModifiers.filter((_, b) => mods & (1 << b)) });
    }
  }
  return out;
}

/**
 * From `i`, the index of the first of `items` (in file order) that does not start before `start`; of
 * several that start there, the last (as a map of them by offset kept it).
 */
function lastFrom(items: readonly { range: ast.Range }[], i: number, start: number): number {
  while (i < items.length && (items[i].range.start < start || (items[i].range.start === start && items[i + 1]?.range.start === start))) i++;
  return i;
}

/**
 * Names whose meaning comes from where they stand (primitives, targets, GPUs, payload ops, methods), by
 * offset: their type, each `defaultLibrary`.
 */
function specialNames(decls: readonly ast.Decl[]): { m: Map<number, SemanticType>; opRanges: ast.Range[] } {
  const m = new Map<number, SemanticType>();
  const opRanges: ast.Range[] = [];
  const visit = (n: ast.AnyNode): void => {
    if (n.kind === 'MethodCall' && builtinMethod(n.method.name)) m.set(n.method.range.start, 'method');
    if (n.kind === 'Step' && builtinPrimitive(n.primitive.name)) m.set(n.primitive.range.start, 'function');
    for (const c of childrenOf(n)) visit(c);
  };
  for (const d of decls) {
    if (d.kind === 'Kernel') {
      if (d.target) m.set(d.target.range.start, 'enumMember');
      if (d.template?.kind === 'builtin') m.set(d.template.name.range.start, 'function');
    }
    if (d.kind === 'Schedule') {
      if (d.gpu) m.set(d.gpu.range.start, 'enumMember');
      if (d.op) opRanges.push(d.op.range);
    }
    visit(d);
  }
  return { m, opRanges };
}
