// The typed AST of a `.layout` file. Plain data: every node carries its exact source
// range as UTF-16 offsets into the text (`text.slice(range.start, range.end)` is the node's
// source). The grammar layer knows no algebra: a layout expression is an ordinary
// expression tree (calls, method calls, lists); `server/src/check/` gives it meaning.
//
// This file is the contract between the parser (producer) and every later layer
// (consumers). Change it only together with them.

export interface Range {
  /** offset of the first character */
  start: number;
  /** offset one past the last character */
  end: number;
}

export interface Node {
  range: Range;
}

/** An identifier occurrence. */
export interface Ident extends Node {
  kind: 'Ident';
  name: string;
}

// ---------------------------------------------------------------- expressions

export type Expr =
  | IntLit
  | StringLit
  | NameRef
  | Unary
  | Binary
  | IfExpr
  | Call
  | MethodCall
  | IndexExpr
  | ListExpr
  | TupleExpr
  | RangeExpr
  | ErrorExpr;

/**
 * `(a:b)` or `(a:b:s)`: a range inside an index expression, LEGO's index arithmetic with
 * ranges (`2 * (0:8)`, `(0:B) + 1`); a `tl.arange` in Triton.
 */
export interface RangeExpr extends Node {
  kind: 'Range';
  start: Expr;
  stop: Expr;
  step?: Expr;
}

export interface IntLit extends Node {
  kind: 'Int';
  /** exact value; `bigint` so that huge literals are never rounded */
  value: bigint;
  text: string;
}

export interface StringLit extends Node {
  kind: 'String';
  /** the value without quotes, escapes decoded */
  value: string;
}

/** A use of a name: a param, let, layout, perm, perm argument, schedule handle or free index symbol. */
export interface NameRef extends Node {
  kind: 'Name';
  name: string;
}

export type UnaryOp = '-' | '+' | 'not';
export interface Unary extends Node {
  kind: 'Unary';
  op: UnaryOp;
  operand: Expr;
}

/** `/` is LEGO's exact size division (reported where it leaves a remainder); `//` an intended floor division. Both floor. */
export type BinaryOp =
  | '+' | '-' | '*' | '/' | '//' | '%'
  | '<' | '<=' | '>' | '>=' | '==' | '!='
  | 'and' | 'or'
  /** bitwise, on integers (C precedence) */
  | '^' | '&' | '|' | '<<' | '>>';
export interface Binary extends Node {
  kind: 'Binary';
  op: BinaryOp;
  /** range of the operator token */
  opRange: Range;
  left: Expr;
  right: Expr;
}

export interface IfExpr extends Node {
  kind: 'If';
  cond: Expr;
  then: Expr;
  else: Expr;
}

/** `f(a, b)`: constructors (`OrderBy`, `Row`, `RegP`, ...), builtins (`min`, `max`) and perm applications (`antidiag(3)`). */
export interface Call extends Node {
  kind: 'Call';
  callee: Ident;
  args: Expr[];
  /** range of the parenthesised argument list, `(` to `)` inclusive */
  argsRange: Range;
}

/** `recv.name(args)`: `.OrderBy(...)`, `.GroupBy(...)`, `.TileBy(...)`, `.inv(x)`, `.apply(i, j)`. */
export interface MethodCall extends Node {
  kind: 'MethodCall';
  receiver: Expr;
  method: Ident;
  args: Expr[];
  argsRange: Range;
}

/** A slice in an index list: `:` (both absent) or `a:b`. */
export interface Slice extends Node {
  kind: 'Slice';
  start?: Expr;
  stop?: Expr;
  /** `a:b:s`: every s-th index from a (s a positive constant) */
  step?: Expr;
}

/** `L[i, j, :, 0:BK]`: a query applying a layout. */
export interface IndexExpr extends Node {
  kind: 'Index';
  receiver: Expr;
  indices: (Expr | Slice)[];
}

/** `[a, b, c]` */
export interface ListExpr extends Node {
  kind: 'List';
  items: Expr[];
}

/** `(a, b)`: LEGO's Python tuples, e.g. `GroupBy([(6, 6)])`. A parenthesised single expression is not a tuple. */
export interface TupleExpr extends Node {
  kind: 'Tuple';
  items: Expr[];
}

/** Stands where an expression failed to parse; the parser has reported why. */
export interface ErrorExpr extends Node {
  kind: 'Error';
  /**
   * What could be parsed of a broken construct (e.g. the receiver `A` of `A.` or `A.inv`), kept
   * so that editor features (hover, go to definition, completion after `.`) still work there.
   * Checks must treat the Error node as opaque and not evaluate `partial`.
   */
  partial?: Expr;
}

// --------------------------------------------------------------- declarations

export type Decl = ParamDecl | LetDecl | LayoutDecl | PermDecl | KernelDecl | ScheduleDecl | AssumeDecl | LinearDecl;

/**
 * `linear T = blocked(shape=[16, 64], sizePerThread=[1, 8], ...)`: a Triton layout with keyword
 * attributes (docs/linear-layouts.md); `check/linear.ts` gives it meaning.
 */
export interface LinearDecl extends Node {
  kind: 'Linear';
  name: Ident;
  /** `blocked`, `swizzled`, `mma`, `bases` (absent when the declaration is broken) */
  ctor?: Ident;
  args: LinearArg[];
}
/** `name=value` inside a linear declaration */
export interface LinearArg extends Node {
  kind: 'LinearArg';
  name: Ident;
  value: Expr;
}

/** `assume tid < T * T, N % 64 == 0`: facts (conditions) the simplifier may use in every query of the file */
export interface AssumeDecl extends Node {
  kind: 'Assume';
  facts: Expr[];
}
/** `where FACT, ...` on a layout (its queries) or a kernel header (the kernel's queries) */
export interface WhereClause extends Node {
  kind: 'Where';
  facts: Expr[];
}

export interface File extends Node {
  kind: 'File';
  decls: Decl[];
  comments: Comment[];
}

export interface Comment extends Node {
  kind: 'Comment';
  /** text after `#` */
  text: string;
}

/** `param M = 4096 in [1024, 4096], N = 64` or `const T = 32`: one ParamDecl per keyword, one item per name. */
export interface ParamDecl extends Node {
  kind: 'Param';
  /** `const` parameters are folded into generated expressions; `param`s stay symbolic */
  isConst: boolean;
  items: ParamItem[];
}
export interface ParamItem extends Node {
  kind: 'ParamItem';
  name: Ident;
  value: Expr;
  /** tuning candidates: `in [64, 128, 256]` */
  candidates?: ListExpr;
}

/** `let num_pid_m = M / BM` */
export interface LetDecl extends Node {
  kind: 'Let';
  name: Ident;
  value: Expr;
}

/** `layout A = OrderBy(Row(M, K)).TileBy([M/BM, K/BK], [BM, BK])` */
export interface LayoutDecl extends Node {
  kind: 'Layout';
  name: Ident;
  value: Expr;
  /** `where FACT, ...` */
  where?: WhereClause;
}

/**
 * `perm antidiag(n)[i, j] = EXPR inverse(x) = [EXPR_i, EXPR_j]`
 * `params` are size arguments bound at the use (`antidiag(3)`), `indices` the coordinates.
 */
export interface PermDecl extends Node {
  kind: 'Perm';
  name: Ident;
  params: Ident[];
  indices: Ident[];
  body: Expr;
  inverse?: PermInverse;
}
export interface PermInverse extends Node {
  kind: 'PermInverse';
  /** the flat-index variable */
  arg: Ident;
  /** one expression per coordinate */
  results: Expr[];
}

export type KernelTarget = 'cuda' | 'triton' | 'mlir';

/** `kernel matmul target triton template "templates/matmul.py" { pid_m, pid_n = Pid.inv(pid) ... }` */
export interface KernelDecl extends Node {
  kind: 'Kernel';
  name: Ident;
  /** absent when the header is broken; the parser reported it */
  target?: { value: string; range: Range };
  /** `template "path"` (a file, relative to the .layout file) or `builtin NAME` */
  template?: { kind: 'file'; path: StringLit } | { kind: 'builtin'; name: Ident };
  /** `where FACT, ...` in the header */
  where?: WhereClause;
  bindings: Binding[];
  /** `{` to `}` inclusive */
  bodyRange: Range;
}
/** `a, b = EXPR` or `a = EXPR` inside a kernel block. */
export interface Binding extends Node {
  kind: 'Binding';
  names: Ident[];
  value: Expr;
}

/** `schedule gemm for linalg.matmul(M, N, K) on sm_90 { ... }` */
export interface ScheduleDecl extends Node {
  kind: 'Schedule';
  name: Ident;
  /** the payload op, e.g. `linalg.matmul`, with its size arguments */
  op?: { name: string; range: Range; args: Expr[] };
  /** `: f16 x f16 -> f32`: the input operands' element types, then the output's (the accumulator) */
  types?: { inputs: Ident[]; output: Ident; range: Range; separators: Ident[] };
  /** `on sm_90` */
  gpu?: Ident;
  steps: ScheduleStep[];
  bodyRange: Range;
}
/** `mm = findOp("linalg.matmul")` (result bound) or `tile(mm, [0, 0, BK])`. */
export interface ScheduleStep extends Node {
  kind: 'Step';
  result?: Ident;
  primitive: Ident;
  args: Expr[];
  argsRange: Range;
}

// ------------------------------------------------------------------ helpers

/** Every child node of `n`, in source order (for walks, range tests and folding). */
export function children(n: AnyNode): AnyNode[] {
  switch (n.kind) {
    case 'File': return n.decls;
    case 'Param': return n.items;
    case 'ParamItem': return n.candidates ? [n.name, n.value, n.candidates] : [n.name, n.value];
    case 'Let': return [n.name, n.value];
    case 'Linear': return [n.name, ...(n.ctor ? [n.ctor] : []), ...n.args];
    case 'LinearArg': return [n.name, n.value];
    case 'Layout': return n.where ? [n.name, n.value, n.where] : [n.name, n.value];
    case 'Assume': case 'Where': return n.facts;
    case 'Perm': return [n.name, ...n.params, ...n.indices, n.body, ...(n.inverse ? [n.inverse] : [])];
    case 'PermInverse': return [n.arg, ...n.results];
    case 'Kernel': return [n.name, ...(n.template?.kind === 'file' ? [n.template.path] : n.template ? [n.template.name] : []), ...(n.where ? [n.where] : []), ...n.bindings];
    case 'Binding': return [...n.names, n.value];
    case 'Schedule': return [n.name, ...(n.op?.args ?? []), ...(n.types ? [...n.types.inputs, n.types.output] : []), ...(n.gpu ? [n.gpu] : []), ...n.steps];
    case 'Step': return [...(n.result ? [n.result] : []), n.primitive, ...n.args];
    case 'Unary': return [n.operand];
    case 'Binary': return [n.left, n.right];
    case 'If': return [n.cond, n.then, n.else];
    case 'Call': return [n.callee, ...n.args];
    case 'MethodCall': return [n.receiver, n.method, ...n.args];
    case 'Index': return [n.receiver, ...n.indices];
    case 'Slice': return [...(n.start ? [n.start] : []), ...(n.stop ? [n.stop] : []), ...(n.step ? [n.step] : [])];
    case 'Range': return [n.start, n.stop, ...(n.step ? [n.step] : [])];
    case 'List': case 'Tuple': return n.items;
    case 'Error': return n.partial ? [n.partial] : [];
    default: return [];
  }
}

export type AnyNode =
  | File | Decl | ParamItem | PermInverse | Binding | ScheduleStep | Expr | Slice | Ident | Comment | WhereClause | LinearArg;
