// Starts the bundled language server (dist/server.js) over IPC, restarts it when it dies (with a visible
// message, and not in a crash loop), and reflects its state in the status bar. The server's own commands
// (`layout.emit`, run from its code lenses and source actions) get their answer shown (emit.ts).
import * as vscode from 'vscode';
import { existsSync } from 'node:fs';
import { CloseAction, ErrorAction, LanguageClient, State, TransportKind } from 'vscode-languageclient/node';
import type { LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';
import { serverEnvironment } from './server-env.js';
import { EMIT_COMMAND, SHOW_LAYOUT_COMMAND, type LayoutInitializationOptions } from '../../server/src/lsp/protocol.js';
import { RestartPolicy } from './restart-policy.js';
import type { ServerStatus } from './status.js';
import { UNTRUSTED_EMIT, checkEmitArgs, visibleLenses } from './command-args.js';
import { emitFailed, presentEmit } from './emit.js';
import { notify } from './notify.js';

export const CLIENT_ID = 'layout';
export const CLIENT_NAME = 'Layout Language Server';

export class LayoutServer implements vscode.Disposable {
  client: LanguageClient | undefined;
  private readonly policy = new RestartPolicy();
  private stopping = false;
  private readyWaiters: (() => void)[] = [];

  constructor(
    private readonly ctx: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly status: ServerStatus,
  ) {}

  get serverModule(): string {
    return this.ctx.asAbsolutePath('dist/server.js');
  }

  async start(): Promise<void> {
    const module = this.serverModule;
    if (!existsSync(module)) {
      const msg = `The Layout language server is missing (${module}); build it with "npm run build".`;
      this.log.error(msg);
      this.status.set('error', msg);
      void notify('error', msg);
      return;
    }
    const env = serverEnvironment(process.env);
    // over stdio, not IPC: there the server frames and reads its input itself (transport.ts), and its
    // analysis stops a slice for a message that came (InputWatch): a request waits one step of it
    const serverOptions: ServerOptions = {
      run: { module, transport: TransportKind.stdio, options: { env } },
      debug: { module, transport: TransportKind.stdio, options: { env, execArgv: ['--nolazy', '--inspect=6011'] } },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: 'file', language: 'layout' },
        { scheme: 'untitled', language: 'layout' },
      ],
      synchronize: { configurationSection: 'layout' },
      // the client-side commands the server's code lenses may call (other editors get no "Show layout" lens)
      initializationOptions: { clientCommands: [SHOW_LAYOUT_COMMAND] } satisfies LayoutInitializationOptions,
      outputChannel: this.log,
      traceOutputChannel: this.log,
      middleware: {
        // `layout.codeLens.enabled`; no emit lenses where emitting is off (an untrusted workspace)
        provideCodeLenses: async (document, token, next) => {
          const enabled = vscode.workspace.getConfiguration('layout', document.uri).get<boolean>('codeLens.enabled', true);
          if (!enabled) return [];
          return visibleLenses(await next(document, token), enabled, vscode.workspace.isTrusted);
        },
        // a code lens or source action runs `layout.emit` as a VS Code command: show what it wrote
        executeCommand: async (command, args, next) => {
          if (command === EMIT_COMMAND && !vscode.workspace.isTrusted) {
            void notify('info', UNTRUSTED_EMIT);
            return undefined;
          }
          const emitArgs = command === EMIT_COMMAND ? checkEmitArgs(args[0]) : undefined;
          if (!emitArgs) return next(command, args);
          let answer: unknown;
          try {
            answer = await next(command, args);
          } catch (err) {
            emitFailed(emitArgs, err, this.log);
            return undefined;
          }
          return presentEmit(emitArgs, answer, this.log, (forced) => next(command, [forced, ...args.slice(1)]));
        },
      },
      errorHandler: {
        error: (error, _message, count) => {
          this.log.error(`connection to the language server: ${error.message} (${count ?? 1} in a row)`);
          return (count ?? 1) <= 3 ? { action: ErrorAction.Continue, handled: true } : { action: ErrorAction.Shutdown };
        },
        closed: () => {
          if (this.stopping) return { action: CloseAction.DoNotRestart, handled: true };
          const d = this.policy.onCrash();
          if (d.restart) {
            this.log.warn(d.message);
            this.status.set('starting', d.message);
            void notify('warning', d.message);
            return { action: CloseAction.Restart, handled: true };
          }
          this.log.error(d.message);
          this.status.set('error', d.message);
          void notify('error', d.message, 'Restart', 'Show Output').then((choice) => {
            if (choice === 'Restart') void vscode.commands.executeCommand('layout.restartServer');
            else if (choice === 'Show Output') this.log.show(true);
          });
          return { action: CloseAction.DoNotRestart, handled: true };
        },
      },
    };
    const client = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
    this.client = client;
    client.onDidChangeState((e) => {
      if (e.newState === State.Starting) this.status.set('starting');
      else if (e.newState === State.Running) {
        this.status.set('ready');
        for (const w of this.readyWaiters.splice(0)) w();
      } else if (e.newState === State.Stopped && this.status.state !== 'error') {
        this.status.set(this.stopping ? 'stopped' : 'error');
      }
    });
    this.status.set('starting');
    try {
      await client.start();
      this.log.info(`language server started: ${module}`);
    } catch (err) {
      const msg = `The Layout language server failed to start: ${(err as Error)?.message ?? String(err)}`;
      this.log.error(msg);
      this.status.set('error', msg);
      void notify('error', msg, 'Show Output').then((c) => c && this.log.show(true));
    }
  }

  /** Resolves once the server runs (at once if it does), or rejects after `timeoutMs`. */
  whenReady(timeoutMs = 20_000): Promise<LanguageClient> {
    const c = this.client;
    if (c && c.state === State.Running) return Promise.resolve(c);
    if (this.status.state === 'error' || this.status.state === 'stopped') {
      return Promise.reject(new Error(`the Layout language server is not running (${this.status.state})`));
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the Layout language server is not running')), timeoutMs);
      this.readyWaiters.push(() => {
        clearTimeout(timer);
        resolve(this.client!);
      });
    });
  }

  /** Asks VS Code to fetch the code lenses again (after `layout.codeLens.enabled` or the workspace trust changed). */
  refreshCodeLenses(): void {
    const c = this.client;
    if (!c || c.state !== State.Running) return;
    const feature = c.getFeature('textDocument/codeLens');
    for (const ed of vscode.window.visibleTextEditors) {
      if (ed.document.languageId === 'layout') feature.getProvider(ed.document)?.onDidChangeCodeLensEmitter.fire();
    }
  }

  async request(method: string, params: unknown): Promise<unknown> {
    const c = await this.whenReady();
    return c.sendRequest(method, params);
  }

  /** "Layout: Restart Language Server": a fresh process and a clean crash count. */
  async restart(): Promise<void> {
    this.policy.reset();
    this.log.info('restarting the language server');
    await this.stop();
    await this.start();
  }

  async stop(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    if (!c) return;
    this.stopping = true;
    try {
      if (c.needsStop()) await c.stop(5_000);
    } catch (err) {
      this.log.warn(`stopping the language server: ${(err as Error)?.message ?? String(err)}`);
    } finally {
      this.stopping = false;
      this.status.set('stopped');
    }
  }

  dispose(): void {
    void this.stop();
  }
}
