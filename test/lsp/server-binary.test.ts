// The server binary's own command line: `node dist/server.js --version|--help` print and exit 0, a missing
// transport or an unknown option is one line and exit 2 (no stack trace); package.json ships it as the
// `layout-language-server` bin, an executable script with a node shebang, which loads the server's bundle
// through the code cache the build wrote (server/src/lsp/bootstrap.ts).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

test('its input ended, the server exits at once: 0 when a shutdown request came, else 1 (as the library does for its own --stdio)', () => {
  const frame = (o: object) => {
    const b = JSON.stringify({ jsonrpc: '2.0', ...o });
    return `Content-Length: ${Buffer.byteLength(b)}\r\n\r\n${b}`;
  };
  const init = frame({ id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
  const run = (input: string) => spawnSync(process.execPath, [serverPath, '--stdio'], { encoding: 'utf8', input, timeout: 10_000 });
  const shut = run(init + frame({ id: 2, method: 'shutdown' }));
  assert.equal(shut.status, 0, shut.stderr);
  assert.equal(run(init).status, 1);
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

test('dist/server.js loads the bundle through its code cache: written on request, used, not trusted for another bundle, refused when wrong', () => {
  assert.ok(existsSync(join(root, 'dist', 'server-bundle.cache')), 'the build writes the code cache');
  // in a folder of its own (other test files may be building dist/ meanwhile)
  const dir = mkdtempSync(join(tmpdir(), 'layout-cache-'));
  for (const f of ['server.js', 'server-bundle.js', 'package.json']) copyFileSync(join(root, 'dist', f), join(dir, f));
  const version = (env: Record<string, string> = {}) => {
    const r = spawnSync(process.execPath, [join(dir, 'server.js'), '--version'], { encoding: 'utf8', env: { ...process.env, LAYOUT_CODE_CACHE_DEBUG: '1', ...env } });
    return { out: r.stdout, err: r.stderr };
  };
  const out = `layout-language-server ${pkg.version}\n`;
  assert.deepEqual(version(), { out, err: 'code cache: absent\n' });
  assert.deepEqual(version({ LAYOUT_WRITE_CODE_CACHE: '1' }), { out, err: 'code cache: absent\n' });
  assert.deepEqual(version(), { out, err: 'code cache: used\n' });
  // the bundle changed (another modification time): the cache is not trusted
  const bundle = join(dir, 'server-bundle.js');
  utimesSync(bundle, new Date(), new Date(Date.now() + 5000));
  assert.deepEqual(version(), { out, err: 'code cache: stale\n' });
  // a cache that claims to be this bundle's but holds something else: V8 refuses it
  const st = statSync(bundle);
  writeFileSync(join(dir, 'server-bundle.cache'), JSON.stringify({ size: st.size, mtimeMs: st.mtimeMs, v8: process.versions.v8 }) + '\nnot a cache');
  assert.deepEqual(version(), { out, err: 'code cache: rejected\n' });
  rmSync(dir, { recursive: true, force: true });
});
