// The text of a document lexed for semantic tokens (semantic-tokens.ts), piece by piece: what a token
// is, lexically, depends on its text only, so each piece (a chunk of the parse, service/chunks.ts) is
// lexed once and kept while the chunk is (service/document.ts `LayoutDocument.pieces`).
import { tokenInfos, type TokenCategory } from '../../../grammar/src/token-info.js';
import { constructor as builtinConstructor, method as builtinMethod } from './builtins.js';

/**
 * A piece of text lexed for semantic tokens, offsets relative to its start: what a token is depends on
 * its text only, so a piece (a chunk of the parse: service/chunks.ts) is lexed once and kept while the
 * chunk is (`DocumentHistory.lexedPieces`). Four numbers a token, no object: at 20,000 lines a version
 * has some 125,000 tokens.
 */
export interface LexedPiece {
  starts: Int32Array;
  lengths: Int32Array;
  /** `Lex` */
  kinds: Uint8Array;
  /** an identifier's `Lib` bits */
  lib: Uint8Array;
}

/** A token's lexical kind. */
export const enum Lex { Keyword, Number, String, Comment, Operator, Punctuation, Dot, Name }
/** An identifier's meaning where nothing else gives it one: a built-in method after `.`, a built-in constructor or function. */
export const enum Lib { Method = 1, Constructor = 2, Function = 4 }

const LEX_OF: Record<TokenCategory, Lex> = {
  keyword: Lex.Keyword, number: Lex.Number, string: Lex.String, comment: Lex.Comment, operator: Lex.Operator,
  punctuation: Lex.Punctuation, identifier: Lex.Name, constructor: Lex.Name, function: Lex.Name,
};

export function lexPiece(text: string): LexedPiece {
  const infos = tokenInfos(text);
  const n = infos.length;
  const p: LexedPiece = { starts: new Int32Array(n), lengths: new Int32Array(n), kinds: new Uint8Array(n), lib: new Uint8Array(n) };
  for (let i = 0; i < n; i++) {
    const t = infos[i];
    p.starts[i] = t.range.start;
    p.lengths[i] = t.range.end - t.range.start;
    const k = LEX_OF[t.category];
    p.kinds[i] = k === Lex.Punctuation && t.text === '.' ? Lex.Dot : k;
    if (k === Lex.Name) {
      const bi = builtinConstructor(t.text);
      p.lib[i] = (builtinMethod(t.text) ? Lib.Method : 0) | (bi ? (bi.kind === 'function' ? Lib.Function : Lib.Constructor) : 0);
    }
  }
  return p;
}
