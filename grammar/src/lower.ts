// CST -> AST. Tolerates the partial CSTs that error recovery produces: a missing expression
// becomes an `Error` node (the parser has reported why), a missing closing bracket is ignored,
// a declaration or statement without its name is dropped. Operator precedence is applied here
// (the grammar keeps expressions flat), by precedence climbing over the operand/operator list.
import type { CstNode, IToken } from 'chevrotain';
import type * as ast from './ast.js';
import type { Diagnostic } from './diagnostic.js';
import * as n from './nodes.js';
import { errorAt, ident } from './nodes.js';

type Children = Record<string, (CstNode | IToken)[] | undefined>;

export class Lowering {
  constructor(readonly diagnostics: Diagnostic[]) {}

  // -------------------------------------------------------------- declarations

  declaration(cst: CstNode): ast.Decl | undefined {
    const c = cst.children as Children;
    const inner = (c.paramDecl ?? c.letDecl ?? c.layoutDecl ?? c.permDecl ?? c.assumeDecl ?? c.linearDecl)?.[0] as CstNode | undefined;
    if (!inner) return undefined;
    switch (inner.name) {
      case 'assumeDecl': {
        const kw = tok((inner.children as Children).Assume)!;
        const facts = this.facts(node((inner.children as Children).factList), endOf(kw)!);
        const end = Math.max(endOf(kw)!, ...facts.map((f) => f.range.end));
        return n.assumeDecl(span(inner, kw.startOffset, end), facts);
      }
      case 'paramDecl': return this.param(inner);
      case 'letDecl': return this.named(inner, 'Let');
      case 'layoutDecl': return this.named(inner, 'Layout');
      case 'permDecl': return this.perm(inner);
      case 'linearDecl': return this.linear(inner);
    }
    return undefined;
  }

  private linear(cst: CstNode): ast.LinearDecl | undefined {
    const c = cst.children as Children;
    const nameTok = tok(c.name);
    if (!nameTok) return undefined;
    const name = ident(nameTok);
    const ctorTok = tok(c.ctor);
    const args: ast.LinearArg[] = [];
    for (const a of nodes(c.linearArg)) {
      const ac = a.children as Children;
      const argTok = tok(ac.Ident);
      if (!argTok) continue;
      const argName = ident(argTok);
      const value = this.expr(node(ac.expression), endOf(tok(ac.Eq)) ?? argName.range.end);
      args.push(n.linearArg({ start: argName.range.start, end: Math.max(argName.range.end, value.range.end) }, argName, value));
    }
    const start = startOf(tok(c.Linear))!;
    const end = Math.max(rangeOf(cst, start).end, name.range.end, ...args.map((a) => a.range.end));
    return n.linearDecl({ start, end }, name, ctorTok, args);
  }

  private param(cst: CstNode): ast.ParamDecl | undefined {
    const c = cst.children as Children;
    const items: ast.ParamItem[] = [];
    for (const p of nodes(c.paramItem)) {
      const ic = p.children as Children;
      const nameTok = tok(ic.Ident);
      if (!nameTok) continue;
      const name = ident(nameTok);
      const value = this.expr(node(ic.expression), endOf(tok(ic.Eq)) ?? name.range.end);
      const listNode = node(ic.list);
      const candidates = listNode && tok(listNode.children.LBracket as IToken[]) ? this.list(listNode) : undefined;
      const end = candidates ? candidates.range.end : Math.max(value.range.end, name.range.end);
      items.push(n.paramItem(span(p, name.range.start, end), name, value, candidates));
    }
    if (items.length === 0) return undefined;
    const kw = tok(c.Param) ?? tok(c.Const)!;
    return n.paramDecl(span(cst, kw.startOffset, items[items.length - 1].range.end), tok(c.Const) !== undefined, items);
  }

  private named(cst: CstNode, kind: 'Let' | 'Layout'): ast.LetDecl | ast.LayoutDecl | undefined {
    const c = cst.children as Children;
    const nameTok = tok(c.Ident);
    if (!nameTok) return undefined;
    const name = ident(nameTok);
    const value = this.expr(node(c.expression), endOf(tok(c.Eq)) ?? name.range.end);
    const start = startOf(tok(c.Let) ?? tok(c.Layout) ?? tok(c.LayoutKw))!;
    const where = this.where(node(c.whereClause));
    const end = Math.max(value.range.end, name.range.end, where?.range.end ?? 0);
    return n.namedDecl(kind, span(cst, start, end), name, value, where);
  }

  /** the facts of `assume`/`where`: comma-separated expressions */
  private facts(cst: CstNode | undefined, at: number): ast.Expr[] {
    if (!cst) return [errorAt(at)];
    const c = cst.children as Children;
    const out: ast.Expr[] = [];
    let after = at;
    const commas = toks(c.Comma);
    const exprs = nodes(c.expression);
    for (let k = 0; k < Math.max(exprs.length, commas.length + 1); k++) {
      const e = this.expr(exprs[k], after);
      out.push(e);
      after = endOf(commas[k]) ?? e.range.end;
    }
    return out;
  }

  private where(cst: CstNode | undefined): ast.WhereClause | undefined {
    if (!cst) return undefined;
    const kw = tok((cst.children as Children).Where);
    if (!kw) return undefined;
    const facts = this.facts(node((cst.children as Children).factList), endOf(kw)!);
    return n.whereClause({ start: kw.startOffset, end: Math.max(endOf(kw)!, ...facts.map((f) => f.range.end)) }, facts);
  }

  private perm(cst: CstNode): ast.PermDecl | undefined {
    const c = cst.children as Children;
    const nameTok = tok(c.name);
    if (!nameTok) return undefined;
    const name = ident(nameTok);
    const params = toks(c.params).map(ident);
    const indices = toks(c.indices).map(ident);
    const after = endOf(tok(c.Eq)) ?? endOf(tok(c.RBracket)) ?? last([name, ...params, ...indices]).range.end;
    const body = this.expr(node(c.expression), after);
    let inverse: ast.PermInverse | undefined;
    const inv = node(c.permInverse);
    if (inv) {
      const ic = inv.children as Children;
      const argTok = tok(ic.Ident);
      if (argTok) {
        const listNode = node(ic.list);
        const results = listNode ? this.list(listNode, endOf(tok(ic.Eq)) ?? endOf(argTok)!).items : [];
        const start = startOf(tok(ic.Inverse))!;
        const end = Math.max(listNode ? rangeOf(listNode, argTok.startOffset).end : 0, endOf(tok(ic.Eq)) ?? 0, endOf(tok(ic.RParen)) ?? 0, endOf(argTok)!);
        inverse = n.permInverse(span(inv, start, end), argTok, results);
      }
    }
    const start = startOf(tok(c.Perm))!;
    const end = Math.max(inverse?.range.end ?? 0, body.range.end, rangeOf(cst, start).end);
    return n.permDecl({ start, end }, name, params, indices, body, inverse);
  }

  /** The kernel header; parse.ts adds the bindings and the body range. */
  kernelHeader(cst: CstNode): n.KernelHeader | undefined {
    const c = cst.children as Children;
    const nameTok = tok(c.name);
    if (!nameTok) return undefined;
    const targetTok = tok(c.target);
    const target = targetTok ? n.kernelTarget(targetTok, this.diagnostics) : undefined;
    let template: ast.KernelDecl['template'];
    const path = tok(c.StringLike);
    const builtin = tok(c.builtin);
    if (path && tok(c.Template)) template = n.templateFile(path, this.diagnostics);
    else if (builtin && tok(c.Builtin)) template = n.templateBuiltin(builtin);
    const where = this.where(node(c.whereClause));
    return n.kernelHeader(rangeOf(cst, nameTok.startOffset), nameTok, target, template, where);
  }

  /** The schedule header; parse.ts adds the steps and the body range. */
  scheduleHeader(cst: CstNode): n.ScheduleHeader | undefined {
    const c = cst.children as Children;
    const nameTok = tok(c.name);
    if (!nameTok) return undefined;
    let op: ast.ScheduleDecl['op'];
    const opToks = toks(c.op);
    const argsNode = node(c.args);
    if (opToks.length > 0 && argsNode && tok(argsNode.children.LParen as IToken[])) {
      op = n.scheduleOp(opToks, this.args(argsNode).args);
    }
    const gpuTok = tok(c.gpu);
    const accTok = tok(c.acc);
    const eltToks = toks(c.elt);
    const types = accTok && eltToks.length ? n.scheduleTypes(eltToks, accTok, toks(c.times)) : undefined;
    return n.scheduleHeader(rangeOf(cst, nameTok.startOffset), nameTok, op, types, gpuTok);
  }

  binding(cst: CstNode): ast.Binding | undefined {
    const c = cst.children as Children;
    const names = toks(c.Ident).map(ident);
    if (names.length === 0) return undefined;
    const value = this.expr(node(c.expression), endOf(tok(c.Eq)) ?? last(names).range.end);
    return n.binding(span(cst, names[0].range.start, Math.max(value.range.end, last(names).range.end)), names, value);
  }

  step(cst: CstNode): ast.ScheduleStep | undefined {
    const c = cst.children as Children;
    const primTok = tok(c.primitive);
    if (!primTok) return undefined;
    const resultTok = tok(c.result);
    const argsNode = node(c.args);
    if (!argsNode || !tok(argsNode.children.LParen as IToken[])) return undefined;
    const a = this.args(argsNode);
    return n.step(resultTok, primTok, a.args, a.argsRange);
  }

  // -------------------------------------------------------------- expressions

  /** `at`: where to put an Error node when the expression is missing altogether */
  expr(cst: CstNode | undefined, at: number): ast.Expr {
    if (!cst) return errorAt(at);
    const c = cst.children as Children;
    // the first operand's parts are the expression node's own children (see the grammar)
    if (c.BinaryOp === undefined) return this.operand(cst, at); // the common case
    return new Climber(this, [cst, ...nodes(c.operand)], toks(c.BinaryOp), at).run();
  }

  /**
   * The primary and suffixes of an operand (prefix operators are folded by the Climber), with
   * its outer extent: a parenthesised primary's extent includes the parentheses, which the node's
   * own range does not (`(a + b)` is the Binary `a + b`).
   */
  core(cst: CstNode, at: number): Outer {
    const c = cst.children as Children;
    const atom = c.atom?.[0];
    let e = this.primary(atom, c, at);
    const parens = atom && 'name' in atom && atom.name === 'parens' ? atom : undefined;
    const start = parens ? rangeOf(parens, e.range.start).start : e.range.start;
    const suffixes = c.suffix;
    if (suffixes) for (const s of suffixes) e = this.suffix(e, start, s as CstNode);
    const end = Math.max(e.range.end, parens && !suffixes ? rangeOf(parens, e.range.end).end : 0);
    return { e, start: Math.min(start, e.range.start), end };
  }

  operand(cst: CstNode, at: number): ast.Expr {
    if ((cst.children as Children).PrefixOp === undefined) return this.core(cst, at).e;
    return new Climber(this, [cst], [], at).run();
  }

  /** `start`: where the receiver's text starts, its parentheses included */
  private suffix(receiver: ast.Expr, start: number, cst: CstNode): ast.Expr {
    const c = cst.children as Children;
    if (c.Dot) {
      const nameTok = tok(c.Ident);
      const argsNode = node(c.args);
      if (!nameTok || !argsNode || !tok(argsNode.children.LParen as IToken[])) {
        const end = Math.max(receiver.range.end, endOf(nameTok) ?? endOf(tok(c.Dot)) ?? receiver.range.end);
        return { kind: 'Error', range: { start, end }, partial: receiver };
      }
      const a = this.args(argsNode);
      return n.methodCall(start, receiver, nameTok, a.args, a.argsRange);
    }
    const open = tok(c.LBracket)!;
    const indices = nodes(c.indexItem).map((x) => this.indexItem(x, endOf(open)!));
    const end = Math.max(rangeOf(cst, open.startOffset).end, indices.length ? last(indices).range.end : 0);
    return n.indexExpr({ start, end }, receiver, indices);
  }

  private indexItem(cst: CstNode, at: number): ast.Expr | ast.Slice {
    const c = cst.children as Children;
    const colon = tok(c.Colon);
    const startNode = node(c.start);
    const stopNode = node(c.stop);
    if (!colon) return this.expr(startNode, at);
    const start = startNode ? this.expr(startNode, at) : undefined;
    const stop = stopNode ? this.expr(stopNode, endOf(colon)!) : undefined;
    const stepColon = tok(c.stepColon);
    const step = stepColon ? this.expr(node(c.step), endOf(stepColon)!) : undefined;
    const end = step ? step.range.end : stepColon ? endOf(stepColon)! : stop ? stop.range.end : endOf(colon)!;
    const r = span(cst, start ? start.range.start : colon.startOffset, end);
    return n.slice(r, start, stop, step);
  }

  /** the primary of an operand: its `atom` child (a token or a node), and the operand's children */
  private primary(atom: CstNode | IToken | undefined, c: Children, at: number): ast.Expr {
    if (!atom) return errorAt(at);
    if ('name' in atom) {
      switch (atom.name) {
        case 'parens': return this.parens(atom, at);
        case 'list': return this.list(atom);
        case 'ifExpr': return this.ifExpr(atom);
      }
      return errorAt(at);
    }
    if (!real(atom)) return errorAt(at);
    switch (atom.tokenType.name) {
      case 'Ident': {
        const argsNode = node(c.args);
        if (argsNode && tok(argsNode.children.LParen as IToken[])) {
          const a = this.args(argsNode);
          return n.call(atom, a.args, a.argsRange);
        }
        return n.nameRef(atom);
      }
      case 'Int':
        return n.intLit(atom);
      default:
        return n.stringLit(atom, this.diagnostics); // String or UnterminatedString
    }
  }

  private parens(cst: CstNode, at: number): ast.Expr {
    const c = cst.children as Children;
    const open = tok(c.LParen);
    const inner = open ? endOf(open)! : at;
    const exprs = nodes(c.expression);
    const items: ast.Expr[] = [];
    let pos = inner;
    for (const x of exprs) {
      const e = this.expr(x, pos);
      items.push(e);
      pos = e.range.end;
    }
    if (items.length === 0) items.push(errorAt(inner));
    const colons = toks(c.Colon);
    if (colons.length > 0) {
      const stop = this.expr(node(c.rangeStop), endOf(colons[0])!);
      const step = colons.length > 1 ? this.expr(node(c.rangeStep), endOf(colons[1])!) : undefined;
      return n.rangeExpr(rangeOf(cst, inner), items[0], stop, step);
    }
    if (toks(c.Comma).length === 0) return items[0];
    return n.tuple(rangeOf(cst, inner), items);
  }

  list(cst: CstNode, at = 0): ast.ListExpr {
    const c = cst.children as Children;
    const open = tok(c.LBracket);
    const r = rangeOf(cst, at);
    const items = this.items(c.expression, endOf(open) ?? r.start);
    return n.list({ start: r.start, end: Math.max(r.end, items.length ? last(items).range.end : 0) }, items);
  }

  args(cst: CstNode): { args: ast.Expr[]; argsRange: ast.Range } {
    const c = cst.children as Children;
    const open = tok(c.LParen)!;
    const args = this.items(c.expression, endOf(open)!);
    const r = rangeOf(cst, open.startOffset);
    return { args, argsRange: { start: r.start, end: Math.max(r.end, args.length ? last(args).range.end : 0) } };
  }

  private items(exprs: (CstNode | IToken)[] | undefined, at: number): ast.Expr[] {
    if (!exprs) return [];
    let pos = at;
    // map: an array of exactly its length (one built by push keeps room for 17 items: 128 bytes more
    // for a typical argument list, kept as long as the AST)
    return nodes(exprs).map((x) => {
      const e = this.expr(x, pos);
      pos = e.range.end;
      return e;
    });
  }

  private ifExpr(cst: CstNode): ast.IfExpr {
    const c = cst.children as Children;
    const ifTok = tok(c.If)!;
    const cond = this.expr(node(c.cond), endOf(ifTok)!);
    const then = this.expr(node(c.then), endOf(tok(c.Then)) ?? cond.range.end);
    const els = this.expr(node(c.else), endOf(tok(c.Else)) ?? then.range.end);
    return n.ifExpr(span(cst, ifTok.startOffset, Math.max(els.range.end, then.range.end, cond.range.end)), cond, then, els);
  }
}

// ---------------------------------------------------------------- precedence

/**
 * Precedence climbing over `operand (op operand)*`, where each operand carries its prefix
 * operators. `not` binds looser than comparisons (`not a < b` is `not (a < b)`), unary `-`/`+`
 * tighter than `*`. Comparisons do not associate: `a < b < c` is reported once per chain.
 */
class Climber {
  private i = 0; // operand index
  private p = 0; // prefix index inside operand i
  constructor(
    private readonly low: Lowering,
    private readonly operands: CstNode[],
    private readonly ops: IToken[],
    private readonly at: number,
  ) {}

  run(): ast.Expr {
    return this.climb(0).e;
  }

  private climb(minPrec: number): Outer {
    let left = this.unary();
    let chained = false;
    while (this.i < this.operands.length && this.i - 1 < this.ops.length) {
      const op = this.ops[this.i - 1];
      if (!op) break;
      const prec = n.PREC[op.tokenTypeIdx];
      if (prec <= minPrec) break;
      if (prec === n.COMPARISON && chained) this.low.diagnostics.push(n.chainedComparison(op));
      const right = this.climb(prec);
      // a missing operand (an empty Error node) does not stretch the range over white space
      const range = { start: isHole(left.e) ? op.startOffset : left.start, end: isHole(right.e) ? endOf(op)! : Math.max(right.end, endOf(op)!) };
      left = { e: n.binaryNode(op, left.e, right.e, range), ...range };
      chained = prec === n.COMPARISON;
    }
    return left;
  }

  /** the prefix operators of the current operand, then its core; advances to the next operand */
  private unary(): Outer {
    const cst = this.operands[this.i];
    if (!cst) return outer(errorAt(this.at));
    const prefixes = toks((cst.children as Children).PrefixOp);
    if (this.p < prefixes.length) {
      const op = prefixes[this.p++];
      const operand = this.climb(n.prefixPrec(op));
      const range = { start: op.startOffset, end: Math.max(operand.end, endOf(op)!) };
      return { e: n.unaryNode(op, operand.e, range), ...range };
    }
    const prevOp = this.ops[this.i - 1];
    const at = prefixes.length ? endOf(last(prefixes))! : prevOp ? endOf(prevOp)! : this.at;
    const e = this.low.core(cst, at);
    this.i++;
    this.p = 0;
    return e;
  }
}

// ---------------------------------------------------------------- helpers

/** an expression with the extent of its text, parentheses around it included */
interface Outer {
  e: ast.Expr;
  start: number;
  end: number;
}
function isHole(e: ast.Expr): boolean {
  return e.kind === 'Error' && e.range.start === e.range.end;
}
function outer(e: ast.Expr): Outer {
  return { e, start: e.range.start, end: e.range.end };
}

/** The CST node's source range (every token it consumed); the given bounds when it has none. */
function span(cst: CstNode, start: number, end: number): ast.Range {
  const l = cst.location;
  if (!l || Number.isNaN(l.startOffset) || l.endOffset === undefined || Number.isNaN(l.endOffset)) return { start, end };
  return { start: Math.min(l.startOffset, start), end: Math.max(l.endOffset + 1, end) };
}

function real(t: IToken | undefined): t is IToken {
  return t !== undefined && !t.isInsertedInRecovery && !Number.isNaN(t.startOffset);
}
function tok(xs: (CstNode | IToken)[] | undefined): IToken | undefined {
  const t = xs?.[0] as IToken | undefined;
  return real(t) ? t : undefined;
}
function toks(xs: (CstNode | IToken)[] | undefined): IToken[] {
  return xs ? (xs as IToken[]).filter(real) : [];
}
function node(xs: (CstNode | IToken)[] | undefined): CstNode | undefined {
  return xs?.[0] as CstNode | undefined;
}
function nodes(xs: (CstNode | IToken)[] | undefined): CstNode[] {
  return (xs ?? []) as CstNode[];
}
function startOf(t: IToken | undefined): number | undefined {
  return t ? t.startOffset : undefined;
}
function endOf(t: IToken | undefined): number | undefined {
  return t ? t.startOffset + t.image.length : undefined;
}
function last<T>(xs: T[]): T {
  return xs[xs.length - 1];
}
/** The CST node's source range; `fallback` when recovery left it without tokens. */
function rangeOf(cst: CstNode, fallback: number): ast.Range {
  const l = cst.location;
  if (!l || Number.isNaN(l.startOffset) || l.endOffset === undefined || Number.isNaN(l.endOffset)) return { start: fallback, end: fallback };
  return { start: l.startOffset, end: l.endOffset + 1 };
}
