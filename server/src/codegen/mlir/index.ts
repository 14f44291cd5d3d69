// MLIR code generation: schedules (payload + transform-dialect script, CPU check) and
// layout-driven copy kernels. Pure functions returning strings; tools.ts (not re-exported here)
// runs mlir-opt-22 / mlir-runner-22 on the results.
export { fromAst, type FromAstOptions, type FromAstResult, type ScheduleSpec, type ScheduleStepSpec, type ElementType, type Primitive } from './schedule-spec.js';
export { emitSchedule, emitPayload, stepText, generatedHeader, type EmittedSchedule, type EmitScheduleResult } from './emit-schedule.js';
export { emitCpuCheck, cpuCheckSizes, CPU_CHECK_ENTRY, type CpuCheckResult } from './cpu-check.js';
export {
  emitLayoutCopy, emitLayoutCopyCheck, emitLayoutCopyToGpu, layoutIndex, layoutSize, parseMemrefDump,
  type LayoutCopySpec, type LayoutCopyResult,
} from './layout-kernel.js';
export { applyScheduleArgs, gpuToPtxArgs, GPU_OUTLINE, CPU_LOWERING, stripGpuMemorySpaces, type PtxOptions } from './pipelines.js';
