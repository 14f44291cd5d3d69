// Architecture invariant: each layer imports only the layers above it (see ARCHITECTURE.md).
// Reads every import of every source file and fails on a forbidden edge.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, dirname, resolve, relative, sep } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

/** layer name -> layers (and packages) it may import */
const layers: Record<string, { dir: string; mayImport: string[]; packages: RegExp }> = {
  expr: { dir: 'server/src/expr', mayImport: [], packages: /^node:/ },
  algebra: { dir: 'server/src/algebra', mayImport: ['expr'], packages: /^node:/ },
  f2: { dir: 'server/src/f2', mayImport: ['expr'], packages: /^node:/ },
  grammar: { dir: 'grammar/src', mayImport: [], packages: /^(node:|chevrotain$)/ },
  check: { dir: 'server/src/check', mayImport: ['expr', 'algebra', 'f2', 'grammar'], packages: /^node:/ },
  codegen: { dir: 'server/src/codegen', mayImport: ['expr', 'algebra', 'f2', 'grammar', 'check'], packages: /^node:/ },
  // the picture's drawing (grid, colours, SVG, text): pure, shared by the service, the CLI and the client
  picture: { dir: 'server/src/picture', mayImport: ['lsp-protocol'], packages: /^$/ },
  service: { dir: 'server/src/service', mayImport: ['expr', 'algebra', 'f2', 'grammar', 'check', 'codegen', 'picture', 'lsp-protocol'], packages: /^node:/ },
  lsp: { dir: 'server/src/lsp', mayImport: ['expr', 'algebra', 'f2', 'grammar', 'check', 'codegen', 'service', 'picture', 'lsp-protocol'], packages: /^(node:|vscode-languageserver)/ },
  cli: { dir: 'server/src/cli', mayImport: ['expr', 'algebra', 'f2', 'grammar', 'check', 'codegen', 'service', 'picture', 'lsp-protocol'], packages: /^(node:|commander$)/ },
  client: { dir: 'client/src', mayImport: ['lsp-protocol', 'picture'], packages: /^(node:|vscode$|vscode-languageclient)/ },
};

function layerOf(file: string): string | undefined {
  const rel = relative(root, file).split(sep).join('/');
  if (rel === 'server/src/lsp/protocol.ts') return 'lsp-protocol';
  for (const [name, l] of Object.entries(layers)) if (rel.startsWith(l.dir + '/')) return name;
  return undefined;
}

function sources(dir: string): string[] {
  let out: string[] = [];
  let names: string[];
  try { names = readdirSync(dir); } catch { return out; }
  for (const n of names) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out = out.concat(sources(p));
    else if (/\.ts$/.test(n) && !n.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const importRe = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g;

test('every import respects the layer order', () => {
  const violations: string[] = [];
  let checked = 0;
  for (const [name, l] of Object.entries(layers)) {
    for (const file of sources(join(root, l.dir))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(importRe)) {
        const spec = m[1] ?? m[2] ?? m[3];
        checked++;
        if (spec.startsWith('.')) {
          const target = resolve(dirname(file), spec);
          const tl = layerOf(target.replace(/\.js$/, '.ts'));
          if (tl === undefined || tl === name) continue;
          if (!l.mayImport.includes(tl)) violations.push(`${relative(root, file)}: ${name} must not import ${tl} (${spec})`);
        } else if (!l.packages.test(spec)) {
          violations.push(`${relative(root, file)}: ${name} must not import package '${spec}'`);
        }
      }
    }
  }
  assert.ok(checked > 0, 'no imports were found: the walk is broken');
  assert.deepEqual(violations, []);
});

test('the layer check itself rejects a forbidden edge', () => {
  // expr importing the grammar must be flagged: guards against a check that cannot fail.
  assert.equal(layerOf(join(root, 'grammar/src/ast.ts')), 'grammar');
  assert.ok(!layers.expr.mayImport.includes('grammar'));
  assert.ok(!layers.grammar.packages.test('vscode-languageserver'));
});
