// Lexing: Chevrotain's lexer plus our own checks of literals. Never throws: characters that
// match no token are dropped and reported, malformed literals are kept as tokens (so the parser
// sees no hole) and reported here once.
import { Lexer, type IToken } from 'chevrotain';
import type { Diagnostic } from './diagnostic.js';
import { allTokens, Int, UnterminatedString } from './tokens.js';

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

let lexer: Lexer | undefined;
function theLexer(): Lexer {
  // Offsets only: positions come from offsets through LineIndex (with LSP's line ends), and
  // skipping Chevrotain's line/column tracking halves the lexing time. `lex` sets `endOffset`
  // itself, which the parser's CST locations need.
  lexer ??= new Lexer(allTokens, { positionTracking: 'onlyOffset', ensureOptimizations: true });
  return lexer;
}

/** decimal digits, `_` only between digits */
export const WELL_FORMED_INT = /^[0-9]+(?:_[0-9]+)*$/;

/**
 * Tokens of `text`. `base`: the text is a piece of a file that starts at this offset; every
 * offset (tokens, comments, diagnostics) is then the file's.
 */
export function lex(text: string, base = 0): LexResult {
  const r = theLexer().tokenize(text);
  const diagnostics: Diagnostic[] = [];
  for (const e of r.errors) {
    const bad = text.slice(e.offset, e.offset + e.length);
    const shown = bad.length > 20 ? printable(bad.slice(0, 20)) + '...' : printable(bad);
    diagnostics.push({
      code: 'lex/unexpected-character',
      severity: 'error',
      message: [...bad].length === 1 ? `unexpected character '${shown}'` : `unexpected characters '${shown}'`,
      range: { start: base + e.offset, end: base + e.offset + e.length },
    });
  }
  const comments = r.groups.comments ?? [];
  if (base !== 0) for (const c of comments) c.startOffset += base;
  for (const c of comments) c.endOffset = c.startOffset + c.image.length - 1;
  for (const t of r.tokens) {
    if (base !== 0) t.startOffset += base;
    t.endOffset = t.startOffset + t.image.length - 1;
    const type = t.tokenType;
    if (type === Int) {
      if (WELL_FORMED_INT.test(t.image)) continue;
      diagnostics.push({
        code: 'lex/malformed-integer',
        severity: 'error',
        message: t.image.includes('.')
          ? `number '${t.image}' is not an integer: only integer literals exist`
          : `integer literal '${t.image}' is malformed`,
        range: { start: t.startOffset, end: t.startOffset + t.image.length },
      });
    } else if (type === UnterminatedString) {
      diagnostics.push({
        code: 'lex/unterminated-string',
        severity: 'error',
        message: 'unterminated string',
        range: { start: t.startOffset, end: t.startOffset + t.image.length },
      });
    }
  }
  diagnostics.sort((a, b) => a.range.start - b.range.start);
  return { tokens: r.tokens, comments, diagnostics };
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
