// ```layout fences in Markdown: the injection grammar syntaxes/layout.markdown.tmLanguage.json, as
// package.json contributes it (injectTo text.html.markdown), checked with vscode-tmgrammar-test on
// test/grammar-tm/markdown-fences.md: against a stand-in Markdown grammar with no rules (always), and
// against VS Code's own Markdown grammar where code-server is installed (.ci/run installs it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

const tool = join('node_modules', 'vscode-tmgrammar-test', 'dist', 'unit.js');
const host = join('test', 'grammar-tm', 'fixtures', 'markdown-host.tmLanguage.json');
const cases = join('test', 'grammar-tm', 'markdown-fences.md');
const run = (grammar: string, file: string) => spawnSync(process.execPath, [tool, '--compact', '-g', grammar, file], { encoding: 'utf8' });
const vscodeMarkdown = join(homedir(), '.cache/layout-lang-e2e/code-server-4.100.3/node_modules/code-server/lib/vscode/extensions/markdown-basics/syntaxes/markdown.tmLanguage.json');

test('package.json injects the fence grammar into Markdown, embedding the layout language', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
  const g = pkg.contributes.grammars.find((x: { scopeName: string }) => x.scopeName === 'markdown.layout.codeblock');
  assert.deepEqual(g, {
    scopeName: 'markdown.layout.codeblock',
    path: './syntaxes/layout.markdown.tmLanguage.json',
    injectTo: ['text.html.markdown'],
    embeddedLanguages: { 'meta.embedded.block.layout': 'layout' },
  });
  const grammar = JSON.parse(readFileSync(g.path, 'utf8'));
  assert.equal(grammar.scopeName, g.scopeName);
  assert.equal(grammar.injectionSelector, 'L:text.html.markdown');
});

test('vscode-tmgrammar-test: every scope assertion of markdown-fences.md holds (stand-in Markdown grammar)', () => {
  const r = run(host, cases);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const assertions = readFileSync(cases, 'utf8').split('\n').filter((l) => /^<!-- *(\^|<)/.test(l)).length;
  assert.equal(assertions, 22);
});

test("vscode-tmgrammar-test: the same with VS Code's Markdown grammar", { skip: existsSync(vscodeMarkdown) ? false : `VS Code's Markdown grammar is not installed (${vscodeMarkdown}; test/e2e/install-code-server.sh)` }, () => {
  const r = run(vscodeMarkdown, cases);
  assert.equal(r.status, 0, r.stdout);
});

test('a wrong expectation fails (the check can fail)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tm-md-'));
  try {
    const file = join(dir, 'wrong.md');
    writeFileSync(file, '<!-- SYNTAX TEST "text.html.markdown" "wrong"\n```layout\nparam M = 4\n<!-- <----- comment.line.number-sign.layout\n```\n');
    const r = run(host, file);
    assert.notEqual(r.status, 0);
    assert.match(r.stdout, /wrong\.md:3:1:6 Missing required scopes: \[ comment\.line\.number-sign\.layout \] actual scopes: \[text\.html\.markdown markup\.fenced_code\.block\.markdown meta\.embedded\.block\.layout keyword\.declaration\.param\.layout\]/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the packaged extension keeps the fence grammar (.vscodeignore lets it through)', () => {
  const lines = readFileSync('.vscodeignore', 'utf8').split('\n');
  assert.ok(lines.includes('!syntaxes/layout.markdown.tmLanguage.json'));
});
