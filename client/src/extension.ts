// The VS Code extension: a thin launcher for the Layout language server plus a few commands.
// Language knowledge lives in the server; this file only wires VS Code to it.
import * as vscode from 'vscode';
import { emit } from './emit.js';
import { LayoutServer } from './server.js';
import { ServerStatus } from './status.js';
import { PicturePanel } from './picture/panel.js';
import type { PictureRequester, PictureState } from './picture/panel.js';
import { SHOW_LAYOUT_COMMAND } from '../../server/src/lsp/protocol.js';
import type { EmitResult, EmitTarget } from '../../server/src/lsp/protocol.js';
import type { ServerState } from './status.js';
import { parseShowLayoutArg } from './command-args.js';
import { notify, shownMessages } from './notify.js';
import { openExample, registerTasks, trackEmitTargets } from './workspace.js';
import type { ShownMessage } from './notify.js';
import { extendMarkdownIt } from './markdown-fences.js';

/** What `activate` returns: used by the real-VS-Code tests (test/e2e/suite). */
export interface LayoutExtensionApi {
  server: LayoutServer;
  serverState(): ServerState;
  /** the running server's `initialize` capabilities, once it runs */
  capabilities(timeoutMs?: number): Promise<Record<string, unknown>>;
  picture(): { state: PictureState; exportSvg(dest: vscode.Uri): Promise<vscode.Uri | undefined>; onDidRender: vscode.Event<PictureState> } | undefined;
  /** the messages the extension showed lately, oldest first */
  messages(): readonly ShownMessage[];
  /** the Markdown preview's hook (package.json `markdown.markdownItPlugins`): ```layout fences highlighted */
  extendMarkdownIt: typeof extendMarkdownIt;
}

let server: LayoutServer | undefined;

export function activate(ctx: vscode.ExtensionContext): LayoutExtensionApi {
  const log = vscode.window.createOutputChannel('Layout', { log: true });
  const status = new ServerStatus();
  const srv = new LayoutServer(ctx, log, status);
  server = srv;
  const request = (method: string, params: unknown) => srv.request(method, params);

  const emitCommand = (target: EmitTarget) => (resource?: vscode.Uri): Promise<EmitResult | undefined> => emit(target, srv, log, resource);
  ctx.subscriptions.push(
    log,
    status,
    srv,
    vscode.commands.registerCommand('layout.emitTriton', emitCommand('triton')),
    vscode.commands.registerCommand('layout.emitCuda', emitCommand('cuda')),
    vscode.commands.registerCommand('layout.emitMlir', emitCommand('mlir')),
    vscode.commands.registerCommand(SHOW_LAYOUT_COMMAND, (arg?: unknown) => showLayout(ctx, request, log, arg)),
    vscode.commands.registerCommand('layout.restartServer', () => srv.restart()),
    vscode.commands.registerCommand('layout.showOutput', () => log.show(true)),
    vscode.commands.registerCommand('layout.openExample', () => openExample(ctx)),
    registerTasks(ctx),
    trackEmitTargets(),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('layout.codeLens.enabled')) srv.refreshCodeLenses();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => srv.refreshCodeLenses()),
    { dispose: () => PicturePanel.current?.dispose() },
  );
  void srv.start();

  return {
    server: srv,
    serverState: () => status.state,
    capabilities: async (timeoutMs) => {
      const c = await srv.whenReady(timeoutMs);
      return (c.initializeResult?.capabilities ?? {}) as Record<string, unknown>;
    },
    picture: () => {
      const p = PicturePanel.current;
      return p && { state: p.state, exportSvg: (dest: vscode.Uri) => p.exportSvg(dest), onDidRender: p.onDidRender };
    },
    messages: shownMessages,
    extendMarkdownIt,
  };
}

/**
 * "Layout: Show Layout". `arg`: `{ picture }` draws a given payload (tests); `ShowLayoutArgs` (the server's
 * "Show layout" code lens) draws that layout of that document; anything else (the palette; the editor title
 * menu passes the file's URI) draws the layout at the cursor.
 */
async function showLayout(ctx: vscode.ExtensionContext, request: PictureRequester, log: vscode.LogOutputChannel, arg: unknown): Promise<PictureState | undefined> {
  const what = parseShowLayoutArg(arg);
  if (what.kind === 'payload') return PicturePanel.showPayload(ctx.extensionUri, request, log, what.picture).state;
  if (what.kind === 'layout') {
    let doc: vscode.TextDocument;
    try {
      doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(what.uri, true));
    } catch (err) {
      void notify('warning', `Layout: cannot open ${what.uri} to show ${what.name ?? 'its layout'}: ${(err as Error)?.message ?? String(err)}`);
      return undefined;
    }
    const p = what.position ? doc.validatePosition(new vscode.Position(what.position.line, what.position.character)) : new vscode.Position(0, 0);
    return PicturePanel.show(ctx.extensionUri, request, log, doc, p, what.name).state;
  }
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'layout') {
    void notify('info', 'Layout: open a .layout file and put the cursor on a layout to show it.');
    return undefined;
  }
  return PicturePanel.show(ctx.extensionUri, request, log, editor.document, editor.selection.active).state;
}

export function deactivate(): Promise<void> | undefined {
  return server?.stop();
}
