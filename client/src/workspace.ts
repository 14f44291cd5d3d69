// Workspace features of the extension: the `layout` task type (`layout check` over the workspace folder,
// its output read by the `$layout` problem matcher into the Problems panel), the emit targets the active
// file declares (context key `layout.emitTargets`, for the Emit commands' menus), and "Layout: Open an
// Example" (the walkthrough's first step).
import * as vscode from 'vscode';
import { emitTargetsOfSymbols, type SymbolWithDetail } from './command-args.js';
import { notify } from './notify.js';

export const TASK_TYPE = 'layout';

interface LayoutTaskDefinition extends vscode.TaskDefinition {
  command: 'check';
  files?: string[];
}

/** The `layout` tasks: "check" runs the bundled CLI (dist/cli.js) on the workspace folder's .layout files. */
export function registerTasks(ctx: vscode.ExtensionContext): vscode.Disposable {
  const cli = ctx.asAbsolutePath('dist/cli.js');
  const build = async (def: LayoutTaskDefinition, folder: vscode.WorkspaceFolder): Promise<vscode.Task> => {
    let files = def.files;
    if (!files?.length) {
      const found = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, '**/*.layout'), '**/node_modules/**');
      files = found.map((u) => vscode.workspace.asRelativePath(u, false)).sort();
    }
    // VS Code's own binary runs as Node with ELECTRON_RUN_AS_NODE (code-server's is Node already)
    const exec = new vscode.ProcessExecution(process.execPath, [cli, 'check', ...files], { cwd: folder.uri.fsPath, env: { ELECTRON_RUN_AS_NODE: '1' } });
    const task = new vscode.Task(def, folder, 'check', TASK_TYPE, exec, ['$layout']);
    task.group = vscode.TaskGroup.Build;
    task.detail = 'layout check: every .layout file of the folder, into the Problems panel';
    return task;
  };
  return vscode.tasks.registerTaskProvider(TASK_TYPE, {
    provideTasks: async () => {
      if (!vscode.workspace.isTrusted) return [];
      const out: vscode.Task[] = [];
      for (const f of vscode.workspace.workspaceFolders ?? []) out.push(await build({ type: TASK_TYPE, command: 'check' }, f));
      return out;
    },
    resolveTask: async (task) => {
      const def = task.definition as LayoutTaskDefinition;
      const folder = task.scope && typeof task.scope === 'object' ? task.scope : vscode.workspace.workspaceFolders?.[0];
      if (def.command !== 'check' || !folder || !vscode.workspace.isTrusted) return undefined;
      return build(def, folder);
    },
  });
}

/** Keeps the context key `layout.emitTargets` (e.g. `triton mlir`) to what the active file declares. */
export function trackEmitTargets(): vscode.Disposable {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const update = async () => {
    const ed = vscode.window.activeTextEditor;
    let targets: string[] = [];
    if (ed?.document.languageId === 'layout') {
      try {
        const symbols = await vscode.commands.executeCommand<SymbolWithDetail[] | undefined>('vscode.executeDocumentSymbolProvider', ed.document.uri);
        targets = emitTargetsOfSymbols(symbols);
      } catch {
        targets = [];
      }
    }
    await vscode.commands.executeCommand('setContext', 'layout.emitTargets', targets.join(' '));
  };
  const later = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void update(), 400);
  };
  void update();
  const subs = [
    vscode.window.onDidChangeActiveTextEditor(later),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === vscode.window.activeTextEditor?.document) later();
    }),
  ];
  return { dispose: () => { if (timer) clearTimeout(timer); for (const s of subs) s.dispose(); } };
}

/**
 * "Layout: Open an Example": copies the bundled examples/matmul.layout into the first workspace folder (when
 * there is one, it is trusted and has no such file yet) and opens it; otherwise opens the bundled copy.
 */
export async function openExample(ctx: vscode.ExtensionContext): Promise<vscode.TextEditor | undefined> {
  const bundled = vscode.Uri.joinPath(ctx.extensionUri, 'examples', 'matmul.layout');
  const folder = vscode.workspace.workspaceFolders?.[0];
  let target = bundled;
  try {
    if (folder && vscode.workspace.isTrusted) {
      const dest = vscode.Uri.joinPath(folder.uri, 'matmul.layout');
      const exists = await vscode.workspace.fs.stat(dest).then(() => true, () => false);
      if (!exists) await vscode.workspace.fs.copy(bundled, dest);
      target = dest;
    }
    const doc = await vscode.workspace.openTextDocument(target);
    return await vscode.window.showTextDocument(doc, { preview: false });
  } catch (err) {
    void notify('error', `Layout: cannot open the example: ${(err as Error)?.message ?? String(err)}`);
    return undefined;
  }
}
