// No document in the repository points at a file outside it: every relative link of every Markdown file
// resolves to a file or folder inside the repository, and no file names the shared notes, seeds or
// examples that lived next to the repository during development (or an absolute /work/ path).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const skipDirs = new Set(['node_modules', 'dist', '.git', 'out', 'test/out', 'bench/out', '.cache']);
const textFile = /\.(md|ts|mjs|js|json|layout|lua|vim|el|toml|py|cu|tmpl|txt|yml|yaml)$|^(run|\.gitignore|\.vscodeignore)$/;

function files(dir = root): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    const rel = relative(root, p).split(sep).join('/');
    if (e.isDirectory()) {
      if (skipDirs.has(e.name) || skipDirs.has(rel) || (e.name.startsWith('.') && e.name !== '.ci')) continue;
      out.push(...files(p));
    } else if (e.isFile() && textFile.test(e.name) && rel !== 'package-lock.json') out.push(rel);
  }
  return out;
}

const all = files();

test('relative links in Markdown files resolve inside the repository', () => {
  const bad: string[] = [];
  for (const f of all.filter((x) => x.endsWith('.md'))) {
    const text = readFileSync(join(root, f), 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const m of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1];
      if (/^(https?:|mailto:|#|vscode:|command:)/.test(target)) continue;
      const path = resolve(dirname(join(root, f)), decodeURIComponent(target.split('#')[0]));
      const inside = !relative(root, path).startsWith('..');
      if (!inside || !existsSync(path)) bad.push(`${f}: ${target}`);
    }
  }
  assert.deepEqual(bad, []);
});

test('no file names the development notes outside the repository, or a /work/ path', () => {
  const pattern = /\/work\/|\b(?:shared\/)?(?:notes|seeds)\/[\w.-]+\.(?:md|pdf|txt)|shared\/(?:notes|examples|seeds)\b/;
  const bad: string[] = [];
  for (const f of all) {
    if (f.startsWith('bench/results/') || f === 'test/arch/references.test.ts') continue; // recorded tool output; this test
    readFileSync(join(root, f), 'utf8').split('\n').forEach((line, i) => {
      if (pattern.test(line)) bad.push(`${f}:${i + 1}: ${line.trim().slice(0, 120)}`);
    });
  }
  assert.deepEqual(bad, []);
});

test('the checks see the repository (they can fail)', () => {
  assert.ok(all.includes('README.md') && all.includes('docs/cli.md') && all.includes('examples/matmul.layout'));
  assert.ok(all.length > 100, `${all.length} files`);
});
