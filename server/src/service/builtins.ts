// What the editor says about the language's built-in names: layout constructors, methods and
// functions (PEAK primitives come from check/schedule/). Used by completion, signature help,
// hover and rename (which refuses them).
import { KEYWORDS } from '../../../grammar/src/tokens.js';
import { PRIMITIVES, isPrimitive, type PrimitiveInfo } from '../check/schedule/index.js';

export interface BuiltinParam {
  label: string;
  doc: string;
  /** the parameter repeats (`Row(d0, d1, ...)`) */
  rest?: boolean;
}

export interface Builtin {
  name: string;
  kind: 'constructor' | 'method' | 'function';
  params: BuiltinParam[];
  doc: string;
  /** snippet body inserted by completion (LSP snippet syntax) */
  snippet: string;
}

function b(name: string, kind: Builtin['kind'], params: BuiltinParam[], doc: string, snippet: string): Builtin {
  return { name, kind, params, doc, snippet };
}

const dims = (label: string, doc: string): BuiltinParam => ({ label, doc });

export const CONSTRUCTORS: readonly Builtin[] = [
  b('Row', 'constructor', [{ label: 'd', doc: 'the extent of each dimension, outermost first', rest: true }],
    'Row-major block: the last dimension is contiguous.', 'Row(${1:M}, ${2:N})'),
  b('Col', 'constructor', [{ label: 'd', doc: 'the extent of each dimension, outermost first', rest: true }],
    'Column-major block: the dimensions in reverse order (the first dimension is contiguous).', 'Col(${1:M}, ${2:N})'),
  b('RegP', 'constructor', [dims('dims', 'the tile shape, e.g. `[2, 3]`'), dims('perm', 'a 0-based permutation of the dimensions, e.g. `[1, 0]`')],
    'Regular permutation: flattens the tile in the permuted order of its dimensions.', 'RegP([${1:dims}], [${2:perm}])'),
  b('GenP', 'constructor', [dims('dims', 'the tile shape, e.g. `[n, n]`'), dims('perm', 'a `perm` declared in this file, applied to its size arguments, e.g. `antidiag(n)`')],
    'General permutation of a tile\'s elements, given by a user `perm` (checked to be a bijection).', 'GenP([${1:dims}], ${2:perm}(${3:n}))'),
  b('OrderBy', 'constructor', [{ label: 'block', doc: 'one block per tile level, outermost first (the first is the most significant)', rest: true }],
    'Reordering over a tile hierarchy: one block (`Row`, `Col`, `RegP`, `GenP`) per level.', 'OrderBy(${1:Row(M, N)})'),
  b('GroupBy', 'constructor', [dims('dims', 'the logical shape, e.g. `[6, 6]`')],
    'Logical view: the index is flattened row-major and re-read in each reordering of the chain (a reshape).', 'GroupBy([${1:dims}])'),
];

export const METHODS: readonly Builtin[] = [
  b('OrderBy', 'method', [{ label: 'block', doc: 'one block per tile level, outermost first', rest: true }],
    'Appends a reordering to the chain (applied before the ones written earlier, as in LEGO\'s Python).', 'OrderBy(${1:block})'),
  b('GroupBy', 'method', [dims('dims', 'the logical shape')],
    'Ends a chain of reorderings with a logical view of this shape (a reshape).', 'GroupBy([${1:dims}])'),
  b('TileBy', 'method', [{ label: 'level', doc: 'the extents of one tiling level, outermost level first, e.g. `[M/BM, K/BK]`', rest: true }],
    'Hierarchical tiling: the logical index becomes the tile coordinates, outermost level first.', 'TileBy([${1:outer}], [${2:inner}])'),
  b('ExpandBy', 'method', [dims('dims', 'the expanded extents, which the tiles divide')],
    'Partial tiles: computes in an expanded space; positions outside the original extents map to -1.', 'ExpandBy([${1:dims}])'),
  b('TileOrderBy', 'method', [dims('order', 'the order of the tile levels')],
    'Reorders the levels of a tile hierarchy.', 'TileOrderBy([${1:order}])'),
  b('apply', 'method', [{ label: 'i', doc: 'one logical coordinate per dimension', rest: true }],
    'Logical coordinates to the physical (flat) position; same as `L[i, j]`.', 'apply(${1:i}, ${2:j})'),
  b('inv', 'method', [dims('x', 'a physical (flat) position')],
    'Physical position to logical coordinates: bind them with `a, b = L.inv(x)`.', 'inv(${1:x})'),
];

export const FUNCTIONS: readonly Builtin[] = [
  b('min', 'function', [dims('a', 'an integer'), dims('b', 'an integer')], 'The smaller of two integers.', 'min(${1:a}, ${2:b})'),
  b('max', 'function', [dims('a', 'an integer'), dims('b', 'an integer')], 'The larger of two integers.', 'max(${1:a}, ${2:b})'),
];

export const KERNEL_TARGETS = ['cuda', 'triton', 'mlir'] as const;

export function constructor(name: string): Builtin | undefined {
  return CONSTRUCTORS.find((c) => c.name === name) ?? FUNCTIONS.find((f) => f.name === name);
}

export function method(name: string): Builtin | undefined {
  return METHODS.find((m) => m.name === name);
}

export function primitive(name: string): PrimitiveInfo | undefined {
  return isPrimitive(name) ? PRIMITIVES[name] : undefined;
}

export function primitives(): PrimitiveInfo[] {
  return Object.values(PRIMITIVES);
}

const reserved = new Set<string>([
  ...KEYWORDS,
  ...CONSTRUCTORS.map((c) => c.name),
  ...METHODS.map((m) => m.name),
  ...FUNCTIONS.map((f) => f.name),
  ...Object.keys(PRIMITIVES),
]);

/** Keywords and built-in names: nothing may be renamed to or from one. */
export function isReserved(name: string): boolean {
  return reserved.has(name);
}

export function isKeyword(name: string): boolean {
  return KEYWORDS.includes(name);
}

/** A legal identifier of the language (that is not a keyword). */
export function isIdentifier(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !isKeyword(name);
}

/** The signature label shown by signature help, e.g. `RegP(dims, perm)` or `Row(d, ...)`. */
export function signatureLabel(bi: Builtin): string {
  return `${bi.kind === 'method' ? '.' : ''}${bi.name}(${bi.params.map((p) => (p.rest ? `${p.label}, ...` : p.label)).join(', ')})`;
}
