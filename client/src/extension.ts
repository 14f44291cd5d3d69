// The VS Code extension: a thin launcher for the Layout language server plus a few commands.
// Language knowledge lives in the server; this file only wires VS Code to it.
import * as vscode from 'vscode';
import { emit } from './emit.js';
import { LayoutServer } from './server.js';
import { ServerStatus } from './status.js';
import { PicturePanel } from './picture/panel.js';
import type { PictureState } from './picture/panel.js';
import type { EmitResult, EmitTarget } from '../../server/src/lsp/protocol.js';
import type { ServerState } from './status.js';

/** What `activate` returns: used by the real-VS-Code tests (test/e2e/suite). */
export interface LayoutExtensionApi {
  server: LayoutServer;
  serverState(): ServerState;
  /** the running server's `initialize` capabilities, once it runs */
  capabilities(timeoutMs?: number): Promise<Record<string, unknown>>;
  picture(): { state: PictureState; exportSvg(dest: vscode.Uri): Promise<vscode.Uri | undefined>; onDidRender: vscode.Event<PictureState> } | undefined;
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
    vscode.commands.registerCommand('layout.showLayout', (arg?: unknown) => {
      // `{ picture }`: draw a given payload (tests); otherwise the layout at the cursor.
      if (typeof arg === 'object' && arg !== null && 'picture' in arg) {
        return PicturePanel.showPayload(ctx.extensionUri, request, log, (arg as { picture: unknown }).picture).state;
      }
      const editor = vscode.window.activeTextEditor;
      if (!editor || editor.document.languageId !== 'layout') {
        void vscode.window.showInformationMessage('Layout: open a .layout file and put the cursor on a layout to show it.');
        return undefined;
      }
      return PicturePanel.show(ctx.extensionUri, request, log, editor.document, editor.selection.active).state;
    }),
    vscode.commands.registerCommand('layout.restartServer', () => srv.restart()),
    vscode.commands.registerCommand('layout.showOutput', () => log.show(true)),
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
  };
}

export function deactivate(): Promise<void> | undefined {
  return server?.stop();
}
