// Shared inputs of the MLIR codegen tests.
import assert from 'node:assert/strict';
import { parse } from '../../grammar/src/index.js';
import type { ScheduleDecl } from '../../grammar/src/ast.js';
import { scheduleEnvFromFile } from '../../server/src/check/schedule/index.js';
import { fromAst, type ScheduleSpec } from '../../server/src/codegen/mlir/index.js';

export const EXAMPLE = `param M = 4096, N = 4096, K = 4096
param BM = 128 in [64, 128, 256], BN = 128, BK = 32
schedule gemm for linalg.matmul(M, N, K) on sm_90 {
  mm = findOp("linalg.matmul")
  tileForGrids(mm, [BM, BN])
  tile(mm, [0, 0, BK])
  promote(mm, [0, 1])             # A and B through shared memory
  parallelizeForThreads(mm, [16, 16])
  vectorize()
  bufferize()
}
`;

export function scheduleOf(text: string): { decl: ScheduleDecl; env: ReturnType<typeof scheduleEnvFromFile> } {
  const r = parse(text);
  assert.deepEqual(r.diagnostics, []);
  const decl = r.file.decls.find((d): d is ScheduleDecl => d.kind === 'Schedule')!;
  return { decl, env: scheduleEnvFromFile(r.file, 'gemm.layout') };
}

export function exampleSpec(): ScheduleSpec {
  const { decl, env } = scheduleOf(EXAMPLE);
  const r = fromAst(decl, env);
  assert.deepEqual(r.diagnostics, []);
  return r.spec!;
}

export const CPU_SPEC: ScheduleSpec = {
  name: 'mm_cpu', op: 'linalg.matmul', sizes: [128, 128, 128], elementType: 'f32', target: 'cpu',
  source: { file: 'cpu.layout', block: 'mm_cpu' },
  steps: [
    { primitive: 'findOp', handle: 'mm', op: 'linalg.matmul' },
    { primitive: 'fuse', handle: 'mm', sizes: [8, 32, 0] },
    { primitive: 'tile', handle: 'mm', sizes: [0, 0, 16] },
    { primitive: 'unroll', handle: 'mm', factor: 2 },
    { primitive: 'vectorize' },
    { primitive: 'bufferize' },
  ],
};

