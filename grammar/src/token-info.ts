// Lexical categories of the tokens of a text, for semantic tokens and syntax colouring. Purely
// lexical: an identifier named like a built-in constructor is a `constructor` wherever it stands.
import type { TokenType } from 'chevrotain';
import type { Range } from './ast.js';
import { CONSTRUCTORS, FUNCTIONS } from './builtins.js';
import { lex, type TokenPool } from './lexer.js';
import * as t from './tokens.js';

export type TokenCategory =
  | 'keyword' | 'constructor' | 'function' | 'identifier' | 'number' | 'string' | 'comment' | 'operator' | 'punctuation';

export interface TokenInfo {
  category: TokenCategory;
  range: Range;
  text: string;
}

const constructors = new Set(CONSTRUCTORS);
const functions = new Set(FUNCTIONS);

/** Every token of `text`, comments included, in source order. Never throws. */
export function tokenInfos(text: string): TokenInfo[] {
  const out: TokenInfo[] = [];
  forEachToken(text, (type, start, image) => out.push({ category: categoryOf(type, image), range: { start, end: start + image.length }, text: image }));
  return out;
}

/**
 * Every token of `text`, comments included, in source order (a comment before the token after it),
 * handed to `visit` as it comes, no object made for it (`pool`: the lexer's token objects re-used
 * from one call to the next). Never throws.
 */
export function forEachToken(text: string, visit: (type: TokenType, start: number, image: string) => void, pool?: TokenPool): void {
  const { tokens, comments } = lex(text, 0, pool);
  let ci = 0;
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i];
    for (; ci < comments.length && comments[ci].startOffset < tok.startOffset; ci++) visit(t.Comment, comments[ci].startOffset, comments[ci].image);
    visit(tok.tokenType, tok.startOffset, tok.image);
  }
  for (; ci < comments.length; ci++) visit(t.Comment, comments[ci].startOffset, comments[ci].image);
}

/** The category of one token (by its Chevrotain token type and text). */
export function categoryOf(type: TokenType, image: string): TokenCategory {
  if (type === t.Ident) return constructors.has(image) ? 'constructor' : functions.has(image) ? 'function' : 'identifier';
  if (type === t.Int) return 'number';
  if (type === t.StringTok || type === t.UnterminatedString) return 'string';
  if (type === t.Comment) return 'comment';
  const cats = type.CATEGORIES ?? [];
  if (cats.includes(t.Keyword)) return 'keyword'; // `and`, `or`, `not` included
  if (cats.includes(t.BinaryOp) || type === t.Eq || type === t.Colon) return 'operator';
  return 'punctuation';
}
