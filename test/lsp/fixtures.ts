// Shared `.layout` texts for the protocol tests.

/** A small file with one declaration of every kind. Line numbers matter to the tests: keep them. */
export const matmul = [
  '# Grouped matmul', //                                                       0
  'param M = 4096, N = 4096, K = 4096', //                                      1
  'param BM = 128 in [64, 128, 256], BN = 256, BK = 64', //                     2
  'let num_pid_m = M / BM', //                                                  3
  'layout A = OrderBy(Row(M, K)).TileBy([M / BM, K / BK], [BM, BK])', //       4
  'perm antidiag(n)[i, j] = if i + j < n then i else j', //                     5
  'kernel matmul target triton template "templates/matmul.py" {', //           6
  '  offset_aptrs = A[pid_m, k, :, :]', //                                      7
  '}', //                                                                       8
  'schedule gemm for linalg.matmul(M, N, K) on sm_90 {', //                    9
  '  mm = findOp("linalg.matmul")', //                                         10
  '  tile(mm, [0, 0, BK])', //                                                 11
  '}', //                                                                      12
  '',
].join('\n');
