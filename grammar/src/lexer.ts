// Lexing: a hand-written scanner for the token types of tokens.ts, plus our own checks of
// literals. It gives exactly the tokens Chevrotain's lexer gives for those definitions (same types,
// images and offsets, comments apart, characters that match no token dropped the same way;
// test/grammar/lexer-oracle.test.ts holds it to Chevrotain's lexer on random and mutated texts),
// about twice as fast warm and three to four times in a cold process (no regular expressions to
// compile and tier up, no lexer to build: the first open of a large file is lexed cold). The parser is Chevrotain's
// and reads these tokens. Never throws: characters that match no token are dropped and reported,
// malformed literals are kept as tokens (so the parser sees no hole) and reported here once.
import type { IToken, TokenType } from 'chevrotain';
import type { Diagnostic } from './diagnostic.js';
import * as t from './tokens.js';

export interface LexResult {
  tokens: IToken[];
  comments: IToken[];
  diagnostics: Diagnostic[];
}

// Memory: V8 gives every `{ start, end }` object literal one shared hidden class. Token offsets read
// from Chevrotain's tokens are heap numbers (its EOF token has NaN offsets, so its token class stores
// offsets as doubles), and the first range built from one would make the shared class store both
// fields as boxed doubles: 32 more bytes per range, for every range in the process. Storing a
// non-number first makes the fields tagged instead, where small integers are stored unboxed.
const seed: { start: unknown; end: unknown } = { start: 0, end: 0 };
seed.start = seed.end = '';

/** decimal digits, `_` only between digits */
export const WELL_FORMED_INT = /^[0-9]+(?:_[0-9]+)*$/;

/**
 * `WELL_FORMED_INT.test(s)` without the regular expression: it is asked of every integer literal
 * (by the lexer and by the parser's node), and a file is mostly small integers.
 */
export function isWellFormedInt(s: string): boolean {
  const n = s.length;
  let digitBefore = false;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) digitBefore = true;
    else if (c === 95 && digitBefore && i + 1 < n) digitBefore = false;
    else return false;
  }
  return digitBefore;
}

// ------------------------------------------------------------------ character classes
// One table over the first 128 code units; everything above is a space (`\s`) or no token.
const LETTER = 1; // [A-Za-z_]: starts Ident and the keywords
const DIGIT = 2; // [0-9]: starts Int
const SPACE = 4; // \s
const WORD = LETTER | DIGIT; // [A-Za-z0-9_]
const ascii = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z_]/.test(ch)) ascii[c] = LETTER;
  else if (/[0-9]/.test(ch)) ascii[c] = DIGIT;
  else if (/\s/.test(ch)) ascii[c] = SPACE;
}

/** Is `c` (a code unit; NaN past a text's end) a word character, `[A-Za-z0-9_]` (what continues an identifier or a keyword)? */
export function isWordChar(c: number): boolean {
  return c < 128 && (ascii[c] & WORD) !== 0;
}

/** JavaScript's `\s` (WhiteSpace.PATTERN): ASCII spaces, Unicode's Zs, line/paragraph separators, BOM */
export function isSpace(c: number): boolean {
  if (c < 128) return ascii[c] === SPACE;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029
    || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * The one-character tokens, and the first character of the two-character operators, by code
 * unit; `!` only starts `!=`.
 */
const single: (TokenType | undefined)[] = [];
for (const [ch, type] of [
  ['^', t.Caret], ['&', t.Amp], ['|', t.Pipe], ['<', t.Lt], ['>', t.Gt], ['=', t.Eq], ['+', t.Plus], ['-', t.Minus],
  ['*', t.Star], ['/', t.Slash], ['%', t.Percent], ['(', t.LParen], [')', t.RParen], ['[', t.LBracket], [']', t.RBracket],
  ['{', t.LCurly], ['}', t.RCurly], [',', t.Comma], [':', t.Colon], ['.', t.Dot],
] as const) single[ch.charCodeAt(0)] = type;
/** `first second` -> the two-character operator, tried before the one-character token (as tokens.ts orders them) */
const double = new Map<number, TokenType>();
/** the two-character operators' images, by the same key (one string each, not one per token) */
const doubleImage = new Map<number, string>();
for (const [s, type] of [
  ['<<', t.Shl], ['>>', t.Shr], ['<=', t.Le], ['>=', t.Ge], ['==', t.EqEq], ['!=', t.NotEq], ['//', t.SlashSlash],
] as const) {
  double.set(s.charCodeAt(0) * 65536 + s.charCodeAt(1), type);
  doubleImage.set(s.charCodeAt(0) * 65536 + s.charCodeAt(1), s);
}

/**
 * Words that lex as keywords. Chevrotain tries the keyword patterns in `allTokens` order and takes
 * the first that matches, unless its `longer_alt` (Ident) matches a longer text: so a word is the
 * keyword whose pattern is the whole word, provided no keyword listed earlier is a prefix of it.
 */
const keywordOf = new Map<string, TokenType>();
for (const k of t.keywordTokens) {
  const word = (k.PATTERN as RegExp).source;
  const first = t.allTokens.find((x) => t.keywordTokens.includes(x) && word.startsWith((x.PATTERN as RegExp).source));
  if (first === k) keywordOf.set(word, k);
}
/** the keywords by their first code unit, to find the one a word is with no string made for it */
const keywordsByFirst: [string, TokenType][][] = [];
for (const [word, k] of keywordOf) (keywordsByFirst[word.charCodeAt(0)] ??= []).push([word, k]);

/** the keyword (its own string and type) that `text[start, end)` is, if any */
function keywordAt(text: string, start: number, end: number): [string, TokenType] | undefined {
  const list = keywordsByFirst[text.charCodeAt(start)];
  if (list === undefined) return undefined;
  for (let k = 0; k < list.length; k++) {
    const kw = list[k];
    if (kw[0].length === end - start && text.startsWith(kw[0], start)) return kw;
  }
  return undefined;
}

const HASH = 35;
const QUOTE = 34;
const BACKSLASH = 92;
const LF = 10;
const CR = 13;
const DOTC = 46;
const BANG = 33;

/** does some token match at `i` (where Chevrotain's lexer stops dropping characters) */
function startsToken(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128 && (ascii[c] !== 0 || single[c] !== undefined || c === HASH || c === QUOTE)) return true;
  if (c === BANG) return text.charCodeAt(i + 1) === 61;
  return c >= 128 && isSpace(c);
}

function token(image: string, startOffset: number, type: TokenType): IToken {
  return { image, startOffset, endOffset: startOffset + image.length - 1, tokenTypeIdx: type.tokenTypeIdx!, tokenType: type } as IToken;
}

/** At most this many token objects are kept for re-use (`TokenPool`). */
export const POOL_SIZE = 4096;

/**
 * Token objects lent to one lexing after another: a caller that holds its tokens only until it lexes
 * again (parse.ts: the AST keeps no token) passes the pool, and the k-th token of each lexing is the
 * same object, overwritten; its first `POOL_SIZE` tokens then allocate nothing (a token object is
 * most of what lexing allocates, and a file is lexed chunk by chunk).
 */
export class TokenPool {
  readonly objects: IToken[] = [];
}

/** appends the token to `tokens`, re-using the pool's object at its index where there is one */
function put(tokens: IToken[], pool: TokenPool | undefined, image: string, startOffset: number, type: TokenType): void {
  if (pool === undefined) {
    tokens.push(token(image, startOffset, type));
    return;
  }
  const k = tokens.length;
  const objects = pool.objects;
  let tok = objects[k];
  if (tok === undefined) {
    tok = token(image, startOffset, type);
    if (k === objects.length && k < POOL_SIZE) objects.push(tok);
  } else {
    tok.image = image;
    tok.startOffset = startOffset;
    tok.endOffset = startOffset + image.length - 1;
    tok.tokenTypeIdx = type.tokenTypeIdx!;
    tok.tokenType = type;
  }
  tokens.push(tok);
}

/**
 * Tokens of `text`. `base`: the text is a piece of a file that starts at this offset; every
 * offset (tokens, comments, diagnostics) is then the file's. `pool`: the token objects are the
 * pool's (overwritten by the next lexing with the same pool).
 */
export function lex(text: string, base = 0, pool?: TokenPool): LexResult {
  const tokens: IToken[] = [];
  const comments: IToken[] = [];
  const diagnostics: Diagnostic[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    const cls = c < 128 ? ascii[c] : isSpace(c) ? SPACE : 0;
    const start = i;
    if (cls === SPACE) {
      i++;
      while (i < n && isSpace(text.charCodeAt(i))) i++;
    } else if (cls === LETTER) {
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d >= 128 || (ascii[d] & WORD) === 0) break;
        i++;
      }
      const kw = keywordAt(text, start, i);
      if (kw !== undefined) put(tokens, pool, kw[0], base + start, kw[1]);
      else put(tokens, pool, text.substring(start, i), base + start, t.Ident);
    } else if (cls === DIGIT) {
      i = wordEnd(text, i + 1);
      // `(?:\.[0-9][0-9A-Za-z_]*)?`
      if (text.charCodeAt(i) === DOTC && isDigit(text.charCodeAt(i + 1))) i = wordEnd(text, i + 2);
      const image = text.substring(start, i);
      put(tokens, pool, image, base + start, t.Int);
      if (!isWellFormedInt(image)) {
        diagnostics.push({
          code: 'lex/malformed-integer',
          severity: 'error',
          message: image.includes('.')
            ? `number '${image}' is not an integer: only integer literals exist`
            : `integer literal '${image}' is malformed`,
          range: { start: base + start, end: base + i },
        });
      }
    } else if (c === HASH) {
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === LF || d === CR) break;
        i++;
      }
      comments.push(token(text.substring(start, i), base + start, t.Comment));
    } else if (c === QUOTE) {
      // `"(?:[^"\\\n\r]|\\[^\n\r])*"`, else (unterminated) as much of `"(?:[^"\\\n\r]|\\[^\n\r]?)*`
      // as does not end with white space (`kept`: after the last character or escape that is not; the
      // backslash of an escaped white space character)
      i++;
      let closed = false;
      let kept = i;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === QUOTE) { closed = true; i++; break; }
        if (d === LF || d === CR) break;
        if (d === BACKSLASH) {
          const e = text.charCodeAt(i + 1);
          if (i + 1 < n && e !== LF && e !== CR) i += 2;
          else { i++; kept = i; break; }
          kept = isSpace(e) ? i - 1 : i; // an escaped white space character: up to the backslash
        } else {
          i++;
          if (!isSpace(d)) kept = i;
        }
      }
      if (!closed) i = kept;
      put(tokens, pool, text.substring(start, i), base + start, closed ? t.StringTok : t.UnterminatedString);
      if (!closed) {
        diagnostics.push({ code: 'lex/unterminated-string', severity: 'error', message: 'unterminated string', range: { start: base + start, end: base + i } });
      }
    } else {
      const key = c * 65536 + text.charCodeAt(i + 1);
      const two = i + 1 < n ? double.get(key) : undefined;
      const type = two ?? (c < 128 ? single[c] : undefined);
      if (type) {
        const image = two ? doubleImage.get(key)! : text[i];
        i += image.length;
        put(tokens, pool, image, base + start, type);
      } else {
        // no token matches: drop characters up to the next place where one does
        i++;
        while (i < n && !startsToken(text, i)) i++;
        diagnostics.push(unexpected(text.slice(start, i), base + start));
      }
    }
  }
  // (in order already: each diagnostic is at a token or a hole, met in order)
  return { tokens, comments, diagnostics };
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** the end of a run of [0-9A-Za-z_] from `i` */
function wordEnd(text: string, i: number): number {
  const n = text.length;
  while (i < n) {
    const d = text.charCodeAt(i);
    if (d >= 128 || (ascii[d] & WORD) === 0) break;
    i++;
  }
  return i;
}

function unexpected(bad: string, start: number): Diagnostic {
  const shown = bad.length > 20 ? printable(bad.slice(0, 20)) + '...' : printable(bad);
  return {
    code: 'lex/unexpected-character',
    severity: 'error',
    message: [...bad].length === 1 ? `unexpected character '${shown}'` : `unexpected characters '${shown}'`,
    range: { start, end: start + bad.length },
  };
}

/** Shows control and other invisible characters as `\uXXXX` so that a message stays one readable line. */
export function printable(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c < 0x20 || (c >= 0x7f && c < 0xa0) || c === 0x2028 || c === 0x2029 || c === 0xfeff || (c >= 0xd800 && c <= 0xdfff)) {
      out += '\\u' + c.toString(16).padStart(4, '0');
    } else out += ch;
  }
  return out;
}

/** Decodes the escapes of a string token; reports unknown ones. `image` includes the quotes. */
export function decodeString(image: string, start: number, diagnostics: Diagnostic[]): string {
  const closed = image.length >= 2 && image.endsWith('"') && !isEscapedQuoteAtEnd(image);
  const body = image.slice(1, closed ? -1 : undefined);
  if (!body.includes('\\')) return body;
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch !== '\\') { out += ch; continue; }
    const next = body[i + 1];
    if (next === undefined) break; // a lone backslash ends an unterminated string (already reported)
    i++;
    switch (next) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case '\\': out += '\\'; break;
      case '"': out += '"'; break;
      default:
        diagnostics.push({
          code: 'lex/invalid-escape',
          severity: 'error',
          message: `unknown escape '\\${printable(next)}' in string: use \\n, \\t, \\\\ or \\"`,
          range: { start: start + 1 + i - 1, end: start + 1 + i + next.length },
        });
        out += next;
    }
  }
  return out;
}

function isEscapedQuoteAtEnd(image: string): boolean {
  // `"abc\"` (unterminated): the final quote is escaped when preceded by an odd run of backslashes
  let n = 0;
  for (let i = image.length - 2; i >= 1 && image[i] === '\\'; i--) n++;
  return n % 2 === 1;
}
