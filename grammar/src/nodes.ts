// The AST's node constructors and operator tables, shared by the two producers of the AST:
// lower.ts (Chevrotain's CST -> AST, for pieces with a syntax error) and fast-parse.ts (tokens ->
// AST directly, for pieces without one). Each node shape is written once here, so both give the
// same nodes: the same properties in the same order (one hidden class per shape), and the same
// diagnostics where building a node reports one.
import type { IToken } from 'chevrotain';
import type * as ast from './ast.js';
import type { Diagnostic } from './diagnostic.js';
import { decodeString, isWellFormedInt } from './lexer.js';
import * as t from './tokens.js';

// ---------------------------------------------------------------- operators

// C's order from loose to tight: or, and, (not), | ^ &, comparisons, << >>, + -, * / // %, unary.
// The bitwise operators sit below the comparisons as in C (`a & b == c` is `a & (b == c)`), so
// that a C or CUDA expression pasted in means what it meant there.
const binary: [t: typeof t.Or, prec: number, text: ast.BinaryOp][] = [
  [t.Or, 1, 'or'], [t.And, 2, 'and'], [t.Pipe, 4, '|'], [t.Caret, 5, '^'], [t.Amp, 6, '&'],
  [t.Lt, 7, '<'], [t.Le, 7, '<='], [t.Gt, 7, '>'], [t.Ge, 7, '>='], [t.EqEq, 7, '=='], [t.NotEq, 7, '!='],
  [t.Shl, 8, '<<'], [t.Shr, 8, '>>'], [t.Plus, 9, '+'], [t.Minus, 9, '-'],
  [t.Star, 10, '*'], [t.Slash, 10, '/'], [t.SlashSlash, 10, '//'], [t.Percent, 10, '%'],
];
const maxIdx = Math.max(...t.allTokens.map((x) => x.tokenTypeIdx!));
/** a binary operator's precedence by its token's `tokenTypeIdx` (0: not a binary operator) */
export const PREC = new Uint8Array(maxIdx + 1);
const opText: ast.BinaryOp[] = [];
for (const [type, prec, text] of binary) {
  PREC[type.tokenTypeIdx!] = prec;
  opText[type.tokenTypeIdx!] = text;
}
/** `not` binds looser than comparisons (`not a < b` is `not (a < b)`) */
export const NOT_PREC = 3;
/** unary `-`/`+` bind tighter than `*` */
export const UNARY_PREC = 11;
/** comparisons do not associate: `a < b < c` is reported once per chain */
export const COMPARISON = 7;
const NOT = t.Not.tokenTypeIdx!;

/** the precedence a prefix operator's operand is climbed with */
export function prefixPrec(op: IToken): number {
  return op.tokenTypeIdx === NOT ? NOT_PREC : UNARY_PREC;
}

export function binaryNode(op: IToken, left: ast.Expr, right: ast.Expr, range: ast.Range): ast.Binary {
  return { kind: 'Binary', op: opText[op.tokenTypeIdx], opRange: tokRange(op), left, right, range };
}

export function unaryNode(op: IToken, operand: ast.Expr, range: ast.Range): ast.Unary {
  return { kind: 'Unary', op: op.tokenTypeIdx === NOT ? 'not' : (op.image as '-' | '+'), operand, range };
}

/** `a < b < c`: reported at the second comparison */
export function chainedComparison(op: IToken): Diagnostic {
  return {
    code: 'parse/chained-comparison',
    severity: 'error',
    message: `comparisons cannot be chained: combine them with 'and' (a < b and b < c)`,
    range: tokRange(op),
  };
}

// ---------------------------------------------------------------- leaves

export function tokRange(t: IToken): ast.Range {
  return { start: t.startOffset, end: t.startOffset + t.image.length };
}
export function ident(t: IToken): ast.Ident {
  return { kind: 'Ident', name: t.image, range: tokRange(t) };
}
export function nameRef(t: IToken): ast.NameRef {
  return { kind: 'Name', range: tokRange(t), name: t.image };
}
/** an integer literal; a malformed one (reported by the lexer) is an Error node */
export function intLit(t: IToken): ast.IntLit | ast.ErrorExpr {
  if (!isWellFormedInt(t.image)) return { kind: 'Error', range: tokRange(t) };
  return { kind: 'Int', range: tokRange(t), value: BigInt(t.image.includes('_') ? t.image.replace(/_/g, '') : t.image), text: t.image };
}
/** a string literal (or an unterminated one); unknown escapes are reported to `diagnostics` */
export function stringLit(t: IToken, diagnostics: Diagnostic[]): ast.StringLit {
  return { kind: 'String', range: tokRange(t), value: decodeString(t.image, t.startOffset, diagnostics) };
}
export function errorAt(at: number): ast.ErrorExpr {
  return { kind: 'Error', range: { start: at, end: at } };
}

// ---------------------------------------------------------------- expressions

export function call(callee: IToken, args: ast.Expr[], argsRange: ast.Range): ast.Call {
  return { kind: 'Call', range: { start: callee.startOffset, end: argsRange.end }, callee: ident(callee), args, argsRange };
}
export function methodCall(start: number, receiver: ast.Expr, method: IToken, args: ast.Expr[], argsRange: ast.Range): ast.MethodCall {
  return { kind: 'MethodCall', range: { start, end: argsRange.end }, receiver, method: ident(method), args, argsRange };
}
export function indexExpr(range: ast.Range, receiver: ast.Expr, indices: (ast.Expr | ast.Slice)[]): ast.IndexExpr {
  return { kind: 'Index', range, receiver, indices };
}
export function slice(range: ast.Range, start: ast.Expr | undefined, stop: ast.Expr | undefined, step: ast.Expr | undefined): ast.Slice {
  return { kind: 'Slice', range, ...(start ? { start } : {}), ...(stop ? { stop } : {}), ...(step ? { step } : {}) };
}
export function rangeExpr(range: ast.Range, start: ast.Expr, stop: ast.Expr, step: ast.Expr | undefined): ast.RangeExpr {
  return { kind: 'Range', range, start, stop, ...(step ? { step } : {}) };
}
export function tuple(range: ast.Range, items: ast.Expr[]): ast.TupleExpr {
  return { kind: 'Tuple', range, items };
}
export function list(range: ast.Range, items: ast.Expr[]): ast.ListExpr {
  return { kind: 'List', range, items };
}
export function ifExpr(range: ast.Range, cond: ast.Expr, then: ast.Expr, els: ast.Expr): ast.IfExpr {
  return { kind: 'If', range, cond, then, else: els };
}

// ---------------------------------------------------------------- declarations

export function assumeDecl(range: ast.Range, facts: ast.Expr[]): ast.AssumeDecl {
  return { kind: 'Assume', range, facts };
}
export function whereClause(range: ast.Range, facts: ast.Expr[]): ast.WhereClause {
  return { kind: 'Where', range, facts };
}
export function linearArg(range: ast.Range, name: ast.Ident, value: ast.Expr): ast.LinearArg {
  return { kind: 'LinearArg', range, name, value };
}
export function linearDecl(range: ast.Range, name: ast.Ident, ctor: IToken | undefined, args: ast.LinearArg[]): ast.LinearDecl {
  return { kind: 'Linear', range, name, ...(ctor ? { ctor: ident(ctor) } : {}), args };
}
export function paramItem(range: ast.Range, name: ast.Ident, value: ast.Expr, candidates: ast.ListExpr | undefined): ast.ParamItem {
  return { kind: 'ParamItem', range, name, value, ...(candidates ? { candidates } : {}) };
}
export function paramDecl(range: ast.Range, isConst: boolean, items: ast.ParamItem[]): ast.ParamDecl {
  return { kind: 'Param', range, isConst, items };
}
export function namedDecl(kind: 'Let' | 'Layout', range: ast.Range, name: ast.Ident, value: ast.Expr, where: ast.WhereClause | undefined): ast.LetDecl | ast.LayoutDecl {
  return { kind, range, name, value, ...(where ? { where } : {}) } as ast.LetDecl | ast.LayoutDecl;
}
export function permInverse(range: ast.Range, arg: IToken, results: ast.Expr[]): ast.PermInverse {
  return { kind: 'PermInverse', range, arg: ident(arg), results };
}
export function permDecl(range: ast.Range, name: ast.Ident, params: ast.Ident[], indices: ast.Ident[], body: ast.Expr, inverse: ast.PermInverse | undefined): ast.PermDecl {
  return { kind: 'Perm', range, name, params, indices, body, ...(inverse ? { inverse } : {}) };
}

export type KernelHeader = Omit<ast.KernelDecl, 'bindings' | 'bodyRange'>;
export type ScheduleHeader = Omit<ast.ScheduleDecl, 'steps' | 'bodyRange'>;

/** the kernel's target, or undefined with a diagnostic for an unknown one */
export function kernelTarget(tok: IToken, diagnostics: Diagnostic[]): ast.KernelDecl['target'] {
  if (tok.image === 'cuda' || tok.image === 'triton' || tok.image === 'mlir') return { value: tok.image, range: tokRange(tok) };
  diagnostics.push({
    code: 'parse/unknown-target',
    severity: 'error',
    message: `unknown target '${tok.image}': expected cuda, triton or mlir`,
    range: tokRange(tok),
  });
  return undefined;
}
export function templateFile(path: IToken, diagnostics: Diagnostic[]): ast.KernelDecl['template'] {
  return { kind: 'file', path: stringLit(path, diagnostics) };
}
export function templateBuiltin(name: IToken): ast.KernelDecl['template'] {
  return { kind: 'builtin', name: ident(name) };
}
export function kernelHeader(range: ast.Range, name: IToken, target: ast.KernelDecl['target'], template: ast.KernelDecl['template'], where: ast.WhereClause | undefined): KernelHeader {
  return {
    kind: 'Kernel',
    range,
    name: ident(name),
    ...(target ? { target } : {}),
    ...(template ? { template } : {}),
    ...(where ? { where } : {}),
  };
}

/** `linalg.matmul(M, N, K)`: the op's name tokens (a name, then `.`-separated names) and its arguments */
export function scheduleOp(names: IToken[], args: ast.Expr[]): NonNullable<ast.ScheduleDecl['op']> {
  return {
    name: names.map((t) => t.image).join('.'),
    range: { start: names[0].startOffset, end: names[names.length - 1].startOffset + names[names.length - 1].image.length },
    args,
  };
}
/** `: f16 x f16 -> f32` */
export function scheduleTypes(elts: IToken[], acc: IToken, times: IToken[]): NonNullable<ast.ScheduleDecl['types']> {
  return { inputs: elts.map(ident), output: ident(acc), separators: times.map(ident), range: { start: elts[0].startOffset, end: acc.startOffset + acc.image.length } };
}
export function scheduleHeader(range: ast.Range, name: IToken, op: ast.ScheduleDecl['op'], types: ast.ScheduleDecl['types'], gpu: IToken | undefined): ScheduleHeader {
  return {
    kind: 'Schedule',
    range,
    name: ident(name),
    ...(op ? { op } : {}),
    ...(types ? { types } : {}),
    ...(gpu ? { gpu: ident(gpu) } : {}),
  };
}
export function binding(range: ast.Range, names: ast.Ident[], value: ast.Expr): ast.Binding {
  return { kind: 'Binding', range, names, value };
}
export function step(result: IToken | undefined, primitive: IToken, args: ast.Expr[], argsRange: ast.Range): ast.ScheduleStep {
  return {
    kind: 'Step',
    range: { start: result ? result.startOffset : primitive.startOffset, end: argsRange.end },
    ...(result ? { result: ident(result) } : {}),
    primitive: ident(primitive),
    args,
    argsRange,
  };
}
