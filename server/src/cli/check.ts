// `layout check FILE... [--json] [--gpu-target SM]`: parses, resolves and checks each file and prints its
// diagnostics, one line each: `file:line:col: severity: message [code]` (1-based line and
// UTF-16 column), or with --json one array of {file, line, column, endLine, endColumn,
// severity, code, message}. Exit status: 1 if any error, else 0; 2 when a file cannot be read.
import { readFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import type { Command } from 'commander';
import type { Diagnostic, LineIndex } from '../../../grammar/src/index.js';
import { analyze } from '../check/index.js';
import { kernelDiagnosticsOfFile } from '../codegen/index.js';
import { templateReaderWithin } from '../service/kernel-checks.js';
import type { File as AstFile } from '../../../grammar/src/ast.js';

export interface CheckOptions {
  json?: boolean;
  /** GPU for schedules without an `on` clause */
  gpuTarget?: string;
}

export interface CheckIo {
  out: (text: string) => void;
  err: (line: string) => void;
}

export interface JsonDiagnostic {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: 'error' | 'warning' | 'info' | 'hint';
  code: string;
  message: string;
}

const severityWord = { error: 'error', warning: 'warning', information: 'info', hint: 'hint' } as const;

/** Runs `layout check`; returns the exit status. */
export function runCheck(files: string[], opts: CheckOptions, io: CheckIo): number {
  const all: JsonDiagnostic[] = [];
  let unreadable = 0;
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      io.err(`layout: cannot read '${file}': ${reason(e)}`);
      unreadable++;
      continue;
    }
    const a = analyze(text, { gpuTarget: opts.gpuTarget });
    const diagnostics = [...a.diagnostics, ...kernelChecks(text, file, a.file)];
    diagnostics.sort((x, y) => x.range.start - y.range.start || x.range.end - y.range.end);
    for (const d of diagnostics) all.push(toJson(file, a.lines, d));
  }
  if (opts.json) io.out(JSON.stringify(all, null, 2) + '\n');
  else for (const d of all) io.out(formatLine(d) + '\n');
  if (unreadable > 0) return 2;
  return all.some((d) => d.severity === 'error') ? 1 : 0;
}

/**
 * The `kernel/...` checks (placeholders vs bindings) of a file's kernel blocks; template files are read
 * from the .layout file's folder tree only.
 */
function kernelChecks(text: string, file: string, ast: AstFile): Diagnostic[] {
  if (!ast.decls.some((d) => d.kind === 'Kernel')) return [];
  const path = nodePath.resolve(file);
  const root = nodePath.dirname(path);
  return kernelDiagnosticsOfFile(ast, text, path, { readTemplate: templateReaderWithin(root), templateRoot: root });
}

/** `file:line:col: severity: message [code]` */
export function formatLine(d: JsonDiagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.severity}: ${d.message} [${d.code}]`;
}

export function toJson(file: string, lines: LineIndex, d: Diagnostic): JsonDiagnostic {
  const s = lines.position(d.range.start);
  const e = lines.position(d.range.end);
  return {
    file,
    line: s.line + 1,
    column: s.character + 1,
    endLine: e.line + 1,
    endColumn: e.character + 1,
    severity: severityWord[d.severity],
    code: d.code,
    message: d.message,
  };
}

function reason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT': return 'no such file';
    case 'EISDIR': return 'it is a directory';
    case 'EACCES': case 'EPERM': return 'permission denied';
    default: return code ?? String(e);
  }
}

/** Adds `check` to the CLI. */
export function registerCheck(program: Command): void {
  program
    .command('check')
    .description('parse and check .layout files and print their diagnostics')
    .argument('<files...>', 'the .layout files')
    .option('--json', 'print the diagnostics as a JSON array')
    .option('--gpu-target <sm>', 'GPU for schedules without an `on` clause (sm_80, sm_90, ...)')
    .action((files: string[], opts: CheckOptions) => {
      process.exitCode = runCheck(files, opts, {
        out: (text) => process.stdout.write(text),
        err: (line) => process.stderr.write(line + '\n'),
      });
    });
}
