// Hover text for layouts and queries, from the elaborated model (check/elaborate.ts).
import type * as ast from '../../../grammar/src/ast.js';
import type { LayoutDocument } from './document.js';
import type { Settings } from './settings.js';
import type { SymbolDef } from './symbols.js';

export function layoutHover(_doc: LayoutDocument, _def: SymbolDef, _settings: Settings): string | undefined {
  return undefined;
}

export function queryHover(_doc: LayoutDocument, _q: ast.IndexExpr | ast.MethodCall, _settings: Settings, _component?: number): string | undefined {
  return undefined;
}
