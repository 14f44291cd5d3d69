// textDocument/completion: keywords, constructors and primitives as snippets, names in scope, methods after `.`.
import {
  CompletionItemKind,
  InsertTextFormat,
  MarkupKind,
  type CompletionItem,
  type CompletionList,
  type CompletionParams,
} from 'vscode-languageserver';
import { completion as complete, type CompletionKind } from '../service/completion.js';
import type { ServerContext } from './context.js';
import { toRange } from './convert.js';

const kinds: Record<CompletionKind, CompletionItemKind> = {
  keyword: CompletionItemKind.Keyword,
  constructor: CompletionItemKind.Constructor,
  function: CompletionItemKind.Function,
  method: CompletionItemKind.Method,
  primitive: CompletionItemKind.Function,
  target: CompletionItemKind.EnumMember,
  gpu: CompletionItemKind.EnumMember,
  op: CompletionItemKind.Class,
  param: CompletionItemKind.Constant,
  const: CompletionItemKind.Constant,
  let: CompletionItemKind.Variable,
  linear: CompletionItemKind.Struct,
  layout: CompletionItemKind.Struct,
  perm: CompletionItemKind.Function,
  permParam: CompletionItemKind.TypeParameter,
  permIndex: CompletionItemKind.Variable,
  inverseArg: CompletionItemKind.Variable,
  kernel: CompletionItemKind.Module,
  binding: CompletionItemKind.Variable,
  free: CompletionItemKind.Variable,
  schedule: CompletionItemKind.Module,
  handle: CompletionItemKind.Reference,
};

export function completion(ctx: ServerContext, p: CompletionParams): CompletionList | null {
  const s = ctx.snapshot(p.textDocument.uri);
  if (!s) return null;
  const r = complete(s.model, s.doc.offsetAt(p.position));
  const range = toRange(s.doc, r.replace);
  // every item replaces the same range: said once where the client takes a default (LSP 3.17), its
  // text then `textEditText` or, when absent, the label (a 10,000-line file offers ~1,700 names)
  const byDefault = ctx.client.completionEditRange === true;
  const items: CompletionItem[] = r.items.map((it) => {
    const snippet = ctx.client.snippets && it.snippet !== undefined;
    const newText = snippet ? it.snippet! : it.label;
    const item: CompletionItem = {
      label: it.label,
      kind: kinds[it.kind],
      sortText: `${it.sortText}${it.label}`,
    };
    if (!byDefault) item.textEdit = { range, newText };
    else if (newText !== it.label) item.textEditText = newText;
    // plain text is the protocol's default format: said only for snippets (a 10,000-line file offers ~1,700 plain names)
    if (snippet) item.insertTextFormat = InsertTextFormat.Snippet;
    if (it.detail) item.detail = it.detail;
    if (it.documentation) item.documentation = ctx.client.markdown ? { kind: MarkupKind.Markdown, value: it.documentation } : it.documentation;
    return item;
  });
  return byDefault ? { isIncomplete: false, itemDefaults: { editRange: range }, items } : { isIncomplete: false, items };
}
