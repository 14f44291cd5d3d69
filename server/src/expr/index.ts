// Public API of the symbolic integer expression layer. Imports nothing else of ours.
export type { Expr, CmpOp } from './node.js';
export {
  int,
  sym,
  add,
  sub,
  mul,
  neg,
  floorDiv,
  mod,
  min,
  max,
  cmp,
  and,
  or,
  not,
  select,
  arange,
} from './build.js';
export { EvalError, evaluate, equals, freeSymbols, substitute, EVAL_LIMIT } from './eval.js';
export { type Facts, simplify } from './simplify.js';
export { countOps } from './ptree.js';
export { printC, printPython, printTriton, PrintError } from './print-text.js';
export { printMlir } from './print-mlir.js';
