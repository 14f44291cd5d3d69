// textDocument/formatting: whitespace-only edits to the canonical style; none on a file with syntax errors.
import type { DocumentFormattingParams, TextEdit } from 'vscode-languageserver';
import { format } from '../service/format.js';
import type { ServerContext } from './context.js';
import { toEdit } from './convert.js';

export function formatting(ctx: ServerContext, p: DocumentFormattingParams): TextEdit[] {
  const s = ctx.snapshot(p.textDocument.uri);
  if (!s) return [];
  // one canonical style: the editor's tab size does not change it
  const r = format(s.model);
  if ('refused' in r) return [];
  return r.edits.map((e) => toEdit(s.doc, e));
}
