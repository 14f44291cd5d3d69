// The declarations of the `.layout` files in the workspace folders, for workspace/symbol: one index, filled
// once by a bounded scan that runs off the request path (asynchronous, yielding between files), then kept
// current by `workspace/didChangeWatchedFiles` (created/changed files are re-read, deleted files and folders
// dropped), by saves and closes of open documents, and by workspace folder changes. A request never walks
// the disk; open documents are answered from their current snapshot (workspace-symbols.ts).
import { promises as fsp, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LayoutDocument } from '../service/document.js';
import { flatSymbols, type FlatSymbol } from '../service/outline.js';

/** At most this many files are indexed (the initial scan stops there; later creations are refused too). */
export const MAX_FILES = 2000;
/** Larger files are not indexed. */
export const MAX_FILE_BYTES = 2 * 1024 * 1024;
/** Folders the scan does not enter (and folders whose name starts with `.`). */
const skipDirs = new Set(['node_modules', 'dist', 'out']);

export interface IndexedFile {
  doc: TextDocument;
  symbols: FlatSymbol[];
}

export enum FileChange { Created = 1, Changed = 2, Deleted = 3 }

export class WorkspaceIndex {
  private readonly files = new Map<string, IndexedFile>();
  private folders: string[] = [];
  private generation = 0;
  private scanning: Promise<void> = Promise.resolve();

  /** Paths indexed, sorted. */
  paths(): string[] {
    return [...this.files.keys()].sort();
  }

  entries(): IterableIterator<[string, IndexedFile]> {
    return this.files.entries();
  }

  /** Resolves when the scan of the current folders has finished (or after `timeoutMs`). */
  ready(timeoutMs: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const cap = new Promise<void>((resolve) => { timer = setTimeout(resolve, timeoutMs); });
    return Promise.race([this.scanning, cap]).finally(() => clearTimeout(timer));
  }

  /** Replaces the folders and scans them again (files outside them are dropped). */
  setFolders(folders: readonly string[]): void {
    this.folders = folders.map((f) => path.resolve(f));
    for (const p of [...this.files.keys()]) if (!this.inFolders(p)) this.files.delete(p);
    const generation = ++this.generation;
    this.scanning = this.scan(generation).catch(() => undefined);
  }

  /** A file was created, changed or deleted (a deleted path may be a folder: everything below it goes). */
  update(file: string, change: FileChange): void {
    const p = path.resolve(file);
    if (change === FileChange.Deleted) {
      this.files.delete(p);
      const prefix = p.endsWith(path.sep) ? p : p + path.sep;
      for (const k of [...this.files.keys()]) if (k.startsWith(prefix)) this.files.delete(k);
      return;
    }
    if (!p.endsWith('.layout') || !this.inFolders(p) || this.skipped(p)) return;
    if (!this.files.has(p) && this.files.size >= MAX_FILES) return;
    const entry = this.read(p);
    if (entry) this.files.set(p, entry);
    else this.files.delete(p);
  }

  private inFolders(p: string): boolean {
    return this.folders.some((f) => p === f || p.startsWith(f.endsWith(path.sep) ? f : f + path.sep));
  }

  /** Is `p` below a folder the scan would not enter? */
  private skipped(p: string): boolean {
    const folder = this.folders.find((f) => p.startsWith(f.endsWith(path.sep) ? f : f + path.sep));
    if (!folder) return true;
    const parts = path.relative(folder, p).split(path.sep).slice(0, -1);
    return parts.some((d) => d.startsWith('.') || skipDirs.has(d));
  }

  private read(p: string): IndexedFile | undefined {
    try {
      const st = statSync(p);
      if (!st.isFile() || st.size > MAX_FILE_BYTES) return undefined;
      return this.entry(p, readFileSync(p, 'utf8'));
    } catch {
      return undefined;
    }
  }

  private entry(p: string, text: string): IndexedFile {
    const uri = pathToFileURL(p).href;
    const model = new LayoutDocument(uri, 0, text);
    return { doc: TextDocument.create(uri, 'layout', 0, text), symbols: flatSymbols(model.file, text) };
  }

  /** Breadth first, names sorted, at most MAX_FILES files; yields to the event loop after each folder and file. */
  private async scan(generation: number): Promise<void> {
    const queue = [...this.folders];
    const seen = new Set<string>();
    const stale = () => generation !== this.generation;
    while (queue.length > 0 && this.files.size < MAX_FILES) {
      const dir = queue.shift()!;
      if (seen.has(dir)) continue;
      seen.add(dir);
      let entries;
      try {
        entries = await fsp.readdir(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      if (stale()) return;
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const e of entries) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) {
          if (!skipDirs.has(e.name) && !e.name.startsWith('.')) queue.push(p);
          continue;
        }
        if (!e.isFile() || !e.name.endsWith('.layout') || this.files.has(p)) continue;
        if (this.files.size >= MAX_FILES) break;
        try {
          const st = await fsp.stat(p);
          if (st.size > MAX_FILE_BYTES) continue;
          const text = await fsp.readFile(p, 'utf8');
          // a change notification may have arrived meanwhile: it wins
          if (stale() || this.files.has(p)) continue;
          this.files.set(p, this.entry(p, text));
        } catch {
          /* gone or unreadable: not indexed */
        }
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (stale()) return;
      }
    }
  }
}
