// The text of a document lexed for semantic tokens (semantic-tokens.ts), piece by piece (a chunk of the
// parse, service/chunks.ts): what a token is, lexically, depends on its text only. A chunk is lexed when
// it is classified; its classified tokens are what the document's history keeps.
import { lex, TokenPool, type LexResult } from '../../../grammar/src/lexer.js';
import { categoryOf, type TokenCategory } from '../../../grammar/src/token-info.js';
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
  // the lexer's tokens read at once, in the order `tokenInfos` gives them (a comment before the token
  // after it), without a `TokenInfo` per token: their objects re-used from one piece to the next
  const { tokens, comments } = lex(text, 0, pool);
  const data: number[] = [];
  let ci = 0;
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i];
    while (ci < comments.length && comments[ci].startOffset < tok.startOffset) pushComment(data, comments[ci++]);
    const k = kindOf(tok.tokenType, tok.image);
    let lib = 0;
    if (k === Lex.Name) {
      const bi = builtinConstructor(tok.image);
      lib = (builtinMethod(tok.image) ? Lib.Method : 0) | (bi ? (bi.kind === 'function' ? Lib.Function : Lib.Constructor) : 0);
    }
    data.push(tok.startOffset, (tok.image.length << 8) | (lib << 4) | (k === Lex.Punctuation && tok.image === '.' ? Lex.Dot : k));
  }
  while (ci < comments.length) pushComment(data, comments[ci++]);
  return { data };
}

const pool = new TokenPool();

/** the lexer's token and token type (the grammar's: this layer does not name Chevrotain's) */
type Token = LexResult['tokens'][number];
type TokenType = Token['tokenType'];

function pushComment(data: number[], c: Token): void {
  data.push(c.startOffset, (c.image.length << 8) | Lex.Comment);
}

/** a token type's lexical kind (`categoryOf` reads the image only to tell an identifier's category apart, all of them `Lex.Name`) */
const kinds = new Map<TokenType, Lex>();
function kindOf(type: TokenType, image: string): Lex {
  let k = kinds.get(type);
  if (k === undefined) kinds.set(type, (k = LEX_OF[categoryOf(type, image)]));
  return k;
}
