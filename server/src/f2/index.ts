// Public API of the F2 layer (docs/linear-layouts.md): linear layouts over F2 à la Triton.
// Imports nothing of ours.
export * from './bits.js';
export * from './matrix.js';
export * from './layout.js';
export * from './triton.js';
export * from './banks.js';
export * from './swizzle.js';
export * from './print.js';
export * from './classify.js';
