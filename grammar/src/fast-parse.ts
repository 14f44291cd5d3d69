// A fast path for the common case, a piece without a syntax error: a hand-written recursive-descent
// recogniser of the grammar of parser.ts that builds exactly the CST Chevrotain's parser builds for
// it (same node names, child keys and labels, the same token objects, the same locations), so that
// lower.ts reads it unchanged. It makes the decisions Chevrotain's lookahead makes (one token, two
// where parser.ts's alternatives share their first token: `a, b` against a trailing `,` in a list,
// `h = f(...)` against `f(...)` in a schedule step) and gives up at the first token that does not
// fit: `parseRule` then parses the piece with Chevrotain, whose error recovery and messages apply.
// So it never has to say anything about broken input. Chevrotain's rule machinery (a closure
// per repetition, recovery bookkeeping per rule, rest arguments) cost most of the parse; this is
// several times faster, and fast from the first call (a cold process parses a whole file at open).
// test/grammar/fast-parse.test.ts holds it to Chevrotain: wherever it gives a CST, Chevrotain gives
// the same one with no error.
import type { CstNode, IToken, TokenType } from 'chevrotain';
import * as t from './tokens.js';

/** thrown (a constant, no stack trace) at the first token that does not fit */
const GIVE_UP = { giveUp: true };

type Children = Record<string, (CstNode | IToken)[]>;

/** `matches[type.tokenTypeIdx][token.tokenTypeIdx]`: Chevrotain's tokenMatcher (a type or one of its categories) */
const matches: Uint8Array[] = [];
const maxIdx = Math.max(...t.allTokens.map((x) => x.tokenTypeIdx!));
for (const type of t.allTokens) {
  const row = new Uint8Array(maxIdx + 1);
  for (const x of t.allTokens) {
    if (x === type || x.CATEGORIES?.includes(type)) row[x.tokenTypeIdx!] = 1;
  }
  matches[type.tokenTypeIdx!] = row;
}

/** first tokens of an expression */
const exprStart = new Uint8Array(maxIdx + 1);
for (const type of [t.PrefixOp, t.Int, t.StringLike, t.Ident, t.LParen, t.LBracket, t.If]) {
  for (let i = 0; i <= maxIdx; i++) if (matches[type.tokenTypeIdx!][i]) exprStart[i] = 1;
}
/** first tokens of an index item (`:` or an expression) */
const indexStart = exprStart.slice();
indexStart[t.Colon.tokenTypeIdx!] = 1;

const I = (x: TokenType) => x.tokenTypeIdx!;
const IDENT = I(t.Ident);
const INT = I(t.Int);
const LPAREN = I(t.LParen);
const LBRACKET = I(t.LBracket);
const COMMA = I(t.Comma);
const COLON = I(t.Colon);
const DOT = I(t.Dot);
const EQ = I(t.Eq);
const IF = I(t.If);
const NONE = -1;

export type FastRule = 'declaration' | 'kernelHeader' | 'scheduleHeader' | 'binding' | 'step' | 'expression';

/**
 * The CST of `tokens[s, e)` by `rule`, as Chevrotain's parser builds it, or undefined where the
 * tokens do not parse without an error (or take a path this recogniser does not decide the same
 * way): the caller then runs Chevrotain.
 */
export function fastParse(rule: FastRule, tokens: IToken[], s = 0, e = tokens.length): CstNode | undefined {
  if (s >= e) return undefined;
  const p = new Recogniser(tokens, s, e);
  try {
    let cst: CstNode;
    switch (rule) {
      case 'declaration': cst = p.declaration(); break;
      case 'kernelHeader': cst = p.kernelHeader(); break;
      case 'scheduleHeader': cst = p.scheduleHeader(); break;
      case 'binding': cst = p.binding(); break;
      case 'step': cst = p.step(); break;
      default: cst = p.expression('expression');
    }
    return p.pos === e ? cst : undefined;
  } catch (err) {
    if (err === GIVE_UP) return undefined;
    throw err;
  }
}

class Recogniser {
  pos: number;
  constructor(private readonly toks: IToken[], s: number, private readonly end: number) {
    this.pos = s;
  }

  // ------------------------------------------------------------------ helpers

  /** the type index of the token `k` ahead (1: the next), NONE past the piece */
  private la(k: number): number {
    const i = this.pos + k - 1;
    return i < this.end ? this.toks[i].tokenTypeIdx : NONE;
  }

  private at(type: TokenType): boolean {
    const i = this.la(1);
    return i !== NONE && matches[type.tokenTypeIdx!][i] === 1;
  }

  /** a rule's node, starting at the next token (a rule consumes at least one) */
  private node(name: string): CstNode {
    if (this.pos >= this.end) throw GIVE_UP;
    // (Chevrotain's children objects have no prototype; lower.ts reads them by the grammar's keys only)
    return { name, children: {}, location: { startOffset: this.toks[this.pos].startOffset, endOffset: NaN } };
  }

  /** sets the node's end (a valid parse ends each rule on a token it consumed) */
  private done(n: CstNode): CstNode {
    n.location!.endOffset = this.toks[this.pos - 1].endOffset!;
    return n;
  }

  private consume(n: CstNode, type: TokenType, key: string = type.name): void {
    const i = this.la(1);
    if (i === NONE || matches[type.tokenTypeIdx!][i] !== 1) throw GIVE_UP;
    add(n, key, this.toks[this.pos++]);
  }

  // ------------------------------------------------------------------ declarations

  declaration(): CstNode {
    const n = this.node('declaration');
    const k = this.la(1);
    let inner: CstNode;
    if (k === I(t.Param) || k === I(t.Const)) inner = this.paramDecl();
    else if (k === I(t.Let)) inner = this.letDecl();
    else if (k === I(t.LayoutKw)) inner = this.layoutDecl();
    else if (k === I(t.Perm)) inner = this.permDecl();
    else if (k === I(t.Assume)) inner = this.assumeDecl();
    else if (k === I(t.Linear)) inner = this.linearDecl();
    else throw GIVE_UP;
    add(n, inner.name, inner);
    return this.done(n);
  }

  private linearDecl(): CstNode {
    const n = this.node('linearDecl');
    this.consume(n, t.Linear);
    this.consume(n, t.Ident, 'name');
    this.consume(n, t.Eq);
    this.consume(n, t.Ident, 'ctor');
    this.consume(n, t.LParen);
    if (this.la(1) === IDENT) {
      add(n, 'linearArg', this.linearArg());
      while (this.la(1) === COMMA) {
        this.consume(n, t.Comma);
        add(n, 'linearArg', this.linearArg());
      }
    }
    this.consume(n, t.RParen);
    return this.done(n);
  }

  private linearArg(): CstNode {
    const n = this.node('linearArg');
    this.consume(n, t.Ident);
    this.consume(n, t.Eq);
    add(n, 'expression', this.expression('expression'));
    return this.done(n);
  }

  private assumeDecl(): CstNode {
    const n = this.node('assumeDecl');
    this.consume(n, t.Assume);
    add(n, 'factList', this.factList());
    return this.done(n);
  }

  private whereClause(): CstNode {
    const n = this.node('whereClause');
    this.consume(n, t.Where);
    add(n, 'factList', this.factList());
    return this.done(n);
  }

  private factList(): CstNode {
    const n = this.node('factList');
    add(n, 'expression', this.expression('expression'));
    while (this.la(1) === COMMA) {
      this.consume(n, t.Comma);
      add(n, 'expression', this.expression('expression'));
    }
    return this.done(n);
  }

  private paramDecl(): CstNode {
    const n = this.node('paramDecl');
    this.consume(n, this.la(1) === I(t.Param) ? t.Param : t.Const);
    add(n, 'paramItem', this.paramItem());
    while (this.la(1) === COMMA) {
      this.consume(n, t.Comma);
      add(n, 'paramItem', this.paramItem());
    }
    return this.done(n);
  }

  private paramItem(): CstNode {
    const n = this.node('paramItem');
    this.consume(n, t.Ident);
    this.consume(n, t.Eq);
    add(n, 'expression', this.expression('expression'));
    if (this.at(t.In)) {
      this.consume(n, t.In);
      add(n, 'list', this.list());
    }
    return this.done(n);
  }

  private letDecl(): CstNode {
    const n = this.node('letDecl');
    this.consume(n, t.Let);
    this.consume(n, t.Ident);
    this.consume(n, t.Eq);
    add(n, 'expression', this.expression('expression'));
    return this.done(n);
  }

  private layoutDecl(): CstNode {
    const n = this.node('layoutDecl');
    this.consume(n, t.LayoutKw);
    this.consume(n, t.Ident);
    this.consume(n, t.Eq);
    add(n, 'expression', this.expression('expression'));
    if (this.at(t.Where)) add(n, 'whereClause', this.whereClause());
    return this.done(n);
  }

  private permDecl(): CstNode {
    const n = this.node('permDecl');
    this.consume(n, t.Perm);
    this.consume(n, t.Ident, 'name');
    this.consume(n, t.LParen);
    if (this.la(1) === IDENT) {
      this.consume(n, t.Ident, 'params');
      while (this.la(1) === COMMA) {
        this.consume(n, t.Comma);
        this.consume(n, t.Ident, 'params');
      }
    }
    this.consume(n, t.RParen);
    this.consume(n, t.LBracket);
    this.consume(n, t.Ident, 'indices');
    while (this.la(1) === COMMA) {
      this.consume(n, t.Comma);
      this.consume(n, t.Ident, 'indices');
    }
    this.consume(n, t.RBracket);
    this.consume(n, t.Eq);
    add(n, 'expression', this.expression('expression'));
    if (this.at(t.Inverse)) add(n, 'permInverse', this.permInverse());
    return this.done(n);
  }

  private permInverse(): CstNode {
    const n = this.node('permInverse');
    this.consume(n, t.Inverse);
    this.consume(n, t.LParen);
    this.consume(n, t.Ident);
    this.consume(n, t.RParen);
    this.consume(n, t.Eq);
    add(n, 'list', this.list());
    return this.done(n);
  }

  kernelHeader(): CstNode {
    const n = this.node('kernelHeader');
    this.consume(n, t.Kernel);
    this.consume(n, t.Ident, 'name');
    this.consume(n, t.Target);
    this.consume(n, t.Ident, 'target');
    if (this.at(t.Template)) {
      this.consume(n, t.Template);
      this.consume(n, t.StringLike);
    } else {
      this.consume(n, t.Builtin);
      this.consume(n, t.Ident, 'builtin');
    }
    if (this.at(t.Where)) add(n, 'whereClause', this.whereClause());
    return this.done(n);
  }

  scheduleHeader(): CstNode {
    const n = this.node('scheduleHeader');
    this.consume(n, t.Schedule);
    this.consume(n, t.Ident, 'name');
    this.consume(n, t.For);
    this.consume(n, t.Ident, 'op');
    while (this.la(1) === DOT) {
      this.consume(n, t.Dot);
      this.consume(n, t.AnyName, 'op');
    }
    add(n, 'args', this.args());
    if (this.la(1) === COLON) {
      this.consume(n, t.Colon);
      this.consume(n, t.Ident, 'elt');
      while (this.la(1) === IDENT) {
        this.consume(n, t.Ident, 'times');
        this.consume(n, t.Ident, 'elt');
      }
      this.consume(n, t.Minus, 'arrow');
      this.consume(n, t.Gt, 'arrow');
      this.consume(n, t.Ident, 'acc');
    }
    if (this.at(t.On)) {
      this.consume(n, t.On);
      this.consume(n, t.Ident, 'gpu');
    }
    return this.done(n);
  }

  binding(): CstNode {
    const n = this.node('binding');
    this.consume(n, t.Ident);
    while (this.la(1) === COMMA) {
      this.consume(n, t.Comma);
      this.consume(n, t.Ident);
    }
    this.consume(n, t.Eq);
    add(n, 'expression', this.expression('expression'));
    return this.done(n);
  }

  step(): CstNode {
    const n = this.node('step');
    if (this.la(1) === IDENT && this.la(2) === EQ) {
      this.consume(n, t.Ident, 'result');
      this.consume(n, t.Eq);
    }
    this.consume(n, t.Ident, 'primitive');
    add(n, 'args', this.args());
    return this.done(n);
  }

  // ------------------------------------------------------------------ expressions

  /** `expression` (the node is named 'expression'; `key` is only where it is stored) */
  expression(_key: string): CstNode {
    const n = this.node('expression');
    this.operandParts(n);
    while (this.at(t.BinaryOp)) {
      this.consume(n, t.BinaryOp);
      const o = this.node('operand');
      this.operandParts(o);
      add(n, 'operand', this.done(o));
    }
    return this.done(n);
  }

  private operandParts(n: CstNode): void {
    while (this.at(t.PrefixOp)) this.consume(n, t.PrefixOp);
    const k = this.la(1);
    if (k === INT) this.consume(n, t.Int, 'atom');
    else if (k === IDENT) {
      this.consume(n, t.Ident, 'atom');
      if (this.la(1) === LPAREN) add(n, 'args', this.args());
    } else if (k === LPAREN) add(n, 'atom', this.parens());
    else if (k === LBRACKET) add(n, 'atom', this.list());
    else if (k === IF) add(n, 'atom', this.ifExpr());
    else this.consume(n, t.StringLike, 'atom');
    for (let s = this.la(1); s === DOT || s === LBRACKET; s = this.la(1)) add(n, 'suffix', this.suffix());
  }

  private suffix(): CstNode {
    const n = this.node('suffix');
    if (this.la(1) === DOT) {
      this.consume(n, t.Dot);
      this.consume(n, t.Ident);
      add(n, 'args', this.args());
    } else {
      this.consume(n, t.LBracket);
      add(n, 'indexItem', this.indexItem());
      while (this.la(1) === COMMA && this.la(2) !== NONE && indexStart[this.la(2)] === 1) {
        this.consume(n, t.Comma);
        add(n, 'indexItem', this.indexItem());
      }
      if (this.la(1) === COMMA) this.consume(n, t.Comma);
      this.consume(n, t.RBracket);
    }
    return this.done(n);
  }

  private indexItem(): CstNode {
    const n = this.node('indexItem');
    if (this.la(1) === COLON) {
      this.consume(n, t.Colon);
      if (this.startsExpression()) add(n, 'stop', this.expression('stop'));
      if (this.la(1) === COLON) {
        this.consume(n, t.Colon, 'stepColon');
        add(n, 'step', this.expression('step'));
      }
    } else {
      add(n, 'start', this.expression('start'));
      if (this.la(1) === COLON) {
        this.consume(n, t.Colon);
        if (this.startsExpression()) add(n, 'stop', this.expression('stop'));
        if (this.la(1) === COLON) {
          this.consume(n, t.Colon, 'stepColon');
          add(n, 'step', this.expression('step'));
        }
      }
    }
    return this.done(n);
  }

  private startsExpression(): boolean {
    const k = this.la(1);
    return k !== NONE && exprStart[k] === 1;
  }

  /** `, EXPR` continues a comma-separated list (two tokens: a trailing `,` does not) */
  private moreItems(): boolean {
    if (this.la(1) !== COMMA) return false;
    const k = this.la(2);
    return k !== NONE && exprStart[k] === 1;
  }

  private parens(): CstNode {
    const n = this.node('parens');
    this.consume(n, t.LParen);
    add(n, 'expression', this.expression('expression'));
    if (this.la(1) === COLON) {
      this.consume(n, t.Colon);
      add(n, 'rangeStop', this.expression('rangeStop'));
      if (this.la(1) === COLON) {
        this.consume(n, t.Colon);
        add(n, 'rangeStep', this.expression('rangeStep'));
      }
    }
    while (this.moreItems()) {
      this.consume(n, t.Comma);
      add(n, 'expression', this.expression('expression'));
    }
    if (this.la(1) === COMMA) this.consume(n, t.Comma);
    this.consume(n, t.RParen);
    return this.done(n);
  }

  private list(): CstNode {
    const n = this.node('list');
    this.consume(n, t.LBracket);
    this.items(n);
    this.consume(n, t.RBracket);
    return this.done(n);
  }

  private args(): CstNode {
    const n = this.node('args');
    this.consume(n, t.LParen);
    this.items(n);
    this.consume(n, t.RParen);
    return this.done(n);
  }

  /** `[EXPR (, EXPR)* [,]]` inside a list or argument list */
  private items(n: CstNode): void {
    if (!this.startsExpression()) return;
    add(n, 'expression', this.expression('expression'));
    while (this.moreItems()) {
      this.consume(n, t.Comma);
      add(n, 'expression', this.expression('expression'));
    }
    if (this.la(1) === COMMA) this.consume(n, t.Comma);
  }

  private ifExpr(): CstNode {
    const n = this.node('ifExpr');
    this.consume(n, t.If);
    add(n, 'cond', this.expression('cond'));
    this.consume(n, t.Then);
    add(n, 'then', this.expression('then'));
    this.consume(n, t.Else);
    add(n, 'else', this.expression('else'));
    return this.done(n);
  }
}

function add(n: CstNode, key: string, x: CstNode | IToken): void {
  const c = n.children as Children;
  const xs = c[key];
  if (xs === undefined) c[key] = [x];
  else xs.push(x);
}
