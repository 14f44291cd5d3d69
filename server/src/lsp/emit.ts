// workspace/executeCommand `layout.emit`: generates code for a file or one block (codegen's
// emitFile/emitBlock) and writes it under the workspace's output folder. Refuses: another version
// than the client saw, a file outside every workspace folder, a destination outside the workspace
// or the output folder, and a destination open in the editor with unsaved edits.
import { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ExecuteCommandParams } from 'vscode-languageserver';
import { buildEmitModel, emitBlock, emitFile, planEmit, type EmitResult as CodegenResult } from '../codegen/index.js';
import { EMIT_COMMAND, EMIT_TARGETS, type EmitArgs, type EmitResult } from './protocol.js';
import type { ServerContext } from './context.js';

export async function executeEmit(ctx: ServerContext, p: ExecuteCommandParams): Promise<EmitResult | null> {
  if (p.command !== EMIT_COMMAND) return null;
  const args = (p.arguments ?? [])[0] as Partial<EmitArgs> | undefined;
  const fail = (m: string): EmitResult => ({ written: [], messages: [m] });
  if (!args || typeof args.uri !== 'string' || !EMIT_TARGETS.includes(args.target as never)) {
    return fail('layout.emit needs { uri, target: "triton" | "cuda" | "mlir", block?, version }');
  }
  const target = args.target!;
  let path: string;
  try {
    path = fileURLToPath(args.uri);
  } catch {
    return fail(`${args.uri} is not a file on disk; save it first`);
  }
  const open = ctx.documents.get(args.uri);
  let text: string;
  if (open) {
    if (typeof args.version === 'number' && open.version !== args.version) {
      return fail(`the document changed (version ${open.version}, the request was for ${args.version}); nothing was written`);
    }
    text = open.getText();
  } else {
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return fail(`cannot read ${path}`);
    }
  }
  const root = workspaceRootOf(ctx.workspaceFolders(), path);
  if (!root) return fail(`${path} is not inside a workspace folder; the server writes only inside the workspace`);
  const readTemplate = (abs: string): string | undefined => {
    try {
      const real = realpathSync(abs);
      if (!inside(realpathSync(root), real)) return undefined;
      const openTpl = ctx.documents.get(pathToFileURL(real).href);
      return openTpl ? openTpl.getText() : readFileSync(real, 'utf8');
    } catch {
      return undefined;
    }
  };
  const sourceLabel = nodePath.relative(root, path).split(nodePath.sep).join('/');
  let result: CodegenResult;
  try {
    const model = buildEmitModel(text, path, { sourceLabel });
    const access = { readTemplate, templateRoot: root };
    result = args.block !== undefined ? emitBlock(model, args.block, target, access) : emitFile(model, target, access);
  } catch (e) {
    return fail(`code generation failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  const messages: string[] = [];
  const lines = (o: number) => {
    let l = 1;
    for (let i = 0; i < o && i < text.length; i++) if (text.charCodeAt(i) === 10) l++;
    return l;
  };
  for (const d of result.diagnostics) messages.push(`${d.severity} ${d.code} (line ${lines(d.range.start)}): ${d.message}`);
  if (result.diagnostics.some((d) => d.severity === 'error')) return { written: [], messages: [...messages, 'nothing was written'] };
  if (result.files.length === 0) return { written: [], messages: [...messages, `there is nothing to emit for ${args.block !== undefined ? `block ${args.block}` : target}`] };
  const outDir = nodePath.resolve(root, ctx.settings().emit.outputFolder || '.');
  const plan = planEmit(result.files, { outDir, workspaceRoot: root });
  for (const r of plan.refused) messages.push(`refused ${r.relPath}: ${r.reason}`);
  const written: string[] = [];
  for (const w of plan.writes) {
    const uri = pathToFileURL(w.absPath).href;
    const openDoc = ctx.documents.get(uri);
    if (openDoc && isDirty(openDoc.getText(), w.absPath)) {
      messages.push(`refused ${w.relPath}: it is open with unsaved changes`);
      continue;
    }
    try {
      if (!inside(realRoot(root), realParent(w.absPath))) {
        messages.push(`refused ${w.relPath}: it would be written outside the workspace (through a link)`);
        continue;
      }
      mkdirSync(nodePath.dirname(w.absPath), { recursive: true });
      const tmp = `${w.absPath}.${process.pid}.tmp`;
      writeFileSync(tmp, w.content);
      renameSync(tmp, w.absPath);
      written.push(uri);
    } catch (e) {
      messages.push(`cannot write ${w.relPath}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
    }
  }
  return { written, messages };
}

function isDirty(editorText: string, abs: string): boolean {
  try {
    return readFileSync(abs, 'utf8') !== editorText;
  } catch {
    return editorText.length > 0; // open but never saved
  }
}

function workspaceRootOf(folders: string[], path: string): string | undefined {
  let best: string | undefined;
  for (const f of folders) if (inside(f, path) && (!best || f.length > best.length)) best = f;
  return best;
}

function inside(root: string, p: string): boolean {
  const rel = nodePath.relative(root, p);
  return rel !== '' && !rel.startsWith('..') && !nodePath.isAbsolute(rel);
}

function realRoot(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return root;
  }
}

/** The real path of the nearest existing ancestor folder of `p`, plus the rest. */
function realParent(p: string): string {
  let dir = nodePath.dirname(p);
  const rest: string[] = [nodePath.basename(p)];
  for (;;) {
    try {
      return nodePath.join(realpathSync(dir), ...rest.reverse());
    } catch {
      const up = nodePath.dirname(dir);
      if (up === dir) return p;
      rest.push(nodePath.basename(dir));
      dir = up;
    }
  }
}
