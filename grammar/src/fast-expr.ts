// The fast path's expressions (see fast-parse.ts): an expression straight from the tokens to the AST,
// exactly as Chevrotain's parser and lower.ts give it. Precedence is climbed on the token stream as
// lower.ts's Climber climbs the operand list, with the tables of nodes.ts; where lower.ts reads a CST
// node's extent (the first and last token it consumed), this reads the first token of the construct
// and the last token consumed (`endBefore`).
import type { IToken, TokenType } from 'chevrotain';
import type * as ast from './ast.js';
import type { Diagnostic } from './diagnostic.js';
import * as n from './nodes.js';
import * as t from './tokens.js';

/** thrown (a constant, no stack trace) at the first token that does not fit */
export const GIVE_UP = { giveUp: true };

export const I = (x: TokenType) => x.tokenTypeIdx!;
const maxIdx = Math.max(...t.allTokens.map(I));
/** per token type index: the types (and categories) it matches, as bits */
const PREFIX = 1;
export const STRING = 2;
export const ANY_NAME = 4;
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

export const IDENT = I(t.Ident);
const INT = I(t.Int);
export const LPAREN = I(t.LParen);
export const RPAREN = I(t.RParen);
export const LBRACKET = I(t.LBracket);
export const RBRACKET = I(t.RBracket);
export const COMMA = I(t.Comma);
export const COLON = I(t.Colon);
export const DOT = I(t.Dot);
export const EQ = I(t.Eq);
const IF = I(t.If);
const NONE = 0; // (no token type has index 0: Chevrotain's EOF has it)

const NO_TOKENS: IToken[] = [];
const NO_DIAGNOSTICS: Diagnostic[] = [];

/** The fast path's state for one piece (between `start` and `done`), its token helpers, and expressions; fast-parse.ts's Builder adds the declarations. */
export class ExprBuilder {
  pos = 0;
  protected toks: IToken[] = [];
  protected end = 0;
  protected diagnostics: Diagnostic[] = [];
  /**
   * Items of the lists being built, nested lists above their parent's, below `top` (each list is
   * copied out at its final length). The array only grows: its length is never set (a slow call).
   */
  private readonly stack: unknown[] = [];
  private top = 0;
  /** the highest `top` of this piece: `done` clears the slots up to it (no AST kept alive by the parser) */
  private high = 0;
  /** the range of the argument list `args` read last (a node's own object: each `args` makes a new one) */
  protected argsRange: ast.Range = { start: 0, end: 0 };

  start(toks: IToken[], s: number, end: number, diagnostics: Diagnostic[]): this {
    this.toks = toks;
    this.pos = s;
    this.end = end;
    this.diagnostics = diagnostics;
    this.top = this.high = 0;
    return this;
  }

  /** lets go of the piece's tokens, diagnostics and nodes */
  done(): void {
    this.toks = NO_TOKENS;
    this.diagnostics = NO_DIAGNOSTICS;
    for (let i = 0; i < this.high; i++) this.stack[i] = undefined;
  }

  /** puts an item of the list being built on the stack */
  protected push(x: unknown): void {
    this.stack[this.top++] = x;
    if (this.top > this.high) this.high = this.top;
  }

  /** where the list to be built next starts on the stack */
  protected mark(): number {
    return this.top;
  }


  // ------------------------------------------------------------------ helpers

  /** the type index of the next token, NONE past the piece */
  protected la(): number {
    return this.pos < this.end ? this.toks[this.pos].tokenTypeIdx : NONE;
  }

  /** the type index of the token after the next, NONE past the piece */
  protected la2(): number {
    return this.pos + 1 < this.end ? this.toks[this.pos + 1].tokenTypeIdx : NONE;
  }

  /** the next token, which must be of type index `type` */
  protected take(type: number): IToken {
    if (this.la() !== type) throw GIVE_UP;
    return this.toks[this.pos++];
  }

  /** the next token, whose type must have the flag `flag` */
  protected takeFlagged(flag: number): IToken {
    if ((flags[this.la()] & flag) === 0) throw GIVE_UP;
    return this.toks[this.pos++];
  }

  /** the offset where the token at `i` starts */
  protected startAt(i: number): number {
    if (i >= this.end) throw GIVE_UP;
    return this.toks[i].startOffset;
  }

  /** the offset just past the last token consumed */
  protected endBefore(): number {
    const tok = this.toks[this.pos - 1];
    return tok.startOffset + tok.image.length;
  }

  /** the range from the token at `i` to the last token consumed */
  protected from(i: number): ast.Range {
    return { start: this.toks[i].startOffset, end: this.endBefore() };
  }

  /** the items pushed on the stack since `mark`, as an array of exactly their count (popped) */
  protected popFrom<T>(mark: number): T[] {
    const items = this.stack.slice(mark, this.top) as T[];
    this.top = mark;
    return items;
  }

  /** `X (, X)*` where `item` reads an X (a `,` always continues the list) */
  protected commaList<T>(item: () => T): T[] {
    const mark = this.mark();
    this.push(item());
    while (this.la() === COMMA) {
      this.pos++;
      this.push(item());
    }
    return this.popFrom(mark);
  }

  protected identList(): ast.Ident[] {
    return this.commaList(() => n.ident(this.take(IDENT)));
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
  protected climb(minPrec: number): ast.Expr {
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
  protected unary(): ast.Expr {
    if ((flags[this.la()] & PREFIX) === 0) return this.operand();
    const at = this.pos;
    const op = this.toks[this.pos++];
    const operand = this.climb(n.prefixPrec(op));
    return n.unaryNode(op, operand, this.from(at));
  }

  /** a primary, then `.method(args)` and `[indices]` suffixes */
  protected operand(): ast.Expr {
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
        const mark = this.mark();
        this.push(this.indexItem());
        while (this.la() === COMMA && (flags[this.la2()] & INDEX_START) !== 0) {
          this.pos++;
          this.push(this.indexItem());
        }
        if (this.la() === COMMA) this.pos++;
        this.take(RBRACKET);
        e = n.indexExpr({ start, end: this.endBefore() }, e, this.popFrom(mark));
      }
    }
    return e;
  }

  /** an index, or a slice `a:b`, `:`, `a:b:s` */
  protected indexItem(): ast.Expr | ast.Slice {
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
  protected parens(): ast.Expr {
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
      const mark = this.mark();
      this.moreItems();
      this.top = mark;
      this.take(RPAREN);
      return n.rangeExpr(this.from(at), first, stop, step);
    }
    if (this.la() !== COMMA) {
      this.take(RPAREN);
      return first;
    }
    const mark = this.mark();
    this.push(first);
    this.moreItems();
    this.take(RPAREN);
    return n.tuple(this.from(at), this.popFrom(mark));
  }

  /** `(, EXPR)* [,]` after a list's first item: the items go on the stack */
  protected moreItems(): void {
    while (this.la() === COMMA && (flags[this.la2()] & EXPR_START) !== 0) {
      this.pos++;
      this.push(this.expr());
    }
    if (this.la() === COMMA) this.pos++;
  }

  protected list(): ast.ListExpr {
    const at = this.pos++;
    const items = this.items();
    this.take(RBRACKET);
    return n.list(this.from(at), items);
  }

  /** `(EXPR, ...)`; its range is left in `argsRange` */
  protected args(): ast.Expr[] {
    const at = this.take(LPAREN).startOffset;
    const args = this.items();
    this.take(RPAREN);
    this.argsRange = { start: at, end: this.endBefore() };
    return args;
  }

  /** `[EXPR (, EXPR)* [,]]` inside brackets or an argument list */
  protected items(): ast.Expr[] {
    if ((flags[this.la()] & EXPR_START) === 0) return [];
    const mark = this.mark();
    this.push(this.expr());
    this.moreItems();
    return this.popFrom(mark);
  }

  protected ifExpr(): ast.IfExpr {
    const at = this.pos++;
    const cond = this.expr();
    this.take(I(t.Then));
    const then = this.expr();
    this.take(I(t.Else));
    const els = this.expr();
    return n.ifExpr(this.from(at), cond, then, els);
  }
}
