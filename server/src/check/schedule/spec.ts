// The plain-data form of a schedule (`ScheduleSpec`, shared with codegen): every parameter replaced by
// its value, with the source ranges the checks point at.
import type { Range } from '../../../../grammar/src/ast.js';
import type { Primitive } from './ops.js';

export type ElementType = 'f32' | 'f16';
export const ELEMENT_BYTES: Readonly<Record<ElementType, number>> = { f32: 4, f16: 2 };

/** One step with its arguments resolved to numbers. */
export interface ScheduleStepSpec {
  primitive: Primitive;
  /** the handle argument; for findOp the handle it binds */
  handle?: string;
  /** findOp's op name */
  op?: string;
  /** tile / fuse / tileForGrids sizes, parallelizeForThreads thread counts */
  sizes?: number[];
  /** promote's operand indices */
  operands?: number[];
  /** unroll's factor */
  factor?: number;
  /** source ranges, when the step came from a file: the whole step, the primitive name, each argument, each list item */
  range?: Range;
  primitiveRange?: Range;
  argRanges?: Range[];
  itemRanges?: Range[];
}

/** A schedule with every parameter replaced by its value: the input of the MLIR emitter. */
export interface ScheduleSpec {
  /** the block's name; also the payload function's name */
  name: string;
  /** payload op, a key of PAYLOAD_OPS */
  op: string;
  /** problem sizes in the op's dimension order (M, N, K for linalg.matmul) */
  sizes: number[];
  /** element type of every operand (default f32) */
  elementType: ElementType;
  /** a key of TARGETS: `sm_90`, ..., or `cpu` */
  target: string;
  steps: ScheduleStepSpec[];
  /** named in the header comment of generated files */
  source?: { file?: string; block: string };
  ranges?: { decl?: Range; name?: Range; op?: Range; sizes?: Range[]; target?: Range };
}
