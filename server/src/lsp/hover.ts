// textDocument/hover.
import { MarkupKind, type Hover, type HoverParams } from 'vscode-languageserver';
import { hover as describe } from '../service/hover.js';
import type { ServerContext } from './context.js';
import { toRange } from './convert.js';

export function hover(ctx: ServerContext, p: HoverParams): Hover | null {
  const s = ctx.snapshot(p.textDocument.uri);
  if (!s) return null;
  const h = describe(s.model, s.doc.offsetAt(p.position), ctx.settings());
  if (!h) return null;
  return {
    contents: { kind: ctx.client.markdown ? MarkupKind.Markdown : MarkupKind.PlainText, value: h.markdown },
    range: toRange(s.doc, h.range),
  };
}
