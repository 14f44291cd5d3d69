// Public API of the symbolic integer expression layer (imports nothing else of ours).
//
// - Expressions are immutable, canonical after construction (sums of monomials with integer
//   coefficients, like terms collected, deterministic term order; floorDiv/mod/min/max/cmp/
//   select normalised), and compared structurally by `equals` (their `key`).
//   Constructors assume a non-constant divisor is non-zero (`floorDiv(N*a, N)` is `a`).
// - `evaluate` is exact (bigint, Python floor semantics) and raises EvalError for unbound
//   symbols, division by zero, aranges and any value beyond 2^53 in magnitude.
// - `simplify` is deterministic and sound under the facts: LEGO's rules A1-A6 and B/C, with
//   side conditions proven by bounds reasoning (reasoner.ts), case analysis on min/max and
//   divisibility relations such as `K % BK == 0`.
// - Printers choose the factored or expanded layout with fewer operations (`countOps` counts
//   exactly what they print). C/Triton/MLIR use truncating `/`,`%` only where the simplifier
//   proved non-negativity, else exact floor forms (print-text.ts, print-mlir.ts).
export type { Expr, CmpOp } from './node.js';
export { childrenOf } from './node.js';
export { int, sym, add, sub, mul, neg, floorDiv, mod, min, max, arange, bit } from './build.js';
export type { BitOp } from './node.js';
export { cmp, and, or, not, select } from './logic.js';
export { EvalError, evaluate, equals, freeSymbols, substitute, broadcastAranges, hasArange, EVAL_LIMIT } from './eval.js';
export { type Facts, simplify, simplifyAll, proveNonNeg } from './simplify.js';
export { countOps, PrintError } from './ptree.js';
export { BudgetError, withBudget, withInterrupt, spend } from './budget.js';
export { printC, printPython, printTriton } from './print-text.js';
export { printMlir } from './print-mlir.js';
export { type SharedText, type SharedOptions, printShared, countOpsShared } from './shared.js';
