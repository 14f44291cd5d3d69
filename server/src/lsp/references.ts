// textDocument/references: every use of a name in its file (names are file-local).
import type { Location, ReferenceParams } from 'vscode-languageserver';
import { references as findReferences } from '../service/navigation.js';
import type { ServerContext } from './context.js';
import { toRange } from './convert.js';

export function references(ctx: ServerContext, p: ReferenceParams): Location[] | null {
  const s = ctx.snapshot(p.textDocument.uri);
  if (!s) return null;
  return findReferences(s.model, s.doc.offsetAt(p.position), p.context.includeDeclaration).map((r) => ({
    uri: p.textDocument.uri,
    range: toRange(s.doc, r),
  }));
}
