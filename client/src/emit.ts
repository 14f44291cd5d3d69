// "Layout: Emit Triton/CUDA/MLIR": asks the server (`workspace/executeCommand` `layout.emit`) to generate code
// for the active file, or for the kernel/schedule block under the cursor, and opens what it wrote beside the source.
import * as vscode from 'vscode';
import { EMIT_COMMAND } from '../../server/src/lsp/protocol.js';
import type { EmitArgs, EmitResult, EmitTarget } from '../../server/src/lsp/protocol.js';
import { blockAt, checkEmitResult } from './blocks.js';
import type { SymbolLike } from './blocks.js';
import type { LayoutServer } from './server.js';

const label: Record<EmitTarget, string> = { triton: 'Triton', cuda: 'CUDA', mlir: 'MLIR' };

/** Runs one emit. `resource`: a file picked in the explorer (then the whole file); otherwise the active editor. */
export async function emit(target: EmitTarget, server: LayoutServer, log: vscode.LogOutputChannel, resource?: vscode.Uri): Promise<EmitResult | undefined> {
  let doc: vscode.TextDocument;
  let block: string | undefined;
  const editor = vscode.window.activeTextEditor;
  if (resource instanceof vscode.Uri && resource.toString() !== editor?.document.uri.toString()) {
    doc = await vscode.workspace.openTextDocument(resource);
  } else if (editor && editor.document.languageId === 'layout') {
    doc = editor.document;
    const symbols = await vscode.commands.executeCommand<SymbolLike[] | undefined>('vscode.executeDocumentSymbolProvider', doc.uri);
    block = blockAt(symbols, editor.selection.active.line, (n) => doc.lineAt(n).text);
  } else {
    void vscode.window.showInformationMessage(`Layout: open a .layout file to emit ${label[target]}.`);
    return undefined;
  }
  if (doc.languageId !== 'layout') {
    void vscode.window.showInformationMessage(`Layout: ${vscode.workspace.asRelativePath(doc.uri)} is not a .layout file.`);
    return undefined;
  }
  const args: EmitArgs = { uri: doc.uri.toString(), target, version: doc.version, ...(block ? { block } : {}) };
  let result: EmitResult;
  try {
    const client = await server.whenReady();
    result = checkEmitResult(await client.sendRequest('workspace/executeCommand', { command: EMIT_COMMAND, arguments: [args] }));
  } catch (err) {
    const msg = `Layout: emitting ${label[target]} failed: ${(err as Error)?.message ?? String(err)}`;
    log.error(msg);
    void vscode.window.showErrorMessage(msg);
    return undefined;
  }
  const what = block ? `${block} (${label[target]})` : `${vscode.workspace.asRelativePath(doc.uri)} (${label[target]})`;
  for (const m of result.messages) log.info(`emit ${what}: ${m}`);
  for (const w of result.written) {
    log.info(`emit ${what}: wrote ${w}`);
    try {
      await vscode.window.showTextDocument(vscode.Uri.parse(w), { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: false });
    } catch (err) {
      log.warn(`could not open ${w}: ${(err as Error)?.message ?? String(err)}`);
    }
  }
  if (result.written.length === 0) {
    void vscode.window.showWarningMessage(`Layout: nothing written for ${what}. ${result.messages.join(' ')}`.trim());
  } else if (result.messages.length > 0) {
    void vscode.window.showInformationMessage(`Layout: wrote ${result.written.length} file(s) for ${what}. ${result.messages.join(' ')}`);
  }
  return result;
}
