// Expression nodes: immutable tagged objects, each carrying a structural `key`.
//
// Canonical invariants (established by the constructors in build.ts, never by hand):
// - `add`: `terms` are non-constant monomials (an atom, or a `mul`) with pairwise distinct
//   monomial keys, sorted by monomial key; `constant` is the folded integer part. At least two
//   parts (two terms, or one term and a non-zero constant).
// - `mul`: `coef` is a non-zero integer, `factors` are atoms (never int/mul; an `add` only when
//   expanding would exceed the expansion cap), sorted by key, repeated for powers (x*x); either
//   two or more factors, or one factor with coef != 1.
// - every other kind is an "atom" of a polynomial.
// Two expressions are equal (`equals`) iff their keys are equal. Keys never include the
// printing hint `nonneg` of floordiv/mod, which only the simplifier sets.

export type CmpOp = '<' | '<=' | '>' | '>=' | '==' | '!=';
/** the comparison operators kept in canonical `cmp` nodes: `lhs op rhs` with rhs a constant */
export type CanonCmpOp = '<=' | '>=' | '==' | '!=';

export interface Bcast {
  readonly axis: number;
  readonly rank: number;
}

interface Base {
  /** structural key: equal keys <=> structurally equal canonical expressions */
  readonly key: string;
  /** nesting depth (a leaf is 1), set by the constructor from its children's */
  readonly depth: number;
}
export interface IntNode extends Base {
  readonly kind: 'int';
  readonly value: bigint;
}
export interface SymNode extends Base {
  readonly kind: 'sym';
  readonly name: string;
}
export interface ArangeNode extends Base {
  readonly kind: 'arange';
  readonly start: Expr;
  readonly stop: Expr;
  readonly bcast?: Bcast;
}
export interface AddNode extends Base {
  readonly kind: 'add';
  readonly terms: readonly Expr[];
  readonly constant: bigint;
}
export interface MulNode extends Base {
  readonly kind: 'mul';
  readonly coef: bigint;
  readonly factors: readonly Expr[];
  /** monoKey(factors), cached */
  readonly mk: string;
}
export interface FloorDivNode extends Base {
  readonly kind: 'floordiv';
  readonly a: Expr;
  readonly b: Expr;
  /** set by the simplifier when it proved a >= 0 and b >= 1 (C `/`, MLIR `divui` are then exact) */
  readonly nonneg?: boolean;
}
export interface ModNode extends Base {
  readonly kind: 'mod';
  readonly a: Expr;
  readonly b: Expr;
  /** set by the simplifier when it proved a >= 0 and b >= 1 (C `%`, MLIR `remui` are then exact) */
  readonly nonneg?: boolean;
}
export interface MinMaxNode extends Base {
  readonly kind: 'min' | 'max';
  readonly args: readonly Expr[];
}
export interface CmpNode extends Base {
  readonly kind: 'cmp';
  readonly op: CanonCmpOp;
  readonly lhs: Expr;
  readonly rhs: bigint;
}
export interface AndOrNode extends Base {
  readonly kind: 'and' | 'or';
  readonly args: readonly Expr[];
}
export interface NotNode extends Base {
  readonly kind: 'not';
  readonly arg: Expr;
}
/** `^ & |` (bitwise on two's-complement integers) and `>>` by a non-constant amount; `<<` by a
 * constant becomes a `mul`, `>>` by a constant a `floordiv` (build.ts) */
export type BitOp = 'xor' | 'and' | 'or' | 'shl' | 'shr';
export interface BitNode extends Base {
  readonly kind: 'bit';
  readonly op: BitOp;
  readonly a: Expr;
  readonly b: Expr;
}
export interface SelectNode extends Base {
  readonly kind: 'select';
  readonly cond: Expr;
  readonly then: Expr;
  readonly otherwise: Expr;
}

export type Expr =
  | IntNode
  | SymNode
  | ArangeNode
  | AddNode
  | MulNode
  | FloorDivNode
  | ModNode
  | MinMaxNode
  | CmpNode
  | AndOrNode
  | NotNode
  | SelectNode
  | BitNode;

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

const SMALL: IntNode[] = [];
for (let v = -16; v <= 256; v++) SMALL.push(Object.freeze({ kind: 'int', value: BigInt(v), key: String(v), depth: 1 }));

export function mkInt(value: bigint): IntNode {
  if (value >= -16n && value <= 256n) return SMALL[Number(value) + 16];
  return Object.freeze({ kind: 'int', value, key: value.toString(), depth: 1 });
}

export function mkSym(name: string): SymNode {
  if (!IDENT.test(name)) throw new TypeError(`symbol name must be an identifier, got ${JSON.stringify(name)}`);
  return Object.freeze({ kind: 'sym', name, key: name, depth: 1 });
}

export function mkArange(start: Expr, stop: Expr, bcast?: Bcast): ArangeNode {
  const b = bcast ? `,${bcast.axis},${bcast.rank}` : '';
  const depth = 1 + Math.max(start.depth, stop.depth);
  const node: ArangeNode = bcast
    ? { kind: 'arange', start, stop, bcast: Object.freeze({ axis: bcast.axis, rank: bcast.rank }), key: `~a(${start.key},${stop.key}${b})`, depth }
    : { kind: 'arange', start, stop, key: `~a(${start.key},${stop.key})`, depth };
  return Object.freeze(node);
}

/** key of a monomial's atom list (coefficient excluded): used to collect like terms and order them */
export function monoKey(factors: readonly Expr[]): string {
  return factors.map((f) => f.key).join('*');
}

export function mkAdd(terms: readonly Expr[], constant: bigint): AddNode {
  const ks = terms.map((t) => t.key).join(',');
  return Object.freeze({ kind: 'add', terms: Object.freeze([...terms]), constant, key: `~+(${ks};${constant})`, depth: 1 + maxDepth(terms) });
}

export function mkMul(coef: bigint, factors: readonly Expr[], mk = monoKey(factors)): MulNode {
  return Object.freeze({ kind: 'mul', coef, factors: Object.freeze([...factors]), mk, key: `~*(${coef};${mk})`, depth: 1 + maxDepth(factors) });
}

export function mkFloorDiv(a: Expr, b: Expr, nonneg?: boolean): FloorDivNode {
  const key = `~/(${a.key},${b.key})`;
  const depth = 1 + Math.max(a.depth, b.depth);
  return Object.freeze(nonneg ? { kind: 'floordiv', a, b, nonneg: true, key, depth } : { kind: 'floordiv', a, b, key, depth });
}

export function mkMod(a: Expr, b: Expr, nonneg?: boolean): ModNode {
  const key = `~%(${a.key},${b.key})`;
  const depth = 1 + Math.max(a.depth, b.depth);
  return Object.freeze(nonneg ? { kind: 'mod', a, b, nonneg: true, key, depth } : { kind: 'mod', a, b, key, depth });
}

export function mkMinMax(kind: 'min' | 'max', args: readonly Expr[]): MinMaxNode {
  const tag = kind === 'min' ? 'm' : 'M';
  return Object.freeze({ kind, args: Object.freeze([...args]), key: `~${tag}(${args.map((a) => a.key).join(',')})`, depth: 1 + maxDepth(args) });
}

export function mkCmp(op: CanonCmpOp, lhs: Expr, rhs: bigint): CmpNode {
  return Object.freeze({ kind: 'cmp', op, lhs, rhs, key: `~c(${lhs.key}${op}${rhs})`, depth: 1 + lhs.depth });
}

export function mkAndOr(kind: 'and' | 'or', args: readonly Expr[]): AndOrNode {
  const tag = kind === 'and' ? '&' : '|';
  return Object.freeze({ kind, args: Object.freeze([...args]), key: `~${tag}(${args.map((a) => a.key).join(',')})`, depth: 1 + maxDepth(args) });
}

export function mkNot(arg: Expr): NotNode {
  return Object.freeze({ kind: 'not', arg, key: `~!(${arg.key})`, depth: 1 + arg.depth });
}

export function mkSelect(cond: Expr, then: Expr, otherwise: Expr): SelectNode {
  return Object.freeze({ kind: 'select', cond, then, otherwise, key: `~?(${cond.key},${then.key},${otherwise.key})`, depth: 1 + Math.max(cond.depth, then.depth, otherwise.depth) });
}

export function mkBit(op: BitOp, a: Expr, b: Expr): BitNode {
  return Object.freeze({ kind: 'bit', op, a, b, key: `~b${op}(${a.key},${b.key})`, depth: 1 + Math.max(a.depth, b.depth) });
}

/** total order on expressions used for every canonical sort (deterministic, independent of creation order) */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function byKey(a: Expr, b: Expr): number {
  return compareKeys(a.key, b.key);
}

/** the direct sub-expressions of a node */
export function childrenOf(e: Expr): readonly Expr[] {
  switch (e.kind) {
    case 'int':
    case 'sym':
      return [];
    case 'arange':
      return [e.start, e.stop];
    case 'add':
      return e.terms;
    case 'mul':
      return e.factors;
    case 'floordiv':
    case 'mod':
    case 'bit':
      return [e.a, e.b];
    case 'min':
    case 'max':
    case 'and':
    case 'or':
      return e.args;
    case 'cmp':
      return [e.lhs];
    case 'not':
      return [e.arg];
    case 'select':
      return [e.cond, e.then, e.otherwise];
  }
}

/** true for nodes whose value is always 0 or 1 */
export function isBoolean(e: Expr): boolean {
  return (
    e.kind === 'cmp' ||
    e.kind === 'and' ||
    e.kind === 'or' ||
    e.kind === 'not' ||
    (e.kind === 'int' && (e.value === 0n || e.value === 1n))
  );
}

/** nesting depth (a leaf is 1): each node carries it, computed from its children's as it was built */
export function exprDepth(e: Expr): number {
  return e.depth;
}

function maxDepth(es: readonly Expr[]): number {
  let d = 0;
  for (let i = 0; i < es.length; i++) if (es[i].depth > d) d = es[i].depth;
  return d;
}
