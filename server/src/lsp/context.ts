// What every feature adapter gets: the open documents, their analysed snapshots, the settings and
// the client's capabilities.
import type { Connection, TextDocuments } from 'vscode-languageserver';
import type { WorkspaceIndex } from './workspace-index.js';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { DocumentHistory, LayoutDocument } from '../service/document.js';
import { ChunkedParser, type ChunkedParse } from '../service/chunks.js';
import type { SharedParse } from './analysis-runner.js';
import { lookersOf } from '../../../grammar/src/resolve.js';
import type { Settings } from '../service/settings.js';
import type { DiagnosticsScheduler } from './diagnostics.js';

export interface ClientSupport {
  snippets: boolean;
  markdown: boolean;
  hierarchicalSymbols: boolean;
  showDocument: boolean;
  applyEdit: boolean;
  createFiles: boolean;
  inlayHintRefresh: boolean;
  codeLensRefresh: boolean;
  semanticTokensRefresh: boolean;
  /** the client takes a completion list's default edit range (`completionList.itemDefaults` has `editRange`) */
  completionEditRange?: boolean;
  /** the client takes a completion list's default `data` (`completionList.itemDefaults` has `data`) */
  completionData?: boolean;
  /** the client resolves a completion item's detail and documentation lazily (`completionItem.resolveSupport`) */
  completionResolve?: boolean;
  /** client-side commands the client declared in `initializationOptions.clientCommands` (protocol.ts) */
  clientCommands?: ReadonlySet<string>;
}

export interface ServerContext {
  connection: Connection;
  documents: TextDocuments<TextDocument>;
  settings(): Settings;
  client: ClientSupport;
  /** absolute paths of the workspace folders */
  workspaceFolders(): string[];
  scheduler: DiagnosticsScheduler;
  /** the workspace folders' `.layout` files, for workspace/symbol (workspace-index.ts) */
  workspaceIndex?: WorkspaceIndex;
  /** the analysed snapshot of an open document's current version */
  snapshot(uri: string): { doc: TextDocument; model: LayoutDocument } | undefined;
}

/**
 * Keeps one LayoutDocument per open document, rebuilt when the version changes; its parse
 * re-uses the previous version's (a ChunkedParser per document), its name resolution and
 * elaborated models the earlier versions' (a DocumentHistory per document).
 */
export class SnapshotCache {
  private readonly cache = new Map<string, LayoutDocument>();
  private readonly parsers = new Map<string, { parser: ChunkedParser; history: DocumentHistory }>();

  get(doc: TextDocument): LayoutDocument {
    const hit = this.cache.get(doc.uri);
    if (hit && hit.version === doc.version) return hit;
    let p = this.parsers.get(doc.uri);
    if (!p) this.parsers.set(doc.uri, (p = { parser: new ChunkedParser(), history: new DocumentHistory() }));
    const fresh = new LayoutDocument(doc.uri, doc.version, doc.getText(), p.parser, p.history);
    this.cache.set(doc.uri, fresh);
    return fresh;
  }

  /**
   * The parse of `doc`'s current version and its name resolution, from its snapshot (made now if they
   * were not yet), for the
   * in-process analysis (analysis-runner.ts `SharedParse`): the snapshots' parsers are chunked parsers,
   * so the parse has the chunks the analysis matches with its kept ones.
   */
  sharedParse(doc: TextDocument): SharedParse {
    const snapshot = this.get(doc);
    const history = this.parsers.get(doc.uri)!.history;
    return {
      parse: snapshot.parseResult as ChunkedParse,
      resolution: snapshot.symbols.resolution,
      claim: () => void snapshot.parseResult,
      afterFirstStage: () => void lookersOf(history.resolveCache),
    };
  }

  delete(uri: string): void {
    this.cache.delete(uri);
    this.parsers.delete(uri);
    clearTimeout(this.waiting.get(uri));
    this.waiting.delete(uri);
  }

  private readonly waiting = new Map<string, NodeJS.Timeout>();

  /**
   * Builds the snapshot of `version` (its parse and name resolution: the whole file for a document
   * just opened, only what an edit changed for a later version) once the document has stayed at
   * that version for `idleMs`, so that a request that comes later finds it ready; a version edited
   * again before then is not built ahead (a request builds what it needs itself). `current` gives
   * the document then (none once closed).
   */
  prepare(uri: string, version: number, current: () => TextDocument | undefined, idleMs: number): void {
    clearTimeout(this.waiting.get(uri));
    const timer = setTimeout(() => {
      if (this.waiting.get(uri) !== timer) return;
      this.waiting.delete(uri);
      const doc = current();
      if (!doc || doc.version !== version || this.cache.get(uri)?.version === doc.version) return;
      try {
        void this.get(doc).symbols;
      } catch {
        /* a request on it reports the failure */
      }
    }, idleMs);
    timer.unref();
    this.waiting.set(uri, timer);
  }
}
