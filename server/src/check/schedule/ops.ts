// The tables of the schedule language: the payload ops a schedule may transform and the PEAK
// primitives (their arguments, targets, hover text and the transform-dialect ops they become).
// ------------------------------------------------------------------ payload ops

export interface PayloadOperand {
  /** `A`, `B`, `C` */
  name: string;
  /** iteration dimensions indexing this operand, outermost first */
  dims: number[];
  /** the output (the `outs` operand) */
  isOutput: boolean;
}

export interface PayloadOpInfo {
  name: string;
  /** iteration dimension names in the order of the `for` clause's sizes */
  dims: string[];
  /** the first `parallelDims` dimensions are parallel, the rest reductions */
  parallelDims: number;
  operands: PayloadOperand[];
  /** one line for hovers */
  summary: string;
}

export const PAYLOAD_OPS: Readonly<Record<string, PayloadOpInfo>> = {
  'linalg.matmul': {
    name: 'linalg.matmul',
    dims: ['M', 'N', 'K'],
    parallelDims: 2,
    operands: [
      { name: 'A', dims: [0, 2], isOutput: false },
      { name: 'B', dims: [2, 1], isOutput: false },
      { name: 'C', dims: [0, 1], isOutput: true },
    ],
    summary: 'C[M x N] = A[M x K] * B[K x N]',
  },
};

export function lookupPayloadOp(name: string): PayloadOpInfo | undefined {
  return Object.prototype.hasOwnProperty.call(PAYLOAD_OPS, name) ? PAYLOAD_OPS[name] : undefined;
}

// ------------------------------------------------------------------ primitives

export type Primitive =
  | 'findOp' | 'tile' | 'fuse' | 'tileForGrids' | 'parallelizeForBlocks' | 'parallelizeForThreads'
  | 'bufferize' | 'promote' | 'unroll' | 'vectorize'
  // tensor cores (see tensorcore.ts)
  | 'parallelizeForWarps' | 'mma' | 'asyncCopy' | 'multibuffer' | 'pipeline' | 'swizzleShared';

type ArgKind = 'handle' | 'sizes' | 'operands' | 'int' | 'opName';

export interface PrimitiveInfo {
  name: Primitive;
  /** as shown in hovers and completion, e.g. `tile(handle, [sizes])` */
  signature: string;
  /** required arguments, then optional ones */
  args: ArgKind[];
  optionalArgs: ArgKind[];
  /** the step binds a handle: `mm = findOp(...)` */
  bindsResult: boolean;
  target: 'any' | 'gpu' | 'cpu';
  summary: string;
  /** transform-dialect ops the step becomes (MLIR 22 spelling) */
  becomes: string[];
}

function prim(name: Primitive, signature: string, args: ArgKind[], optionalArgs: ArgKind[], target: PrimitiveInfo['target'],
  summary: string, becomes: string[]): PrimitiveInfo {
  return { name, signature, args, optionalArgs, bindsResult: name === 'findOp', target, summary, becomes };
}

export const PRIMITIVES: Readonly<Record<Primitive, PrimitiveInfo>> = {
  findOp: prim('findOp', 'h = findOp("linalg.matmul")', ['opName'], [], 'any',
    'Finds the payload op and binds a handle to it; later steps name the handle.',
    ['transform.structured.match']),
  tileForGrids: prim('tileForGrids', 'tileForGrids(h, [tile per parallel dim])', ['handle', 'sizes'], [], 'gpu',
    'Tiles the parallel dimensions into one tile per GPU block (an `scf.forall` mapped to `#gpu.block`); the zero fill of the output is fused into the same loop.',
    ['transform.structured.tile_using_forall', 'transform.structured.fuse_into_containing_op']),
  tile: prim('tile', 'tile(h, [size per dim, 0 = untiled])', ['handle', 'sizes'], [], 'any',
    'Tiles dimensions with sequential `scf.for` loops (e.g. the reduction K); a size of 0 leaves a dimension untiled.',
    ['transform.structured.tile_using_for']),
  fuse: prim('fuse', 'fuse(h, [size per parallel dim])', ['handle', 'sizes'], [], 'cpu',
    'Tiles the parallel dimensions with `scf.for` loops and fuses the producer (the zero fill) into them.',
    ['transform.structured.fuse']),
  promote: prim('promote', 'promote(h, [operand indices])', ['handle', 'operands'], [], 'gpu',
    'Stages the listed input operands\' tiles in shared memory: each block copies them cooperatively before computing.',
    ['transform.structured.pad', 'transform.structured.gpu.map_copy_to_threads',
      'transform.structured.bufferize_to_allocation', 'transform.memref.alloca_to_global']),
  parallelizeForThreads: prim('parallelizeForThreads', 'parallelizeForThreads(h, [threads per parallel dim])', ['handle', 'sizes'], [], 'gpu',
    'Splits each block\'s tile over a block of threads (an `scf.forall` mapped to `#gpu.thread`); the numbers are thread counts.',
    ['transform.structured.tile_using_forall', 'transform.gpu.map_nested_forall_to_threads']),
  parallelizeForBlocks: prim('parallelizeForBlocks', 'parallelizeForBlocks(h?)', [], ['handle'], 'gpu',
    'Turns the grid loop made by tileForGrids into a `gpu.launch` (done at the end of every GPU schedule; writing it documents where).',
    ['transform.gpu.map_forall_to_blocks']),
  vectorize: prim('vectorize', 'vectorize(h?)', [], ['handle'], 'any',
    'Replaces the (per-thread) linalg ops and shared-memory copies by vector ops, lowered to FMAs and vector loads after bufferize.',
    ['transform.structured.vectorize', 'transform.apply_patterns.vector.*']),
  unroll: prim('unroll', 'unroll(h, factor)', ['handle', 'int'], [], 'any',
    'Unrolls the innermost loop made by tile/fuse on the handle by the factor.',
    ['transform.loop.unroll']),
  bufferize: prim('bufferize', 'bufferize()', [], [], 'any',
    'Turns tensors into memrefs (one-shot bufferization); shared-memory staging buffers become workgroup globals.',
    ['transform.bufferization.eliminate_empty_tensors', 'transform.bufferization.one_shot_bufferize',
      'transform.memref.alloca_to_global']),
  // ---- tensor cores (a schedule with mma: see docs/schedules.md, "Tensor cores")
  parallelizeForWarps: prim('parallelizeForWarps', 'parallelizeForWarps(h, [warps per parallel dim])', ['handle', 'sizes'], [], 'gpu',
    'Splits each block\'s tile over a grid of warps (an `scf.forall` mapped to `#gpu.warp<linear_dim_*>`): each warp owns a warp tile of the output, kept in registers; the block has 32 threads per warp. The zero fill is spread over all the threads.',
    ['transform.structured.tile_using_forall num_threads (#gpu.warp<linear_dim_1>, #gpu.warp<linear_dim_0>)',
      'transform.structured.tile_using_forall (fill, #gpu.thread<linear_dim_*>)', 'transform.gpu.map_nested_forall_to_threads']),
  mma: prim('mma', 'mma(h, [16, 8, 16])', ['handle', 'sizes'], [], 'gpu',
    'Computes each warp tile on the tensor cores: `[16, 8, 16]` is `mma.sync` m16n8k16 fed by `ldmatrix` (nvgpu), `[16, 16, 16]` is WMMA (`gpu.subgroup_mma_*`). Implies the contraction patterns after bufferize and hoisting the accumulators out of the K loop.',
    ['transform.apply_patterns.vector.reduction_to_contract', 'transform.apply_patterns.vector.fold_arith_extension',
      'transform.apply_patterns.gpu.unroll_vectors_subgroup_mma', 'transform.apply_patterns.memref.fold_memref_alias_ops',
      'transform.structured.hoist_redundant_vector_transfers', 'transform.apply_registered_pass "convert-vector-to-gpu"']),
  asyncCopy: prim('asyncCopy', 'asyncCopy()', [], [], 'gpu',
    'Turns the global-to-shared copies of promote into asynchronous copies (`cp.async`, bypassing L1), grouped per stage.',
    ['transform.nvgpu.create_async_groups {bypass_l1}']),
  multibuffer: prim('multibuffer', 'multibuffer(depth)', ['int'], [], 'gpu',
    'Gives each shared-memory staging buffer `depth` copies (one per pipeline stage); shared memory grows by the factor.',
    ['transform.bufferization.buffer_loop_hoisting', 'transform.memref.multibuffer {skip_analysis}']),
  pipeline: prim('pipeline', 'pipeline(h, depth)', ['handle', 'int'], [], 'gpu',
    'Software-pipelines the K loop: the copies of the next `depth - 1` K tiles run while the current one is computed (implies multibuffer(depth)).',
    ['transform.nvgpu.pipeline_shared_memory_copies {depth, peel_epilogue}']),
  swizzleShared: prim('swizzleShared', 'swizzleShared()', [], [], 'gpu',
    'XOR-swizzles the shared-memory tiles (the cp.async writes and the ldmatrix reads) so that a warp\'s accesses hit distinct banks.',
    ['transform.apply_registered_pass "nvgpu-optimize-shared-memory"']),
};

/** The tensor-core primitives; they act after bufferize whatever their position (see docs/schedules.md). */
export const TENSOR_CORE_PRIMITIVES: ReadonlySet<Primitive> = new Set<Primitive>(['mma', 'asyncCopy', 'multibuffer', 'pipeline', 'swizzleShared']);

export function isPrimitive(name: string): name is Primitive {
  return Object.prototype.hasOwnProperty.call(PRIMITIVES, name);
}
