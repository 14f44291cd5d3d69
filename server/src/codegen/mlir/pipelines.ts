// mlir-opt-22 pass lists for the generated MLIR (plain data; tools.ts runs them).
// Tested with Debian's mlir-22-tools (LLVM 22.1.8); see docs/schedules.md.

/** Apply a transform library kept in its own file to a payload; `entry` picks the named sequence. */
export function applyScheduleArgs(transformPath: string, entry?: string): string[] {
  return [
    `--transform-preload-library=transform-library-paths=${transformPath}`,
    entry ? `--transform-interpreter=entry-point=${entry}` : '--transform-interpreter',
    '--canonicalize',
    '--cse',
  ];
}

/**
 * gpu.launch -> outlined gpu.func. Index computations and constants are sunk into the launch first
 * (otherwise they become kernel arguments); `--symbol-dce` drops the host copies of the shared globals.
 */
export const GPU_OUTLINE: readonly string[] = ['--gpu-launch-sink-index-computations', '--gpu-kernel-outlining', '--symbol-dce'];

export interface PtxOptions {
  /** `sm_80`, `sm_90`, ... */
  chip: string;
  /** PTX ISA feature, `+ptx80` for sm_80 and newer */
  features?: string;
  /** `isa` gives PTX text (no CUDA needed); `bin` runs ptxas and gives a cubin */
  format?: 'isa' | 'bin';
  /** kernels take plain pointers (one per memref) instead of memref descriptors */
  barePointers?: boolean;
  /** LLVM optimisation level of the NVVM lowering (`opt-level=N`); the tensor-core schedules use 3 */
  optLevel?: number;
  /** passes to run before the NVVM pipeline (WMMA schedules: `--convert-scf-to-cf`, see EmittedSchedule.ptxPreLowering) */
  preLowering?: readonly string[];
}

/** Outlined GPU module -> NVVM -> PTX (or cubin) inside a `gpu.binary`. */
export function gpuToPtxArgs(o: PtxOptions): string[] {
  const opts = [`cubin-chip=${o.chip}`, `cubin-features=${o.features ?? '+ptx80'}`, `cubin-format=${o.format ?? 'isa'}`];
  if (o.barePointers) opts.push('kernel-bare-ptr-calling-convention=true');
  if (o.optLevel !== undefined) opts.push(`opt-level=${o.optLevel}`);
  // linalg ops left unvectorized inside the kernel become loops first
  return ['--convert-linalg-to-loops', ...(o.preLowering ?? []), `--gpu-lower-to-nvvm-pipeline=${opts.join(' ')}`];
}

/** Lowers bufferized scf/vector/memref code (scf.forall run sequentially) to the LLVM dialect for mlir-runner. */
export const CPU_LOWERING: readonly string[] = [
  '--scf-forall-to-for', '--convert-linalg-to-loops', '--convert-vector-to-scf', '--lower-affine',
  '--convert-scf-to-cf', '--convert-vector-to-llvm', '--expand-strided-metadata', '--lower-affine',
  '--convert-math-to-llvm', '--convert-arith-to-llvm', '--finalize-memref-to-llvm', '--convert-cf-to-llvm',
  '--convert-func-to-llvm', '--convert-index-to-llvm', '--convert-ub-to-llvm', '--reconcile-unrealized-casts',
];

/** Workgroup memory has no meaning on the host: the CPU check drops the memory space. */
export function stripGpuMemorySpaces(mlir: string): string {
  return mlir.replace(/, #gpu\.address_space<workgroup>>/g, '>').replace(/, 3>/g, '>');
}
