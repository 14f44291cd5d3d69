// textDocument/prepareRename and textDocument/rename. Keywords and built-in names are refused;
// a rename that would clash with another name in scope is refused with the reason.
import { ResponseError, ErrorCodes, type PrepareRenameParams, type Range, type RenameParams, type WorkspaceEdit } from 'vscode-languageserver';
import { prepareRename as prepare, rename as doRename } from '../service/navigation.js';
import type { ServerContext } from './context.js';
import { toEdit, toRange } from './convert.js';

export function prepareRename(ctx: ServerContext, p: PrepareRenameParams): { range: Range; placeholder: string } | null {
  const s = ctx.snapshot(p.textDocument.uri);
  if (!s) return null;
  const r = prepare(s.model, s.doc.offsetAt(p.position));
  if ('error' in r) throw new ResponseError(ErrorCodes.InvalidRequest, r.error);
  return { range: toRange(s.doc, r.range), placeholder: r.placeholder };
}

export function rename(ctx: ServerContext, p: RenameParams): WorkspaceEdit | null {
  const s = ctx.snapshot(p.textDocument.uri);
  if (!s) return null;
  const r = doRename(s.model, s.doc.offsetAt(p.position), p.newName);
  if ('error' in r) throw new ResponseError(ErrorCodes.InvalidRequest, r.error);
  return { changes: { [p.textDocument.uri]: r.edits.map((e) => toEdit(s.doc, e)) } };
}
