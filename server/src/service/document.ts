// One version of one document, with everything derived from it computed on first use and kept:
// the parse, the symbol index, the tokens. A snapshot answers for its own text; an edit makes a new one.
// Given a `Parser` that remembers the previous version (chunks.ts's ChunkedParser), the parse of
// a new version re-parses only the declarations an edit touched; unchanged declarations are then
// the same AST objects in both snapshots, moved in place to the newer version's offsets when the
// text before them changed length. A snapshot therefore `claim`s its parse (puts the shared objects
// back at its own offsets) whenever it is read: a no-op unless another version was read since.
// Given a `DocumentHistory` too, the symbol index re-uses the earlier versions' name resolution per
// declaration, and elaboration.ts their elaborated models, where exactly valid.
import type * as ast from '../../../grammar/src/ast.js';
import { children as childrenOf } from '../../../grammar/src/ast.js';
import type { Diagnostic } from '../../../grammar/src/diagnostic.js';
import { parse } from '../../../grammar/src/parse.js';
import { LineIndex } from '../../../grammar/src/line-index.js';
import { tokenInfos, type TokenInfo } from '../../../grammar/src/token-info.js';
import { ResolveCache } from '../../../grammar/src/resolve.js';
import { SymbolIndex } from './symbols.js';
import type { ChunkTokens } from './semantic-tokens.js';
import { rareDeclsOf } from './chunk-lists.js';

/** A chunk of a chunked parse (chunks.ts `Chunk`): the same object in every version that keeps it. */
export interface ParsedChunk {
  readonly text: string;
  readonly decls: readonly ast.Decl[];
}

interface Parsed {
  file: ast.File;
  diagnostics: Diagnostic[];
  lines: LineIndex;
  /** a chunked parse's chunks and where each starts in this version (chunks.ts `ChunkedParse`) */
  chunks?: readonly ParsedChunk[];
  starts?: readonly number[];
  /** chunks.ts `ChunkedParse.rareDecls` */
  rareDecls?: readonly number[];
}

/**
 * What a snapshot needs of a parser: `parse`'s result for a text (grammar/src/parse.ts), and, for a
 * parser whose results share objects across versions, `claim` to put a result's objects back at its
 * text's offsets (chunks.ts).
 */
export interface Parser {
  parse(text: string): Parsed;
  claim?(p: Parsed): void;
}

/**
 * What consecutive versions of one document share: each version re-uses the earlier versions' work
 * where it is still exactly valid (name resolution per declaration, elaborated models per declaration).
 */
export class DocumentHistory {
  /**
   * (its lookers index, which hovers count a name's uses through, is made on first need or at the
   * next version; the server makes it once a just-opened document's first diagnostics are out: made
   * with the first version, it was 12 of the 30 ms of name resolution at 20,000 lines, which the first
   * diagnostics waited for)
   */
  readonly resolveCache = new ResolveCache();
  /** the semantic tokens of the kept chunks, while each is valid (semantic-tokens.ts `semanticTokenRuns`) */
  readonly semanticTokens = new WeakMap<ParsedChunk, ChunkTokens>();
  /** per declaration: its last elaborated model and what it was built from (elaboration.ts) */
  readonly models = new WeakMap<ast.Decl, unknown>();
}

export class LayoutDocument {
  private _parse?: Parsed;
  private _symbols?: SymbolIndex;
  private _tokens?: TokenInfo[];

  constructor(readonly uri: string, readonly version: number, readonly text: string, private readonly parser?: Parser, readonly history?: DocumentHistory) {}

  get file(): ast.File {
    return this.parsed.file;
  }

  /** lexical and syntax diagnostics */
  get parseDiagnostics(): Diagnostic[] {
    return this.parsed.diagnostics;
  }

  get hasParseErrors(): boolean {
    return this.parsed.diagnostics.some((d) => d.severity === 'error');
  }

  get lines(): LineIndex {
    return this.parsed.lines;
  }

  /**
   * The indices (into `file.decls`, ascending) of the `assume` and `linear` declarations: from a
   * chunked parse, which keeps them across versions; otherwise found once.
   */
  get rareDecls(): readonly number[] {
    const p = this.parsed;
    return p.rareDecls ?? (this._rare ??= rareDeclsOf(p.file.decls));
  }

  private _rare?: number[];

  get symbols(): SymbolIndex {
    // through `parsed` every time: the index reads the AST's ranges, which another version may have moved
    const parsed = this.parsed;
    this._symbols ??= new SymbolIndex(parsed.file, parsed.lines, this.history?.resolveCache);
    return this._symbols;
  }

  /**
   * The parse's chunks, each with the offset it starts at in this version (the same chunk objects
   * in every version that keeps them: chunks.ts), or undefined when the file was parsed whole.
   */
  chunks(): { chunk: ParsedChunk; base: number }[] | undefined {
    const { chunks, starts } = this.parsed;
    if (!chunks || !starts) return undefined;
    return chunks.map((chunk, k) => ({ chunk, base: starts[k] }));
  }

  /** every token, comments included, in source order */
  get tokens(): TokenInfo[] {
    this._tokens ??= tokenInfos(this.text);
    return this._tokens;
  }

  /**
   * The parse of this version as its parser gave it (a chunked parse's chunks included), its objects
   * claimed (at this version's offsets): what the in-process analysis reads, so that a version is
   * parsed once (lsp/analysis-runner.ts).
   */
  get parseResult(): Parsed {
    return this.parsed;
  }

  private get parsed(): Parsed {
    if (!this._parse) this._parse = this.parser ? this.parser.parse(this.text) : parse(this.text);
    else this.parser?.claim?.(this._parse);
    return this._parse;
  }
}

/**
 * The declaration that contains `offset`, if any (the first one where two touch). The declarations
 * are in source order and do not overlap: found by binary search (hovers and inlay hints ask this for
 * every query they show).
 */
export function declAt(file: ast.File, offset: number): ast.Decl | undefined {
  const d = file.decls[firstEndingFrom(file.decls, offset)];
  return d && d.range.start <= offset ? d : undefined;
}

/**
 * The index of the first of `items` (in source order, not overlapping: declarations, tokens) that ends
 * at or after `offset` (`items.length`: none).
 */
export function firstEndingFrom(items: readonly { range: ast.Range }[], offset: number): number {
  let lo = 0;
  let hi = items.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (items[mid].range.end < offset) lo = mid + 1;
    else hi = mid - 1;
  }
  return lo;
}

/** The innermost chain of nodes containing `offset`, outermost first (File excluded). */
export function nodePath(file: ast.File, offset: number): ast.AnyNode[] {
  const path: ast.AnyNode[] = [];
  let cur: ast.AnyNode = file;
  for (;;) {
    const next: ast.AnyNode | undefined = childrenOf(cur).find((c) => c.range.start <= offset && offset <= c.range.end);
    if (!next) return path;
    path.push(next);
    cur = next;
  }
}
