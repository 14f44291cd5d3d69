// The grammar layer's public API: parse, resolve, positions, token categories, built-in names.
export { parse, type ParseResult, MAX_NESTING, MAX_OPERATORS, MAX_IFS, MAX_CALL_CHAIN, MAX_DIAGNOSTICS, editDistance } from './parse.js';
export { resolve, suggest, MAX_SUGGESTIONS, type Resolution, type Definition, type SymbolKind, type NameUse } from './resolve.js';
export { LineIndex, type Position } from './line-index.js';
export { tokenInfos, categoryOf, type TokenInfo, type TokenCategory } from './token-info.js';
export { KEYWORDS } from './tokens.js';
export { CONSTRUCTORS, FUNCTIONS, PRIMITIVES, QUERY_METHODS, TARGETS } from './builtins.js';
export * as ast from './ast.js';
export type { Diagnostic, Severity, RelatedInfo, Fix } from './diagnostic.js';
