// The Layout language server: `node dist/server.js --stdio` (or `--node-ipc` under VS Code).
// Wires the LSP connection to one thin adapter per feature; the language knowledge lives in
// server/src/service/. The same bundle is the analysis worker (see analysis-runner.ts).
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import {
  createConnection,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  CodeActionKind,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  ResponseError,
  WatchKind,
  LSPErrorCodes,
  type CancellationToken,
  type ConnectionOptions,
  type RequestMessage,
  type InitializeParams,
  type InitializeResult,
  type Connection,
  type Position,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createRunner, serveAnalysisRequests, workerRole, type AnalysisRunner } from './analysis-runner.js';
import { lowerThreadPriority, WORKER_NICE } from './thread-priority.js';
import { FrameReader, FrameWriter, InputWatch, OutputWatch, Resync } from './transport.js';
import { HoverPriming } from './hover-priming.js';
import { SnapshotCache, type ClientSupport, type ServerContext } from './context.js';
import { firstStage } from '../service/incremental-move.js';
import { warmMainFirstStage, warmUpMainThread } from './warm-main.js';
import { warmUp } from './warm-up.js';
import { DiagnosticsScheduler, EARLY_STAGE_MIN_CHARS as DEFAULT_EARLY_STAGE_MIN_CHARS } from './diagnostics.js';
import { SettingsStore } from './settings.js';
import { documentSymbols } from './document-symbols.js';
import { workspaceSymbols } from './workspace-symbols.js';
import { FileChange, WorkspaceIndex } from './workspace-index.js';
import { foldingRanges } from './folding-ranges.js';
import { definition } from './definition.js';
import { references } from './references.js';
import { documentHighlights } from './document-highlights.js';
import { prepareRename, rename } from './rename.js';
import { semanticTokens, semanticTokensDelta, semanticTokensRange, legend } from './semantic-tokens.js';
import { formatting } from './formatting.js';
import { completion, completionSupport, resolveCompletion } from './completion.js';
import { signatureHelp } from './signature-help.js';
import { codeActions } from './code-actions.js';
import { hover } from './hover.js';
import { inlayHints } from './inlay-hints.js';
import { codeLenses } from './code-lens.js';
import { executeEmit } from './emit.js';
import { picture } from './picture.js';
import { EMIT_COMMAND, PICTURE_REQUEST, type LayoutInitializationOptions } from './protocol.js';
import { commandLine } from './command-line.js';
import { compactingCollection, configureHeap, IdleCompaction, MAIN_COLLECT_BOUNDS, MAIN_IDLE_COLLECT_MS, mainThreadCollection, sizeMainYoungGeneration, usedHeapBytes } from './heap.js';

/**
 * How long after a version's diagnostics are published (with no edit since) the main thread builds
 * its snapshot ahead of requests: at once (a timer, so that waiting messages go first).
 */
const PREPARE_IDLE_MS = 0;
/**
 * The main thread's warm-up (warm-main.ts) waits until a document's complete diagnostics are
 * published, or this long after `initialize` is answered: a client opens its first documents then,
 * and a warm-up step under way would hold back their analysis (a first open of 500 lines took 30-70
 * ms with it, 11-15 ms once the server had settled).
 */
const MAIN_WARM_UP_DELAY_MS = Number(process.env.LAYOUT_MAIN_WARM_UP_DELAY_MS ?? 1000);
/**
 * The main thread's first-stage warm-up (warm-main.ts `warmMainFirstStage`) starts this long after
 * `initialize` is answered: a client that opens its documents at once sends the didOpen with
 * `initialized`, and it must not wait behind a cold first step.
 */
const FIRST_STAGE_WARM_UP_DELAY_MS = 20;
/**
 * ... and runs only once the client has sent nothing (no request, no change) and nothing was
 * published for this long: a step (1-3 ms once warm) started between two messages of a burst (a
 * client's requests after an open, keystrokes) would hold the next one back.
 */
const MAIN_WARM_UP_QUIET_MS = 50;
/** How often the main thread looks whether it is quiet enough to size its young generation (ms). */
const SIZE_POLL_MS = 10;
/**
 * A request on a just-opened document waits at most this long for the document's first diagnostics
 * (diagnostics.ts `untilFirstPublish`): the worker's first stage takes some 10 ms at 2,000 lines and
 * 90 ms at 20,000 once it is up, and the main thread's first stage (while the worker loads) 20-60 ms.
 */
const FIRST_PUBLISH_WAIT_MS = 300;
/** A full analysis that runs longer than this is stopped (the file gets its syntax diagnostics and a note). */
const ANALYSIS_TIMEOUT_MS = envInt('LAYOUT_ANALYSIS_TIMEOUT_MS', 20_000);
/** After this long, a running analysis's syntax and name diagnostics are published meanwhile. */
const INTERIM_AFTER_MS = envInt('LAYOUT_INTERIM_AFTER_MS', 1500);
/** A just-opened file of at least this many characters gets its syntax and name diagnostics first (diagnostics.ts). */
const EARLY_STAGE_MIN_CHARS = envInt('LAYOUT_EARLY_STAGE_MIN_CHARS', DEFAULT_EARLY_STAGE_MIN_CHARS);

function envInt(name: string, dflt: number): number {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : dflt;
}

if (!isMainThread && (workerData as { role?: string } | undefined)?.role === workerRole) {
  const posted = (workerData as { jobPosted?: SharedArrayBuffer }).jobPosted;
  const collect = compactingCollection();
  // background work: below the main thread, which answers requests (thread-priority.ts)
  lowerThreadPriority(process.env.LAYOUT_WORKER_NICE !== undefined ? Number(process.env.LAYOUT_WORKER_NICE) : WORKER_NICE);
  serveAnalysisRequests(parentPort!, { ...(posted ? { jobPosted: new Int32Array(posted) } : {}), ...(collect ? { compaction: new IdleCompaction(collect) } : {}) });
} else if (isMainThread) {
  const cl = commandLine(process.argv.slice(2));
  if (cl.action === 'serve') {
    configureHeap();
    const collect = mainThreadCollection();
    // the main thread's young generation is sized once it is quiet after `initialize`; it collects its heap once idle (heap.ts)
    const stdio = stdioRequested() ? resilientStdioConnection() : undefined;
    startServer(stdio?.connection ?? createConnection(ProposedFeatures.all, connectionOptions()), {
      initialized: sizeMainYoungGeneration,
      ...(collect ? { collect } : {}),
      ...(stdio ? { input: stdio.watch, output: new OutputWatch(process.stdout) } : {}),
    });
  } else {
    if (cl.stdout) process.stdout.write(cl.stdout);
    if (cl.stderr) process.stderr.write(cl.stderr);
    process.exitCode = cl.code;
  }
}

/**
 * `$/cancelRequest` for a request still queued (the main thread was busy when both arrived): answered
 * RequestCancelled at once, without running it.
 */
function connectionOptions(): ConnectionOptions {
  return {
    connectionStrategy: {
      cancelUndispatched: (m) => ({ jsonrpc: '2.0', id: (m as RequestMessage).id ?? null, error: { code: LSPErrorCodes.RequestCancelled, message: 'the request was cancelled before it ran' } }),
    },
  };
}

/** `initializationOptions.clientCommands` (protocol.ts LayoutInitializationOptions): the strings in it. */
function clientCommandsOf(options: unknown): ReadonlySet<string> {
  const list = (options as LayoutInitializationOptions | null | undefined)?.clientCommands;
  return new Set(Array.isArray(list) ? list.filter((c): c is string => typeof c === 'string') : []);
}

function stdioRequested(): boolean {
  return process.argv.includes('--stdio');
}

/**
 * `--stdio` with framing that survives a broken frame (transport.ts): a wrong Content-Length, a
 * missing header or junk is dropped, logged on stderr, and reading resumes at the next header. `watch`
 * tells the analysis that a message came that is not answered yet (transport.ts `InputWatch`).
 */
function resilientStdioConnection(): { connection: Connection; watch: InputWatch } {
  // Resync hands each message it framed (and parsed) to our reader: parsed once, handed on at once
  const reader = new FrameReader();
  // (the watch is made below: a frame comes on a later turn)
  const input = process.stdin.pipe(new Resync((m) => process.stderr.write(m + '\n'), () => watch.framed(), (m) => reader.deliver(m)));
  const watch = new InputWatch(0, process.stdin, input);
  // the input's end ends the server, as the library does for its own --stdio: exit code 0 after a
  // `shutdown` request, else 1
  const ended = (): void => {
    reader.close();
    process.exit(reader.shutdownRequested ? 0 : 1);
  };
  process.stdin.on('end', ended);
  process.stdin.on('close', ended);
  // As for the library's own --stdio, nothing but protocol messages may reach stdout. The writer is
  // ours too (transport.ts: each message written at once).
  const connection = createConnection(ProposedFeatures.all, reader, new FrameWriter(process.stdout), connectionOptions());
  const remote = connection.console;
  console.log = console.debug = (...a: unknown[]) => remote.log(a.map(String).join(' '));
  console.info = (...a: unknown[]) => remote.info(a.map(String).join(' '));
  console.warn = (...a: unknown[]) => remote.warn(a.map(String).join(' '));
  console.error = (...a: unknown[]) => remote.error(a.map(String).join(' '));
  return { connection, watch };
}

/** The bundle's own path, when running bundled (the worker runs the same file). */
function bundlePath(): string | undefined {
  try {
    const f = typeof __filename === 'string' ? __filename : undefined;
    return f && f.endsWith('.js') ? f : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `initialized`: called once the `initialize` answer is out, before the analysis worker starts.
 * `collect`: the main thread's full collection, run once it is idle (`MAIN_IDLE_COLLECT_MS` after the
 * last request, document change or publish, and no analysis running: the worker's whole-file
 * analysis lets the heap grow freely, heap.ts) if what its heap holds grew (`MAIN_COLLECT_BOUNDS`).
 */
export function startServer(connection: Connection, options: { initialized?: () => void; collect?: () => void; input?: InputWatch; output?: OutputWatch } = {}): void {
  const idleCollection = options.collect ? new IdleCompaction(options.collect, MAIN_IDLE_COLLECT_MS, usedHeapBytes, MAIN_COLLECT_BOUNDS, () => ctx?.scheduler.busy() ?? false) : undefined;
  /** when the last request, document change or publish came (the main thread's warm-up waits for a quiet moment) */
  let lastActivity = 0;
  /** an analysis runs or waits, or a message came or went less than `MAIN_WARM_UP_QUIET_MS` ago (background work waits) */
  const busy = (): boolean => ctx.scheduler.busy() || performance.now() - lastActivity < MAIN_WARM_UP_QUIET_MS;
  const activity = () => {
    lastActivity = performance.now();
    idleCollection?.idle();
  };
  const documents = new TextDocuments(TextDocument);
  const snapshots = new SnapshotCache();
  let settings!: SettingsStore;
  let folders: string[] = [];
  let client!: ClientSupport;
  let ctx!: ServerContext;
  let settingsReady: Promise<void> = Promise.resolve();
  const workspaceIndex = new WorkspaceIndex();
  let watchFilesDynamically = false;
  let signalReady: () => void = () => undefined;
  // The full analysis runs on this thread, a slice of about 4 ms at a time between the requests
  // (analysis-runner.ts `InProcessRunner`), and reads the parse and name resolution of the document's
  // snapshot, which the requests read too: one parse per version, one heap. With the analysis in a
  // worker thread (its own isolate and its own parse of every version, the design until then), the
  // bench's ratios to mlir-lsp-server-22 (bench/lsp-vs-mlir.ts, the same run): RSS after the run 1.4x
  // -> 1.0x at 2,000 lines and 1.7x -> 1.2x at 20,000 (208 -> 143 MB); didOpen 200 ms after
  // `initialize` -> first diagnostics 8.4x -> 4.3x at 2,000 lines and 3.6x -> 3.1x at 20,000; the
  // complete diagnostics of a 20,000-line open 2.95 -> 2.22 s; hover right after an edit p50 5.5 ->
  // 3.2 ms at 2,000 lines. LAYOUT_ANALYSIS_THREAD=worker runs it in the worker instead (the worker
  // then starts with the server, before `initialize`, and warms up there: warm-up.ts).
  const inWorker = process.env.LAYOUT_ANALYSIS_THREAD === 'worker';
  // A slice ends early, and the next one waits, while a message that came is not answered, or an
  // answer written is still on its way out (`options.input`, `options.output`: transport.ts
  // `InputWatch`, `OutputWatch`).
  const { input, output } = options;
  const inputWaiting = input || output ? () => (input?.waiting() ?? false) || (output?.pending() ?? false) : undefined;
  const runner: AnalysisRunner = createRunner(inWorker ? bundlePath() : undefined, ANALYSIS_TIMEOUT_MS, undefined, (job) => {
    const doc = documents.get(job.uri);
    return doc && doc.version === job.version ? snapshots.sharedParse(doc) : undefined;
  }, inputWaiting);
  runner.start();
  // the hovers of the layouts near where the user works, computed when the server is idle (hover-priming.ts)
  const priming = process.env.LAYOUT_HOVER_PRIME === '0' ? undefined : new HoverPriming({
    snapshot: (uri) => {
      const doc = documents.get(uri);
      return doc ? { version: doc.version, model: snapshots.get(doc) } : undefined;
    },
    settings: () => settings.get(),
    busy,
    ...(inputWaiting ? { inputWaiting } : {}),
  });
  /** some document's complete diagnostics were published (the main thread's warm-up may start) */
  let published = false;

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const caps = params.capabilities;
    client = {
      snippets: caps.textDocument?.completion?.completionItem?.snippetSupport === true,
      ...completionSupport(caps),
      markdown: caps.textDocument?.hover?.contentFormat?.includes('markdown') ?? false,
      hierarchicalSymbols: caps.textDocument?.documentSymbol?.hierarchicalDocumentSymbolSupport === true,
      showDocument: caps.window?.showDocument?.support === true,
      applyEdit: caps.workspace?.applyEdit === true,
      createFiles: caps.workspace?.workspaceEdit?.resourceOperations?.includes('create') === true,
      inlayHintRefresh: caps.workspace?.inlayHint?.refreshSupport === true,
      codeLensRefresh: caps.workspace?.codeLens?.refreshSupport === true,
      semanticTokensRefresh: caps.workspace?.semanticTokens?.refreshSupport === true,
      clientCommands: clientCommandsOf(params.initializationOptions),
    };
    folders = (params.workspaceFolders ?? []).map((f) => uriToPath(f.uri)).filter((p): p is string => !!p);
    if (folders.length === 0 && params.rootUri) {
      const p = uriToPath(params.rootUri);
      if (p) folders = [p];
    }
    settings = new SettingsStore(connection, caps.workspace?.configuration === true);
    watchFilesDynamically = caps.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    // analyses wait for the first settings pull (at most 2 s: a client that never answers must not stop them)
    settingsReady = new Promise<void>((resolve) => {
      signalReady = resolve;
      setTimeout(resolve, 2000).unref();
    });
    const scheduler = new DiagnosticsScheduler({
      connection,
      runner,
      document: (uri) => documents.get(uri),
      settings: () => settings.get(),
      timeoutMs: ANALYSIS_TIMEOUT_MS,
      interimAfterMs: INTERIM_AFTER_MS,
      earlyMinChars: EARLY_STAGE_MIN_CHARS,
      ready: settingsReady,
      // while the worker loads its code, the first stage of a just-opened document comes from this thread's snapshot
      firstStage: (job) => {
        const doc = documents.get(job.uri);
        if (!doc || doc.version !== job.version) return undefined;
        const m = snapshots.get(doc);
        return firstStage(m.parseDiagnostics, m.symbols.resolution.diagnostics);
      },
      onPublished: (uri, version) => {
        published = true;
        activity();
        snapshots.prepare(uri, version, () => documents.get(uri), PREPARE_IDLE_MS);
        priming?.published(uri, version);
      },
    });
    ctx = {
      connection,
      documents,
      settings: () => settings.get(),
      client,
      workspaceFolders: () => folders,
      scheduler,
      workspaceIndex,
      snapshot(uri) {
        const doc = documents.get(uri);
        return doc ? { doc, model: snapshots.get(doc) } : undefined;
      },
    };
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        hoverProvider: true,
        completionProvider: { triggerCharacters: ['.'], resolveProvider: true },
        signatureHelpProvider: { triggerCharacters: ['(', ','], retriggerCharacters: [','] },
        definitionProvider: true,
        referencesProvider: true,
        documentHighlightProvider: true,
        renameProvider: { prepareProvider: true },
        documentSymbolProvider: { label: 'Layout' },
        workspaceSymbolProvider: true,
        semanticTokensProvider: { legend, full: { delta: true }, range: true },
        documentFormattingProvider: true,
        foldingRangeProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.Source] },
        codeLensProvider: { resolveProvider: false },
        inlayHintProvider: true,
        executeCommandProvider: { commands: [EMIT_COMMAND] },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'layout-language-server', version: '0.1.0' },
    };
  });

  connection.onInitialized(() => {
    // the main thread's young generation is sized (heap.ts: 15-20 ms of forced scavenges) once it is
    // quiet (no message for 50 ms, no analysis running or waiting), not at `initialized`, which an
    // editor sends with its first didOpen: fresh servers, didOpen sent with `initialized`, builds side
    // by side, p50 of 9: first diagnostics at 500 lines 29.3 -> 18.5 ms, 2,000 lines 51 -> 48, 20,000
    // lines the same (214 / 219); didOpen 200 ms later the same (500 lines 5.1 / 4.2, 20,000 152 / 149)
    const size = options.initialized;
    if (size) {
      const sizeWhenQuiet = (): void => {
        if (!busy()) size();
        else setTimeout(sizeWhenQuiet, SIZE_POLL_MS).unref();
      };
      setTimeout(sizeWhenQuiet, SIZE_POLL_MS).unref();
    }
    void settings.refresh().finally(() => signalReady());
    // the request path's code compiled before the first request (warm-main.ts), paused while
    // diagnostics are being computed (publishing them needs the main thread)
    const initializedAt = performance.now();
    // first, until a document is opened, what a small document's open needs of this thread (warm-main.ts);
    // a little later, so that a didOpen sent with `initialized` does not wait for a cold first step
    setTimeout(() => warmMainFirstStage(() => published || documents.all().length > 0), FIRST_STAGE_WARM_UP_DELAY_MS).unref();
    warmUpMainThread(() => busy() || (!published && performance.now() - initializedAt < MAIN_WARM_UP_DELAY_MS));
    // the build's code-cache run (scripts/build.mjs, bootstrap.ts): the worker's warm-up here too, so
    // that the cache holds the analysis code compiled, not only the request path's
    if (process.env.LAYOUT_WRITE_CODE_CACHE) warmUp(() => false);
    // the workspace symbol index: one scan off the request path, then file-change notifications
    workspaceIndex.setFolders(folders);
    if (watchFilesDynamically) {
      void connection.client.register(DidChangeWatchedFilesNotification.type, {
        watchers: [{ globPattern: '**/*.layout' }, { globPattern: '**/*', kind: WatchKind.Delete }],
      }).catch(() => undefined);
    }
    try {
      connection.workspace.onDidChangeWorkspaceFolders((e) => {
        const removed = new Set(e.removed.map((f) => uriToPath(f.uri)));
        folders = folders.filter((f) => !removed.has(f));
        for (const f of e.added) {
          const p = uriToPath(f.uri);
          if (p && !folders.includes(p)) folders.push(p);
        }
        workspaceIndex.setFolders(folders);
      });
    } catch {
      /* the client does not send folder changes */
    }
  });

  connection.onDidChangeConfiguration(async (p) => {
    await settings.refresh(p.settings);
    reanalyzeAll();
    if (client.inlayHintRefresh) void connection.languages.inlayHint.refresh().catch(() => undefined);
    if (client.codeLensRefresh) void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
  });

  function reanalyzeAll(): void {
    for (const d of documents.all()) ctx.scheduler.update(d, true);
  }

  documents.onDidOpen((e) => ctx.scheduler.update(e.document, true));
  // The main thread builds a version's snapshot ahead of requests (SnapshotCache.prepare) once its
  // complete diagnostics are published (PREPARE_IDLE_MS): after an edit that is the changed
  // declarations' parse and name resolution (kept chunks move in place, chunks.ts), about a
  // millisecond, so a hover that comes later finds the version ready; built while the worker
  // analyses the version, a first whole-file parse would compete with it. A request that comes
  // before builds it itself.
  documents.onDidChangeContent((e) => {
    activity();
    // onDidChangeContent also fires on open; the open handler already scheduled that version
    if (e.document.version !== openedVersion.get(e.document.uri)) ctx.scheduler.update(e.document);
  });
  const openedVersion = new Map<string, number>();
  documents.onDidOpen((e) => openedVersion.set(e.document.uri, e.document.version));
  connection.onDidChangeWatchedFiles((p) => {
    for (const c of p.changes) {
      const file = uriToPath(c.uri);
      if (file) workspaceIndex.update(file, c.type === FileChangeType.Deleted ? FileChange.Deleted : FileChange.Changed);
    }
  });
  // a client that does not watch files still saves and closes documents: their files are read again
  const reindex = (uri: string) => {
    const file = uriToPath(uri);
    if (file) workspaceIndex.update(file, FileChange.Changed);
  };
  documents.onDidSave((e) => reindex(e.document.uri));
  documents.onDidClose((e) => {
    reindex(e.document.uri);
    openedVersion.delete(e.document.uri);
    snapshots.delete(e.document.uri);
    ctx.scheduler.close(e.document.uri);
    priming?.forget(e.document.uri);
  });

  /** a request's position (or its range's start: an editor asks for inlay hints in the visible range) is where hovers are primed first */
  const primeNear = (uri: string, p: unknown): void => {
    const at = (p as { position?: Position }).position ?? (p as { range?: { start?: Position } }).range?.start;
    const doc = at && priming ? documents.get(uri) : undefined;
    if (doc && at) priming?.focusAt(uri, doc.offsetAt(at));
  };

  const safe = <P, R>(name: string, f: (ctx: ServerContext, p: P) => R | Promise<R>, fallback: R) => async (p: P, token?: CancellationToken): Promise<R> => {
    // cancelled while it waited behind other work on this thread: answer that, do not compute
    if (token?.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'the request was cancelled');
    // a request on a document just opened waits for its first diagnostics (diagnostics.ts `untilFirstPublish`)
    const uri = (p as { textDocument?: { uri?: unknown } } | undefined)?.textDocument?.uri;
    const first = typeof uri === 'string' ? ctx.scheduler.untilFirstPublish(uri, FIRST_PUBLISH_WAIT_MS) : undefined;
    if (first) {
      await first;
      if (token?.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'the request was cancelled');
    }
    activity();
    if (typeof uri === 'string') primeNear(uri, p);
    try {
      return await f(ctx, p);
    } catch (e) {
      if (e instanceof ResponseError) throw e;
      connection.console.error(`${name} failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
      return fallback;
    }
  };

  connection.onHover(safe('hover', hover, null));
  connection.onCompletion(safe('completion', completion, null));
  // through `safe` as every request (activity for the idle collection; on an error the item as it came)
  connection.onCompletionResolve((item, token) => safe('completionResolve', resolveCompletion, item)(item, token));
  connection.onSignatureHelp(safe('signatureHelp', signatureHelp, null));
  connection.onDefinition(safe('definition', definition, null));
  connection.onReferences(safe('references', references, null));
  connection.onDocumentHighlight(safe('documentHighlight', documentHighlights, null));
  connection.onPrepareRename(safe('prepareRename', prepareRename, null));
  connection.onRenameRequest(safe('rename', rename, null));
  connection.onDocumentSymbol(safe('documentSymbol', documentSymbols, null));
  connection.onWorkspaceSymbol(safe('workspaceSymbol', workspaceSymbols, []));
  connection.languages.semanticTokens.on(safe('semanticTokens', semanticTokens, { data: [] }));
  connection.languages.semanticTokens.onDelta(safe('semanticTokensDelta', semanticTokensDelta, { data: [] }));
  connection.languages.semanticTokens.onRange(safe('semanticTokensRange', semanticTokensRange, { data: [] }));
  connection.onDocumentFormatting(safe('formatting', formatting, []));
  connection.onFoldingRanges(safe('foldingRange', foldingRanges, null));
  connection.onCodeAction(safe('codeAction', codeActions, null));
  connection.onCodeLens(safe('codeLens', codeLenses, null));
  connection.languages.inlayHint.on(safe('inlayHint', inlayHints, null));
  connection.onExecuteCommand(safe('executeCommand', executeEmit, null));
  connection.onRequest(PICTURE_REQUEST, safe('picture', picture, null));

  connection.onShutdown(() => ctx?.scheduler.dispose());
  documents.listen(connection);
  connection.listen();
}

function uriToPath(uri: string): string | undefined {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
}
