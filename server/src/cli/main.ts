// The `layout` command line. Each subcommand lives in its own file and exports a
// `registerX(program)`; add new ones to `subcommands`. Usage errors (unknown command or option,
// missing argument) print ONE line on stderr and exit with status 2.
import { Command, CommanderError } from 'commander';
import pkg from '../../../package.json' with { type: 'json' };
import { registerCheck } from './check.js';
import { registerEmit } from './emit.js';
import { registerEval } from './eval.js';
import { registerExpr } from './expr.js';
import { registerFmt } from './fmt.js';
import { registerLinear } from './linear.js';
import { registerShow } from './show.js';

const subcommands: ((program: Command) => void)[] = [registerCheck, registerEmit, registerEval, registerExpr, registerFmt, registerShow, registerLinear];

export function buildProgram(): Command {
  const program = new Command('layout')
    .description('checks and code generation for .layout files (LEGO layouts and PEAK-style schedules)')
    .version(pkg.version, '-v, --version')
    .helpOption('-h, --help', 'show help')
    .exitOverride()
    // commander prints usage errors with help text; we print one line ourselves (see run)
    .configureOutput({ writeErr: () => {}, outputError: () => {} })
    .showSuggestionAfterError(true);
  for (const register of subcommands) register(program);
  return program;
}

/** Runs the CLI on `argv` (user arguments only); returns the exit status. */
export function run(argv: string[], err: (line: string) => void): number {
  if (argv.length === 0) {
    err(`layout: missing command (try 'layout --help')`);
    return 2;
  }
  try {
    buildProgram().parse(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.exitCode === 0) return 0; // --help, --version
      // commander's message may carry a second line `(Did you mean check?)`: keep one line
      const msg = e.message.replace(/^error:\s*/i, '').split('\n').map((l) => l.trim()).filter(Boolean).join(' ');
      err(`layout: ${msg === '(outputHelp)' ? `missing command (try 'layout --help')` : msg}`);
      return 2;
    }
    err(`layout: internal error: ${e instanceof Error ? e.message : String(e)}`);
    return 70;
  }
}

// A reader that stops early (`layout check ... | head`) closes the pipe: stop quietly, as Unix tools do.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});
process.exitCode = run(process.argv.slice(2), (line) => process.stderr.write(line + '\n'));
