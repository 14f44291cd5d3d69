// How MLIR's `gpu.map_copy_to_threads` spreads a shared-memory copy over a block's threads.
/** How `gpu.map_copy_to_threads` spreads a shared-memory copy over the block (MLIR's heuristic, re-derived). */
export interface CopyMapping {
  /** elements per thread along the innermost dimension */
  vectorSize: number;
  /** threads per copy dimension */
  numThreads: number[];
  /** the per-thread tile (what the copy's vectorization is sized for) */
  tile: number[];
  threadsUsed: number;
}

const MAX_VECTOR_BITS = 128;
function gcd(a: number, b: number): number { while (b) [a, b] = [b, a % b]; return a; }

/** Threads per dimension: the innermost dimension gets all its (vector) columns; outer ones as many as fit. */
function maximizeThreads(sizes: number[], idx: number, limit: number): number[] {
  if (idx === sizes.length - 1) return [sizes[idx]];
  let best = 0, bestSplit: number[] = [];
  for (let f = 1; f <= sizes[idx]; f++) {
    if (sizes[idx] % f !== 0 || f > limit) continue;
    const rest = maximizeThreads(sizes, idx + 1, Math.floor(limit / f));
    const total = f * rest.reduce((a, b) => a * b, 1);
    if (total > best && total <= limit) { best = total; bestSplit = [f, ...rest]; }
  }
  return bestSplit;
}

/** The mapping MLIR 22 chooses for copying a `shape` tile with `totalThreads` threads, or why there is none. */
export function copyMapping(totalThreads: number, shape: number[], elementBits: number): CopyMapping | { invalid: string } {
  const inner = shape[shape.length - 1];
  const desired = gcd(gcd(MAX_VECTOR_BITS / elementBits, inner), MAX_VECTOR_BITS / elementBits);
  const attempt = (vec: number): { m?: CopyMapping; status: 'ok' | 'predicated' | 'invalid' } => {
    const scaled = [...shape];
    scaled[scaled.length - 1] /= vec;
    if (scaled[scaled.length - 1] > totalThreads) return { status: 'invalid' };
    const numThreads = maximizeThreads(scaled, 0, totalThreads);
    const used = numThreads.reduce((a, b) => a * b, 1);
    if (numThreads.length !== shape.length || used === 0 || used > totalThreads) return { status: 'invalid' };
    const tile = shape.map((s, i) => Math.ceil(s / numThreads[i]));
    return { m: { vectorSize: vec, numThreads, tile, threadsUsed: used }, status: used === totalThreads ? 'ok' : 'predicated' };
  };
  for (let vec = desired; vec >= 1; vec = Math.floor(vec / 2)) {
    const r = attempt(vec);
    if (r.status === 'ok') return r.m!;
    if (r.status === 'invalid') break;
  }
  const r = attempt(desired);
  if (r.m) return r.m;
  return { invalid: `its ${inner / desired} groups of ${desired} contiguous elements per row need more than the block's ${totalThreads} threads` };
}
