// The TextMate grammar, language configuration and snippets that package.json contributes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { lookupTarget } from '../../server/src/check/targets.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cases } from './cases.js';
import { caretLine, columnOf, generatedDir, render } from './generate.js';

const tool = join('node_modules', 'vscode-tmgrammar-test', 'dist', 'unit.js');
const runTool = (...files: string[]) => spawnSync(process.execPath, [tool, '--compact', ...files], { encoding: 'utf8' });
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

test('caret lines: computed columns, <- for column 0, whole words only', () => {
  assert.equal(columnOf('perm antidiag(n)[i, j] =', 'n'), 14);
  assert.equal(columnOf('a, b = A[a, :, 0:BK]', ':', 2), 16);
  assert.equal(columnOf('x = A.apply(i)', 'apply'), 6);
  assert.throws(() => columnOf('let pid_m = 1', 'pid'), /"pid" \(occurrence 1\) is not in/);
  assert.equal(caretLine(0, 5, 'kw'), '# <----- kw');
  assert.equal(caretLine(3, 2, 'a.b - c'), '#  ^^ a.b - c');
});

test('generated assertion files are up to date with cases.ts (npx tsx test/grammar-tm/generate.ts)', () => {
  for (const c of cases) {
    assert.equal(readFileSync(join(generatedDir, `${c.name}.layout`), 'utf8'), render(c), `${c.name}.layout is stale`);
  }
});

test('vscode-tmgrammar-test: every scope assertion holds', () => {
  const r = runTool(...cases.map((c) => join(generatedDir, `${c.name}.layout`)));
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const n = cases.reduce((k, c) => k + c.lines.reduce((m, l) => m + l.expect.length, 0), 0);
  assert.ok(n >= 100, `only ${n} assertions`);
});

test('vscode-tmgrammar-test fails on a wrong scope (the check can fail)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tm-'));
  try {
    const file = join(dir, 'wrong.layout');
    writeFileSync(file, render({ name: 'wrong', description: 'wrong', lines: [{ src: 'layout A = Row(4, 8)', expect: [['Row', 'keyword.control.conditional.layout']] }] }));
    const r = runTool(file);
    assert.notEqual(r.status, 0);
    assert.match(r.stdout + r.stderr, /wrong\.layout:2:12:15 Missing required scopes: \[ keyword\.control\.conditional\.layout \] actual scopes: \[source\.layout support\.class\.constructor\.layout\]/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('package.json contributes the language, grammar, snippets and configuration files', () => {
  const c = pkg.contributes;
  assert.deepEqual(c.languages[0].extensions, ['.layout']);
  assert.equal(c.grammars[0].scopeName, 'source.layout');
  const grammar = JSON.parse(readFileSync(c.grammars[0].path, 'utf8'));
  assert.equal(grammar.scopeName, 'source.layout');
  const conf = JSON.parse(readFileSync(c.languages[0].configuration, 'utf8'));
  assert.deepEqual(conf.comments, { lineComment: '#' });
  assert.deepEqual(conf.brackets, [['{', '}'], ['[', ']'], ['(', ')']]);
  const snippets = JSON.parse(readFileSync(c.snippets[0].path, 'utf8'));
  const prefixes = Object.values(snippets as Record<string, { prefix: string }>).map((s) => s.prefix).sort();
  assert.deepEqual(prefixes, ['const', 'kernel', 'layout', 'layoutgroup', 'param', 'perm', 'schedule', 'schedule-tc']);
  assert.deepEqual(c.commands.map((x: { command: string }) => x.command).sort(), [
    'layout.emitCuda', 'layout.emitMlir', 'layout.emitTriton', 'layout.openExample', 'layout.restartServer', 'layout.showLayout', 'layout.showOutput',
  ]);
  assert.deepEqual(Object.keys(c.configuration.properties).sort(), [
    'layout.codeLens.enabled', 'layout.diagnostics.debounceMs', 'layout.emit.outputFolder', 'layout.genp.checkBudget', 'layout.gpuTarget', 'layout.hover.language',
    'layout.inlayHints.enabled', 'layout.inlayHints.maxLength', 'layout.trace.server',
  ]);
});

test('package.json as published: icon, repository, keywords, limited untrusted support, task, problem matcher, walkthrough', () => {
  assert.equal(pkg.icon, 'media/icon.png');
  assert.ok(existsSync(pkg.icon));
  assert.equal(pkg.repository.type, 'git');
  assert.ok(pkg.keywords.includes('LEGO') && pkg.keywords.length <= 30);
  assert.equal(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
  assert.deepEqual(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations, ['layout.emit.outputFolder']);
  const c = pkg.contributes;
  // every gpuTarget choice is a target the server knows
  assert.deepEqual(c.configuration.properties['layout.gpuTarget'].enum, ['sm_80', 'sm_86', 'sm_89', 'sm_90', 'cpu']);
  for (const t of c.configuration.properties['layout.gpuTarget'].enum) assert.ok(lookupTarget(t), t);
  assert.equal(c.configuration.properties['layout.gpuTarget'].enumDescriptions.length, 5);
  // emit commands: only where the file declares the target, and only in a trusted workspace
  for (const m of c.menus.commandPalette.filter((x: { command: string }) => x.command.startsWith('layout.emit'))) {
    assert.match(m.when, /isWorkspaceTrusted && layout\.emitTargets =~ \/(triton|cuda|mlir)\//);
  }
  assert.deepEqual(c.taskDefinitions.map((t: { type: string }) => t.type), ['layout']);
  // the problem matcher reads `layout check` lines
  const pm = c.problemMatchers[0];
  assert.equal(pm.name, 'layout');
  const m = new RegExp(pm.pattern.regexp).exec('dir/a.layout:3:14: error: tile size BM = 100 does not divide M = 4096 [tile/not-divisible]')!;
  assert.deepEqual([m[pm.pattern.file], m[pm.pattern.line], m[pm.pattern.column], m[pm.pattern.severity], m[pm.pattern.message], m[pm.pattern.code]],
    ['dir/a.layout', '3', '14', 'error', 'tile size BM = 100 does not divide M = 4096', 'tile/not-divisible']);
  const w = c.walkthroughs[0];
  assert.deepEqual(w.steps.map((s: { id: string }) => s.id), ['openExample', 'checks', 'picture', 'emit']);
  for (const s of w.steps) assert.ok(existsSync(s.media.image), `walkthrough image ${s.media.image}`);
});

test('the packaged README (README.marketplace.md) links only files the .vsix carries', () => {
  const packed = readFileSync('.vscodeignore', 'utf8').split('\n').filter((l) => l.startsWith('!')).map((l) => l.slice(1));
  const md = readFileSync('README.marketplace.md', 'utf8');
  const links = [...md.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
  assert.ok(links.length >= 3, 'the README shows its pictures');
  for (const l of links) {
    assert.ok(!/^[a-z]+:/i.test(l), `absolute link ${l}: it does not work inside the .vsix`);
    assert.ok(packed.includes(l) && existsSync(l), `${l} is not packed (.vscodeignore) or does not exist`);
  }
  // the README is packed as readme.md through --readme-path, never the developer README
  assert.ok(!packed.includes('README.md'));
  assert.match(pkg.scripts.package, /--readme-path README\.marketplace\.md/);
});

test('indentation rules indent after an open brace/bracket and outdent a closing one', () => {
  const conf = JSON.parse(readFileSync('language-configuration.json', 'utf8'));
  const inc = new RegExp(conf.indentationRules.increaseIndentPattern);
  const dec = new RegExp(conf.indentationRules.decreaseIndentPattern);
  assert.ok(inc.test('kernel k target triton builtin x {'));
  assert.ok(inc.test('layout A = OrderBy(  # open'));
  assert.ok(!inc.test('layout A = OrderBy(Row(4, 8))'));
  assert.ok(!inc.test('kernel k target triton builtin x { }'));
  assert.ok(dec.test('  }'));
  assert.ok(!dec.test('  x = A[i]'));
});
