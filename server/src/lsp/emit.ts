// workspace/executeCommand `layout.emit`: generates code for a file or one block (codegen's
// emitFile/emitBlock) and writes it under the workspace's output folder. Refuses: another version
// than the client saw, a file outside every workspace folder, a destination outside the workspace
// or the output folder, and a destination open in the editor with unsaved edits.
// Nothing is emitted from a broken file (codegen/gate.ts): when the blocks, or declarations they depend on,
// have errors, the answer lists them in `blockedBy` and nothing is written; `force` emits anyway with a
// warning header in each file. Files are written atomically (service/write-file.ts): never through a
// link, never over a read-only file, no temporary file left behind.
import { mkdirSync, realpathSync } from 'node:fs';
import * as nodePath from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ExecuteCommandParams } from 'vscode-languageserver';
import { blockTarget, buildEmitModel, emitBlock, emitFile, planEmit, withoutEvaluation, type EmitResult as CodegenResult } from '../codegen/index.js';
import { emitBlockers, forcedHeader, prependHeader } from '../codegen/gate.js';
import { analyze } from '../check/index.js';
import { parse, resolve } from '../../../grammar/src/index.js';
import type * as ast from '../../../grammar/src/ast.js';
import type { Diagnostic } from '../../../grammar/src/diagnostic.js';
import { writeFileAtomic } from '../service/write-file.js';
import { readPlainFile } from '../service/read-file.js';
import { templateReaderWithin } from '../service/kernel-checks.js';
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
    const read = readPlainFile(path, 256 * 1024 * 1024);
    if (read === undefined) return fail(`cannot read ${path} (missing, or not a plain file)`);
    text = read;
  }
  const root = workspaceRootOf(ctx.workspaceFolders(), path);
  if (!root) return fail(`${path} is not inside a workspace folder; the server writes only inside the workspace`);
  // an open template's text, not the file's
  const readTemplate = templateReaderWithin(root, (real) => ctx.documents.get(pathToFileURL(real).href)?.getText());
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
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const pos = (o: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return `${lo + 1}:${o - lineStarts[lo] + 1}`;
  };
  const line = (d: Diagnostic) => `${d.severity} ${d.code} (line ${pos(d.range.start).split(':')[0]}): ${d.message}`;
  const blocked = (blockers: Diagnostic[], shown: Diagnostic[]) => {
    const blockedBy = blockers.map((d) => `${pos(d.range.start)}: ${d.message} [${d.code}]`);
    return {
      written: [],
      messages: [...shown.map(line), `nothing was written: ${blockers.length} error${blockers.length === 1 ? '' : 's'} in what would be emitted or what it depends on (${blockedBy[0]}${blockers.length > 1 ? ', ...' : ''})`],
      blockedBy,
    };
  };
  if (result.diagnostics.some((d) => d.severity === 'error')) {
    // what evaluating the bindings found is shown once nothing else blocks the emit, as the Problems
    // panel shows it (codegen/gate.ts `withEmission`): evaluating a broken declaration only repeats its error
    if (result.evaluation?.length && args.force !== true) {
      const own = withoutEvaluation(result);
      let blockers: Diagnostic[] = [];
      try {
        blockers = gate(ctx, args as EmitArgs, text, own);
      } catch {
        /* list everything below */
      }
      if (blockers.length > 0) return blocked(blockers, own);
    }
    return { written: [], messages: [...result.diagnostics.map(line), 'nothing was written'] };
  }
  for (const d of result.diagnostics) messages.push(line(d));
  // The gate: errors in the emitted blocks or in anything they depend on.
  let blockers: Diagnostic[];
  try {
    blockers = gate(ctx, args as EmitArgs, text, result.diagnostics);
  } catch (e) {
    return fail(`the file could not be checked before emitting (${e instanceof Error ? e.message : String(e)}); nothing was written`);
  }
  const blockedBy = blockers.map((d) => `${pos(d.range.start)}: ${d.message} [${d.code}]`);
  if (blockers.length > 0 && args.force !== true) return blocked(blockers, result.diagnostics);
  if (result.files.length === 0) return { written: [], messages: [...messages, `there is nothing to emit for ${args.block !== undefined ? `block ${args.block}` : target}`] };
  if (blockers.length > 0) {
    messages.push(`emitted despite ${blockers.length} error${blockers.length === 1 ? '' : 's'} (forced); the files say so in their first lines`);
    result = { ...result, files: result.files.map((f) => ({ ...f, content: prependHeader(f.content, forcedHeader(f.relPath, blockedBy.map((b) => `${sourceLabel}:${b}`))) })) };
  }
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
      const r = writeFileAtomic(w.absPath, w.content);
      if (r.ok) written.push(uri);
      else messages.push(`cannot write ${w.relPath}: ${r.reason}`);
    } catch (e) {
      messages.push(`cannot write ${w.relPath}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
    }
  }
  return { written, messages };
}

/**
 * The errors that stop this emit: the published diagnostics of this very version when there are
 * some (the analysis already ran in the worker), else a fresh analysis.
 */
function gate(ctx: ServerContext, args: EmitArgs, text: string, emitDiagnostics: Diagnostic[]): Diagnostic[] {
  const parsed = parse(text);
  const resolution = resolve(parsed.file, parsed.lines);
  const open = ctx.documents.get(args.uri);
  const published = open ? ctx.scheduler.published(args.uri, open.version) : undefined;
  const settings = ctx.settings();
  const diagnostics = published ?? analyze(text, { gpuTarget: settings.gpuTarget, budget: settings.genp.checkBudget }).diagnostics;
  const roots = parsed.file.decls.filter((d): d is ast.KernelDecl | ast.ScheduleDecl =>
    (d.kind === 'Kernel' || d.kind === 'Schedule') && (args.block !== undefined ? d.name.name === args.block : blockTarget(d) === args.target));
  return emitBlockers({ file: parsed.file, resolution, diagnostics: [...diagnostics, ...emitDiagnostics] }, roots);
}

function isDirty(editorText: string, abs: string): boolean {
  try {
    const disk = readPlainFile(abs, 256 * 1024 * 1024);
    return disk === undefined ? editorText.length > 0 /* open but never saved */ : disk !== editorText;
  } catch {
    return editorText.length > 0;
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
