// Public API of the layout algebra (docs/algebra.md). Imports only server/src/expr.
export * from './types.js';
export {
  type Env, type Prepared, applyNum, invNum, applyTable, prepare, applyPrepared, invPrepared, evalDim,
} from './numeric.js';
export { type KeyItem, type SliceKey, type SymContext, applySym, invSym, slice } from './symbolic.js';
export { type GenPCheck, type CheckBudget, type GenPProgress, checkGenP, DEFAULT_CHECK_POINTS } from './genp-check.js';
export { type SizeProblem, type Where, type LayoutClass, sizeMismatches, classify } from './checks.js';
export { structureKey, structureSymbols, exprKey } from './structure.js';
export { type NumFn, compileNum } from './compile.js';
export { bruteTable, bruteInverse } from './reference.js';
