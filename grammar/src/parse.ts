// parse(text): tokens -> AST, with diagnostics. Never throws.
//
// A piece without a syntax error (nearly every piece of a file) is parsed straight to the AST by
// fast-parse.ts; any other piece by Chevrotain's parser (parser.ts), whose CST lower.ts turns into
// the same AST.
//
// Recovery strategy. The declaration keywords (param const let layout perm kernel schedule) can
// only start a declaration, so the token stream is first cut at each of them and every piece is
// parsed on its own by the one Chevrotain parser: an error can never swallow the declarations
// after it. Kernel and schedule blocks are cut once more, at statement starts (`NAME =`,
// `a, b =`, or a schedule call after a complete one), so a broken statement does not hide the
// others. Inside one piece Chevrotain's own recovery (token insertion/deletion, re-sync) builds a
// partial CST, and only the piece's FIRST error is reported: later ones are nearly always
// consequences of it. A piece that contains an unexpected character reports that character only.
import { tokenMatcher, EOF, type IToken, type TokenType, type CstNode } from 'chevrotain';
import { fastParse, type FastResults, type FastRule } from './fast-parse.js';
import type * as ast from './ast.js';
import type { Diagnostic } from './diagnostic.js';
import { LineIndex } from './line-index.js';
import { lex, printable } from './lexer.js';
import { Lowering } from './lower.js';
import { chevrotainParse, fastPathOn, parseCounts, type EncodedError } from './parser.js';
import * as t from './tokens.js';

export interface ParseResult {
  file: ast.File;
  /** lexical and syntax diagnostics, sorted by position */
  diagnostics: Diagnostic[];
  /** offset <-> line/character for this text */
  lines: LineIndex;
}

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

export const DECLARATION_LIST = '(param, let, layout, perm, kernel, schedule)';

/**
 * Parses a whole file, or a piece of one (service/chunks.ts parses declarations one by one this
 * way): `offset` is where the piece starts in the file and `firstLine` the (0-based) line it starts
 * on. Every range is then the file's offsets, and positions quoted in messages ("opened at 12:5")
 * are the file's; `lines` indexes `text` itself.
 */
export function parse(text: string, opts: { firstLine?: number; offset?: number } = {}): ParseResult {
  const base = opts.offset ?? 0;
  let lines: LineIndex | undefined;
  const linesOf = () => (lines ??= new LineIndex(text));
  try {
    const r = new Driver(text, linesOf, opts.firstLine ?? 0, base).run();
    return { file: r.file, diagnostics: r.diagnostics, get lines() { return linesOf(); } };
  } catch (e) {
    return {
      file: { kind: 'File', range: { start: base, end: base + text.length }, decls: [], comments: [] },
      diagnostics: [internalError(e, { start: base, end: base })],
      lines: linesOf(),
    };
  }
}

type Context = 'declaration' | 'header' | 'binding' | 'step';

const declKeywords = new Set<TokenType>(t.declarationKeywords);
const openers = new Map<TokenType, TokenType>([[t.LParen, t.RParen], [t.LBracket, t.RBracket], [t.LCurly, t.RCurly]]);
const closers = new Set<TokenType>([t.RParen, t.RBracket, t.RCurly]);
const operatorTypes = new Set<TokenType>(t.allTokens.filter((x) => x.CATEGORIES?.includes(t.BinaryOp) || x.CATEGORIES?.includes(t.PrefixOp)));

// Per-token-type flags, indexed by Chevrotain's tokenTypeIdx, for the scans over every token.
const DECL = 1;
const OPEN = 2;
const CLOSE = 4;
const OPERATOR = 8;
const IF = 16;
const DOT = 32;
const flags = new Uint8Array(Math.max(...t.allTokens.map((x) => x.tokenTypeIdx ?? 0)) + 1);
for (const x of declKeywords) flags[x.tokenTypeIdx!] |= DECL;
for (const x of openers.keys()) flags[x.tokenTypeIdx!] |= OPEN;
for (const x of closers) flags[x.tokenTypeIdx!] |= CLOSE;
for (const x of operatorTypes) flags[x.tokenTypeIdx!] |= OPERATOR;
flags[t.If.tokenTypeIdx!] |= IF;
flags[t.Dot.tokenTypeIdx!] |= DOT;
function flagsOf(tok: IToken): number {
  return flags[tok.tokenTypeIdx] ?? 0;
}
const expressionEnds = new Set<TokenType>([t.RParen, t.RBracket, t.Ident, t.Int, t.StringTok, t.UnterminatedString]);
const declWords = ['param', 'const', 'let', 'layout', 'perm', 'kernel', 'schedule', 'assume'];
const declWordTypes: Record<string, TokenType> = {
  param: t.Param, const: t.Const, let: t.Let, layout: t.LayoutKw, perm: t.Perm, kernel: t.Kernel, schedule: t.Schedule, assume: t.Assume,
};

/**
 * The declaration keyword a word is a misspelling of, if any: edit distance 1 for words of up to 4
 * letters (`lt`, `parm`), 2 for longer ones (`layuot`); a single letter is never taken for a keyword.
 */
export function nearDeclWord(image: string): string | undefined {
  if (image.length < 2) return undefined;
  const w = image.toLowerCase();
  const most = w.length <= 4 ? 1 : 2;
  return declWords.find((k) => k !== image && editDistance(k, w) <= most);
}

class Driver {
  private readonly tokens: IToken[];
  private readonly comments: IToken[];
  private readonly diagnostics: Diagnostic[] = [];
  /**
   * Offsets of lexical holes: characters the lexer dropped, and unterminated strings (which
   * swallow the rest of their line). A syntax error after a hole in the same piece is not
   * reported: the hole explains it.
   */
  private readonly holes: number[];
  /** offsets of unterminated strings: they may swallow a block's `{` or `}` */
  private readonly openStrings: number[];
  private readonly low: Lowering;

  /** the offset just past the text (in file offsets) */
  private readonly end: number;
  /** whether the last `unit` reported a syntax error (or a limit) for its piece */
  private unitFailed = false;

  /** `lines` indexes `text` (built on first need: only messages quote positions); `base`: the offset where `text` starts in the file */
  constructor(private readonly text: string, private readonly lines: () => LineIndex, private readonly firstLine: number, private readonly base: number) {
    this.end = base + text.length;
    const l = lex(text, base);
    this.tokens = l.tokens;
    this.comments = l.comments;
    for (const d of l.diagnostics) this.diagnostics.push(d); // (no spread: there may be 100,000s)
    this.holes = l.diagnostics
      .filter((d) => d.code === 'lex/unexpected-character' || d.code === 'lex/unterminated-string')
      .map((d) => d.range.start);
    this.openStrings = l.diagnostics.filter((d) => d.code === 'lex/unterminated-string').map((d) => d.range.start);
    this.low = new Lowering(this.diagnostics);
  }

  run(): { file: ast.File; diagnostics: Diagnostic[] } {
    const decls: ast.Decl[] = [];
    const n = this.tokens.length;
    let i = 0;
    while (i < n) {
      let j = i + 1;
      while (j < n && !(flagsOf(this.tokens[j]) & DECL) && !this.misspelledKeywordAt(j)) j++;
      if (!(flagsOf(this.tokens[i]) & DECL)) {
        const d = this.misspelledDeclaration(i, j);
        if (d) decls.push(d);
        else this.stray(i, 'declaration');
      } else {
        const d = this.guard(i, () => this.declaration(i, j));
        if (d) decls.push(d);
      }
      i = j;
    }
    const comments: ast.Comment[] = this.comments.map((c) => ({
      kind: 'Comment',
      range: { start: c.startOffset, end: c.startOffset + c.image.length },
      text: c.image.slice(1),
    }));
    return {
      // a copy of exactly its length: a chunk's array of one declaration, built by push, has room for 17
      file: { kind: 'File', range: { start: this.base, end: this.end }, decls: decls.slice(), comments },
      diagnostics: finish(this.diagnostics),
    };
  }

  /** runs `f`; an internal failure (a bug, or a stack overflow) becomes one diagnostic */
  private guard<T>(at: number, f: () => T): T | undefined {
    try {
      return f();
    } catch (e) {
      this.diagnostics.push(internalError(e, this.tokenRange(at)));
      return undefined;
    }
  }

  /**
   * `layuot B = ...`: a word close to a declaration keyword followed by a name. Reported once (with a fix
   * that corrects the word) and parsed as that declaration, so that its name is declared and its uses do
   * not cascade into more errors.
   */
  private misspelledDeclaration(i: number, j: number): ast.Decl | undefined {
    const tok = this.tokens[i];
    if (i + 1 >= j || !this.misspelledKeywordAt(i)) return undefined;
    const word = nearDeclWord(tok.image)!;
    const from = i > 0 ? this.endOf(i - 1) : this.base;
    if (!this.hasHole(from, tok.startOffset)) this.diagnostics.push(this.strayDiagnostic(i, 'declaration'));
    const kw = declWordTypes[word];
    const saved = this.tokens[i];
    this.tokens[i] = { ...saved, image: word, tokenType: kw, tokenTypeIdx: kw.tokenTypeIdx! };
    try {
      return this.guard(i, () => this.declaration(i, j));
    } finally {
      this.tokens[i] = saved;
    }
  }

  /** A word at the start of a line, close to a declaration keyword and followed by a name: `layuot B = ...`. */
  private misspelledKeywordAt(i: number): boolean {
    const tok = this.tokens[i];
    return tok.tokenType === t.Ident && this.atLineStart(tok.startOffset) && this.tokens[i + 1]?.tokenType === t.Ident && nearDeclWord(tok.image) !== undefined;
  }

  /** does a line break, or the text's start (a piece starts at a line start), come just before `offset` (a file offset) */
  private atLineStart(offset: number): boolean {
    const i = offset - this.base;
    if (i === 0) return true;
    const c = this.text.charCodeAt(i - 1);
    return c === 10 || c === 13;
  }

  // -------------------------------------------------------------- declarations

  private declaration(s: number, e: number): ast.Decl | undefined {
    const kw = this.tokens[s].tokenType;
    if (kw === t.Kernel || kw === t.Schedule) return this.block(s, e, kw === t.Kernel);
    return this.unit('declaration', s, e, 'declaration');
  }

  private block(s: number, e: number, isKernel: boolean): ast.KernelDecl | ast.ScheduleDecl | undefined {
    const toks = this.tokens;
    let b = s;
    while (b < e && toks[b].tokenType !== t.LCurly) b++;
    const header = this.unit(isKernel ? 'kernelHeader' : 'scheduleHeader', s, b, 'header', b < e);
    const headerFailed = this.unitFailed;
    if (b === e) {
      if (!headerFailed && s < b && !this.hasOpenString(toks[s].startOffset, this.endOf(e - 1))) {
        this.expectedAfter(`'{'`, e - 1, 'parse/expected-token');
      }
      if (!header) return undefined;
      const end = this.endOf(e - 1);
      const bodyRange = { start: end, end };
      return isKernel
        ? { ...(header as ast.KernelDecl), bindings: [], bodyRange, range: { start: toks[s].startOffset, end } }
        : { ...(header as ast.ScheduleDecl), steps: [], bodyRange, range: { start: toks[s].startOffset, end } };
    }
    let c = b + 1;
    while (c < e && toks[c].tokenType !== t.RCurly) c++;
    const statements: (ast.Binding | ast.ScheduleStep)[] = [];
    if (header) {
      for (const [p, q] of this.statements(b + 1, c, isKernel)) {
        const st = this.guard(p, () => this.statement(p, q, isKernel));
        if (st) statements.push(st);
      }
    }
    let end: number;
    if (c === e) {
      const at = this.endOf(e - 1);
      if (!this.hasOpenString(toks[b].startOffset, at)) this.diagnostics.push({
        code: 'parse/unclosed',
        severity: 'error',
        message: `expected '}' to close the block opened at ${this.format(toks[b].startOffset)}`,
        range: { start: at, end: at },
      });
      end = at;
    } else {
      end = this.endOf(c);
      if (c + 1 < e) this.stray(c + 1, 'declaration');
    }
    if (!header) return undefined;
    const bodyRange = { start: toks[b].startOffset, end };
    const range = { start: toks[s].startOffset, end };
    return isKernel
      ? { ...(header as ast.KernelDecl), bindings: statements as ast.Binding[], bodyRange, range }
      : { ...(header as ast.ScheduleDecl), steps: statements as ast.ScheduleStep[], bodyRange, range };
  }

  /** splits a block body [s, e) into statements */
  private statements(s: number, e: number, isKernel: boolean): [number, number][] {
    const toks = this.tokens;
    const starts: number[] = [];
    for (let j = s; j < e; j++) {
      if (j === s) { starts.push(j); }
      if (toks[j].tokenType !== t.Ident) continue;
      if (isKernel) {
        let k = j + 1;
        while (k + 1 < e && toks[k].tokenType === t.Comma && toks[k + 1].tokenType === t.Ident) k += 2;
        if (k < e && toks[k].tokenType === t.Eq) {
          if (j !== s) starts.push(j);
          j = k;
        }
      } else if (j !== s && j + 1 < e) {
        const next = toks[j + 1].tokenType;
        if (next === t.Eq || (next === t.LParen && expressionEnds.has(toks[j - 1].tokenType))) starts.push(j);
      }
    }
    return starts.map((p, i) => [p, i + 1 < starts.length ? starts[i + 1] : e]);
  }

  private statement(s: number, e: number, isKernel: boolean): ast.Binding | ast.ScheduleStep | undefined {
    const ctx: Context = isKernel ? 'binding' : 'step';
    if (this.tokens[s].tokenType !== t.Ident) {
      this.stray(s, ctx);
      return undefined;
    }
    return this.unit(isKernel ? 'binding' : 'step', s, e, ctx);
  }

  // -------------------------------------------------------------- one piece

  /**
   * Parses tokens [s, e) with `rule`: straight to the AST where the piece has no syntax error
   * (fast-parse.ts), else by Chevrotain, whose CST lower.ts turns into the AST; reports the first
   * syntax error, and sets `unitFailed` to whether it reported one (or a limit: then nothing is parsed).
   * `braceFollows`: a header whose `{` exists.
   */
  private unit<R extends Exclude<FastRule, 'expression'>>(rule: R, s: number, e: number, ctx: Context, braceFollows = false): FastResults[R] | undefined {
    this.unitFailed = false;
    if (s >= e) return undefined;
    const before = this.diagnostics.length;
    if (!this.withinLimits(s, e)) {
      this.unitFailed = this.diagnostics.length > before;
      return undefined;
    }
    if (fastPathOn()) {
      const fast = fastParse(rule, this.tokens, s, e, this.diagnostics);
      if (fast) {
        parseCounts.fast++;
        return fast;
      }
    }
    parseCounts.chevrotain++;
    const r = chevrotainParse(rule, s === 0 && e === this.tokens.length ? this.tokens : this.tokens.slice(s, e));
    if (r.errors.length > 0) {
      const d = this.render(r.errors[0], s, e, ctx, braceFollows);
      if (d && !this.hidesDroppedCharacter(s, e, r.errors[0].token)) this.diagnostics.push(d);
    }
    this.unitFailed = this.diagnostics.length > before;
    return r.cst ? (this.lower(rule, r.cst) as FastResults[R] | undefined) : undefined;
  }

  /** lower.ts's AST of a piece's CST */
  private lower(rule: FastRule, cst: CstNode): FastResults[FastRule] | undefined {
    switch (rule) {
      case 'declaration': return this.low.declaration(cst);
      case 'kernelHeader': return this.low.kernelHeader(cst);
      case 'scheduleHeader': return this.low.scheduleHeader(cst);
      case 'binding': return this.low.binding(cst);
      case 'step': return this.low.step(cst);
      default: return this.low.expr(cst, 0);
    }
  }

  /** `line:column` (1-based) of an offset, as the whole file numbers it */
  private format(offset: number): string {
    const p = this.lines().position(offset - this.base);
    return `${p.line + 1 + this.firstLine}:${p.character + 1}`;
  }

  private withinLimits(s: number, e: number): boolean {
    let depth = 0;
    let ops = 0;
    let ifs = 0;
    let dots = 0;
    for (let i = s; i < e; i++) {
      const f = flagsOf(this.tokens[i]);
      if (f === 0) continue;
      if (f & DOT) {
        if (++dots > MAX_CALL_CHAIN) {
          this.diagnostics.push({
            code: 'parse/too-complex',
            severity: 'error',
            message: `more than ${MAX_CALL_CHAIN} method calls ('.') in one declaration or statement; it is not analysed`,
            range: this.tokenRange(i),
          });
          return false;
        }
      } else if (f & OPEN) {
        if (++depth > MAX_NESTING) {
          this.diagnostics.push({
            code: 'parse/too-complex',
            severity: 'error',
            message: `brackets nest more than ${MAX_NESTING} levels deep here; this declaration is not analysed`,
            range: this.tokenRange(i),
          });
          return false;
        }
      } else if (f & CLOSE) depth = Math.max(0, depth - 1);
      else if (f & IF) {
        if (++ifs > MAX_IFS) {
          this.diagnostics.push({
            code: 'parse/too-complex',
            severity: 'error',
            message: `more than ${MAX_IFS} 'if' expressions in one declaration or statement; it is not analysed`,
            range: this.tokenRange(i),
          });
          return false;
        }
      } else if (f & OPERATOR) {
        if (++ops > MAX_OPERATORS) {
          this.diagnostics.push({
            code: 'parse/too-complex',
            severity: 'error',
            message: `more than ${MAX_OPERATORS} operators in one declaration or statement; it is not analysed`,
            range: this.tokenRange(i),
          });
          return false;
        }
      }
    }
    return true;
  }

  private hasHole(from: number, to: number): boolean {
    return anyWithin(this.holes, from, to);
  }

  private hasOpenString(from: number, to: number): boolean {
    return anyWithin(this.openStrings, from, to);
  }

  /** A piece with a lexical hole before its error reports only the hole (see `holes`). */
  private hidesDroppedCharacter(s: number, e: number, errTok: IToken): boolean {
    if (this.holes.length === 0) return false;
    const from = this.tokens[s].startOffset;
    const to = isReal(errTok) ? errTok.startOffset : e < this.tokens.length ? this.tokens[e].startOffset : this.end;
    return this.hasHole(from, to);
  }

  // -------------------------------------------------------------- messages

  private render(err: { name: string; message: string; token: IToken }, s: number, e: number, ctx: Context, braceFollows: boolean): Diagnostic | undefined {
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
  private expectedAfter(what: string, prevIdx: number, code: string, push = true): Diagnostic {
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
  private stray(idx: number, ctx: Context | 'header'): void {
    const from = idx > 0 ? this.endOf(idx - 1) : this.base;
    const to = this.tokens[idx].startOffset;
    if (this.hasHole(from, to)) return;
    this.diagnostics.push(this.strayDiagnostic(idx, ctx));
  }

  private strayDiagnostic(idx: number, ctx: Context | 'header'): Diagnostic {
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

  private innermostOpen(s: number, idx: number, open: TokenType): number | undefined {
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

  private openerNoun(i: number): string {
    const tok = this.tokens[i];
    const before = i > 0 ? this.tokens[i - 1].tokenType : undefined;
    if (tok.tokenType === t.LParen) {
      if (before === t.Ident) return i > 1 && this.tokens[i - 2].tokenType === t.Perm ? 'parameter list' : 'argument list';
      return `'('`;
    }
    return before && expressionEnds.has(before) ? 'index list' : 'list';
  }

  // -------------------------------------------------------------- positions

  private indexOf(tok: IToken, s: number, e: number): number {
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

  private sameLine(a: number, b: number): boolean {
    if (a < 0 || b >= this.tokens.length) return false;
    const lines = this.lines();
    return lines.position(this.tokens[a].startOffset - this.base).line === lines.position(this.tokens[b].startOffset - this.base).line;
  }

  private endOf(i: number): number {
    const tok = this.tokens[i];
    return tok ? tok.startOffset + tok.image.length : this.base;
  }

  private tokenRange(i: number): ast.Range {
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

function internalError(e: unknown, range: ast.Range): Diagnostic {
  const why = e instanceof RangeError ? 'it nests too deeply' : e instanceof Error ? e.message : String(e);
  return { code: 'parse/internal-error', severity: 'error', message: `internal error while parsing this declaration (${why}); it is not analysed`, range };
}

/** sorts by position and caps the count */
function finish(ds: Diagnostic[]): Diagnostic[] {
  ds.sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end);
  if (ds.length <= MAX_DIAGNOSTICS) return ds;
  const more = ds.length - MAX_DIAGNOSTICS;
  const kept = ds.slice(0, MAX_DIAGNOSTICS);
  const at = ds[MAX_DIAGNOSTICS].range;
  kept.push({ code: 'parse/too-many-errors', severity: 'information', message: `${more} more syntax error${more === 1 ? '' : 's'} not shown`, range: at });
  return kept;
}

/** Damerau-Levenshtein (optimal string alignment) distance */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > 3) return Math.abs(a.length - b.length);
  const m = a.length;
  const n = b.length;
  let prev2: number[] = [];
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const cur = [i];
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur.push(v);
    }
    prev2 = prev;
    prev = cur;
  }
  return prev[n];
}
