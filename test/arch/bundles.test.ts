// The shipped programs are self-contained esbuild bundles: package.json has no runtime `dependencies`
// (everything bundled is a devDependency), and dist/cli.js and dist/server.js run from a folder with no
// node_modules anywhere above it (the analysis worker thread included).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildServer, root } from '../lsp/harness.js';

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
let dir = '';

before(() => {
  buildServer();
  dir = mkdtempSync(join(tmpdir(), 'layout-bundle-'));
  for (const f of ['cli.js', 'server.js', 'server-bundle.js', 'package.json']) copyFileSync(join(root, 'dist', f), join(dir, f));
});

test('package.json: no runtime dependencies; the bundled packages are devDependencies', () => {
  assert.equal(pkg.dependencies, undefined);
  for (const p of ['chevrotain', 'commander', 'vscode-languageclient', 'vscode-languageserver', 'vscode-languageserver-textdocument']) {
    assert.ok(pkg.devDependencies[p], `${p} is a devDependency`);
  }
});

test('dist/cli.js runs without node_modules', () => {
  writeFileSync(join(dir, 'a.layout'), 'param M = 4\nlayout L = Rw(M, M)\n');
  const r = spawnSync(process.execPath, [join(dir, 'cli.js'), 'check', 'a.layout'], { cwd: dir, encoding: 'utf8' });
  assert.deepEqual({ code: r.status, out: r.stdout }, { code: 1, out: "a.layout:2:12: error: unknown name 'Rw' (did you mean 'Row'?) [name/undefined]\n" });
});

test('dist/server.js runs without node_modules: initialize, and diagnostics from its analysis worker', () => {
  const body = (o: unknown) => {
    const s = JSON.stringify(o);
    return `Content-Length: ${Buffer.byteLength(s)}\r\n\r\n${s}`;
  };
  const uri = 'file:///x/a.layout';
  // the server answers, analyses the document in its worker, publishes, then exits on `exit`
  const script = `
    const { spawn } = require('node:child_process');
    const p = spawn(process.execPath, [${JSON.stringify(join(dir, 'server.js'))}, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d) => {
      out += d;
      if (out.includes('publishDiagnostics')) {
        p.stdin.write(${JSON.stringify(body({ jsonrpc: '2.0', id: 2, method: 'shutdown' }))});
        p.stdin.end(${JSON.stringify(body({ jsonrpc: '2.0', method: 'exit' }))});
      }
    });
    p.on('exit', () => { process.stdout.write(out); });
    p.stdin.write(${JSON.stringify(body({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } }))});
    p.stdin.write(${JSON.stringify(body({ jsonrpc: '2.0', method: 'initialized', params: {} }))});
    p.stdin.write(${JSON.stringify(body({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'layout', version: 1, text: 'layout L = Rw(2, 2)\n' } } }))});
    setTimeout(() => { p.kill(); }, 20000).unref();
  `;
  const r = spawnSync(process.execPath, ['-e', script], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
  assert.match(r.stdout, /"serverInfo":\{"name":"layout-language-server"|"capabilities":\{/);
  const published = r.stdout.split(/Content-Length: \d+\r\n\r\n/).filter((m) => m.includes('publishDiagnostics')).map((m) => JSON.parse(m));
  assert.ok(published.length >= 1, r.stdout + r.stderr);
  assert.deepEqual(published.at(-1).params.diagnostics.map((d: { code: string; range: unknown }) => [d.code, d.range]), [
    ['name/undefined', { start: { line: 0, character: 11 }, end: { line: 0, character: 13 } }],
  ]);
});

test('dist/server-bundle.js is one-byte text (V8 keeps its source in each of the server\'s two isolates: two bytes per character otherwise)', () => {
  const bundle = readFileSync(join(root, 'dist', 'server-bundle.js'), 'utf8');
  const wide = /[^\x00-\xff]/.exec(bundle);
  assert.equal(wide, null, wide ? `a character beyond Latin-1 at ${wide.index}: ${bundle.slice(wide.index - 40, wide.index + 40)}` : '');
});
