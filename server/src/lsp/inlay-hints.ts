// textDocument/inlayHint: after each query, the expression it generates (setting: on/off, max length).
import { InlayHintKind, type InlayHint, type InlayHintParams } from 'vscode-languageserver';
import { inlayHints as hints } from '../service/inlay-hints.js';
import type { ServerContext } from './context.js';
import { fromRange } from './convert.js';

export function inlayHints(ctx: ServerContext, p: InlayHintParams): InlayHint[] | null {
  const s = ctx.snapshot(p.textDocument.uri);
  if (!s) return null;
  const settings = ctx.settings();
  if (!settings.inlayHints.enabled) return [];
  const range = fromRange(s.doc, p.range);
  return hints(s.model, range, settings).map((h) => ({
    position: s.doc.positionAt(h.offset),
    label: h.label,
    kind: InlayHintKind.Type,
    paddingLeft: true,
    ...(h.tooltip ? { tooltip: h.tooltip } : {}),
  }));
}
