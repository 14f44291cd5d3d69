// Inlay hints: after each query in a kernel (`A[pid_m, k, :, :]`, `Pid.inv(pid)`), the expression
// it generates in the hover language, cut to the configured length.
import type * as ast from '../../../grammar/src/ast.js';
import type { LayoutDocument } from './document.js';
import type { Settings } from './settings.js';

export interface InlayHintData {
  offset: number;
  label: string;
  tooltip?: string;
}

export function inlayHints(_doc: LayoutDocument, _range: ast.Range, _settings: Settings): InlayHintData[] {
  return [];
}

/** Cuts `s` to `max` characters with an ellipsis. */
export function clip(s: string, max: number): string {
  return s.length <= max ? s : s.slice(0, Math.max(1, max - 1)) + '…';
}
