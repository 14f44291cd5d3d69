// The text of a document lexed for semantic tokens (semantic-tokens.ts), piece by piece (a chunk of the
// parse, service/chunks.ts): what a token is, lexically, depends on its text only. A chunk is lexed when
// it is classified; its classified tokens are what the document's history keeps.
import { TokenPool } from '../../../grammar/src/lexer.js';
import { categoryOf, forEachToken, type TokenCategory } from '../../../grammar/src/token-info.js';
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
  // the tokens as they come, no object made for one (the lexer's re-used from one piece to the next)
  const data: number[] = [];
  forEachToken(text, (type, start, image) => {
    const k = kindOf(type, image);
    let lib = 0;
    if (k === Lex.Name) {
      const bi = builtinConstructor(image);
      lib = (builtinMethod(image) ? Lib.Method : 0) | (bi ? (bi.kind === 'function' ? Lib.Function : Lib.Constructor) : 0);
    }
    data.push(start, (image.length << 8) | (lib << 4) | (k === Lex.Punctuation && image === '.' ? Lex.Dot : k));
  }, pool);
  return { data };
}

const pool = new TokenPool();

/** the lexer's token type (the grammar's: this layer does not name Chevrotain's) */
type TokenType = Parameters<Parameters<typeof forEachToken>[1]>[0];

/** a token type's lexical kind (`categoryOf` reads the image only to tell an identifier's category apart, all of them `Lex.Name`) */
const kinds = new Map<TokenType, Lex>();
function kindOf(type: TokenType, image: string): Lex {
  let k = kinds.get(type);
  if (k === undefined) kinds.set(type, (k = LEX_OF[categoryOf(type, image)]));
  return k;
}
