// `layout emit FILE [--kernel NAME | --schedule NAME] --target cuda|triton|mlir --out DIR|-`
//
// Generates code from a .layout file and writes it under DIR (or prints it: `--out -`, several files each
// after a `==> NAME <==` line); prints each file it wrote, and the
// diagnostics (as `path:line:col: severity: message [code]`, like `layout check`) when it cannot. Exit status: 0 when
// every requested file was written, 1 on diagnostics or refused writes, 2 on usage errors.
//
// Nothing is emitted from a broken file: an error in the emitted blocks or in any declaration they depend
// on (codegen/gate.ts) stops the command (exit 1, the errors listed, nothing written). `--force` emits
// anyway and marks every file with a warning header. Files are written atomically (service/write-file.ts).
import { mkdirSync, readFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import type { Command } from 'commander';
import { LineIndex } from '../../../grammar/src/index.js';
import { blockTarget, buildEmitModel, emitBlock, emitFile, planEmit, withoutEvaluation, type EmitTarget } from '../codegen/index.js';
import { formatLine, toJson } from './check.js';
import { templateReaderWithin } from '../service/kernel-checks.js';
import { CliFailure } from './load-model.js';
import { gpuTargetOption } from './options.js';
import { writeFileAtomic } from '../service/write-file.js';
import { analyze } from '../check/index.js';
import { emitBlockers, forcedHeader, prependHeader } from '../codegen/gate.js';
import type { Diagnostic } from '../../../grammar/src/diagnostic.js';
import type * as ast from '../../../grammar/src/ast.js';

export interface EmitCliOptions {
  kernel?: string;
  schedule?: string;
  target?: string;
  out?: string;
  root?: string;
  /** emit even when the blocks (or what they depend on) have errors; the files are marked */
  force?: boolean;
  /** GPU for schedules without an `on` clause (as `layout check --gpu-target`) */
  gpuTarget?: string;
}

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  /** raw text to standard output (`--out -`); process.stdout by default */
  write?: (text: string) => void;
  cwd: string;
}

const TARGETS: readonly EmitTarget[] = ['cuda', 'triton', 'mlir'];

/** Runs `layout emit`; returns the exit status. */
export function runEmit(file: string, opts: EmitCliOptions, io: CliIo): number {
  if (opts.kernel !== undefined && opts.schedule !== undefined) {
    io.err('layout: give --kernel or --schedule, not both');
    return 2;
  }
  if (opts.target !== undefined && !(TARGETS as readonly string[]).includes(opts.target)) {
    io.err(`layout: unknown target '${opts.target}' (use cuda, triton or mlir)`);
    return 2;
  }
  if (opts.target === undefined && opts.kernel === undefined && opts.schedule === undefined) {
    io.err('layout: give --target, or name a block with --kernel or --schedule');
    return 2;
  }
  if (!opts.out) {
    io.err('layout: give --out DIR');
    return 2;
  }
  try {
    gpuTargetOption(opts.gpuTarget);
  } catch (e) {
    if (!(e instanceof CliFailure)) throw e;
    io.err(`layout: ${e.message}`);
    return e.status;
  }
  const path = nodePath.resolve(io.cwd, file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    io.err(`layout: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
    return 2;
  }
  // Templates must stay inside --root (default: the working directory when the file is in it,
  // else the file's own folder); a symbolic link out of it is refused too.
  const fileDir = nodePath.dirname(path);
  const cwdRel = nodePath.relative(io.cwd, path);
  const root = nodePath.resolve(io.cwd, opts.root ?? (!cwdRel.startsWith('..') && !nodePath.isAbsolute(cwdRel) ? '.' : fileDir));
  const readTemplate = templateReaderWithin(root);
  const sourceLabel = nodePath.relative(root, path).split(nodePath.sep).join('/');
  const model = buildEmitModel(text, path, { sourceLabel: sourceLabel.startsWith('..') ? nodePath.basename(path) : sourceLabel });
  const access = { readTemplate, templateRoot: root };
  const target = opts.target as EmitTarget | undefined;
  const block = opts.kernel ?? opts.schedule;
  const result = block !== undefined
    ? emitBlock(model, block, target, { ...access, blockKind: opts.kernel !== undefined ? 'kernel' : 'schedule' })
    : emitFile(model, target!, access);

  const shown = nodePath.relative(io.cwd, path) || file;
  const lines = new LineIndex(text);
  const where = (d: Diagnostic) => {
    const j = toJson(model.sourceLabel, lines, d);
    return `${j.file}:${j.line}:${j.column}: ${j.message} [${j.code}]`;
  };
  // The gate: errors in what is emitted, or in anything it depends on.
  const analysis = analyze(text, { gpuTarget: opts.gpuTarget });
  const roots = analysis.file.decls.filter((d): d is ast.KernelDecl | ast.ScheduleDecl =>
    (d.kind === 'Kernel' || d.kind === 'Schedule') &&
    (block !== undefined
      ? d.name.name === block && (opts.kernel === undefined || d.kind === 'Kernel') && (opts.schedule === undefined || d.kind === 'Schedule')
      : blockTarget(d) === target));
  // what evaluating the bindings found is shown once nothing else blocks (as `layout check` shows it:
  // codegen/gate.ts `withEmission`): evaluating a broken declaration only repeats its error
  const own = withoutEvaluation(result);
  const blockers = emitBlockers({ file: analysis.file, resolution: analysis.resolution, diagnostics: [...analysis.diagnostics, ...own] }, roots);
  const shownDiagnostics = dedupe([...blockers, ...(blockers.length > 0 && !opts.force ? own : result.diagnostics)]);
  for (const d of shownDiagnostics) io.err(formatLine(toJson(shown, lines, d)));
  const emitErrors = result.diagnostics.filter((d) => d.severity === 'error').length;
  // (forced, an error that leaves nothing to emit, such as a kernel without a template clause, still stops it)
  if (emitErrors > 0 || (blockers.length > 0 && (!opts.force || result.files.length === 0))) {
    const errors = shownDiagnostics.filter((d) => d.severity === 'error').length;
    const hint = emitErrors === 0 && result.files.length > 0 && !opts.force ? ' (--force emits anyway, marking the files)' : '';
    io.err(`layout: ${errors} error${errors === 1 ? '' : 's'}; nothing written${hint}`);
    return 1;
  }
  if (result.files.length === 0) {
    io.err(`layout: ${shown} has no ${block !== undefined ? `block \`${block}\`` : `${target} blocks`} to emit`);
    return 1;
  }
  const files = blockers.length > 0
    ? result.files.map((f) => ({ ...f, content: prependHeader(f.content, forcedHeader(f.relPath, blockers.map(where))) }))
    : result.files;
  if (blockers.length > 0) io.err(`layout: --force: emitting despite ${blockers.length} error${blockers.length === 1 ? '' : 's'}; the files say so in their first lines`);
  if (opts.out === '-') {
    // standard output: the file's text; several files each after a `==> NAME <==` line (as `head` does)
    const several = files.length > 1;
    const write = io.write ?? ((t: string) => process.stdout.write(t));
    files.forEach((f, i) => write(`${several ? `${i > 0 ? '\n' : ''}==> ${f.relPath} <==\n` : ''}${f.content}`));
    return 0;
  }
  const plan = planEmit(files, { outDir: nodePath.resolve(io.cwd, opts.out) });
  for (const r of plan.refused) io.err(`layout: refused ${r.relPath}: ${r.reason}`);
  let failed = plan.refused.length;
  for (const w of plan.writes) {
    const shownPath = nodePath.relative(io.cwd, w.absPath) || w.absPath;
    try {
      mkdirSync(nodePath.dirname(w.absPath), { recursive: true });
    } catch (e) {
      failed++;
      io.err(`layout: cannot write ${shownPath}: cannot create its folder (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
      continue;
    }
    const r = writeFileAtomic(w.absPath, w.content);
    if (r.ok) io.out(`wrote ${shownPath} (${r.bytes} bytes)`);
    else {
      failed++;
      io.err(`layout: cannot write ${shownPath}: ${r.reason}`);
    }
  }
  return failed > 0 ? 1 : 0;
}

/** Adds `emit` to the CLI. */
export function registerEmit(program: Command): void {
  program
    .command('emit')
    .description('generate CUDA, Triton or MLIR from the kernel and schedule blocks of a .layout file')
    .argument('<file>', 'the .layout file')
    .option('--kernel <name>', 'emit only this kernel block')
    .option('--schedule <name>', 'emit only this schedule block (MLIR)')
    .option('--target <target>', 'cuda, triton or mlir: emit every block for this target (with --kernel/--schedule: check the block targets it)')
    .option('--out <dir>', "folder to write the files into (created if missing), or '-' for standard output")
    .option('--force', 'emit even when the blocks or what they depend on have errors (the files are marked)')
    .option('--gpu-target <sm>', 'GPU for schedules without an `on` clause (sm_80, sm_86, sm_89, sm_90 or cpu)')
    .option('--root <dir>', 'folder template files must stay inside (default: the working directory, or the file\'s folder when the file is outside it)')
    .action((file: string, opts: EmitCliOptions) => {
      const code = runEmit(file, opts, {
        out: (l) => process.stdout.write(l + '\n'),
        err: (l) => process.stderr.write(l + '\n'),
        write: (t) => process.stdout.write(t),
        cwd: process.cwd(),
      });
      process.exitCode = code;
    });
}

function dedupe(ds: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const d of ds) {
    const k = `${d.range.start}:${d.range.end}:${d.code}:${d.message}`;
    if (!seen.has(k)) {
      seen.add(k);
      out.push(d);
    }
  }
  return out.sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end);
}
