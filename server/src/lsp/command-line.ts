// The server binary's own command line (`layout-language-server`, `node dist/server.js`): --version and
// --help print and exit 0; a missing transport or an unknown option prints one line and exits 2 instead of
// vscode-languageserver's stack trace. The transports are the ones createConnection() reads from argv.
import pkg from '../../../package.json' with { type: 'json' };

export const SERVER_NAME = 'layout-language-server';

export const HELP = `Usage: ${SERVER_NAME} --stdio | --node-ipc | --socket=PORT | --pipe=NAME

The language server for .layout files (LEGO layouts and PEAK-style schedules), speaking the
Language Server Protocol. Editors start it; see docs/editors.md for Neovim, Emacs and Helix.

Options:
  --stdio            talk over standard input and output (most editors)
  --node-ipc         talk over Node's IPC channel (VS Code)
  --socket=PORT      connect to a TCP port on localhost
  --pipe=NAME        connect to a named pipe or Unix socket
  --clientProcessId=PID
                     exit when that process exits (editors pass it)
  -v, --version      print the version and exit
  -h, --help         print this help and exit
`;

export type CommandLine = { action: 'serve' } | { action: 'exit'; code: 0 | 2; stdout?: string; stderr?: string };

const transport = /^--(stdio|node-ipc|socket=\d+|pipe=.+)$/;
const known = /^--(clientProcessId=\d+|inspect.*|nolazy)$/;

/** What the server does with its arguments (`process.argv.slice(2)`). */
export function commandLine(args: readonly string[]): CommandLine {
  if (args.includes('--version') || args.includes('-v')) return { action: 'exit', code: 0, stdout: `${SERVER_NAME} ${pkg.version}\n` };
  if (args.includes('--help') || args.includes('-h')) return { action: 'exit', code: 0, stdout: HELP };
  let hasTransport = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (transport.test(a)) hasTransport = true;
    else if ((a === '--socket' || a === '--pipe') && i + 1 < args.length) { hasTransport = true; i++; }
    else if (a === '--clientProcessId' && i + 1 < args.length) i++;
    else if (!known.test(a)) return { action: 'exit', code: 2, stderr: `${SERVER_NAME}: unknown option '${a}' (try --help)\n` };
  }
  if (!hasTransport) return { action: 'exit', code: 2, stderr: `${SERVER_NAME}: give a transport: --stdio, --node-ipc, --socket=PORT or --pipe=NAME (try --help)\n` };
  return { action: 'serve' };
}
