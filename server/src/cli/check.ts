// `layout check PATH... [--format text|json|sarif|github] [--max-warnings N] [--gpu-target SM]`: parses,
// resolves and checks each file and prints its diagnostics. A PATH is a file, a directory (every `*.layout`
// file below it, recursively, in name order; dot-folders and node_modules are skipped, symbolic links to
// folders are not followed) or `-` (standard input, shown as `--stdin-name`, `<stdin>` by default).
//
// Formats (docs/cli.md):
// - text (default): one line per diagnostic, `file:line:col: severity: message [code]` (1-based line and
//   UTF-16 column), then the summary line on stderr;
// - json (`--json` is the same): one object, `{ version: 1, files, diagnostics, summary }`;
// - sarif: SARIF 2.1.0 for GitHub code scanning (cli/sarif.ts);
// - github: GitHub Actions workflow commands, `::error file=F,line=L,col=C,...::message`, then the summary.
// Exit status: 2 when a path cannot be read (the others are still checked) or on bad usage; else 1 on any
// error, or when there are more warnings than `--max-warnings`; else 0.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as nodePath from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import type { Diagnostic, LineIndex } from '../../../grammar/src/index.js';
import { analyze } from '../check/index.js';
import { fileDiagnostics } from '../service/kernel-checks.js';
import { CliFailure } from './load-model.js';
import { countOption, gpuTargetOption, orList } from './options.js';
import { toSarif } from './sarif.js';

export const FORMATS = ['text', 'json', 'sarif', 'github'] as const;
export type CheckFormat = (typeof FORMATS)[number];

export interface CheckOptions {
  /** the same as `format: 'json'` */
  json?: boolean;
  format?: string;
  maxWarnings?: string;
  /** GPU for schedules without an `on` clause */
  gpuTarget?: string;
  /** how standard input (`-`) is shown, and where its kernels' templates are looked up */
  stdinName?: string;
}

export interface CheckIo {
  out: (text: string) => void;
  err: (line: string) => void;
  /** standard input, read only when a path is `-` */
  stdin?: () => string;
  cwd?: string;
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

export interface CheckSummary {
  files: number;
  errors: number;
  warnings: number;
  infos: number;
  hints: number;
  /** paths that could not be read */
  unreadable: number;
}

/** The `--format json` output; `version` changes only when a field changes meaning or goes away. */
export interface CheckReport {
  version: 1;
  files: string[];
  diagnostics: JsonDiagnostic[];
  summary: CheckSummary;
}

const severityWord = { error: 'error', warning: 'warning', information: 'info', hint: 'hint' } as const;

/** Runs `layout check`; returns the exit status. */
export function runCheck(paths: string[], opts: CheckOptions, io: CheckIo): number {
  let format: CheckFormat;
  let maxWarnings: number | undefined;
  let gpuTarget: string | undefined;
  try {
    format = formatOption(opts);
    maxWarnings = countOption('--max-warnings', opts.maxWarnings);
    gpuTarget = gpuTargetOption(opts.gpuTarget);
    if (paths.filter((p) => p === '-').length > 1) throw new CliFailure("'-' (standard input) may be given once", 2);
  } catch (e) {
    if (!(e instanceof CliFailure)) throw e;
    io.err(`layout: ${e.message}`);
    return e.status;
  }
  const cwd = io.cwd ?? process.cwd();
  const stdinName = opts.stdinName ?? '<stdin>';

  const all: JsonDiagnostic[] = [];
  const checked: string[] = [];
  let unreadable = 0;
  const checkText = (file: string, text: string, absPath: string) => {
    checked.push(file);
    const a = analyze(text, { gpuTarget });
    // the kernel checks as the editor's whole-file check makes them, template files read from the
    // .layout file's folder tree only
    const diagnostics = fileDiagnostics(a, text, pathToFileURL(absPath).href);
    for (const d of diagnostics) all.push(toJson(file, a.lines, d));
  };
  for (const path of paths) {
    if (path === '-') {
      let text: string;
      try {
        text = (io.stdin ?? (() => readFileSync(0, 'utf8')))();
      } catch (e) {
        io.err(`layout: cannot read standard input: ${reason(e)}`);
        unreadable++;
        continue;
      }
      checkText(stdinName, text, nodePath.resolve(cwd, opts.stdinName ?? 'stdin.layout'));
      continue;
    }
    let files: string[];
    try {
      files = statSync(nodePath.resolve(cwd, path)).isDirectory() ? layoutFilesUnder(cwd, path) : [path];
    } catch (e) {
      io.err(`layout: cannot read '${path}': ${reason(e)}`);
      unreadable++;
      continue;
    }
    if (files.length === 0) {
      io.err(`layout: no .layout files in '${path}'`);
      unreadable++;
      continue;
    }
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(nodePath.resolve(cwd, file), 'utf8');
      } catch (e) {
        io.err(`layout: cannot read '${file}': ${reason(e)}`);
        unreadable++;
        continue;
      }
      checkText(file, text, nodePath.resolve(cwd, file));
    }
  }

  const count = (s: JsonDiagnostic['severity']) => all.filter((d) => d.severity === s).length;
  const summary: CheckSummary = { files: checked.length, errors: count('error'), warnings: count('warning'), infos: count('info'), hints: count('hint'), unreadable };
  const tooManyWarnings = maxWarnings !== undefined && summary.warnings > maxWarnings;
  switch (format) {
    case 'json': {
      const report: CheckReport = { version: 1, files: checked, diagnostics: all, summary };
      io.out(JSON.stringify(report, null, 2) + '\n');
      break;
    }
    case 'sarif':
      io.out(JSON.stringify(toSarif(all, cwd), null, 2) + '\n');
      break;
    case 'github':
      for (const d of all) io.out(githubLine(d) + '\n');
      io.err(summaryLine(summary));
      break;
    default:
      for (const d of all) io.out(formatLine(d) + '\n');
      io.err(summaryLine(summary));
  }
  if (tooManyWarnings) io.err(`layout: ${plural(summary.warnings, 'warning')}, more than --max-warnings ${maxWarnings}`);
  if (unreadable > 0) return 2;
  return summary.errors > 0 || tooManyWarnings ? 1 : 0;
}

function formatOption(opts: CheckOptions): CheckFormat {
  const f = opts.format ?? (opts.json ? 'json' : 'text');
  if (!(FORMATS as readonly string[]).includes(f)) throw new CliFailure(`unknown --format '${f}' (use ${orList(FORMATS)})`, 2);
  if (opts.json && f !== 'json') throw new CliFailure(`--json is --format json; it cannot go with --format ${f}`, 2);
  return f as CheckFormat;
}

/** Every `*.layout` file below `dir` (relative to `cwd` as `dir` is), sorted by path. */
export function layoutFilesUnder(cwd: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    const entries = readdirSync(nodePath.resolve(cwd, rel), { withFileTypes: true })
      .map((e) => ({ name: e.name, dir: e.isDirectory(), file: e.isFile() }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const p = nodePath.join(rel, e.name);
      if (e.dir) {
        if (e.name.startsWith('.') || e.name === 'node_modules') continue;
        walk(p);
      } else if (e.file && e.name.endsWith('.layout')) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** `checked 3 files: 1 error, 2 warnings, 0 infos, 1 hint` */
export function summaryLine(s: CheckSummary): string {
  return `checked ${plural(s.files, 'file')}: ${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}, ${plural(s.infos, 'info')}, ${plural(s.hints, 'hint')}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** `file:line:col: severity: message [code]` */
export function formatLine(d: JsonDiagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.severity}: ${d.message} [${d.code}]`;
}

/**
 * A GitHub Actions workflow command: `::error file=F,line=L,col=C,endLine=EL,endColumn=EC,title=CODE::message`
 * (`warning` for warnings, `notice` for infos and hints), escaped as @actions/core escapes them.
 */
export function githubLine(d: JsonDiagnostic): string {
  const command = d.severity === 'error' ? 'error' : d.severity === 'warning' ? 'warning' : 'notice';
  const props = [
    `file=${escapeProperty(d.file)}`,
    `line=${d.line}`,
    `col=${d.column}`,
    `endLine=${d.endLine}`,
    `endColumn=${d.endColumn}`,
    `title=${escapeProperty(d.code)}`,
  ];
  return `::${command} ${props.join(',')}::${escapeData(`${d.message} [${d.code}]`)}`;
}

function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
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
    case 'EAGAIN': return 'no data (standard input is non-blocking)';
    default: return code ?? String(e);
  }
}

/** Adds `check` to the CLI. */
export function registerCheck(program: Command): void {
  program
    .command('check')
    .description('parse and check .layout files and print their diagnostics')
    .argument('<paths...>', "the .layout files, folders (every *.layout below them) or '-' for standard input")
    .option('--format <format>', `output format: ${orList(FORMATS)}`, undefined)
    .option('--json', 'the same as --format json')
    .option('--max-warnings <n>', 'exit 1 when there are more than n warnings')
    .option('--gpu-target <sm>', 'GPU for schedules without an `on` clause (sm_80, sm_86, sm_89, sm_90 or cpu)')
    .option('--stdin-name <name>', "name shown for standard input ('-'); templates are looked up next to it", undefined)
    .action((paths: string[], opts: CheckOptions) => {
      process.exitCode = runCheck(paths, opts, {
        out: (text) => process.stdout.write(text),
        err: (line) => process.stderr.write(line + '\n'),
      });
    });
}
