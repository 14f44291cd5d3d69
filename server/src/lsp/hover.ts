// textDocument/hover.
import { MarkupKind, type Hover, type HoverParams } from 'vscode-languageserver';
import { hover as describe } from '../service/hover.js';
import { markdownToPlain } from '../service/plain-text.js';
import type { ServerContext } from './context.js';
import { toRange } from './convert.js';

export function hover(ctx: ServerContext, p: HoverParams): Hover | null {
  const s = ctx.snapshot(p.textDocument.uri);
  if (!s) return null;
  const h = describe(s.model, s.doc.offsetAt(p.position), ctx.settings());
  if (!h) return null;
  return {
    contents: ctx.client.markdown ? { kind: MarkupKind.Markdown, value: h.markdown } : { kind: MarkupKind.PlainText, value: markdownToPlain(h.markdown) },
    range: toRange(s.doc, h.range),
  };
}
