// Bundles the language server, the CLI and the VS Code client into dist/ with esbuild.
// `node scripts/build.mjs [--production]`
import * as esbuild from 'esbuild';
import { existsSync, mkdirSync, chmodSync, writeFileSync } from 'node:fs';

const production = process.argv.includes('--production');
const entries = [
  // also the `layout-language-server` bin (and, run as a worker thread, the analysis worker)
  { in: 'server/src/lsp/server.ts', out: 'dist/server.js', banner: '#!/usr/bin/env node' },
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
