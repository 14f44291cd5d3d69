// The plain-data form of a schedule (`ScheduleSpec`, shared with codegen): every parameter replaced by
// its value, with the source ranges the checks point at.
import type { Range } from '../../../../grammar/src/ast.js';
import type { Primitive } from './ops.js';

export type ElementType = 'f32' | 'f16' | 'bf16';
export const ELEMENT_BYTES: Readonly<Record<ElementType, number>> = { f32: 4, f16: 2, bf16: 2 };
export const ELEMENT_TYPES: readonly ElementType[] = ['f32', 'f16', 'bf16'];
export function isElementType(s: string): s is ElementType { return (ELEMENT_TYPES as readonly string[]).includes(s); }

/** The output's (accumulator's) element type: `accType`, else the inputs' type. */
export function accTypeOf(spec: { elementType: ElementType; accType?: ElementType }): ElementType {
  return spec.accType ?? spec.elementType;
}

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
  /** unroll's factor; multibuffer's and pipeline's depth */
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
  /** element type of the input operands (A, B); default f32 */
  elementType: ElementType;
  /** element type of the output C, the accumulator (`: f16 x f16 -> f32`); default `elementType` */
  accType?: ElementType;
  /** a key of TARGETS: `sm_90`, ..., or `cpu` */
  target: string;
  steps: ScheduleStepSpec[];
  /** named in the header comment of generated files */
  source?: { file?: string; block: string };
  ranges?: { decl?: Range; name?: Range; op?: Range; sizes?: Range[]; target?: Range; types?: Range };
}
