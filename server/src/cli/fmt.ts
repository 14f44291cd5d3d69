// `layout fmt [--check] [--diff] PATH...`: the editor's formatter (service/format.ts) on files, folders
// (every *.layout below them) or `-` (standard input to standard output).
//
// - no flag: rewrites each file that is not formatted, in place, and prints nothing;
// - `--check`: writes nothing; prints the name of each file that is not formatted; exit 1 if any;
// - `--diff`: writes nothing; prints a unified diff per file that is not formatted (exit 0, or 1 with --check).
// A file with syntax errors is left alone: its first error is printed (`file:line:col: error: ... [code]`)
// and the exit status is 2, as for a file that cannot be read or bad usage (gofmt's and prettier's codes).
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import type { Command } from 'commander';
import { LayoutDocument } from '../service/document.js';
import { applyEdits, format } from '../service/format.js';
import { formatLine, layoutFilesUnder, toJson } from './check.js';
import { unifiedDiff } from './diff.js';

export interface FmtOptions {
  check?: boolean;
  diff?: boolean;
}

export interface FmtIo {
  out: (text: string) => void;
  err: (line: string) => void;
  stdin?: () => string;
  cwd?: string;
}

/** The formatted text, or the first syntax error as a `layout check` line. */
export function formatText(text: string, shown: string): { text: string } | { error: string } {
  const doc = new LayoutDocument('file:///fmt.layout', 1, text);
  const r = format(doc);
  if ('refused' in r) {
    const first = doc.parseDiagnostics.find((d) => d.severity === 'error');
    return { error: first ? formatLine(toJson(shown, doc.lines, first)) : `${shown}: ${r.refused}` };
  }
  return { text: applyEdits(text, r.edits) };
}

/** Runs `layout fmt`; returns the exit status. */
export function runFmt(paths: string[], opts: FmtOptions, io: FmtIo): number {
  const cwd = io.cwd ?? process.cwd();
  if (paths.filter((p) => p === '-').length > 1) {
    io.err("layout: '-' (standard input) may be given once");
    return 2;
  }
  let failed = false;
  let unformatted = 0;
  const one = (shown: string, text: string, write: ((t: string) => void) | undefined) => {
    const r = formatText(text, shown);
    if ('error' in r) {
      io.err(r.error);
      io.err(`layout: ${shown} has syntax errors; not formatted`);
      failed = true;
      return;
    }
    if (r.text === text) return;
    unformatted++;
    if (opts.diff) io.out(unifiedDiff(text, r.text, shown, shown));
    else if (opts.check) io.out(shown + '\n');
    else if (write) write(r.text);
  };
  for (const path of paths) {
    if (path === '-') {
      let text: string;
      try {
        text = (io.stdin ?? (() => readFileSync(0, 'utf8')))();
      } catch (e) {
        io.err(`layout: cannot read standard input: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
        failed = true;
        continue;
      }
      const r = formatText(text, '<stdin>');
      if ('error' in r) {
        io.err(r.error);
        failed = true;
        // standard input in, standard output out: a filter passes what it cannot format through unchanged
        if (!opts.check && !opts.diff) io.out(text);
        continue;
      }
      if (r.text !== text) unformatted++;
      if (opts.diff) io.out(unifiedDiff(text, r.text, '<stdin>', '<stdin>'));
      else if (opts.check) { if (r.text !== text) io.out('<stdin>\n'); }
      else io.out(r.text);
      continue;
    }
    let files: string[];
    try {
      files = statSync(nodePath.resolve(cwd, path)).isDirectory() ? layoutFilesUnder(cwd, path) : [path];
    } catch (e) {
      io.err(`layout: cannot read '${path}': ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as NodeJS.ErrnoException).code ?? String(e)}`);
      failed = true;
      continue;
    }
    for (const file of files) {
      const abs = nodePath.resolve(cwd, file);
      let text: string;
      try {
        text = readFileSync(abs, 'utf8');
      } catch (e) {
        io.err(`layout: cannot read '${file}': ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
        failed = true;
        continue;
      }
      one(file, text, (t) => {
        try {
          writeReplacing(abs, t);
        } catch (e) {
          io.err(`layout: cannot write '${file}': ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
          failed = true;
        }
      });
    }
  }
  if (failed) return 2;
  return opts.check && unformatted > 0 ? 1 : 0;
}

/** Replaces a file's content through a temporary file in its folder and a rename (keeping its mode). */
function writeReplacing(abs: string, text: string): void {
  const mode = statSync(abs).mode & 0o7777;
  const tmp = nodePath.join(nodePath.dirname(abs), `.${nodePath.basename(abs)}.${process.pid}.fmt.tmp`);
  try {
    writeFileSync(tmp, text, { mode, flag: 'wx' });
    renameSync(tmp, abs);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** Adds `fmt` to the CLI. */
export function registerFmt(program: Command): void {
  program
    .command('fmt')
    .description('format .layout files in place (the editor\'s formatter)')
    .argument('<paths...>', "the .layout files, folders (every *.layout below them) or '-' (standard input to standard output)")
    .option('--check', 'write nothing; list the files that are not formatted and exit 1 if there are any')
    .option('--diff', 'write nothing; print what would change as a unified diff')
    .action((paths: string[], opts: FmtOptions) => {
      process.exitCode = runFmt(paths, opts, {
        out: (text) => process.stdout.write(text),
        err: (line) => process.stderr.write(line + '\n'),
      });
    });
}
