// `layout eval FILE LAYOUT (--apply I,J,... | --inv X | --table) [--json] [--set NAME=VALUE]...`:
// evaluates a layout numerically at the params' values. `--apply 4,2` prints the physical flat
// index (`15`), `--inv 15` the logical index (`4,2`), `--table` the whole apply table (one line
// per run of the last dimension; with --json `{"shape": [logical dims], "table": [...]}`, the
// table in row-major order of the logical index space). Errors: one line on stderr; exit 2 for usage, 1 for an error.
import type { Command } from 'commander';
import * as A from '../algebra/index.js';
import { CliFailure, firstError, guarded, loadModel, type CliIo } from './load-model.js';

export interface EvalOptions {
  apply?: string;
  inv?: string;
  table?: boolean;
  json?: boolean;
  set?: string[];
}

function ints(s: string, what: string): bigint[] {
  const parts = s.split(',').map((x) => x.trim());
  if (parts.some((p) => !/^-?[0-9]+$/.test(p))) throw new CliFailure(`${what} expects integers separated by commas, got '${s}'`, 2);
  return parts.map((p) => BigInt(p));
}

/** Runs `layout eval`; returns the exit status. */
export function runEval(file: string, name: string, opts: EvalOptions, io: CliIo): number {
  return guarded(io, () => {
    const modes = [opts.apply !== undefined, opts.inv !== undefined, opts.table === true].filter(Boolean).length;
    if (modes !== 1) throw new CliFailure('eval needs exactly one of --apply I,J,..., --inv X, --table', 2);
    const l = loadModel(file, opts.set);
    const m = l.model.layouts.get(name);
    if (!m) {
      const names = [...l.model.layouts.keys()];
      throw new CliFailure(`'${file}' declares no layout ${name}${names.length ? `; its layouts are ${names.join(', ')}` : ''}`, 1);
    }
    if (!m.layout) throw new CliFailure(firstError(l, file, m.decl.range.start, m.decl.range.end) ?? `layout ${name} could not be built`, 1);
    const env = l.model.env;
    try {
      if (opts.apply !== undefined) {
        io.out(`${A.applyNum(m.layout, ints(opts.apply, '--apply'), env)}\n`);
      } else if (opts.inv !== undefined) {
        const x = ints(opts.inv, '--inv');
        if (x.length !== 1) throw new CliFailure(`--inv expects one flat index, got ${x.length}`, 2);
        const idx = A.invNum(m.layout, x[0], env);
        io.out(opts.json ? `${JSON.stringify(idx.map(Number))}\n` : `${idx.join(',')}\n`);
      } else {
        const t = A.applyTable(m.layout, env);
        const dims = A.dims(m.layout).map((d) => A.evalDim(d, env));
        if (opts.json) io.out(`${JSON.stringify({ shape: dims, table: t })}\n`);
        else {
          const row = dims[dims.length - 1] ?? 1;
          const w = Math.max(...t.map((v) => String(v).length));
          for (let i = 0; i < t.length; i += row) io.out(t.slice(i, i + row).map((v) => String(v).padStart(w)).join(' ') + '\n');
        }
      }
    } catch (e) {
      if (e instanceof A.AlgebraError) throw new CliFailure(`${name}: ${e.message}`, 1);
      throw e;
    }
    return 0;
  });
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** Adds `eval` to the CLI. */
export function registerEval(program: Command): void {
  program
    .command('eval')
    .description('evaluate a layout numerically: apply, inv, or its whole table')
    .argument('<file>', 'the .layout file')
    .argument('<layout>', 'the layout name')
    .option('--apply <indices>', 'logical index, e.g. 4,2: prints the physical flat index')
    .option('--inv <flat>', 'physical flat index: prints the logical index')
    .option('--table', 'print the whole apply table (row-major in the logical index space)')
    .option('--json', 'print JSON')
    .option('--set <name=value>', 'override a param (repeatable)', collect)
    .action((file: string, layout: string, opts: EvalOptions) => {
      process.exitCode = runEval(file, layout, opts, {
        out: (text) => process.stdout.write(text),
        err: (line) => process.stderr.write(line + '\n'),
      });
    });
}
