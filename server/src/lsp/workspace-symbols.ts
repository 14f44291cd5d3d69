// workspace/symbol: declarations of the open documents and of the `.layout` files in the workspace
// folders (read from disk, cached by modification time; open documents win over their files).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { SymbolInformation, WorkspaceSymbolParams } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LayoutDocument } from '../service/document.js';
import { flatSymbols, fuzzyMatch, type FlatSymbol } from '../service/outline.js';
import type { ServerContext } from './context.js';
import { symbolKinds } from './document-symbols.js';
import { toRange } from './convert.js';

const MAX_FILES = 2000;
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const MAX_RESULTS = 1000;
const skipDirs = new Set(['node_modules', '.git', 'dist', 'out', '.vscode-test']);

interface CachedFile {
  mtimeMs: number;
  size: number;
  doc: TextDocument;
  symbols: FlatSymbol[];
}
const diskCache = new Map<string, CachedFile>();

export function workspaceSymbols(ctx: ServerContext, p: WorkspaceSymbolParams): SymbolInformation[] {
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
  for (const file of layoutFiles(ctx.workspaceFolders())) {
    if (open.has(file)) continue;
    const c = load(file);
    if (c) add(pathToFileURL(file).href, c.doc, c.symbols);
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

function load(file: string): CachedFile | undefined {
  try {
    const st = statSync(file);
    if (st.size > MAX_FILE_BYTES) return undefined;
    const hit = diskCache.get(file);
    if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit;
    const text = readFileSync(file, 'utf8');
    const uri = pathToFileURL(file).href;
    const model = new LayoutDocument(uri, 0, text);
    const c: CachedFile = { mtimeMs: st.mtimeMs, size: st.size, doc: TextDocument.create(uri, 'layout', 0, text), symbols: flatSymbols(model.file, text) };
    diskCache.set(file, c);
    return c;
  } catch {
    return undefined;
  }
}

/** `.layout` files under the folders, breadth first, at most MAX_FILES. */
export function layoutFiles(folders: string[]): string[] {
  const out: string[] = [];
  const queue = [...folders];
  const seen = new Set<string>();
  while (queue.length && out.length < MAX_FILES) {
    const dir = queue.shift()!;
    if (seen.has(dir)) continue;
    seen.add(dir);
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.isDirectory()) {
        if (!skipDirs.has(e.name) && !e.name.startsWith('.')) queue.push(path.join(dir, e.name));
      } else if (e.isFile() && e.name.endsWith('.layout')) {
        out.push(path.join(dir, e.name));
        if (out.length >= MAX_FILES) break;
      }
    }
  }
  return out;
}
