// Bundles the language server, the CLI and the VS Code client into dist/ with esbuild.
// `node scripts/build.mjs [--production]`
import * as esbuild from 'esbuild';
import { existsSync, mkdirSync, chmodSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';

const production = process.argv.includes('--production');
const entries = [
  // the language server; dist/server.js (the `layout-language-server` bin, and the analysis worker's
  // entry) loads it through V8's code cache, written below (server/src/lsp/bootstrap.ts)
  { in: 'server/src/lsp/server.ts', out: 'dist/server-bundle.js' },
  { in: 'server/src/lsp/bootstrap.ts', out: 'dist/server.js', banner: '#!/usr/bin/env node' },
  { in: 'server/src/cli/main.ts', out: 'dist/cli.js', banner: '#!/usr/bin/env node' },
  { in: 'client/src/extension.ts', out: 'dist/extension.js', external: ['vscode'] },
  // the layout picture webview's script: runs in the webview (a browser), not in Node
  { in: 'client/src/webview/main.ts', out: 'dist/webview.js', platform: 'browser', format: 'iife' },
  // the real-VS-Code test suite (test/e2e/run.mjs); not part of a --production (packaged) build
  { in: 'test/e2e/suite/index.ts', out: 'dist/test/e2e-suite.js', external: ['vscode'], dev: true },
];
mkdirSync('dist', { recursive: true });
// The package is ESM ("type": "module"); the bundles are CommonJS, as VS Code's extension host loads them.
writeFileSync('dist/package.json', '{ "type": "commonjs" }\n');
for (const e of entries) {
  if (!existsSync(e.in) || (production && e.dev)) continue;
  await esbuild.build({
    entryPoints: [e.in],
    outfile: e.out,
    bundle: true,
    platform: e.platform ?? 'node',
    target: e.platform === 'browser' ? 'es2022' : 'node20',
    format: e.format ?? 'cjs',
    sourcemap: !production,
    minify: production,
    external: e.external ?? [],
    banner: e.banner ? { js: e.banner } : undefined,
    logLevel: 'warning',
  });
  if (e.banner) chmodSync(e.out, 0o755);
}

// The server bundle as one-byte text: V8 holds a script's source in every isolate (the server has two),
// and a single character beyond Latin-1 makes it two bytes per character (3 MB instead of 1.5). esbuild
// writes strings, templates, regular expressions and names in ASCII (its default charset), so such a
// character can only be in a comment it kept: replaced by '?' (one per UTF-16 unit: the source map's
// columns stay right).
{
  const bundle = readFileSync('dist/server-bundle.js', 'utf8');
  if (/[^\x00-\xff]/.test(bundle)) writeFileSync('dist/server-bundle.js', bundle.replace(/[^\x00-\xff]/g, '?'));
}

// The server's code cache: the server run with LAYOUT_WRITE_CODE_CACHE set writes
// dist/server-bundle.cache at exit. It runs through `initialize`, then 3 s idle while both warm-ups run
// on its main thread (the worker's too, there: server.ts), so that the cache holds the code of an
// analysis and of a request compiled, not only start-up's: a first open of 500 lines right after
// `initialize`, first diagnostics p50 27-30 -> 21-22 ms (3 runs of 8 fresh servers; the main thread
// computes that first stage); the cache grows from 0.8 to 1.6 MB, start-up unchanged (112-116 ms
// either way, 6 fresh servers). It is valid for this Node's V8 only (another V8, e.g. an editor's own
// Node, compiles the bundle as usual); a failure here only costs start-up time, so it is reported and
// the build goes on.
rmSync('dist/server-bundle.cache', { force: true });
const frame = (o) => {
  const s = JSON.stringify(o);
  return `Content-Length: ${Buffer.byteLength(s)}\r\n\r\n${s}`;
};
const cacheRun = await cacheServerRun(Number(process.env.LAYOUT_CODE_CACHE_WAIT_MS ?? 3000));
if (!existsSync('dist/server-bundle.cache')) console.warn(`the server's code cache was not written (the server compiles its bundle at every start):\n${cacheRun.stderr ?? ''}${cacheRun.error ?? ''}`);

/**
 * Runs the server through `initialize`, then `waitMs` idle (its warm-ups run meanwhile), then
 * `shutdown` and `exit`, with LAYOUT_WRITE_CODE_CACHE set (bootstrap.ts writes the cache at exit).
 */
function cacheServerRun(waitMs) {
  return new Promise((done) => {
    const p = spawn(process.execPath, ['dist/server.js', '--stdio'], { env: { ...process.env, LAYOUT_WRITE_CODE_CACHE: '1', LAYOUT_MAIN_WARM_UP_DELAY_MS: '0' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    let error;
    p.stderr.on('data', (d) => (stderr += d));
    p.stdout.on('data', () => undefined);
    p.on('error', (e) => (error = e));
    const kill = setTimeout(() => p.kill(), 60_000 + waitMs);
    p.on('close', () => {
      clearTimeout(kill);
      done({ stderr, error });
    });
    p.stdin.write(frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } }));
    p.stdin.write(frame({ jsonrpc: '2.0', method: 'initialized', params: {} }));
    setTimeout(() => {
      p.stdin.write(frame({ jsonrpc: '2.0', id: 2, method: 'shutdown' }));
      p.stdin.end(frame({ jsonrpc: '2.0', method: 'exit' }));
    }, waitMs);
  });
}
