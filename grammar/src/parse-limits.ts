// What one piece (a declaration or a statement) may hold before parse.ts refuses to analyse it, the
// cap on a file's syntax diagnostics, and the per-token-type flags of parse.ts's scans over tokens.
import type { IToken, TokenType } from 'chevrotain';
import type * as ast from './ast.js';
import type { Diagnostic } from './diagnostic.js';
import * as t from './tokens.js';

/** Deepest bracket nesting accepted in one declaration or statement (deeper input is reported, not parsed). */
export const MAX_NESTING = 64;
/** Most operators accepted in one declaration or statement. */
export const MAX_OPERATORS = 2000;
/** Most `.method(...)` calls accepted in one declaration or statement (a chain nests: each call holds the previous). */
export const MAX_CALL_CHAIN = 256;
/** Most `if` expressions accepted in one declaration or statement (an else-if chain nests). */
export const MAX_IFS = 256;
/** At most this many lexical and syntax diagnostics are reported per file (plus one saying how many more). */
export const MAX_DIAGNOSTICS = 100;

const operatorTypes = t.allTokens.filter((x) => x.CATEGORIES?.includes(t.BinaryOp) || x.CATEGORIES?.includes(t.PrefixOp));

// Per-token-type flags, indexed by Chevrotain's tokenTypeIdx, for the scans over every token.
export const DECL = 1;
const OPEN = 2;
const CLOSE = 4;
const OPERATOR = 8;
const IF = 16;
const DOT = 32;
const flags = new Uint8Array(Math.max(...t.allTokens.map((x) => x.tokenTypeIdx ?? 0)) + 1);
const mark = (types: readonly TokenType[], flag: number) => {
  for (const x of types) flags[x.tokenTypeIdx!] |= flag;
};
mark(t.declarationKeywords, DECL);
mark([t.LParen, t.LBracket, t.LCurly], OPEN);
mark([t.RParen, t.RBracket, t.RCurly], CLOSE);
mark(operatorTypes, OPERATOR);
mark([t.If], IF);
mark([t.Dot], DOT);
export function flagsOf(tok: IToken): number {
  return flags[tok.tokenTypeIdx] ?? 0;
}

/** `parse/too-complex` at the first token of `tokens[s, e)` past a limit, if there is one */
export function overLimit(tokens: IToken[], s: number, e: number): Diagnostic | undefined {
  let depth = 0;
  let ops = 0;
  let ifs = 0;
  let dots = 0;
  for (let i = s; i < e; i++) {
    const f = flagsOf(tokens[i]);
    if (f === 0) continue;
    let message: string | undefined;
    if (f & DOT) {
      if (++dots > MAX_CALL_CHAIN) message = `more than ${MAX_CALL_CHAIN} method calls ('.') in one declaration or statement; it is not analysed`;
    } else if (f & OPEN) {
      if (++depth > MAX_NESTING) message = `brackets nest more than ${MAX_NESTING} levels deep here; this declaration is not analysed`;
    } else if (f & CLOSE) depth = Math.max(0, depth - 1);
    else if (f & IF) {
      if (++ifs > MAX_IFS) message = `more than ${MAX_IFS} 'if' expressions in one declaration or statement; it is not analysed`;
    } else if (f & OPERATOR) {
      if (++ops > MAX_OPERATORS) message = `more than ${MAX_OPERATORS} operators in one declaration or statement; it is not analysed`;
    }
    if (message !== undefined) {
      const tok = tokens[i];
      return { code: 'parse/too-complex', severity: 'error', message, range: { start: tok.startOffset, end: tok.startOffset + tok.image.length } };
    }
  }
  return undefined;
}

export function internalError(e: unknown, range: ast.Range): Diagnostic {
  const why = e instanceof RangeError ? 'it nests too deeply' : e instanceof Error ? e.message : String(e);
  return { code: 'parse/internal-error', severity: 'error', message: `internal error while parsing this declaration (${why}); it is not analysed`, range };
}

/** sorts by position and caps the count */
export function finish(ds: Diagnostic[]): Diagnostic[] {
  if (ds.length > 1) ds.sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end);
  if (ds.length <= MAX_DIAGNOSTICS) return ds;
  const more = ds.length - MAX_DIAGNOSTICS;
  const kept = ds.slice(0, MAX_DIAGNOSTICS);
  const at = ds[MAX_DIAGNOSTICS].range;
  kept.push({ code: 'parse/too-many-errors', severity: 'information', message: `${more} more syntax error${more === 1 ? '' : 's'} not shown`, range: at });
  return kept;
}
