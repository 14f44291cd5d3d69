// A black-box LSP client for protocol-level tests: spawns the bundled server
// (`node dist/server.js --stdio`), speaks JSON-RPC through vscode-languageserver-protocol,
// records every `publishDiagnostics` and answers the server's own requests
// (workspace/configuration, workspace/applyEdit, registrations, refreshes).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { statSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type InitializeResult,
  type Position,
  type Range,
  type TextDocumentContentChangeEvent,
  type ApplyWorkspaceEditParams,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';

export const root = resolve(import.meta.dirname, '../..');
export const serverPath = join(root, 'dist/server.js');

let built: boolean | undefined;
/** Builds dist/server.js once per test process (the server entry is the first the build script writes). */
export function buildServer(): void {
  if (built) return;
  const started = Date.now();
  const r = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, encoding: 'utf8' });
  let mtime = 0;
  try { mtime = statSync(serverPath).mtimeMs; } catch { /* not built */ }
  if (mtime < started - 1000) throw new Error(`building dist/server.js failed:\n${r.stderr}${r.stdout}`);
  built = true;
}

/** Removes `$0` … `$9` markers; returns the clean text and each marker's offset. */
export function markers(src: string): { text: string; at: Record<string, number>; offset: number } {
  const at: Record<string, number> = {};
  let text = '';
  let i = 0;
  while (i < src.length) {
    if (src[i] === '$' && /[0-9]/.test(src[i + 1] ?? '')) {
      at[src[i + 1]] = text.length;
      i += 2;
    } else text += src[i++];
  }
  return { text, at, offset: at['0'] ?? -1 };
}

/** line/character of a UTF-16 offset in `text`. */
export function pos(text: string, offset: number): Position {
  return TextDocument.create('x:', 'layout', 0, text).positionAt(offset);
}
/** The LSP range of `text.slice(start, end)`. */
export function rng(text: string, start: number, end: number): Range {
  const d = TextDocument.create('x:', 'layout', 0, text);
  return { start: d.positionAt(start), end: d.positionAt(end) };
}
/** The range of the `n`-th (0-based) occurrence of `needle` in `text`. */
export function rangeOf(text: string, needle: string, n = 0): Range {
  let at = -1;
  for (let k = 0; k <= n; k++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`'${needle}' (occurrence ${n}) not in text`);
  }
  return rng(text, at, at + needle.length);
}

export interface StartOptions {
  /** the `layout` settings section the client answers workspace/configuration with */
  settings?: Record<string, unknown>;
  /** a folder to open as the workspace; a fresh temporary one by default */
  workspace?: string;
  /** answer workspace/configuration at all (false: the client lacks the capability) */
  configuration?: boolean;
  extraArgs?: string[];
  /** `initializationOptions` of the initialize request (the VS Code client sends `{ clientCommands: [...] }`) */
  initializationOptions?: unknown;
  /** extra environment variables for the server process */
  env?: Record<string, string>;
  /** `completionList.itemDefaults` the client takes (VS Code: editRange, insertTextFormat, ...) */
  completionItemDefaults?: string[];
  /** the completion item properties the client resolves lazily (`completionItem.resolveSupport`; VS Code: documentation, detail, additionalTextEdits) */
  completionResolve?: string[];
}

interface Waiter {
  match: (p: PublishDiagnosticsParams) => boolean;
  resolve: (p: PublishDiagnosticsParams) => void;
}

export class LspClient {
  readonly published: PublishDiagnosticsParams[] = [];
  readonly appliedEdits: ApplyWorkspaceEditParams[] = [];
  readonly configRequests: number[] = [];
  readonly refreshes: string[] = [];
  /** what the server registered dynamically (client/registerCapability) */
  readonly registrations: { method: string; registerOptions?: unknown }[] = [];
  readonly messages: { type: number; message: string }[] = [];
  settings: Record<string, unknown>;
  initializeResult!: InitializeResult;
  readonly workspace: string;
  private waiters: Waiter[] = [];
  private stderr = '';

  private constructor(
    readonly proc: ChildProcess,
    readonly conn: ProtocolConnection,
    opts: StartOptions,
    workspace: string,
  ) {
    this.settings = opts.settings ?? {};
    this.workspace = workspace;
    proc.stderr!.on('data', (d: Buffer) => { this.stderr += d.toString(); });
  }

  static async start(opts: StartOptions = {}): Promise<LspClient> {
    buildServer();
    const workspace = opts.workspace ?? realpathSync(mkdtempSync(join(tmpdir(), 'layout-lsp-')));
    const proc = spawn(process.execPath, [serverPath, '--stdio', ...(opts.extraArgs ?? [])], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...(opts.env ?? {}) },
    });
    const conn = createProtocolConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
    const c = new LspClient(proc, conn, opts, workspace);
    conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      c.published.push(p);
      c.waiters = c.waiters.filter((w) => {
        if (!w.match(p)) return true;
        w.resolve(p);
        return false;
      });
    });
    conn.onNotification('window/logMessage', () => undefined);
    conn.onNotification('window/showMessage', (p: { type: number; message: string }) => { c.messages.push(p); });
    conn.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) => {
      c.configRequests.push(Date.now());
      return p.items.map((it) => (it.section === 'layout' ? c.settings : null));
    });
    conn.onRequest('workspace/applyEdit', (p: ApplyWorkspaceEditParams) => {
      c.appliedEdits.push(p);
      return { applied: true };
    });
    conn.onRequest('client/registerCapability', (p: { registrations: { method: string; registerOptions?: unknown }[] }) => {
      c.registrations.push(...p.registrations);
      return null;
    });
    conn.onRequest('window/workDoneProgress/create', () => null);
    for (const m of ['workspace/inlayHint/refresh', 'workspace/codeLens/refresh', 'workspace/semanticTokens/refresh']) {
      conn.onRequest(m, () => { c.refreshes.push(m); return null; });
    }
    conn.listen();
    const configuration = opts.configuration ?? true;
    c.initializeResult = await conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(workspace).href,
      workspaceFolders: [{ uri: pathToFileURL(workspace).href, name: 'ws' }],
      ...(opts.initializationOptions !== undefined ? { initializationOptions: opts.initializationOptions } : {}),
      capabilities: {
        workspace: {
          configuration,
          didChangeConfiguration: { dynamicRegistration: true },
          didChangeWatchedFiles: { dynamicRegistration: true },
          applyEdit: true,
          workspaceEdit: { documentChanges: true, resourceOperations: ['create'] },
          inlayHint: { refreshSupport: true },
          codeLens: { refreshSupport: true },
          workspaceFolders: true,
        },
        textDocument: {
          synchronization: { dynamicRegistration: false },
          completion: { completionItem: { snippetSupport: true, ...(opts.completionResolve ? { resolveSupport: { properties: opts.completionResolve } } : {}) }, ...(opts.completionItemDefaults ? { completionList: { itemDefaults: opts.completionItemDefaults } } : {}) },
          hover: { contentFormat: ['markdown', 'plaintext'] },
          publishDiagnostics: { relatedInformation: true, versionSupport: true, tagSupport: { valueSet: [1, 2] } },
          rename: { prepareSupport: true },
          documentSymbol: { hierarchicalDocumentSymbolSupport: true },
          codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source'] } } },
        },
      },
    });
    conn.sendNotification('initialized', {});
    return c;
  }

  uri(name: string): string {
    return pathToFileURL(join(this.workspace, name)).href;
  }

  /** Resolves with the diagnostics published for `uri` at `version` (already or next), or the next ones for `uri`. */
  diagnostics(uri: string, version?: number, timeoutMs = 10_000): Promise<PublishDiagnosticsParams> {
    const match = (p: PublishDiagnosticsParams) => p.uri === uri && (version === undefined || p.version === version);
    if (version !== undefined) {
      const already = this.published.find(match);
      if (already) return Promise.resolve(already);
    }
    return this.waitFor(match, timeoutMs, `diagnostics for ${uri} v${version}`);
  }

  /** Resolves with the next publishDiagnostics that satisfies `match`. */
  waitFor(match: (p: PublishDiagnosticsParams) => boolean, timeoutMs = 10_000, what = 'matching diagnostics'): Promise<PublishDiagnosticsParams> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what} in ${timeoutMs} ms; stderr: ${this.stderr}`)), timeoutMs);
      this.waiters.push({ match, resolve: (p) => { clearTimeout(timer); resolve(p); } });
    });
  }

  open(uri: string, text: string, version = 1): Promise<PublishDiagnosticsParams> {
    const p = this.diagnostics(uri, version);
    this.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'layout', version, text } });
    return p;
  }

  /** Sends a didChange without waiting. */
  change(uri: string, version: number, changes: TextDocumentContentChangeEvent[]): void {
    this.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: changes });
  }

  close(uri: string): void {
    this.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  request<R>(method: string, params: unknown): Promise<R> {
    return this.conn.sendRequest(method, params) as Promise<R>;
  }

  changeConfiguration(settings: Record<string, unknown>): void {
    this.settings = settings;
    this.conn.sendNotification('workspace/didChangeConfiguration', { settings: { layout: settings } });
  }

  get serverStderr(): string {
    return this.stderr;
  }

  async stop(): Promise<void> {
    try {
      await Promise.race([this.conn.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
      this.conn.sendNotification('exit');
    } catch { /* already gone */ }
    await new Promise<void>((r) => {
      if (this.proc.exitCode !== null) return r();
      const t = setTimeout(() => { this.proc.kill(); r(); }, 2000);
      this.proc.on('exit', () => { clearTimeout(t); r(); });
    });
    this.conn.dispose();
  }
}
