// Architecture invariant: each layer imports only the layers above it, the npm packages it is
// allowed, and the Node built-ins it is allowed (see ARCHITECTURE.md). Reads every import of
// every source file (static, side-effect, re-export, dynamic, require) and fails on a forbidden
// edge. The self-tests push forbidden imports through the same reader and checker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, dirname, resolve, relative, sep } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

interface Layer {
  dir: string;
  /** layers it may import */
  mayImport: string[];
  /** npm packages it may import */
  packages: RegExp;
  /** Node built-ins (`node:NAME`) it may import; the pure layers none */
  builtins: readonly string[];
}

const PURE: readonly string[] = [];
const ANY_BUILTIN = ['*'];

/** layer name -> what it may import */
const layers: Record<string, Layer> = {
  expr: { dir: 'server/src/expr', mayImport: [], packages: /^$/, builtins: PURE },
  algebra: { dir: 'server/src/algebra', mayImport: ['expr'], packages: /^$/, builtins: PURE },
  f2: { dir: 'server/src/f2', mayImport: ['expr'], packages: /^$/, builtins: PURE },
  grammar: { dir: 'grammar/src', mayImport: [], packages: /^chevrotain$/, builtins: PURE },
  check: { dir: 'server/src/check', mayImport: ['expr', 'algebra', 'f2', 'grammar'], packages: /^$/, builtins: PURE },
  // pure functions returning file contents: path arithmetic only (see MLIR_TOOLS for the one exception)
  codegen: { dir: 'server/src/codegen', mayImport: ['expr', 'algebra', 'f2', 'grammar', 'check'], packages: /^$/, builtins: ['path'] },
  // the picture's drawing (grid, colours, SVG, text): pure, shared by the service, the CLI and the client
  picture: { dir: 'server/src/picture', mayImport: ['lsp-protocol'], packages: /^$/, builtins: PURE },
  service: { dir: 'server/src/service', mayImport: ['expr', 'algebra', 'f2', 'grammar', 'check', 'codegen', 'picture', 'lsp-protocol'], packages: /^$/, builtins: ANY_BUILTIN },
  lsp: { dir: 'server/src/lsp', mayImport: ['expr', 'algebra', 'f2', 'grammar', 'check', 'codegen', 'service', 'picture', 'lsp-protocol'], packages: /^vscode-languageserver/, builtins: ANY_BUILTIN },
  cli: { dir: 'server/src/cli', mayImport: ['expr', 'algebra', 'f2', 'grammar', 'check', 'codegen', 'service', 'picture', 'lsp-protocol'], packages: /^commander$/, builtins: ANY_BUILTIN },
  client: { dir: 'client/src', mayImport: ['lsp-protocol', 'picture'], packages: /^(vscode$|vscode-languageclient)/, builtins: ANY_BUILTIN },
};

/**
 * The MLIR tool runner (spawns mlir-opt, writes temporary files): the one codegen module with I/O,
 * for the tests, the GPU artifact script and the CLI. Nothing the language server loads imports it.
 */
const MLIR_TOOLS = 'server/src/codegen/mlir/tools.ts';
const MLIR_TOOLS_BUILTINS = ['child_process', 'fs', 'os', 'path'];

function rel(file: string): string {
  return relative(root, file).split(sep).join('/');
}

function layerOf(file: string): string | undefined {
  const r = rel(file);
  if (r === 'server/src/lsp/protocol.ts') return 'lsp-protocol';
  for (const [name, l] of Object.entries(layers)) if (r.startsWith(l.dir + '/')) return name;
  return undefined;
}

function sources(dir: string): string[] {
  let out: string[] = [];
  let names: string[];
  try { names = readdirSync(dir); } catch { return out; }
  for (const n of names) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out = out.concat(sources(p));
    else if (/\.(ts|mts|cts)$/.test(n) && !n.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

// `import ... from 'x'`, `export ... from 'x'` (over several lines too), `import 'x'`,
// `import x = require('x')`, `import('x')`, `require('x')`
const importRe = /(?:^|[\n;])\s*(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]|(?:^|[\n;])\s*import\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every module specifier a source text imports, in order. */
export function importsOf(text: string): string[] {
  // comments go first, so that an import in a comment is not one (a string keeps its slashes)
  const code = text.replace(/\/\*[\s\S]*?\*\/|(^|[^:'"\\])\/\/[^\n]*/g, (m, pre: string | undefined) => (m.startsWith('/*') ? m.replace(/[^\n]/g, ' ') : (pre ?? '')));
  return [...code.matchAll(importRe)].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4]);
}

const NODE_BUILTINS = new Set(['assert', 'buffer', 'child_process', 'crypto', 'events', 'fs', 'fs/promises', 'http', 'https', 'net', 'os', 'path', 'process',
  'readline', 'stream', 'timers', 'tty', 'url', 'util', 'v8', 'vm', 'worker_threads', 'zlib']);

/** The violations of one file's imports (`file` absolute, under `root`). */
export function violationsOf(file: string, specs: readonly string[]): string[] {
  const name = layerOf(file);
  if (name === undefined || name === 'lsp-protocol') return [];
  const l = layers[name];
  const out: string[] = [];
  const where = rel(file);
  for (const spec of specs) {
    if (spec.startsWith('.')) {
      const target = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
      if (rel(target) === MLIR_TOOLS && (name === 'service' || name === 'lsp')) {
        out.push(`${where}: ${name} must not import the MLIR tool runner (${spec})`);
        continue;
      }
      const tl = layerOf(target);
      if (tl === undefined || tl === name) continue;
      if (!l.mayImport.includes(tl)) out.push(`${where}: ${name} must not import ${tl} (${spec})`);
      continue;
    }
    const builtin = spec.startsWith('node:') ? spec.slice(5) : NODE_BUILTINS.has(spec) ? spec : undefined;
    if (builtin !== undefined) {
      const allowed = where === MLIR_TOOLS ? MLIR_TOOLS_BUILTINS : l.builtins;
      if (!allowed.includes('*') && !allowed.includes(builtin)) out.push(`${where}: ${name} must not import the Node built-in '${spec}'`);
      continue;
    }
    if (!l.packages.test(spec)) out.push(`${where}: ${name} must not import package '${spec}'`);
  }
  return out;
}

test('every import respects the layer order, the packages and the Node built-ins of its layer', () => {
  const violations: string[] = [];
  let checked = 0;
  for (const l of Object.values(layers)) {
    for (const file of sources(join(root, l.dir))) {
      const specs = importsOf(readFileSync(file, 'utf8'));
      checked += specs.length;
      violations.push(...violationsOf(file, specs));
    }
  }
  assert.ok(checked > 500, `only ${checked} imports were found: the walk is broken`);
  assert.deepEqual(violations, []);
});

test('the reader finds every form of import, and none in comments', () => {
  const text = [
    "import { a } from './a.js';",
    "import type {\n  B,\n  C,\n} from '../b.js';",
    "import './side-effect.js';",
    "export * from './c.js';",
    "export { d } from \"./d.js\";",
    "const fs = require('node:fs');",
    "const m = await import('./lazy.js');",
    "import x = require('os');",
    "// import { no } from './comment.js';",
    "/* import { no2 } from './block.js'; */",
    "const s = 'http://example.com'; import { e } from './e.js';",
  ].join('\n');
  assert.deepEqual(importsOf(text), ['./a.js', '../b.js', './side-effect.js', './c.js', './d.js', 'node:fs', './lazy.js', 'os', './e.js']);
});

test('the checker rejects forbidden edges pushed through the real reader', () => {
  const at = (p: string): string => join(root, p);
  const check = (p: string, src: string): string[] => violationsOf(at(p), importsOf(src));
  // a file system access in the pure layers
  for (const layer of ['server/src/expr', 'server/src/algebra', 'grammar/src', 'server/src/check', 'server/src/codegen']) {
    assert.deepEqual(check(`${layer}/x.ts`, "import { readFileSync } from 'node:fs';"), [`${layer}/x.ts: ${layerOf(at(`${layer}/x.ts`))} must not import the Node built-in 'node:fs'`]);
  }
  assert.deepEqual(check('server/src/check/x.ts', "import * as fs from 'fs';"), ["server/src/check/x.ts: check must not import the Node built-in 'fs'"]);
  assert.deepEqual(check('server/src/codegen/x.ts', "const cp = require('node:child_process');"), ["server/src/codegen/x.ts: codegen must not import the Node built-in 'node:child_process'"]);
  assert.deepEqual(check('server/src/codegen/x.ts', "import * as p from 'node:path';"), []);
  // a layer importing a later one, in every spelling
  assert.deepEqual(check('server/src/expr/x.ts', "export * from '../../../grammar/src/ast.js';"), ["server/src/expr/x.ts: expr must not import grammar (../../../grammar/src/ast.js)"]);
  assert.deepEqual(check('server/src/check/x.ts', "const s = await import('../service/hover.js');"), ["server/src/check/x.ts: check must not import service (../service/hover.js)"]);
  assert.deepEqual(check('server/src/check/x.ts', "import '../lsp/server.js';"), ["server/src/check/x.ts: check must not import lsp (../lsp/server.js)"]);
  // packages, and the MLIR tool runner from the server
  assert.deepEqual(check('grammar/src/x.ts', "import { Connection } from 'vscode-languageserver';"), ["grammar/src/x.ts: grammar must not import package 'vscode-languageserver'"]);
  assert.deepEqual(check('server/src/service/x.ts', "import { verify } from '../codegen/mlir/tools.js';"), ['server/src/service/x.ts: service must not import the MLIR tool runner (../codegen/mlir/tools.js)']);
  // what is allowed stays allowed
  assert.deepEqual(check('server/src/check/x.ts', "import * as X from '../expr/index.js';\nimport type { File } from '../../../grammar/src/ast.js';"), []);
  assert.deepEqual(check('server/src/service/x.ts', "import { readFileSync } from 'node:fs';"), []);
});
