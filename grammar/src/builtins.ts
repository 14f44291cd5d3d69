// Names that are always in scope. The grammar layer only knows that they exist (for name
// resolution, did-you-mean suggestions and semantic tokens); `server/src/check/` gives them meaning.

/** LEGO's layout constructors (also used as method names: `.OrderBy(...)`, `.GroupBy(...)`, `.TileBy(...)`) */
export const CONSTRUCTORS: readonly string[] = ['OrderBy', 'GroupBy', 'TileBy', 'RegP', 'GenP', 'Row', 'Col', 'ExpandBy', 'TileOrderBy'];

/** built-in functions usable in any expression */
export const FUNCTIONS: readonly string[] = ['min', 'max'];

/** PEAK's schedule primitives: the names a schedule step may call */
export const PRIMITIVES: readonly string[] = [
  'findOp', 'tile', 'fuse', 'tileForGrids', 'parallelizeForBlocks', 'parallelizeForThreads',
  'bufferize', 'promote', 'unroll', 'vectorize',
  // tensor cores
  'parallelizeForWarps', 'mma', 'asyncCopy', 'multibuffer', 'pipeline', 'swizzleShared',
];

/** method names that take free index symbols as arguments (`L.inv(pid)`, `L.apply(i, j)`) */
export const QUERY_METHODS: readonly string[] = ['inv', 'apply'];

/** kernel targets */
export const TARGETS: readonly string[] = ['cuda', 'triton', 'mlir'];
