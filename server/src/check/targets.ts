// Per-target facts for schedule checks and code generation (plain data, no I/O).
// Figures are the CUDA programming guide's per-compute-capability limits.

export interface GpuTarget {
  kind: 'gpu';
  /** `sm_80`, `sm_90`, ... as written after `on` */
  name: string;
  /** human name for hovers */
  label: string;
  /** compute capability, e.g. 90 */
  cc: number;
  maxThreadsPerBlock: number;
  /** per-dimension block limits x, y, z */
  maxBlockDim: [number, number, number];
  /** per-dimension grid limits x, y, z */
  maxGridDim: [number, number, number];
  warpSize: number;
  /** shared memory a block may use without opting in (and the cap on static `__shared__` data) */
  sharedMemDefaultBytes: number;
  /** shared memory a block may use after `cudaFuncSetAttribute(..., MaxDynamicSharedMemorySize)` */
  sharedMemOptInBytes: number;
  maxRegistersPerThread: number;
  /** PTX ISA feature the NVPTX backend needs for this chip (`+ptx80`) */
  ptxFeature: string;
}

export interface CpuTarget {
  kind: 'cpu';
  name: 'cpu';
  label: string;
}

export type Target = GpuTarget | CpuTarget;

const KB = 1024;

function gpu(name: string, label: string, cc: number, optInBytes: number): GpuTarget {
  return {
    kind: 'gpu',
    name,
    label,
    cc,
    maxThreadsPerBlock: 1024,
    maxBlockDim: [1024, 1024, 64],
    maxGridDim: [2147483647, 65535, 65535],
    warpSize: 32,
    sharedMemDefaultBytes: 48 * KB,
    sharedMemOptInBytes: optInBytes,
    maxRegistersPerThread: 255,
    ptxFeature: '+ptx80',
  };
}

/** Every target a schedule may name after `on`. */
export const TARGETS: Readonly<Record<string, Target>> = {
  sm_80: gpu('sm_80', 'NVIDIA Ampere (A100, sm_80)', 80, 163 * KB),
  sm_86: gpu('sm_86', 'NVIDIA Ampere (GA10x, sm_86)', 86, 99 * KB),
  sm_89: gpu('sm_89', 'NVIDIA Ada (sm_89)', 89, 99 * KB),
  sm_90: gpu('sm_90', 'NVIDIA Hopper (H100/H200, sm_90)', 90, 227 * KB),
  cpu: { kind: 'cpu', name: 'cpu', label: 'host CPU (mlir-runner)' },
};

export function lookupTarget(name: string): Target | undefined {
  return Object.prototype.hasOwnProperty.call(TARGETS, name) ? TARGETS[name] : undefined;
}

/** `49152` -> `48 KB`, `166912` -> `163 KB`, `1000` -> `1000 B` */
export function formatBytes(n: number): string {
  return n >= KB && n % KB === 0 ? `${n / KB} KB` : `${n} B`;
}
