// The server binary's own command line: `node dist/server.js --version|--help` print and exit 0, a missing
// transport or an unknown option is one line and exit 2 (no stack trace); package.json ships it as the
// `layout-language-server` bin, an executable script with a node shebang.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildServer, root, serverPath } from './harness.js';
import { HELP } from '../../server/src/lsp/command-line.js';

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };

function server(...args: string[]) {
  const r = spawnSync(process.execPath, [serverPath, ...args], { encoding: 'utf8', input: '', timeout: 10_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

before(() => buildServer());

test('--version and -v print the name and version, exit 0', () => {
  for (const flag of ['--version', '-v']) assert.deepEqual(server(flag), { code: 0, out: `layout-language-server ${pkg.version}\n`, err: '' });
  // even next to a transport: an editor's "check the server" probe must not start a session
  assert.deepEqual(server('--stdio', '--version'), { code: 0, out: `layout-language-server ${pkg.version}\n`, err: '' });
});

test('--help and -h print the usage, exit 0', () => {
  for (const flag of ['--help', '-h']) assert.deepEqual(server(flag), { code: 0, out: HELP, err: '' });
  assert.match(HELP, /^Usage: layout-language-server --stdio \| --node-ipc \| --socket=PORT \| --pipe=NAME\n/);
});

test('no transport, or an unknown option: one line on stderr, exit 2', () => {
  assert.deepEqual(server(), { code: 2, out: '', err: 'layout-language-server: give a transport: --stdio, --node-ipc, --socket=PORT or --pipe=NAME (try --help)\n' });
  assert.deepEqual(server('--stdio', '--frob'), { code: 2, out: '', err: "layout-language-server: unknown option '--frob' (try --help)\n" });
});

test('--stdio with --clientProcessId serves, and exits when its input closes', () => {
  const r = spawnSync(process.execPath, [serverPath, '--stdio', `--clientProcessId=${process.pid}`], { encoding: 'utf8', input: '', timeout: 10_000 });
  assert.equal(r.error, undefined);
  assert.equal(r.stderr, '');
});

test('package.json ships the server as the layout-language-server bin: executable, with a node shebang', () => {
  assert.deepEqual(pkg.bin, { layout: './dist/cli.js', 'layout-language-server': './dist/server.js' });
  for (const file of Object.values(pkg.bin)) {
    const path = join(root, file);
    assert.ok(readFileSync(path, 'utf8').startsWith('#!/usr/bin/env node\n'), file);
    assert.ok((statSync(path).mode & 0o111) !== 0, `${file} is executable`);
  }
  const direct = spawnSync(join(root, pkg.bin['layout-language-server']), ['--version'], { encoding: 'utf8' });
  assert.equal(direct.stdout, `layout-language-server ${pkg.version}\n`);
});
