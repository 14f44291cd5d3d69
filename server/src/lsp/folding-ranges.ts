// textDocument/foldingRange: kernel and schedule blocks, multi-line declarations, comment runs.
import { FoldingRangeKind, type FoldingRange, type FoldingRangeParams } from 'vscode-languageserver';
import { foldingRanges as folds } from '../service/folding.js';
import type { ServerContext } from './context.js';

export function foldingRanges(ctx: ServerContext, p: FoldingRangeParams): FoldingRange[] | null {
  const s = ctx.snapshot(p.textDocument.uri);
  if (!s) return null;
  return folds(s.model.file, s.model.text, s.model.lines).map((f) => ({
    startLine: f.startLine,
    endLine: f.endLine,
    ...(f.kind === 'comment' ? { kind: FoldingRangeKind.Comment } : {}),
  }));
}
