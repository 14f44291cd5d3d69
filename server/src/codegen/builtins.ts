// The built-in kernels: `kernel NAME target T builtin B { ... }` fills template B, shipped in the
// bundle (templates/*.tmpl, embedded by templates/embed.mjs). Each is generated end to end from a
// file in examples/, so a user gets a runnable kernel with no template of their own.
import type { KernelTarget } from '../check/kernel.js';
import { BUILTIN_SOURCES } from './templates/builtin-sources.js';

export interface BuiltinKernel {
  name: string;
  target: KernelTarget;
  /** template file under templates/ */
  template: string;
  /** extension of the emitted file */
  ext: '.py' | '.cu';
  description: string;
  /** the example that emits it */
  example: string;
  /**
   * Names the template's code defines where the generated expressions go. A bound expression
   * that uses any other free name would not compile; the emitter reports it.
   */
  scope: readonly string[];
  /** placeholders whose expressions must fold to integer constants (`#define`s, array sizes) */
  constants: readonly string[];
}

const BUILTINS: readonly BuiltinKernel[] = [
  {
    name: 'matmul',
    target: 'triton',
    template: 'matmul.py.tmpl',
    ext: '.py',
    description: 'grouped-order fp16 matmul (LEGO Figure 1): pid_m, pid_n, offset_aptrs, offset_bptrs, offset_cptrs',
    example: 'examples/matmul.layout',
    scope: ['pid', 'num_pid_m', 'num_pid_n', 'M', 'N', 'K', 'BM', 'BN', 'BK', 'GM', 'pid_m', 'pid_n', 'k'],
    constants: [],
  },
  {
    name: 'softmax',
    target: 'triton',
    template: 'softmax.py.tmpl',
    ext: '.py',
    description: 'row-wise fp32 softmax: input_offset, output_offset',
    example: 'examples/softmax.layout',
    scope: ['row_idx', 'n_rows', 'n_cols', 'BLOCK_SIZE'],
    constants: [],
  },
  {
    name: 'transpose_naive',
    target: 'cuda',
    template: 'transpose_naive.cu.tmpl',
    ext: '.cu',
    description: 'naive fp32 transpose: tile, rows, in_index, out_index',
    example: 'examples/transpose.layout',
    scope: ['n', 'bx', 'by', 'tx', 'ty', 'jj'],
    constants: ['tile', 'rows'],
  },
  {
    name: 'transpose_smem',
    target: 'cuda',
    template: 'transpose_smem.cu.tmpl',
    ext: '.cu',
    description: 'fp32 transpose through a shared-memory tile: tile, rows, smem_size, in_index, smem_store, smem_load, out_index',
    example: 'examples/transpose.layout',
    scope: ['n', 'bx', 'by', 'tx', 'ty', 'jj'],
    constants: ['tile', 'rows', 'smem_size'],
  },
  {
    name: 'transpose_swizzle',
    target: 'cuda',
    template: 'transpose_swizzle.cu.tmpl',
    ext: '.cu',
    description: 'fp32 transpose through an XOR-swizzled (unpadded) shared-memory tile: tile, rows, smem_size, in_index, smem_store, smem_load, out_index',
    example: 'examples/swizzle.layout',
    scope: ['n', 'bx', 'by', 'tx', 'ty', 'jj'],
    constants: ['tile', 'rows', 'smem_size'],
  },
  {
    name: 'nw_antidiag',
    target: 'cuda',
    template: 'nw_antidiag.cu.tmpl',
    ext: '.cu',
    description: 'Needleman-Wunsch tiles in an anti-diagonal shared buffer: block_size, expr (the body of antiDiagPermLEGO(n, i, j))',
    example: 'examples/nw.layout',
    scope: ['n', 'i', 'j'],
    constants: ['block_size'],
  },
];

/** Every built-in kernel, in a stable order. */
export function builtinKernels(): readonly BuiltinKernel[] {
  return BUILTINS;
}

/** The built-in called `name`, if any. */
export function findBuiltin(name: string): BuiltinKernel | undefined {
  return BUILTINS.find((b) => b.name === name);
}

/** The template text of a built-in. */
export function builtinSource(b: BuiltinKernel): string {
  const s = BUILTIN_SOURCES[b.template];
  if (s === undefined) throw new Error(`built-in template ${b.template} is not embedded (run templates/embed.mjs)`);
  return s;
}
