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
import type { CstNode } from 'chevrotain';
import { fastParse, type FastResults, type FastRule } from './fast-parse.js';
import type * as ast from './ast.js';
import type { Diagnostic } from './diagnostic.js';
import type { LineIndex } from './line-index.js';
import { Lowering } from './lower.js';
import { chevrotainParse, fastPathOn, parseCounts } from './parser.js';
import * as t from './tokens.js';
import { DECL, finish, flagsOf, internalError, overLimit } from './parse-limits.js';
import { expressionEnds, Lines, Pieces, type Context } from './parse-messages.js';
import { declWordTypes, nearDeclWord } from './spelling.js';

export { MAX_NESTING, MAX_OPERATORS, MAX_CALL_CHAIN, MAX_IFS, MAX_DIAGNOSTICS } from './parse-limits.js';
export { editDistance, nearDeclWord } from './spelling.js';

export interface ParseResult {
  file: ast.File;
  /** lexical and syntax diagnostics, sorted by position */
  diagnostics: Diagnostic[];
  /** offset <-> line/character for this text */
  lines: LineIndex;
}

export { DECLARATION_LIST } from './parse-messages.js';

/**
 * Parses a whole file, or a piece of one (service/chunks.ts parses declarations one by one this
 * way): `offset` is where the piece starts in the file and `firstLine` the (0-based) line it starts
 * on. Every range is then the file's offsets, and positions quoted in messages ("opened at 12:5")
 * are the file's; `lines` indexes `text` itself.
 */
export function parse(text: string, opts: { firstLine?: number; offset?: number } = {}): ParseResult {
  const base = opts.offset ?? 0;
  const lines = new Lines(text);
  try {
    const d = new Driver(text, lines, opts.firstLine ?? 0, base);
    d.run();
    return new Parsed(d.file!, finish(d.diagnostics), lines);
  } catch (e) {
    const file: ast.File = { kind: 'File', range: { start: base, end: base + text.length }, decls: [], comments: [] };
    return new Parsed(file, [internalError(e, { start: base, end: base })], lines);
  }
}

/** a ParseResult whose line index is built on first read (a chunk's parse never reads it) */
class Parsed implements ParseResult {
  constructor(readonly file: ast.File, readonly diagnostics: Diagnostic[], private readonly index: Lines) {}
  get lines(): LineIndex {
    return this.index.get();
  }
}

class Driver extends Pieces {
  /** the file, once `run` has parsed it */
  file?: ast.File;
  /** the CST -> AST lowering of the pieces Chevrotain parses (made on first need) */
  private lowering?: Lowering;
  /** whether the last `unit` reported a syntax error (or a limit) for its piece */
  private unitFailed = false;

  private get low(): Lowering {
    return (this.lowering ??= new Lowering(this.diagnostics));
  }

  /** parses the text into `file`; its diagnostics are left unsorted in `diagnostics` */
  run(): void {
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
        const d = this.guardedDeclaration(i, j);
        if (d) decls.push(d);
      }
      i = j;
    }
    const comments: ast.Comment[] = this.comments.map((c) => ({
      kind: 'Comment',
      range: { start: c.startOffset, end: c.startOffset + c.image.length },
      text: c.image.slice(1),
    }));
    // a copy of exactly its length: a chunk's array of one declaration, built by push, has room for 17
    this.file = { kind: 'File', range: { start: this.base, end: this.end }, decls: decls.slice(), comments };
  }

  /** the declaration of tokens [i, j); an internal failure (a bug, or a stack overflow) becomes one diagnostic */
  private guardedDeclaration(i: number, j: number): ast.Decl | undefined {
    try {
      return this.declaration(i, j);
    } catch (e) {
      this.internal(e, i);
      return undefined;
    }
  }

  private internal(e: unknown, at: number): void {
    this.diagnostics.push(internalError(e, this.tokenRange(at)));
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
      return this.guardedDeclaration(i, j);
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
      const starts = this.statementStarts(b + 1, c, isKernel);
      for (let k = 0; k < starts.length; k++) {
        const p = starts[k];
        const q = k + 1 < starts.length ? starts[k + 1] : c;
        let st: ast.Binding | ast.ScheduleStep | undefined;
        try {
          st = this.statement(p, q, isKernel);
        } catch (err) {
          this.internal(err, p);
        }
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
    // (a copy of exactly its length, as every array of the AST)
    return isKernel
      ? { ...(header as ast.KernelDecl), bindings: statements.slice() as ast.Binding[], bodyRange, range }
      : { ...(header as ast.ScheduleDecl), steps: statements.slice() as ast.ScheduleStep[], bodyRange, range };
  }

  /** splits a block body [s, e) into statements: where each starts (each ends where the next starts, the last at `e`) */
  private statementStarts(s: number, e: number, isKernel: boolean): number[] {
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
    return starts;
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
    const over = overLimit(this.tokens, s, e);
    if (over) {
      this.diagnostics.push(over);
      this.unitFailed = true;
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
}
