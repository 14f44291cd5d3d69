// The fast path for the common case, a piece without a syntax error: a hand-written recursive-descent
// parser of the grammar of parser.ts that builds the AST directly from the tokens, exactly the AST
// that Chevrotain's parser and lower.ts give for the piece (the same nodes, built by the same
// constructors of nodes.ts, the same ranges, and the same diagnostics where building a node reports
// one: an unknown kernel target, a chained comparison, an unknown string escape). It makes the
// decisions Chevrotain's lookahead makes (one token, two where parser.ts's alternatives share their
// first token: `a, b` against a trailing `,` in a list, `h = f(...)` against `f(...)` in a schedule
// step) and gives up at the first token that does not fit: parse.ts then parses the piece with
// Chevrotain, whose error recovery and messages apply, and lowers its CST with lower.ts. So it never
// has to say anything about broken input, and it allocates little besides the AST: no CST, no
// per-rule objects, each array built at its final length.
//
// Where lower.ts reads a CST node's extent (the first and last token it consumed), this reads the
// first token of the construct and the last token consumed (`endBefore`); precedence is climbed on
// the token stream as lower.ts's Climber climbs the operand list, with the tables of nodes.ts.
// test/grammar/fast-parse.test.ts holds it to Chevrotain + lower.ts: wherever it gives an AST,
// Chevrotain parses the piece without an error and lower.ts gives the same AST and diagnostics.
import type { IToken, TokenType } from 'chevrotain';
import type * as ast from './ast.js';
import type { Diagnostic } from './diagnostic.js';
import * as n from './nodes.js';
import * as t from './tokens.js';

/** thrown (a constant, no stack trace) at the first token that does not fit */
const GIVE_UP = { giveUp: true };

const I = (x: TokenType) => x.tokenTypeIdx!;
const maxIdx = Math.max(...t.allTokens.map(I));
/** per token type index: the types (and categories) it matches, as bits */
const PREFIX = 1;
const STRING = 2;
const ANY_NAME = 4;
const EXPR_START = 8;
const INDEX_START = 16;
const flags = new Uint8Array(maxIdx + 1);
for (const x of t.allTokens) {
  const is = (type: TokenType) => x === type || (x.CATEGORIES?.includes(type) ?? false);
  if (is(t.PrefixOp)) flags[I(x)] |= PREFIX;
  if (is(t.StringLike)) flags[I(x)] |= STRING;
  if (is(t.AnyName)) flags[I(x)] |= ANY_NAME;
  if ([t.PrefixOp, t.Int, t.StringLike, t.Ident, t.LParen, t.LBracket, t.If].some(is)) flags[I(x)] |= EXPR_START | INDEX_START;
}
flags[I(t.Colon)] |= INDEX_START;

const IDENT = I(t.Ident);
const INT = I(t.Int);
const LPAREN = I(t.LParen);
const RPAREN = I(t.RParen);
const LBRACKET = I(t.LBracket);
const RBRACKET = I(t.RBracket);
const COMMA = I(t.Comma);
const COLON = I(t.Colon);
const DOT = I(t.Dot);
const EQ = I(t.Eq);
const IF = I(t.If);
const NONE = 0; // (no token type has index 0: Chevrotain's EOF has it)

export type FastRule = 'declaration' | 'kernelHeader' | 'scheduleHeader' | 'binding' | 'step' | 'expression';
/** what each rule gives */
export interface FastResults {
  declaration: ast.Decl;
  kernelHeader: n.KernelHeader;
  scheduleHeader: n.ScheduleHeader;
  binding: ast.Binding;
  step: ast.ScheduleStep;
  expression: ast.Expr;
}

/**
 * The AST of `tokens[s, e)` by `rule`, as Chevrotain's parser and lower.ts give it, or undefined
 * where the tokens do not parse without an error (or take a path this parser does not decide the
 * same way): the caller then runs Chevrotain. Diagnostics of the nodes (as lower.ts reports them)
 * go to `diagnostics`; nothing is added there when the result is undefined.
 */
export function fastParse<R extends FastRule>(rule: R, tokens: IToken[], s: number, e: number, diagnostics: Diagnostic[]): FastResults[R] | undefined {
  if (s >= e) return undefined;
  const mark = diagnostics.length;
  const p = new Builder(tokens, s, e, diagnostics);
  try {
    let r: FastResults[FastRule];
    switch (rule) {
      case 'declaration': r = p.declaration(); break;
      case 'kernelHeader': r = p.kernelHeader(); break;
      case 'scheduleHeader': r = p.scheduleHeader(); break;
      case 'binding': r = p.binding(); break;
      case 'step': r = p.step(); break;
      default: r = p.expr();
    }
    if (p.pos === e) return r as FastResults[R];
  } catch (err) {
    if (err !== GIVE_UP) throw err;
  }
  diagnostics.length = mark;
  return undefined;
}

class Builder {
  pos: number;
  /** items of the lists being built, nested lists above their parent's (each list is copied out at its final length) */
  private readonly stack: unknown[] = [];
  /** the range of the argument list `args` read last */
  private argsRange: ast.Range = { start: 0, end: 0 };

  constructor(private readonly toks: IToken[], s: number, private readonly end: number, private readonly diagnostics: Diagnostic[]) {
    this.pos = s;
  }

  // ------------------------------------------------------------------ helpers

  /** the type index of the next token, NONE past the piece */
  private la(): number {
    return this.pos < this.end ? this.toks[this.pos].tokenTypeIdx : NONE;
  }

  /** the type index of the token after the next, NONE past the piece */
  private la2(): number {
    return this.pos + 1 < this.end ? this.toks[this.pos + 1].tokenTypeIdx : NONE;
  }

  /** the next token, which must be of type index `type` */
  private take(type: number): IToken {
    if (this.la() !== type) throw GIVE_UP;
    return this.toks[this.pos++];
  }

  /** the next token, whose type must have the flag `flag` */
  private takeFlagged(flag: number): IToken {
    if ((flags[this.la()] & flag) === 0) throw GIVE_UP;
    return this.toks[this.pos++];
  }

  /** the offset where the token at `i` starts */
  private startAt(i: number): number {
    if (i >= this.end) throw GIVE_UP;
    return this.toks[i].startOffset;
  }

  /** the offset just past the last token consumed */
  private endBefore(): number {
    const tok = this.toks[this.pos - 1];
    return tok.startOffset + tok.image.length;
  }

  /** the range from the token at `i` to the last token consumed */
  private from(i: number): ast.Range {
    return { start: this.toks[i].startOffset, end: this.endBefore() };
  }

  /** the items pushed on the stack since `mark`, as an array of exactly their count (popped) */
  private popFrom<T>(mark: number): T[] {
    const items = this.stack.slice(mark) as T[];
    this.stack.length = mark;
    return items;
  }

  /** `X (, X)*` where `item` reads an X (a `,` always continues the list) */
  private commaList<T>(item: () => T): T[] {
    const mark = this.stack.length;
    this.stack.push(item());
    while (this.la() === COMMA) {
      this.pos++;
      this.stack.push(item());
    }
    return this.popFrom(mark);
  }

  private identList(): ast.Ident[] {
    return this.commaList(() => n.ident(this.take(IDENT)));
  }

  // ------------------------------------------------------------------ declarations

  declaration(): ast.Decl {
    const k = this.la();
    if (k === I(t.Param) || k === I(t.Const)) return this.paramDecl();
    if (k === I(t.Let)) return this.namedDecl('Let');
    if (k === I(t.LayoutKw)) return this.namedDecl('Layout');
    if (k === I(t.Perm)) return this.permDecl();
    if (k === I(t.Assume)) {
      const at = this.pos++;
      const facts = this.commaList(() => this.expr());
      return n.assumeDecl(this.from(at), facts);
    }
    if (k === I(t.Linear)) return this.linearDecl();
    throw GIVE_UP;
  }

  private linearDecl(): ast.LinearDecl {
    const at = this.pos++;
    const name = n.ident(this.take(IDENT));
    this.take(EQ);
    const ctor = this.take(IDENT);
    this.take(LPAREN);
    const args = this.la() === IDENT ? this.commaList(() => this.linearArg()) : [];
    this.take(RPAREN);
    return n.linearDecl(this.from(at), name, ctor, args);
  }

  private linearArg(): ast.LinearArg {
    const name = n.ident(this.take(IDENT));
    this.take(EQ);
    const value = this.expr();
    return n.linearArg({ start: name.range.start, end: value.range.end }, name, value);
  }

  private whereClause(): ast.WhereClause | undefined {
    if (this.la() !== I(t.Where)) return undefined;
    const kw = this.toks[this.pos++];
    const facts = this.commaList(() => this.expr());
    return n.whereClause({ start: kw.startOffset, end: facts[facts.length - 1].range.end }, facts);
  }

  private paramDecl(): ast.ParamDecl {
    const at = this.pos++;
    const items = this.commaList(() => this.paramItem());
    return n.paramDecl(this.from(at), this.toks[at].tokenTypeIdx === I(t.Const), items);
  }

  private paramItem(): ast.ParamItem {
    const at = this.pos;
    const name = n.ident(this.take(IDENT));
    this.take(EQ);
    const value = this.expr();
    let candidates: ast.ListExpr | undefined;
    if (this.la() === I(t.In)) {
      this.pos++;
      if (this.la() !== LBRACKET) throw GIVE_UP;
      candidates = this.list();
    }
    return n.paramItem(this.from(at), name, value, candidates);
  }

  private namedDecl(kind: 'Let' | 'Layout'): ast.LetDecl | ast.LayoutDecl {
    const at = this.pos++;
    const name = n.ident(this.take(IDENT));
    this.take(EQ);
    const value = this.expr();
    const where = kind === 'Layout' ? this.whereClause() : undefined;
    return n.namedDecl(kind, this.from(at), name, value, where);
  }

  private permDecl(): ast.PermDecl {
    const at = this.pos++;
    const name = n.ident(this.take(IDENT));
    this.take(LPAREN);
    const params = this.la() === IDENT ? this.identList() : [];
    this.take(RPAREN);
    this.take(LBRACKET);
    const indices = this.identList();
    this.take(RBRACKET);
    this.take(EQ);
    const body = this.expr();
    let inverse: ast.PermInverse | undefined;
    if (this.la() === I(t.Inverse)) {
      const inv = this.pos++;
      this.take(LPAREN);
      const arg = this.take(IDENT);
      this.take(RPAREN);
      this.take(EQ);
      this.take(LBRACKET);
      const results = this.items();
      this.take(RBRACKET);
      inverse = n.permInverse(this.from(inv), arg, results);
    }
    return n.permDecl(this.from(at), name, params, indices, body, inverse);
  }

  kernelHeader(): n.KernelHeader {
    const at = this.pos;
    this.take(I(t.Kernel));
    const name = this.take(IDENT);
    this.take(I(t.Target));
    const target = n.kernelTarget(this.take(IDENT), this.diagnostics);
    let template: ast.KernelDecl['template'];
    if (this.la() === I(t.Template)) {
      this.pos++;
      template = n.templateFile(this.takeFlagged(STRING), this.diagnostics);
    } else {
      this.take(I(t.Builtin));
      template = n.templateBuiltin(this.take(IDENT));
    }
    const where = this.whereClause();
    return n.kernelHeader(this.from(at), name, target, template, where);
  }

  scheduleHeader(): n.ScheduleHeader {
    const at = this.pos;
    this.take(I(t.Schedule));
    const name = this.take(IDENT);
    this.take(I(t.For));
    const opNames = [this.take(IDENT)];
    while (this.la() === DOT) {
      this.pos++;
      opNames.push(this.takeFlagged(ANY_NAME));
    }
    const op = n.scheduleOp(opNames, this.args());
    let types: ast.ScheduleDecl['types'];
    if (this.la() === COLON) {
      this.pos++;
      const elts = [this.take(IDENT)];
      const times: IToken[] = [];
      while (this.la() === IDENT) {
        times.push(this.take(IDENT));
        elts.push(this.take(IDENT));
      }
      this.take(I(t.Minus));
      this.take(I(t.Gt));
      types = n.scheduleTypes(elts, this.take(IDENT), times);
    }
    let gpu: IToken | undefined;
    if (this.la() === I(t.On)) {
      this.pos++;
      gpu = this.take(IDENT);
    }
    return n.scheduleHeader(this.from(at), name, op, types, gpu);
  }

  binding(): ast.Binding {
    const at = this.pos;
    const names = this.identList();
    this.take(EQ);
    const value = this.expr();
    return n.binding(this.from(at), names, value);
  }

  step(): ast.ScheduleStep {
    let result: IToken | undefined;
    if (this.la() === IDENT && this.la2() === EQ) {
      result = this.toks[this.pos];
      this.pos += 2;
    }
    const primitive = this.take(IDENT);
    const args = this.args();
    return n.step(result, primitive, args, this.argsRange);
  }

  // ------------------------------------------------------------------ expressions

  /** an expression: `operand (op operand)*`, folded by precedence as lower.ts's Climber folds it */
  expr(): ast.Expr {
    return this.climb(0);
  }

  /**
   * Precedence climbing on the token stream. A Binary's range is its text, from the first token of
   * its left operand (a prefix operator or a `(` included) to the last token of its right one.
   */
  private climb(minPrec: number): ast.Expr {
    const at = this.pos;
    let left = this.unary();
    let chained = false;
    for (;;) {
      const prec = n.PREC[this.la()];
      if (prec <= minPrec) break;
      const op = this.toks[this.pos++];
      if (prec === n.COMPARISON && chained) this.diagnostics.push(n.chainedComparison(op));
      const right = this.climb(prec);
      left = n.binaryNode(op, left, right, this.from(at));
      chained = prec === n.COMPARISON;
    }
    return left;
  }

  /** prefix operators, then a primary with its suffixes */
  private unary(): ast.Expr {
    if ((flags[this.la()] & PREFIX) === 0) return this.operand();
    const at = this.pos;
    const op = this.toks[this.pos++];
    const operand = this.climb(n.prefixPrec(op));
    return n.unaryNode(op, operand, this.from(at));
  }

  /** a primary, then `.method(args)` and `[indices]` suffixes */
  private operand(): ast.Expr {
    const start = this.startAt(this.pos);
    const k = this.la();
    let e: ast.Expr;
    if (k === IDENT) {
      const tok = this.toks[this.pos++];
      if (this.la() === LPAREN) {
        const args = this.args();
        e = n.call(tok, args, this.argsRange);
      } else e = n.nameRef(tok);
    } else if (k === INT) e = n.intLit(this.toks[this.pos++]);
    else if (k === LPAREN) e = this.parens();
    else if (k === LBRACKET) e = this.list();
    else if (k === IF) e = this.ifExpr();
    else e = n.stringLit(this.takeFlagged(STRING), this.diagnostics);
    for (let s = this.la(); s === DOT || s === LBRACKET; s = this.la()) {
      this.pos++;
      if (s === DOT) {
        const method = this.take(IDENT);
        const args = this.args();
        e = n.methodCall(start, e, method, args, this.argsRange);
      } else {
        const mark = this.stack.length;
        this.stack.push(this.indexItem());
        while (this.la() === COMMA && (flags[this.la2()] & INDEX_START) !== 0) {
          this.pos++;
          this.stack.push(this.indexItem());
        }
        if (this.la() === COMMA) this.pos++;
        this.take(RBRACKET);
        e = n.indexExpr({ start, end: this.endBefore() }, e, this.popFrom(mark));
      }
    }
    return e;
  }

  /** an index, or a slice `a:b`, `:`, `a:b:s` */
  private indexItem(): ast.Expr | ast.Slice {
    const at = this.pos;
    let start: ast.Expr | undefined;
    if (this.la() !== COLON) {
      start = this.expr();
      if (this.la() !== COLON) return start;
    }
    this.pos++;
    const stop = (flags[this.la()] & EXPR_START) !== 0 ? this.expr() : undefined;
    let step: ast.Expr | undefined;
    if (this.la() === COLON) {
      this.pos++;
      step = this.expr();
    }
    return n.slice(this.from(at), start, stop, step);
  }

  /** `(e)` (just e), a tuple `(a, b)`, `(a,)`, or a range `(a:b)`, `(a:b:s)` */
  private parens(): ast.Expr {
    const at = this.pos++;
    const first = this.expr();
    if (this.la() === COLON) {
      this.pos++;
      const stop = this.expr();
      let step: ast.Expr | undefined;
      if (this.la() === COLON) {
        this.pos++;
        step = this.expr();
      }
      // items after a range are parsed (and their diagnostics reported) but not kept, as lower.ts does
      const mark = this.stack.length;
      this.moreItems();
      this.stack.length = mark;
      this.take(RPAREN);
      return n.rangeExpr(this.from(at), first, stop, step);
    }
    if (this.la() !== COMMA) {
      this.take(RPAREN);
      return first;
    }
    const mark = this.stack.length;
    this.stack.push(first);
    this.moreItems();
    this.take(RPAREN);
    return n.tuple(this.from(at), this.popFrom(mark));
  }

  /** `(, EXPR)* [,]` after a list's first item: the items go on the stack */
  private moreItems(): void {
    while (this.la() === COMMA && (flags[this.la2()] & EXPR_START) !== 0) {
      this.pos++;
      this.stack.push(this.expr());
    }
    if (this.la() === COMMA) this.pos++;
  }

  private list(): ast.ListExpr {
    const at = this.pos++;
    const items = this.items();
    this.take(RBRACKET);
    return n.list(this.from(at), items);
  }

  /** `(EXPR, ...)`; its range is left in `argsRange` */
  private args(): ast.Expr[] {
    const at = this.take(LPAREN).startOffset;
    const args = this.items();
    this.take(RPAREN);
    this.argsRange = { start: at, end: this.endBefore() };
    return args;
  }

  /** `[EXPR (, EXPR)* [,]]` inside brackets or an argument list */
  private items(): ast.Expr[] {
    if ((flags[this.la()] & EXPR_START) === 0) return [];
    const mark = this.stack.length;
    this.stack.push(this.expr());
    this.moreItems();
    return this.popFrom(mark);
  }

  private ifExpr(): ast.IfExpr {
    const at = this.pos++;
    const cond = this.expr();
    this.take(I(t.Then));
    const then = this.expr();
    this.take(I(t.Else));
    const els = this.expr();
    return n.ifExpr(this.from(at), cond, then, els);
  }
}
