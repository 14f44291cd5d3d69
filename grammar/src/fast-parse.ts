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
// per-rule objects, each array built at its final length, one parser object for every piece.
//
// Declarations and statements are here, expressions (and the token helpers) in fast-expr.ts.
// test/grammar/fast-parse.test.ts holds it to Chevrotain + lower.ts: wherever it gives an AST,
// Chevrotain parses the piece without an error and lower.ts gives the same AST and diagnostics.
import type { IToken } from 'chevrotain';
import type * as ast from './ast.js';
import type { Diagnostic } from './diagnostic.js';
import { ANY_NAME, COLON, DOT, EQ, ExprBuilder, GIVE_UP, I, IDENT, LBRACKET, LPAREN, RBRACKET, RPAREN, STRING } from './fast-expr.js';
import * as n from './nodes.js';
import * as t from './tokens.js';

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
  const p = builder.start(tokens, s, e, diagnostics);
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
    // (an internal failure, a stack overflow, reaches parse.ts with nothing of the piece reported)
    diagnostics.length = mark;
    if (err !== GIVE_UP) throw err;
  } finally {
    p.done();
  }
  diagnostics.length = mark;
  return undefined;
}

/** One parser object for every piece (nothing allocated per piece besides the AST). */
class Builder extends ExprBuilder {
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

}

const builder = new Builder();
