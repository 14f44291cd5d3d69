// textDocument/documentHighlight: the declaration (write) and uses (read) of the name under the cursor.
import { DocumentHighlightKind, type DocumentHighlight, type DocumentHighlightParams } from 'vscode-languageserver';
import { highlights } from '../service/navigation.js';
import type { ServerContext } from './context.js';
import { toRange } from './convert.js';

export function documentHighlights(ctx: ServerContext, p: DocumentHighlightParams): DocumentHighlight[] | null {
  const s = ctx.snapshot(p.textDocument.uri);
  if (!s) return null;
  return highlights(s.model, s.doc.offsetAt(p.position)).map((h) => ({
    range: toRange(s.doc, h.range),
    kind: h.kind === 'write' ? DocumentHighlightKind.Write : DocumentHighlightKind.Read,
  }));
}
