// Generated files of equal line counts for the latency benchmarks: a .layout file (the parse
// bench's blocks, each layout used so that the file has no diagnostics at all, and every kernel
// emits: `layout emit` accepts it) and an MLIR file that mlir-lsp-server-22 verifies without
// diagnostics.

/**
 * One block of .layout declarations with names made unique by `k`, and sizes too (N and K grow with
 * `k`: no two blocks' layouts have the same structure, so that no cache keyed on a layout's structure
 * answers for a block from another's work): no diagnostics at all; without
 * the `skew` kernel (`skewKernel: false`, the parse benchmark's block), each block's Skewed layout
 * is unused (a hint).
 */
export function layoutBlock(k: number, { skewKernel = true }: { skewKernel?: boolean } = {}): string {
  return `# ---- block ${k}: grouped-order matmul tile set
const M${k} = 4096, N${k} = ${4096 + 128 * k}, K${k} = ${4096 + 32 * k}   # folded: the built-in matmul names only its own sizes
const BM${k} = 128, BN${k} = 128, BK${k} = 32, GM${k} = 8
const T${k} = 32
param SM${k} = 128 in [64, 128], SN${k} = 128 in [64, 128], SK${k} = 4096 in [1024, 2048, 4096]   # the schedule's, tuned
let num_pid_m${k} = M${k} / BM${k}       # tiles along M
let num_pid_n${k} = N${k} / BN${k}

layout Pid${k} = OrderBy(Col(max(num_pid_m${k} / GM${k}, 1), 1), Col(min(num_pid_m${k}, GM${k}), num_pid_n${k}))
                 .TileBy([num_pid_m${k}, num_pid_n${k}])
layout A${k} = OrderBy(Row(M${k}, K${k})).TileBy([M${k} / BM${k}, K${k} / BK${k}], [BM${k}, BK${k}])
layout B${k} = OrderBy(Row(K${k}, N${k})).TileBy([K${k} / BK${k}, N${k} / BN${k}], [BK${k}, BN${k}])
layout C${k} = OrderBy(Row(M${k}, N${k})).TileBy([M${k} / BM${k}, N${k} / BN${k}], [BM${k}, BN${k}])

perm antidiag${k}(n)[i, j] =
  if i + j < n then (i + j + 1) * (i + j) / 2 + i
  else n * n - n + i - (2 * n - i - j - 1) * (2 * n - i - j - 2) / 2
layout Skewed${k} = OrderBy(RegP([2, 2], [1, 0]), GenP([3, 3], antidiag${k}(3)))
                  .OrderBy(RegP([2, 3, 2, 3], [0, 2, 1, 3]))
                  .GroupBy([6, 6])

kernel matmul${k} target triton builtin matmul {
  pid_m, pid_n = Pid${k}.inv(pid)
  offset_aptrs = A${k}[pid_m, k, :, :]
  offset_bptrs = B${k}[k, pid_n, :, :]
  offset_cptrs = C${k}[pid_m, pid_n, 0:BM${k}, 0:BN${k}]
  param_M = M${k}
  param_N = N${k}
  param_K = K${k}
  param_BM = BM${k}
  param_BN = BN${k}
  param_BK = BK${k}
  param_GM = GM${k}
}

${skewKernel ? `kernel skew${k} target cuda builtin nw_antidiag {
  block_size = T${k}
  expr = Skewed${k}[i, j]
}

` : ''}schedule gemm${k} for linalg.matmul(M${k}, N${k}, SK${k}) on sm_90 {
  mm = findOp("linalg.matmul")
  tileForGrids(mm, [SM${k}, SN${k}])
  tile(mm, [0, 0, BK${k}])
  promote(mm, [0, 1])
  parallelizeForThreads(mm, [T${k} / 2, T${k} / 2])
  vectorize()
  bufferize()
}

`;
}

/** One MLIR function of similar density (constants, loops, loads, arithmetic), names unique by `k`. */
export function mlirBlock(k: number): string {
  return `// ---- block ${k}: an elementwise kernel over 4096 x 4096 tiles
func.func @add_scale${k}(%A: memref<4096x4096xf32>, %B: memref<4096x4096xf32>, %C: memref<4096x4096xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 4096 : index
  %bm = arith.constant 128 : index
  %scale = arith.constant 2.0 : f32
  scf.for %i = %c0 to %n step %bm {
    scf.for %ii = %c0 to %bm step %c1 {
      %row = arith.addi %i, %ii : index
      scf.for %j = %c0 to %n step %c1 {
        %a = memref.load %A[%row, %j] : memref<4096x4096xf32>
        %b = memref.load %B[%row, %j] : memref<4096x4096xf32>
        %s = arith.addf %a, %b : f32
        %t = arith.mulf %s, %scale : f32
        memref.store %t, %C[%row, %j] : memref<4096x4096xf32>
      }
    }
  }
  return
}

`;
}

/** Exactly `lines` lines: whole blocks while they fit, then comment lines. */
export function fill(lines: number, block: (k: number) => string, comment: string): string {
  const parts: string[] = [];
  let n = 0;
  for (let k = 0; ; k++) {
    const b = block(k);
    const bl = b.split('\n').length - 1;
    if (n + bl > lines) break;
    parts.push(b);
    n += bl;
  }
  for (; n < lines; n++) parts.push(`${comment} padding line ${n}\n`);
  return parts.join('');
}

export const layoutFile = (lines: number): string => fill(lines, layoutBlock, '#');
export const mlirFile = (lines: number): string => fill(lines, mlirBlock, '//');
