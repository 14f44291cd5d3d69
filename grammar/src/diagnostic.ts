// Diagnostics as plain data, shared by the grammar and check layers.
// Ranges are UTF-16 offsets; the LSP layer converts them to line/character.
import type { Range } from './ast.js';

export type Severity = 'error' | 'warning' | 'information' | 'hint';

export interface RelatedInfo {
  message: string;
  range: Range;
}

/** A suggested edit, applied as a quick fix by the LSP layer. */
export interface Fix {
  title: string;
  edits: { range: Range; newText: string }[];
}

export interface Diagnostic {
  /** stable code, e.g. `parse/expected-token`, `name/undefined`, `size/tile-not-divisible` (see docs/diagnostics.md) */
  code: string;
  severity: Severity;
  message: string;
  range: Range;
  related?: RelatedInfo[];
  fixes?: Fix[];
  /** `unnecessary` renders as faded text (unused declarations) */
  tags?: ('unnecessary' | 'deprecated')[];
}
