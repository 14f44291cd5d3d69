// The text of a document lexed for semantic tokens (semantic-tokens.ts), piece by piece (a chunk of the
// parse, service/chunks.ts): what a token is, lexically, depends on its text only. A chunk is lexed when
// it is classified; its classified tokens are what the document's history keeps.
import { tokenInfos, type TokenCategory } from '../../../grammar/src/token-info.js';
import { constructor as builtinConstructor, method as builtinMethod } from './builtins.js';

/**
 * A piece of text lexed for semantic tokens, offsets relative to its start: two numbers a token in one
 * array, no object (at 20,000 lines a version has some 125,000 tokens). Read once, as the chunk is
 * classified; what is kept is the classified tokens (semantic-tokens.ts `ChunkTokens`).
 */
export interface LexedPiece {
  /**
   * per token: its start, then `length << 8 | lib << 4 | kind` (`Lex`, `Lib`); small integers in a
   * plain array
   */
  data: readonly number[];
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
  const data: number[] = [];
  for (let i = 0; i < infos.length; i++) {
    const t = infos[i];
    const k = LEX_OF[t.category];
    let lib = 0;
    if (k === Lex.Name) {
      const bi = builtinConstructor(t.text);
      lib = (builtinMethod(t.text) ? Lib.Method : 0) | (bi ? (bi.kind === 'function' ? Lib.Function : Lib.Constructor) : 0);
    }
    data.push(t.range.start, ((t.range.end - t.range.start) << 8) | (lib << 4) | (k === Lex.Punctuation && t.text === '.' ? Lex.Dot : k));
  }
  return { data };
}
