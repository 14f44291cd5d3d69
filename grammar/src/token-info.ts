// Lexical categories of the tokens of a text, for semantic tokens and syntax colouring. Purely
// lexical: an identifier named like a built-in constructor is a `constructor` wherever it stands.
import type { TokenType } from 'chevrotain';
import type { Range } from './ast.js';
import { CONSTRUCTORS, FUNCTIONS } from './builtins.js';
import { lex } from './lexer.js';
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
  const { tokens, comments } = lex(text);
  const out: TokenInfo[] = [];
  const push = (category: TokenCategory, start: number, image: string) =>
    out.push({ category, range: { start, end: start + image.length }, text: image });
  let ci = 0;
  for (const tok of tokens) {
    while (ci < comments.length && comments[ci].startOffset < tok.startOffset) {
      push('comment', comments[ci].startOffset, comments[ci].image);
      ci++;
    }
    push(categoryOf(tok.tokenType, tok.image), tok.startOffset, tok.image);
  }
  for (; ci < comments.length; ci++) push('comment', comments[ci].startOffset, comments[ci].image);
  return out;
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
