// Schedule blocks: what each PEAK primitive means, the plain-data form of a schedule
// (`ScheduleSpec`, shared with codegen), and the checks of issue "Language server" (codes
// `schedule/...`, listed in docs/diagnostics.md). Pure data in, diagnostics as data out.
//
//   schedule gemm for linalg.matmul(M, N, K) on sm_90 {
//     mm = findOp("linalg.matmul")
//     tileForGrids(mm, [BM, BN])        # grid of blocks, BM x BN outputs each
//     tile(mm, [0, 0, BK])              # K loop
//     promote(mm, [0, 1])               # A and B tiles in shared memory
//     parallelizeForThreads(mm, [16, 16])
//     vectorize()
//     bufferize()
//   }
//
// Phases, one file each: `ops.ts` (payload ops and primitives), `spec.ts` (the plain-data schedule),
// `values.ts` (argument values, read from the elaborated model), `resolve.ts`, `copy.ts` and
// `simulate.ts`, `candidates.ts`. The hover text of a step is in service/schedule-hover.ts.
// Three stages: `resolveSchedule` turns the AST into a `ScheduleSpec` (numbers, no expressions)
// and reports malformed steps; `analyzeSchedule` simulates the steps on the payload's iteration
// space (tile extents, grid, threads, shared memory) and reports what is wrong with them;
// `checkSchedule` runs both for the parameters' values and again for every tuning candidate.
export {
  PAYLOAD_OPS, PRIMITIVES, isPrimitive, lookupPayloadOp,
  type PayloadOperand, type PayloadOpInfo, type Primitive, type PrimitiveInfo,
} from './ops.js';
export { ELEMENT_BYTES, type ElementType, type ScheduleSpec, type ScheduleStepSpec } from './spec.js';
export {
  argValues, scheduleEnvFromFile, scheduleEnvOf,
  type ArgValues, type EvalResult, type ScheduleEnv,
} from './values.js';
export { resolveSchedule, type ResolveOptions, type ResolveResult } from './resolve.js';
export { copyMapping, type CopyMapping } from './copy.js';
export {
  analyzeSchedule,
  type AnalyzeOptions, type AnalyzeResult, type PromotedOperand, type SchedulePlan, type StepFacts,
} from './simulate.js';
export { checkSchedule, tunableParamsOf } from './candidates.js';
