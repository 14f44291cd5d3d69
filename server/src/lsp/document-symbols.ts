// textDocument/documentSymbol: the outline, with children (perm parameters, kernel bindings, schedule steps).
import { SymbolKind, type DocumentSymbol, type DocumentSymbolParams, type SymbolInformation } from 'vscode-languageserver';
import { outline, type OutlineItem, type OutlineKind } from '../service/outline.js';
import type { LayoutDocument } from '../service/document.js';
import type { ServerContext } from './context.js';
import { Positions } from './convert.js';

export const symbolKinds: Record<OutlineKind, SymbolKind> = {
  param: SymbolKind.Constant,
  const: SymbolKind.Constant,
  let: SymbolKind.Variable,
  layout: SymbolKind.Struct,
  perm: SymbolKind.Function,
  permParam: SymbolKind.TypeParameter,
  permIndex: SymbolKind.Variable,
  kernel: SymbolKind.Module,
  binding: SymbolKind.Variable,
  schedule: SymbolKind.Namespace,
  step: SymbolKind.Event,
};

export function documentSymbols(ctx: ServerContext, p: DocumentSymbolParams): DocumentSymbol[] | SymbolInformation[] | null {
  const s = ctx.snapshot(p.textDocument.uri);
  if (!s) return null;
  return symbolsOf(p.textDocument.uri, s.model, ctx.client.hierarchicalSymbols);
}

/** The outline of `model` (the snapshot of the document at `uri`) as LSP symbols: nested, or flat for a client that takes no hierarchy. */
export function symbolsOf(uri: string, model: LayoutDocument, hierarchical: boolean): DocumentSymbol[] | SymbolInformation[] {
  const items = outline(model.file, model.text);
  // the items come in file order: their positions found one after the other over the parse's line starts
  const at = new Positions(model.text, model.lines);
  if (!hierarchical) {
    const flat: SymbolInformation[] = [];
    const add = (it: OutlineItem, container?: string) => {
      flat.push({ name: it.name, kind: symbolKinds[it.kind], location: { uri, range: at.range(it.selectionRange) }, containerName: container });
      for (const c of it.children) add(c, it.name);
    };
    items.forEach((it) => add(it));
    return flat;
  }
  return items.map((it) => toSymbol(at, it));
}

function toSymbol(at: Positions, it: OutlineItem): DocumentSymbol {
  // the selection range must lie inside the range
  const start = Math.min(it.range.start, it.selectionRange.start);
  const end = Math.max(it.range.end, it.selectionRange.end);
  const sym: DocumentSymbol = {
    name: it.name,
    detail: it.detail,
    kind: symbolKinds[it.kind],
    range: at.range({ start, end }),
    selectionRange: at.range(it.selectionRange),
  };
  // `children` is optional: a leaf (most of a large file's symbols) goes without `"children":[]`
  if (it.children.length > 0) sym.children = it.children.map((c) => toSymbol(at, c));
  return sym;
}
