// "Layout: Emit Triton/CUDA/MLIR": asks the server (`workspace/executeCommand` `layout.emit`) to generate code
// for the active file, or for the kernel/schedule block under the cursor. The server's "Emit …" code lenses
// and source actions call `layout.emit` directly; the language client hands their answer to `presentEmit`
// too (see server.ts). Either way, what was written opens beside the source and a message says what was
// written, or why nothing was.
import * as vscode from 'vscode';
import { EMIT_COMMAND } from '../../server/src/lsp/protocol.js';
import type { EmitArgs, EmitResult, EmitTarget } from '../../server/src/lsp/protocol.js';
import { blockAt, checkEmitResult } from './blocks.js';
import type { SymbolLike } from './blocks.js';
import { EMIT_LABEL, UNTRUSTED_EMIT, emitSummary, wrongTargetMessage, type SymbolWithDetail } from './command-args.js';
import { notify } from './notify.js';
import type { LayoutServer } from './server.js';

/** Runs one emit. `resource`: a file picked in the explorer (then the whole file); otherwise the active editor. */
export async function emit(target: EmitTarget, server: LayoutServer, log: vscode.LogOutputChannel, resource?: vscode.Uri): Promise<EmitResult | undefined> {
  if (!vscode.workspace.isTrusted) {
    void notify('info', UNTRUSTED_EMIT);
    return undefined;
  }
  let doc: vscode.TextDocument;
  let block: string | undefined;
  const editor = vscode.window.activeTextEditor;
  try {
    if (resource instanceof vscode.Uri && resource.toString() !== editor?.document.uri.toString()) {
      doc = await vscode.workspace.openTextDocument(resource);
    } else if (editor && editor.document.languageId === 'layout') {
      doc = editor.document;
      const symbols = await vscode.commands.executeCommand<(SymbolLike & SymbolWithDetail)[] | undefined>('vscode.executeDocumentSymbolProvider', doc.uri);
      block = blockAt(symbols, editor.selection.active.line, (n) => doc.lineAt(n).text);
      const wrong = block !== undefined ? wrongTargetMessage(symbols, block, target) : undefined;
      if (wrong) {
        void notify('info', wrong);
        return undefined;
      }
    } else {
      void notify('info', `Layout: open a .layout file to emit ${EMIT_LABEL[target]}.`);
      return undefined;
    }
  } catch (err) {
    void notify('error', `Layout: emitting ${EMIT_LABEL[target]} failed: ${(err as Error)?.message ?? String(err)}`);
    return undefined;
  }
  if (doc.languageId !== 'layout') {
    void notify('info', `Layout: ${vscode.workspace.asRelativePath(doc.uri)} is not a .layout file.`);
    return undefined;
  }
  const args: EmitArgs = { uri: doc.uri.toString(), target, version: doc.version, ...(block ? { block } : {}) };
  let answer: unknown;
  try {
    const client = await server.whenReady();
    answer = await client.sendRequest('workspace/executeCommand', { command: EMIT_COMMAND, arguments: [args] });
  } catch (err) {
    emitFailed(args, err, log);
    return undefined;
  }
  return presentEmit(args, answer, log, async (forced) => (await server.whenReady()).sendRequest('workspace/executeCommand', { command: EMIT_COMMAND, arguments: [forced] }));
}

/** Reports a failed `layout.emit` request. */
export function emitFailed(args: EmitArgs, err: unknown, log: vscode.LogOutputChannel): void {
  const msg = `Layout: emitting ${EMIT_LABEL[args.target]} failed: ${(err as Error)?.message ?? String(err)}`;
  log.error(msg);
  void notify('error', msg);
}

/**
 * Logs the server's answer to `layout.emit`, opens each written file beside the source and says what happened.
 * An emit refused because of errors (`blockedBy`) is shown as an error listing them, with "Emit Anyway"
 * (sends the request again with `force`, through `resend`) and "Show Problems".
 */
export async function presentEmit(args: EmitArgs, answer: unknown, log: vscode.LogOutputChannel, resend?: (forced: EmitArgs) => Promise<unknown>): Promise<EmitResult> {
  const result = checkEmitResult(answer);
  if (result.blockedBy && result.blockedBy.length > 0) {
    const n = result.blockedBy.length;
    for (const b of result.blockedBy) log.warn(`emit ${args.block ?? args.uri} (${EMIT_LABEL[args.target]}) refused: ${b}`);
    const shown = result.blockedBy.slice(0, 3).join('; ') + (n > 3 ? `; and ${n - 3} more` : '');
    const buttons = resend ? ['Emit Anyway', 'Show Problems'] : ['Show Problems'];
    void notify('error', `Layout: nothing emitted for ${args.block ?? vscode.workspace.asRelativePath(vscode.Uri.parse(args.uri))} (${EMIT_LABEL[args.target]}): ${n} error${n === 1 ? '' : 's'}: ${shown}`, ...buttons).then(async (choice) => {
      if (choice === 'Show Problems') await vscode.commands.executeCommand('workbench.actions.view.problems');
      else if (choice === 'Emit Anyway' && resend) {
        const forced: EmitArgs = { ...args, force: true };
        try {
          await presentEmit(forced, await resend(forced), log);
        } catch (err) {
          emitFailed(forced, err, log);
        }
      }
    });
    return result;
  }
  let source: string;
  try {
    source = vscode.workspace.asRelativePath(vscode.Uri.parse(args.uri));
  } catch {
    source = args.uri;
  }
  const what = `${args.block ?? source} (${EMIT_LABEL[args.target]})`;
  for (const m of result.messages) log.info(`emit ${what}: ${m}`);
  for (const w of result.written) {
    log.info(`emit ${what}: wrote ${w}`);
    try {
      await vscode.window.showTextDocument(vscode.Uri.parse(w), { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: false });
    } catch (err) {
      log.warn(`could not open ${w}: ${(err as Error)?.message ?? String(err)}`);
    }
  }
  const relative = (uri: string) => {
    try {
      return vscode.workspace.asRelativePath(vscode.Uri.parse(uri));
    } catch {
      return uri;
    }
  };
  const summary = emitSummary(result, what, relative);
  void notify(summary.level, summary.text);
  return result;
}
