// textDocument/signatureHelp: constructors, methods, min/max, user perms and PEAK primitives.
import { MarkupKind, type SignatureHelp, type SignatureHelpParams } from 'vscode-languageserver';
import { signatureHelp as help } from '../service/signature-help.js';
import type { ServerContext } from './context.js';

export function signatureHelp(ctx: ServerContext, p: SignatureHelpParams): SignatureHelp | null {
  const s = ctx.snapshot(p.textDocument.uri);
  if (!s) return null;
  const h = help(s.model, s.doc.offsetAt(p.position));
  if (!h) return null;
  // parameter labels as [start, end) offsets into the label, found left to right
  let at = h.label.indexOf('(') + 1;
  const parameters = h.parameters.map((x) => {
    const i = h.label.indexOf(x.label, at);
    const label: [number, number] = i >= 0 ? [i, i + x.label.length] : [0, 0];
    if (i >= 0) at = i + x.label.length;
    return { label, documentation: x.documentation };
  });
  return {
    signatures: [{
      label: h.label,
      documentation: ctx.client.markdown ? { kind: MarkupKind.Markdown, value: h.documentation } : h.documentation,
      parameters,
      activeParameter: h.activeParameter,
    }],
    activeSignature: 0,
    activeParameter: h.activeParameter,
  };
}
