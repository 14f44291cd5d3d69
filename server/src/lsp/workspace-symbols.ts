// workspace/symbol: declarations of the open documents (their current snapshots) and of the `.layout`
// files in the workspace folders, from the WorkspaceIndex (workspace-index.ts: scanned once off the request
// path, then kept current by file-change notifications); no disk walk per request. Open documents win
// over their files on disk.
import { fileURLToPath } from 'node:url';
import type { SymbolInformation, WorkspaceSymbolParams } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { flatSymbols, fuzzyMatch, type FlatSymbol } from '../service/outline.js';
import type { ServerContext } from './context.js';
import { symbolKinds } from './document-symbols.js';
import { toRange } from './convert.js';

const MAX_RESULTS = 1000;
/** A request made while the initial scan runs waits for it at most this long, then answers with what is indexed. */
const SCAN_WAIT_MS = 1000;

export async function workspaceSymbols(ctx: ServerContext, p: WorkspaceSymbolParams): Promise<SymbolInformation[]> {
  if (ctx.workspaceIndex) await ctx.workspaceIndex.ready(SCAN_WAIT_MS);
  const out: SymbolInformation[] = [];
  const add = (uri: string, doc: TextDocument, symbols: FlatSymbol[]) => {
    for (const s of symbols) {
      if (out.length >= MAX_RESULTS) return;
      if (!fuzzyMatch(p.query, s.name)) continue;
      out.push({ name: s.name, kind: symbolKinds[s.kind], location: { uri, range: toRange(doc, s.range) }, ...(s.container ? { containerName: s.container } : {}) });
    }
  };
  const open = new Set<string>();
  for (const doc of ctx.documents.all()) {
    const s = ctx.snapshot(doc.uri);
    if (!s) continue;
    open.add(doc.uri.startsWith('file:') ? safePath(doc.uri) ?? doc.uri : doc.uri);
    add(doc.uri, s.doc, flatSymbols(s.model.file, s.model.text));
  }
  if (!ctx.workspaceIndex) return out;
  for (const [file, entry] of [...ctx.workspaceIndex.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    if (open.has(file)) continue;
    add(entry.doc.uri, entry.doc, entry.symbols);
  }
  return out;
}

function safePath(uri: string): string | undefined {
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}
