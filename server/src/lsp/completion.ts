// textDocument/completion: keywords, constructors and primitives as snippets, names in scope, methods after `.`.
// completionItem/resolve: an item's detail and documentation, where the client resolves them lazily.
import {
  CompletionItemKind,
  InsertTextFormat,
  MarkupKind,
  type ClientCapabilities,
  type CompletionItem,
  type CompletionList,
  type CompletionParams,
} from 'vscode-languageserver';
import { completion as complete, type CompletionEntry, type CompletionKind } from '../service/completion.js';
import type { ClientSupport, ServerContext } from './context.js';
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

/** What the client says of completion lists (`ClientSupport`'s completion fields). */
export function completionSupport(caps: ClientCapabilities): Pick<ClientSupport, 'completionEditRange' | 'completionData' | 'completionResolve'> {
  const c = caps.textDocument?.completion;
  const defaults = c?.completionList?.itemDefaults ?? [];
  const lazy = c?.completionItem?.resolveSupport?.properties ?? [];
  return {
    completionEditRange: defaults.includes('editRange'),
    completionData: defaults.includes('data'),
    completionResolve: lazy.includes('detail') && lazy.includes('documentation'),
  };
}

/**
 * The lists whose items' detail and documentation wait for completionItem/resolve, the last
 * `KEPT_LISTS` of a connection: each by its number, which the list gives its items as their default
 * `data` where the client takes one (a client without that resolves against the last list), and in
 * each the entries by label (a label met twice in a list has its second item's detail and
 * documentation sent with it).
 */
class DeferredLists {
  private next = 0;
  private readonly lists = new Map<number, Map<string, CompletionEntry>>();

  keep(entries: Map<string, CompletionEntry>): number {
    const id = ++this.next;
    this.lists.set(id, entries);
    if (this.lists.size > KEPT_LISTS) this.lists.delete(id - KEPT_LISTS);
    return id;
  }

  find(data: unknown, label: string): CompletionEntry | undefined {
    return this.lists.get(typeof data === 'number' ? data : this.next)?.get(label);
  }
}

/** How many lists a connection keeps for resolve (an editor resolves the items of the list it shows: its last). */
const KEPT_LISTS = 4;
const deferred = new WeakMap<ServerContext, DeferredLists>();

/**
 * The client resolves detail and documentation lazily (VS Code: the focused item's): a list of
 * 1,900 names at 10,000 lines is 184 KB of JSON with them, 102 KB without, and a name's detail is its
 * declaration's text, which no one reads but for the item in focus.
 */
export function completion(ctx: ServerContext, p: CompletionParams): CompletionList | null {
  const s = ctx.snapshot(p.textDocument.uri);
  if (!s) return null;
  const r = complete(s.model, s.doc.offsetAt(p.position));
  const range = toRange(s.doc, r.replace);
  // every item replaces the same range: said once where the client takes a default (LSP 3.17), its
  // text then `textEditText` or, when absent, the label (a 10,000-line file offers ~1,700 names)
  const byDefault = ctx.client.completionEditRange === true;
  const lazy = ctx.client.completionResolve === true ? new Map<string, CompletionEntry>() : undefined;
  const labels = new Set<string>();
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
    // (a label met before in this list: its details go with it, the first one's are the list's for that label)
    if (lazy === undefined || labels.has(it.label)) withDetails(ctx, item, it);
    else if (it.detail || it.documentation) lazy.set(it.label, it);
    labels.add(it.label);
    return item;
  });
  let data: number | undefined;
  if (lazy !== undefined && lazy.size > 0) {
    let lists = deferred.get(ctx);
    if (!lists) deferred.set(ctx, (lists = new DeferredLists()));
    const id = lists.keep(lazy);
    if (ctx.client.completionData === true) data = id;
  }
  if (!byDefault && data === undefined) return { isIncomplete: false, items };
  return { isIncomplete: false, itemDefaults: { ...(byDefault ? { editRange: range } : {}), ...(data === undefined ? {} : { data }) }, items };
}

/** completionItem/resolve: the item with its detail and documentation (unchanged when its list is no longer kept). */
export function resolveCompletion(ctx: ServerContext, item: CompletionItem): CompletionItem {
  const entry = deferred.get(ctx)?.find(item.data, item.label);
  return entry === undefined ? item : withDetails(ctx, { ...item }, entry);
}

function withDetails(ctx: ServerContext, item: CompletionItem, it: CompletionEntry): CompletionItem {
  if (it.detail) item.detail = it.detail;
  if (it.documentation) item.documentation = ctx.client.markdown ? { kind: MarkupKind.Markdown, value: it.documentation } : it.documentation;
  return item;
}
