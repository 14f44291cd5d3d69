// The tokens of a text being parsed (parse.ts's Driver extends this) and what is said about its syntax
// errors: each piece's first error, rendered from Chevrotain's encoded error and the tokens around it
// ("expected ')' to close the argument list opened at 3:5"), stray tokens, and where a lexical hole
// (a dropped character, an unterminated string) explains an error, which is then not reported.
import { tokenMatcher, EOF, type IToken, type TokenType } from 'chevrotain';
import type * as ast from './ast.js';
import type { Diagnostic } from './diagnostic.js';
import { LineIndex } from './line-index.js';
import { lex, printable, TokenPool } from './lexer.js';
import type { EncodedError } from './parser.js';
import { nearDeclWord } from './spelling.js';
import * as t from './tokens.js';

export const DECLARATION_LIST = '(param, let, layout, perm, kernel, schedule)';

/** `text`'s line index, built on first need (only messages quote positions) */
export class Lines {
  private index?: LineIndex;
  constructor(private readonly text: string) {}
  get(): LineIndex {
    return (this.index ??= new LineIndex(this.text));
  }
}

export type Context = 'declaration' | 'header' | 'binding' | 'step';

/** the token objects of every parse (a Driver holds its tokens only while it runs; no parse runs inside another) */
const pool = new TokenPool();

const declKeywords = new Set<TokenType>(t.declarationKeywords);
const openers = new Map<TokenType, TokenType>([[t.LParen, t.RParen], [t.LBracket, t.RBracket], [t.LCurly, t.RCurly]]);
const closers = new Set<TokenType>([t.RParen, t.RBracket, t.RCurly]);
export const expressionEnds = new Set<TokenType>([t.RParen, t.RBracket, t.Ident, t.Int, t.StringTok, t.UnterminatedString]);

/** A text's tokens (lexed at construction, with the token pool), its lexical holes, and the rendering of its syntax errors. */
export abstract class Pieces {
  protected readonly tokens: IToken[];
  protected readonly comments: IToken[];
  readonly diagnostics: Diagnostic[] = [];
  /**
   * Offsets of lexical holes: characters the lexer dropped, and unterminated strings (which
   * swallow the rest of their line). A syntax error after a hole in the same piece is not
   * reported: the hole explains it.
   */
  protected readonly holes: number[] = [];
  /** offsets of unterminated strings: they may swallow a block's `{` or `}` */
  protected readonly openStrings: number[] = [];

  /** the offset just past the text (in file offsets) */
  protected readonly end: number;

  /** `lines` indexes `text` (built on first need: only messages quote positions); `base`: the offset where `text` starts in the file */
  constructor(protected readonly text: string, private readonly lineIndex: Lines, private readonly firstLine: number, protected readonly base: number) {
    this.end = base + text.length;
    const l = lex(text, base, pool);
    this.tokens = l.tokens;
    this.comments = l.comments;
    // (a loop, no spread: there may be 100,000s)
    for (let i = 0; i < l.diagnostics.length; i++) {
      const d = l.diagnostics[i];
      this.diagnostics.push(d);
      if (d.code === 'lex/unterminated-string') this.openStrings.push(d.range.start);
      if (d.code === 'lex/unexpected-character' || d.code === 'lex/unterminated-string') this.holes.push(d.range.start);
    }
  }

  protected lines(): LineIndex {
    return this.lineIndex.get();
  }

  /** `line:column` (1-based) of an offset, as the whole file numbers it */
  protected format(offset: number): string {
    const p = this.lines().position(offset - this.base);
    return `${p.line + 1 + this.firstLine}:${p.character + 1}`;
  }

  protected hasHole(from: number, to: number): boolean {
    return anyWithin(this.holes, from, to);
  }

  protected hasOpenString(from: number, to: number): boolean {
    return anyWithin(this.openStrings, from, to);
  }

  /** A piece with a lexical hole before its error reports only the hole (see `holes`). */
  protected hidesDroppedCharacter(s: number, e: number, errTok: IToken): boolean {
    if (this.holes.length === 0) return false;
    const from = this.tokens[s].startOffset;
    const to = isReal(errTok) ? errTok.startOffset : e < this.tokens.length ? this.tokens[e].startOffset : this.end;
    return this.hasHole(from, to);
  }

  // -------------------------------------------------------------- messages

  protected render(err: { name: string; message: string; token: IToken }, s: number, e: number, ctx: Context, braceFollows: boolean): Diagnostic | undefined {
    let enc: EncodedError;
    try {
      enc = JSON.parse(err.message) as EncodedError;
    } catch {
      return { code: 'parse/syntax', severity: 'error', message: err.message, range: this.tokenRange(s) };
    }
    const idx = this.indexOf(err.token, s, e);
    if (enc.kind === 'notAll') {
      if (ctx === 'header' && !braceFollows) return this.expectedAfter(`'{'`, idx - 1, 'parse/expected-token', false);
      return this.strayDiagnostic(idx, ctx === 'header' ? 'header' : ctx);
    }
    const act = idx < e ? this.tokens[idx] : undefined;
    const prevIdx = idx - 1;
    if (enc.kind === 'mismatch') {
      const expected = enc.expected;
      if (expected === 'RParen' || expected === 'RBracket') {
        const closer = expected === 'RParen' ? ')' : ']';
        if (act && !closers.has(act.tokenType) && !declKeywords.has(act.tokenType) && this.sameLine(prevIdx, idx)) {
          return this.expectedAfter(`',' or '${closer}'`, prevIdx, 'parse/expected-token', false);
        }
        const open = this.innermostOpen(s, idx, expected === 'RParen' ? t.LParen : t.LBracket);
        if (open !== undefined) {
          const at = this.endOf(prevIdx);
          return {
            code: 'parse/unclosed',
            severity: 'error',
            message: `expected '${closer}' to close the ${this.openerNoun(open)} opened at ${this.format(this.tokens[open].startOffset)}`,
            range: { start: at, end: at },
          };
        }
      }
      let label = t.tokenLabels[expected] ?? expected;
      if (expected === 'Eq' && enc.rule === 'binding' && act?.tokenType === t.Ident) label = `',' or '='`;
      return this.expectedAfter(label, prevIdx, 'parse/expected-token', false);
    }
    const code = enc.expected === 'an expression' ? 'parse/expected-expression' : 'parse/expected-token';
    return this.expectedAfter(enc.expected, prevIdx, code, false);
  }

  /** `expected WHAT after 'PREV'`, zero-width just after PREV (where the missing text belongs) */
  protected expectedAfter(what: string, prevIdx: number, code: string, push = true): Diagnostic {
    const prev = prevIdx >= 0 ? this.tokens[prevIdx] : undefined;
    const at = prev ? this.endOf(prevIdx) : this.base;
    const d: Diagnostic = {
      code,
      severity: 'error',
      message: prev ? `expected ${what} after ${quote(prev.image)}` : `expected ${what}`,
      range: { start: at, end: at },
    };
    if (push) this.diagnostics.push(d);
    return d;
  }

  /** reports a token that cannot start what `ctx` expects, unless a dropped character just before it explains it */
  protected stray(idx: number, ctx: Context | 'header'): void {
    const from = idx > 0 ? this.endOf(idx - 1) : this.base;
    const to = this.tokens[idx].startOffset;
    if (this.hasHole(from, to)) return;
    this.diagnostics.push(this.strayDiagnostic(idx, ctx));
  }

  protected strayDiagnostic(idx: number, ctx: Context | 'header'): Diagnostic {
    const tok = this.tokens[idx];
    if (!tok) return this.expectedAfter('more input', this.tokens.length - 1, 'parse/expected-token', false);
    let expected: string;
    switch (ctx) {
      case 'declaration': {
        expected = `a declaration ${DECLARATION_LIST}`;
        if (tok.tokenType === t.Ident) {
          const near = nearDeclWord(tok.image);
          if (near) {
            const range = this.tokenRange(idx);
            return {
              code: 'parse/unexpected-token', severity: 'error', range,
              message: `unexpected ${quote(tok.image)} here: expected ${expected}; did you mean '${near}'?`,
              fixes: [{ title: `Change to '${near}'`, edits: [{ range, newText: near }] }],
            };
          }
        } else if (tok.tokenType === t.Eq && idx > 0) {
          expected += `; to compare, use '=='`;
        }
        break;
      }
      case 'header': expected = `'{'`; break;
      case 'binding': expected = `a binding (NAME = EXPR) or '}'`; break;
      default: expected = `a schedule step (NAME(ARGS) or RESULT = NAME(ARGS)) or '}'`;
    }
    return {
      code: 'parse/unexpected-token',
      severity: 'error',
      message: `unexpected ${quote(tok.image)} here: expected ${expected}`,
      range: this.tokenRange(idx),
    };
  }

  protected innermostOpen(s: number, idx: number, open: TokenType): number | undefined {
    const stack: number[] = [];
    for (let i = s; i < idx && i < this.tokens.length; i++) {
      const tt = this.tokens[i].tokenType;
      if (openers.has(tt)) stack.push(i);
      else if (closers.has(tt)) {
        for (let k = stack.length - 1; k >= 0; k--) {
          if (openers.get(this.tokens[stack[k]].tokenType) === tt) { stack.length = k; break; }
        }
      }
    }
    for (let k = stack.length - 1; k >= 0; k--) if (this.tokens[stack[k]].tokenType === open) return stack[k];
    return undefined;
  }

  protected openerNoun(i: number): string {
    const tok = this.tokens[i];
    const before = i > 0 ? this.tokens[i - 1].tokenType : undefined;
    if (tok.tokenType === t.LParen) {
      if (before === t.Ident) return i > 1 && this.tokens[i - 2].tokenType === t.Perm ? 'parameter list' : 'argument list';
      return `'('`;
    }
    return before && expressionEnds.has(before) ? 'index list' : 'list';
  }

  // -------------------------------------------------------------- positions

  protected indexOf(tok: IToken, s: number, e: number): number {
    if (!isReal(tok) || tokenMatcher(tok, EOF)) return e;
    let lo = s;
    let hi = e;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.tokens[mid].startOffset < tok.startOffset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  protected sameLine(a: number, b: number): boolean {
    if (a < 0 || b >= this.tokens.length) return false;
    const lines = this.lines();
    return lines.position(this.tokens[a].startOffset - this.base).line === lines.position(this.tokens[b].startOffset - this.base).line;
  }

  protected endOf(i: number): number {
    const tok = this.tokens[i];
    return tok ? tok.startOffset + tok.image.length : this.base;
  }

  protected tokenRange(i: number): ast.Range {
    const tok = this.tokens[i];
    return tok ? { start: tok.startOffset, end: tok.startOffset + tok.image.length } : { start: this.base, end: this.base };
  }
}


/** whether the sorted `xs` has a value in [from, to] (binary search: files may have many holes) */
function anyWithin(xs: number[], from: number, to: number): boolean {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < from) lo = mid + 1;
    else hi = mid;
  }
  return lo < xs.length && xs[lo] <= to;
}

function isReal(tok: IToken | undefined): tok is IToken {
  return tok !== undefined && !tok.isInsertedInRecovery && !Number.isNaN(tok.startOffset) && tok.startOffset >= 0;
}

function quote(image: string): string {
  const s = image.length > 30 ? image.slice(0, 30) + '...' : image;
  return `'${printable(s)}'`;
}


