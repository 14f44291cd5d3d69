// The real-VS-Code suite: runs inside VS Code's extension host (code-server's VS Code server, driven by
// test/e2e/run.mjs) against the extension from this checkout and its bundled language server.
// Bundled to dist/test/e2e-suite.js; VS Code calls `run()`; a rejection makes the run exit with code 1.
//
// Nothing is skipped: a server feature that is missing (not announced in `initialize`, or answered with
// "method not found") fails its test. A failing test asks the driver for a screenshot (test/out/).
import * as vscode from 'vscode';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LayoutExtensionApi } from '../../../client/src/extension.js';
import type { EmitResult, ShowLayoutArgs } from '../../../server/src/lsp/protocol.js';
import { tilesColumnMajor } from '../../client/fixtures.js';

const EXTENSION_ID = 'layout-tools.layout-lang';
const TEST_TIMEOUT_MS = 40_000;

interface Case {
  name: string;
  fn: () => Promise<void>;
}
const cases: Case[] = [];
const test = (name: string, fn: () => Promise<void>) => cases.push({ name, fn });

let api: LayoutExtensionApi;
const ws = () => vscode.workspace.workspaceFolders![0].uri;
const file = (name: string) => vscode.Uri.joinPath(ws(), name);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function assert(cond: unknown, message: string): asserts cond {
  if (!cond) throw new Error(message);
}
function assertEqual<T>(actual: T, expected: T, what: string) {
  const a = JSON.stringify(actual), e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v as T;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
}

let driverRequests = 0;

/**
 * Asks the driver (test/e2e/run.mjs) for a screenshot and/or to use the picture webview, and waits until it
 * is done. Returns what the driver reports (with `poke`: what it saw in the webview), or undefined after 20 s.
 */
type Step = { fill: string; value: string | number } | { select: string; value: string } | { click: string } | { hover: number } | { wait: string };

async function driver(req: { shot?: string; dir?: 'docs' | 'out'; poke?: boolean; cell?: number; steps?: Step[]; query?: string }): Promise<Record<string, unknown> | undefined> {
  const id = `r${++driverRequests}`;
  const done = join(ws().fsPath, '..', 'sync', `${id}.done`);
  console.log(`__driver__ ${JSON.stringify({ id, ...req })}`);
  const ok = await until(`the driver (${JSON.stringify(req)})`, () => existsSync(done) || undefined, 20_000).catch(() => undefined);
  if (!ok) return undefined;
  try {
    return JSON.parse(readFileSync(done, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** A screenshot for the docs (docs/images/<name>.png with --screenshots), without notifications in the way. */
async function screenshot(name: string, poke?: { cell: number }): Promise<Record<string, unknown> | undefined> {
  await vscode.commands.executeCommand('notifications.clearAll');
  return driver({ shot: name, dir: 'docs', ...(poke ? { poke: true, cell: poke.cell } : {}) });
}

/**
 * The cell the driver hovers in the picture tests: logical (ti, tj, i, j) = (1, 0, 3, 3), the 48th in logical
 * row-major order; drawn at row 7, column 3, so that its tooltip (below and right of the pointer) hides no cell.
 */
const HOVERED = 47;

async function open(name: string): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(file(name));
  return vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preview: false });
}

function place(editor: vscode.TextEditor, line: number, character: number) {
  const p = new vscode.Position(line, character);
  editor.selection = new vscode.Selection(p, p);
  editor.revealRange(new vscode.Range(p, p));
}

/** Position of `text` (whole) on `line` of the document. */
function find(doc: vscode.TextDocument, line: number, text: string): vscode.Position {
  const col = doc.lineAt(line).text.indexOf(text);
  assert(col >= 0, `"${text}" not on line ${line} of ${doc.uri.path}`);
  return new vscode.Position(line, col);
}

/** The document's diagnostics once there are `count`; what there is after 15 s otherwise, so that a failure says what is missing. */
async function diagnosticsOf(doc: vscode.TextDocument, count: number): Promise<vscode.Diagnostic[]> {
  return until(`${count} diagnostics for ${doc.uri.path}`, () => {
    const d = vscode.languages.getDiagnostics(doc.uri);
    return d.length >= count ? d : undefined;
  }, 15_000).catch(() => vscode.languages.getDiagnostics(doc.uri));
}

const codeOf = (d: vscode.Diagnostic) => (typeof d.code === 'object' && d.code !== null ? String(d.code.value) : String(d.code ?? ''));

function hoverText(hovers: vscode.Hover[] | undefined): string {
  return (hovers ?? []).flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))).join('\n');
}

async function capability(name: string): Promise<unknown> {
  const caps = await api.capabilities(20_000);
  return caps[name];
}

/** Fails unless the server announces `name` in its `initialize` capabilities. */
async function requireCapability(name: string): Promise<void> {
  assert(await capability(name), `the server announces no ${name}`);
}

const rangeOf = (r: vscode.Range) => [r.start.line, r.start.character, r.end.line, r.end.character];

/** The messages the extension showed since `since` (an index into api.messages()). */
const messagesSince = (since: number) => api.messages().slice(since).map((m) => `${m.level}: ${m.text}`);

/** Waits for the message `expected` (`level: text`) among those shown since `since`. */
async function expectMessage(since: number, expected: string, timeoutMs = 10_000): Promise<void> {
  await until(`the message "${expected}"`, () => messagesSince(since).includes(expected) || undefined, timeoutMs).catch(() => {
    throw new Error(`expected the message ${JSON.stringify(expected)}, got ${JSON.stringify(messagesSince(since))}`);
  });
}

async function codeLenses(uri: vscode.Uri, count: number): Promise<vscode.CodeLens[]> {
  // the server answers once it has the document; wait until the lenses it gives are all there
  return until(`${count} code lenses for ${uri.path}`, async () => {
    const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
    return l && l.length >= count ? l : undefined;
  }, 10_000);
}

/** The editor showing `uri`, when one is visible. */
const editorOf = (uri: vscode.Uri) => vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());

// ----------------------------------------------------------------------------------------------- tests

test('the extension activates and its language server starts (status bar: ready)', async () => {
  await open('hover.layout');
  await until('server state ready', () => {
    const s = api.serverState();
    if (s === 'error') throw new Error('the status bar shows an error: the server did not start (see the Layout output)');
    return s === 'ready' ? true : undefined;
  }, 25_000);
});

test('.layout files get the language "layout"', async () => {
  const ed = await open('picture.layout');
  assertEqual(ed.document.languageId, 'layout', 'languageId');
});

test('completion offers the contributed snippets', async () => {
  const ed = await open('hover.layout');
  const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', ed.document.uri, new vscode.Position(3, 0));
  const snippets = list.items.filter((i) => i.kind === vscode.CompletionItemKind.Snippet).map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
  for (const p of ['param', 'const', 'layout', 'layoutgroup', 'perm', 'kernel', 'schedule']) assert(snippets.includes(p), `snippet ${p} missing from ${JSON.stringify(snippets)}`);
});

test('rename of a kernel binding its template uses is refused, with the reason, in VS Code', async () => {
  const ed = await open('kernel.layout');
  const at = find(ed.document, 6, 'offs');
  const why = await Promise.resolve(vscode.commands.executeCommand('vscode.executeDocumentRenameProvider', ed.document.uri, at, 'offsets'))
    .then(() => 'accepted', (e: unknown) => (e instanceof Error ? e.message : String(e)));
  assert(why.includes(`'offs' fills {{ offs }} in template "copy_template.py" of kernel copy`), `the refusal: ${why}`);
  // what the user sees on F2 there (test/out/rename-refused.png, for a look; not in the docs)
  place(ed, at.line, at.character + 1);
  await vscode.commands.executeCommand('editor.action.rename');
  await sleep(1000);
  await driver({ shot: 'rename-refused', dir: 'out' });
  // a name no template reads still renames
  const edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit>('vscode.executeDocumentRenameProvider', ed.document.uri, find(ed.document, 3, 'A'), 'Tiles');
  assertEqual(edit.get(ed.document.uri).length, 2, 'edits renaming A');
});

test('a broken file shows the expected diagnostics (codes, messages, ranges)', async () => {
  const ed = await open('broken.layout');
  const doc = ed.document;
  // three mistakes
  const diags = await diagnosticsOf(doc, 3);
  const got = [...diags]
    .sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character)
    .map((d) => ({ code: codeOf(d), severity: d.severity, message: d.message, range: rangeOf(d.range) }));
  const E = vscode.DiagnosticSeverity.Error;
  // the ranges, found in the text: `M / 32` on line 2, `N` on line 3, the end of line 4 (the missing `)`)
  const div = find(doc, 2, 'M / 32');
  const n = find(doc, 3, 'N');
  const eol = doc.lineAt(4).text.length;
  assertEqual([div.character, n.character, eol], [39, 23, 28], 'columns in broken.layout');
  assertEqual(got, [
    { code: 'tile/not-divisible', severity: E, message: '32 does not divide M = 100', range: [2, 39, 2, 45] },
    { code: 'name/undefined', severity: E, message: "unknown name 'N'", range: [3, 23, 3, 24] },
    { code: 'parse/unclosed', severity: E, message: "expected ')' to close the argument list opened at 5:19", range: [4, 28, 4, 28] },
  ], 'diagnostics of broken.layout');
  // picture for the docs: the Problems panel, and the squiggle under N with its hover
  await vscode.commands.executeCommand('workbench.actions.view.problems');
  await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
  place(ed, 3, n.character);
  await sleep(300);
  await vscode.commands.executeCommand('editor.action.showHover');
  await sleep(1500);
  await screenshot('diagnostic-hover');
  await vscode.commands.executeCommand('workbench.action.closePanel');
});

test('what layout emit would refuse is a diagnostic in the editor, at the binding; the fix clears it', async () => {
  const ed = await open('emit-check.layout');
  const doc = ed.document;
  const diags = await diagnosticsOf(doc, 1);
  const w = find(doc, 7, 'W');
  assertEqual(diags.map((d) => ({ code: codeOf(d), severity: d.severity, message: d.message, range: rangeOf(d.range) })), [{
    code: 'kernel/not-constant',
    severity: vscode.DiagnosticSeverity.Error,
    message: 'builtin nw_antidiag needs `block_size` to be a constant, but it depends on `W`: declare it with `const`',
    range: [7, w.character, 7, w.character + 1],
  }], 'diagnostics of emit-check.layout');
  // what the user sees (test/out/emission-diagnostic.png, for a look; not in the docs)
  place(ed, 7, w.character);
  await sleep(300);
  await vscode.commands.executeCommand('editor.action.showHover');
  await sleep(1500);
  await driver({ shot: 'emission-diagnostic', dir: 'out' });
  // its quick fix declares W with `const`, and the diagnostic goes
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, diags[0].range);
  const fix = actions.find((a) => a.title === 'Declare `W` with `const` (folded into the generated code)');
  assert(fix?.edit, `the quick fix, among ${JSON.stringify(actions.map((a) => a.title))}`);
  assert(await vscode.workspace.applyEdit(fix.edit), 'the quick fix applies');
  assertEqual(doc.lineAt(1).text, 'const W = 16', 'line 2 after the fix');
  await until('no diagnostics once W is a const', () => (vscode.languages.getDiagnostics(doc.uri).length === 0 ? true : undefined), 15_000);
  await vscode.commands.executeCommand('workbench.action.files.revert');
});

test('semantic tokens follow an edit: the uses of a renamed param are classified again (each declaration\'s tokens are kept across versions)', async () => {
  const ed = await open('tokens.layout');
  const doc = ed.document;
  const legend = await vscode.commands.executeCommand<vscode.SemanticTokensLegend>('vscode.provideDocumentSemanticTokensLegend', doc.uri);
  /** the classes of the tokens on `line`, as `text:type[.modifier]` */
  const classes = async (line: number): Promise<string[]> => {
    const t = await vscode.commands.executeCommand<vscode.SemanticTokens>('vscode.provideDocumentSemanticTokens', doc.uri);
    const out: string[] = [];
    let l = 0;
    let c = 0;
    for (let i = 0; t && i < t.data.length; i += 5) {
      l += t.data[i];
      c = t.data[i] ? t.data[i + 1] : c + t.data[i + 1];
      const mods = legend.tokenModifiers.filter((_, k) => t.data[i + 4] & (1 << k));
      if (l === line) out.push(`${doc.lineAt(l).text.slice(c, c + t.data[i + 2])}:${[legend.tokenTypes[t.data[i + 3]], ...mods].join('.')}`);
    }
    return out;
  };
  const before = await until('semantic tokens of tokens.layout', async () => ((await classes(2)).length ? classes(2) : undefined));
  assertEqual(before, ['layout:keyword', 'A:type.declaration', '=:operator', 'OrderBy:class.defaultLibrary', 'Row:class.defaultLibrary', 'N:variable.readonly', 'N:variable.readonly'], 'line 3 before');
  // N renamed at its declaration only: its uses on line 3 now name nothing (a plain variable)
  assert(await ed.edit((e) => e.replace(new vscode.Range(1, 6, 1, 7), 'M')), 'the edit applies');
  const after = await until('the uses of N reclassified', async () => {
    const c = await classes(2);
    return c.includes('N:variable') ? c : undefined;
  }, 10_000);
  assertEqual(after, ['layout:keyword', 'A:type.declaration', '=:operator', 'OrderBy:class.defaultLibrary', 'Row:class.defaultLibrary', 'N:variable', 'N:variable'], 'line 3 after');
  // what the editor shows once its own requests (full/delta) are answered (test/out/semantic-after-edit.png, for a look)
  await sleep(1500);
  await driver({ shot: 'semantic-after-edit', dir: 'out' });
  await vscode.commands.executeCommand('workbench.action.files.revert');
});

test('hover on a layout shows its expression', async () => {
  await requireCapability('hoverProvider');
  const ed = await open('hover.layout');
  const at = find(ed.document, 1, 'A');
  const hovers = await until('a hover on A', async () => {
    const h = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', ed.document.uri, at);
    return hoverText(h).trim() ? h : undefined;
  }, 10_000);
  const text = hoverText(hovers);
  for (const part of ['**layout** `A` = `OrderBy(Row(4, 8))`', 'logical shape: [4, 8]', 'apply `A[i, j]` (2 ops, triton):\n\n```python\n8*i + j\n```', 'inv `A.inv(x)` → `i`, `j` (2 ops, triton):\n\n```python\n((x)//(8))\nx % 8\n```']) {
    assert(text.includes(part), `the hover lacks ${JSON.stringify(part)}: ${text}`);
  }
  assertEqual(hovers.map((h) => h.range && rangeOf(h.range)), [[1, 7, 1, 8]], 'hover range');
});

test('completion offers the constructors', async () => {
  await requireCapability('completionProvider');
  const ed = await open('hover.layout');
  const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', ed.document.uri, new vscode.Position(2, 11));
  const ctors = list.items.filter((i) => i.kind === vscode.CompletionItemKind.Constructor).map((i) => (typeof i.label === 'string' ? i.label : i.label.label)).sort();
  assertEqual(ctors, ['Col', 'GenP', 'GroupBy', 'OrderBy', 'RegP', 'Row'], 'constructors offered after "layout X = "');
  // the server sends detail and documentation through completionItem/resolve (VS Code resolves them lazily)
  const resolved = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', ed.document.uri, new vscode.Position(2, 11), undefined, list.items.length);
  const item = (label: string) => resolved.items.find((i) => (typeof i.label === 'string' ? i.label : i.label.label) === label);
  assertEqual([item('A')?.detail, typeof item('Row')?.detail, item('Row')?.documentation !== undefined], ['layout A = OrderBy(Row(4, 8))', 'string', true], 'resolved items');
  // the suggest widget as a user opens it, with the focused item's details (test/out/completion-details.png, for a look)
  ed.selection = new vscode.Selection(2, 11, 2, 11);
  await vscode.commands.executeCommand('editor.action.triggerSuggest');
  await sleep(800);
  await vscode.commands.executeCommand('toggleSuggestionDetails');
  await sleep(800);
  await driver({ shot: 'completion-details', dir: 'out' });
  await vscode.commands.executeCommand('hideSuggestWidget');
});

/** Checks generated/copy.py as the Emit Triton of kernel.layout's `copy` writes it. */
async function checkCopyPy(out: vscode.Uri) {
  const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(out));
  const lines = text.split('\n');
  assertEqual(lines.slice(0, 9), [
    '# GENERATED by `layout emit` from kernel.layout, kernel copy (template "copy_template.py").',
    '# Do not edit: change the .layout file and emit again.',
    '# Generated from kernel.layout by "Layout: Emit Triton".',
    'import triton',
    'import triton.language as tl',
    '',
    '',
    '@triton.jit',
    'def offsets(pid_m, k, BM: tl.constexpr, BK: tl.constexpr):',
  ], 'the head of generated/copy.py');
  // the filled placeholder: A[pid_m, k, :, :], a BM x BK block of offsets
  assert(/^ {4}return .*\btl\.arange\(0, BM\).*\btl\.arange\(0, BK\)/.test(lines[9]), `the offsets expression: ${lines[9]}`);
  assert(!text.includes('{{'), 'the output still has {{ placeholders }}');
}

test('"Layout: Emit Triton" writes the file, opens it beside the source and says so', async () => {
  const cmds = (await capability('executeCommandProvider')) as { commands?: string[] } | undefined;
  assert(cmds?.commands?.includes('layout.emit'), `the server announces no layout.emit command: ${JSON.stringify(cmds)}`);
  const ed = await open('kernel.layout');
  place(ed, 6, 4); // inside the kernel block
  const since = api.messages().length;
  const result = await vscode.commands.executeCommand<EmitResult | undefined>('layout.emitTriton');
  assert(result, 'the command returned nothing');
  const out = file('generated/copy.py');
  assertEqual(result, { written: [out.toString()], messages: [] }, 'the emit result');
  await checkCopyPy(out);
  const beside = await until(`an editor on ${out.path}`, () => editorOf(out), 5000);
  assertEqual([editorOf(ed.document.uri)?.viewColumn, beside.viewColumn], [vscode.ViewColumn.One, vscode.ViewColumn.Two], 'view columns of the source and the output');
  await expectMessage(since, 'info: Layout: wrote generated/copy.py for copy (Triton).');
});

test('code lenses: "Emit Triton" above the kernel writes, opens and says so; a stale one says why not', async () => {
  const ed = await open('kernel.layout');
  const uri = ed.document.uri;
  const lenses = await codeLenses(uri, 2);
  const v = ed.document.version;
  assertEqual(lenses.map((l) => [l.command?.title, l.command?.command, rangeOf(l.range), l.command?.arguments]), [
    ['Show layout', 'layout.showLayout', [3, 7, 3, 8], [{ uri: uri.toString(), name: 'A', position: { line: 3, character: 7 } }]],
    ['Emit Triton', 'layout.emit', [5, 7, 5, 11], [{ uri: uri.toString(), target: 'triton', block: 'copy', version: v }]],
  ], 'code lenses of kernel.layout');
  const emitLens = lenses[1].command!;
  // a person clicks it: VS Code runs the command with the lens's arguments
  let since = api.messages().length;
  await vscode.commands.executeCommand(emitLens.command, ...(emitLens.arguments ?? []));
  const out = file('generated/copy.py');
  await expectMessage(since, 'info: Layout: wrote generated/copy.py for copy (Triton).');
  await checkCopyPy(out);
  const beside = await until(`an editor on ${out.path}`, () => editorOf(out), 5000);
  assertEqual(beside.viewColumn, vscode.ViewColumn.Two, 'view column of the output');
  // after an edit, a lens computed for the old version writes nothing, and the message says why
  await ed.edit((e) => e.insert(new vscode.Position(8, 0), '# edited\n'));
  since = api.messages().length;
  await vscode.commands.executeCommand(emitLens.command, ...(emitLens.arguments ?? []));
  await expectMessage(since, `warning: Layout: nothing written for copy (Triton): the document changed (version ${ed.document.version}, the request was for ${v})`);
  await vscode.commands.executeCommand('workbench.action.files.revert');
});

test('"Layout: Emit CUDA" inside a Triton kernel says which command works, in one short message', async () => {
  const ed = await open('kernel.layout');
  place(ed, 6, 4); // inside the kernel block `copy` (target triton)
  const since = api.messages().length;
  const r = await vscode.commands.executeCommand<EmitResult | undefined>('layout.emitCuda');
  assertEqual(r, undefined, 'nothing emitted');
  await expectMessage(since, 'info: Layout: copy emits Triton, not CUDA; run "Layout: Emit Triton".');
});

test('the setting layout.codeLens.enabled turns the code lenses off and on', async () => {
  const ed = await open('picture.layout');
  const conf = vscode.workspace.getConfiguration('layout');
  try {
    await conf.update('codeLens.enabled', false, vscode.ConfigurationTarget.Workspace);
    const off = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', ed.document.uri);
    assertEqual(off.length, 0, 'code lenses with the setting off');
  } finally {
    await conf.update('codeLens.enabled', undefined, vscode.ConfigurationTarget.Workspace);
  }
  const on = await until('the lenses back', async () => {
    const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', ed.document.uri);
    return l.length ? l : undefined;
  }, 5000);
  assertEqual(on.map((l) => l.command?.title), ['Show layout'], 'code lenses with the setting on again');
});

test('code lenses: "Show layout" above a layout draws that layout', async () => {
  const ed = await open('picture.layout');
  const uri = ed.document.uri;
  const lenses = await codeLenses(uri, 1);
  const args: ShowLayoutArgs = { uri: uri.toString(), name: 'C', position: { line: 2, character: 7 } };
  assertEqual(lenses.map((l) => [l.command?.title, l.command?.command, rangeOf(l.range), l.command?.arguments]), [
    ['Show layout', 'layout.showLayout', [2, 7, 2, 8], [args]],
  ], 'code lenses of picture.layout');
  place(ed, 0, 0); // the cursor is elsewhere: the lens names its layout
  const lens = lenses[0].command!;
  await vscode.commands.executeCommand(lens.command, ...(lens.arguments ?? []));
  const s = await until('the webview to draw C', () => {
    const st = api.picture()?.state;
    return st?.picture?.name === 'C' && st.rendered?.drawn === 64 ? st : undefined;
  }, 10_000);
  assertEqual(s.lastRequest, { uri: uri.toString(), position: { line: 2, character: 7 }, name: 'C' }, 'the layout/picture request');
  assertEqual([s.picture!.logicalDims, s.picture!.totalCells, s.rendered!.title], [[2, 2, 4, 4], 64, 'C'], 'the picture of C');
});

test('"Layout: Show Layout" opens the picture webview (fixture payload) and exports SVG', async () => {
  await open('picture.layout');
  await vscode.commands.executeCommand('layout.showLayout', { picture: tilesColumnMajor() });
  const state = await until('the webview to draw 64 cells', () => {
    const s = api.picture()?.state;
    return s?.rendered && s.rendered.drawn === 64 ? s : undefined;
  });
  assertEqual(state.rendered!.title, 'C', 'picture title');
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs);
  assert(tabs.some((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('layout.picture')), 'no layout.picture webview tab');
  const dest = file('picture-export.svg');
  await api.picture()!.exportSvg(dest);
  const svg = new TextDecoder().decode(await vscode.workspace.fs.readFile(dest));
  assert(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'), 'the export is not an SVG document');
  assertEqual((svg.match(/<rect [^>]*data-i=/g) ?? []).length, 64, 'cells in the SVG');
  await sleep(500);
  // the driver reads the grid, hovers a cell and clicks "Show physical order"
  const seen = await driver({ poke: true, cell: HOVERED });
  assert(seen, 'the driver did not report on the webview');
  assert(!seen.error, `using the webview: ${seen.error}`);
  assertEqual(seen.labels, [
    '0 1 2 3 32 33 34 35', '4 5 6 7 36 37 38 39', '8 9 10 11 40 41 42 43', '12 13 14 15 44 45 46 47',
    '16 17 18 19 48 49 50 51', '20 21 22 23 52 53 54 55', '24 25 26 27 56 57 58 59', '28 29 30 31 60 61 62 63',
  ], 'cell labels (physical positions), row by row');
  assertEqual(seen.fills, ['AAAABBBB', 'AAAABBBB', 'AAAABBBB', 'AAAABBBB', 'CCCCDDDD', 'CCCCDDDD', 'CCCCDDDD', 'CCCCDDDD'], 'cell colours (one per tile)');
  assertEqual(seen.tip, 'logical (ti, tj, i, j) = (1, 0, 3, 3)\nphysical 31\n(tj*2 + ti)*16 + i*4 + j = 31\ntile 2', 'tooltip of the hovered cell');
  assertEqual(seen.button, 'Show logical order', 'toggle button after the click');
  assertEqual(seen.caption, '2 x 2 x 4 x 4 = 64 cells; physical order; tiles of 4 x 4', 'caption after the click');
  await until('the webview to report the physical order', () => (api.picture()?.state.rendered?.view.mode === 'physical' ? true : undefined), 5000);
});

test('"Layout: Show Layout" draws the layout at the cursor (server layout/picture) and follows edits', async () => {
  const ed = await open('picture.layout');
  place(ed, 2, ed.document.lineAt(2).text.indexOf('C'));
  await vscode.commands.executeCommand('layout.showLayout');
  const s = await until('a picture or a status from the server', () => {
    const st = api.picture()?.state;
    return st && (st.rendered?.title === 'C' && st.picture?.name === 'C' && st.requests > 0 ? st : st.status ? st : undefined);
  });
  assert(s.picture, `no picture: ${s.status}`);
  assertEqual([s.picture.logicalDims, s.picture.totalCells, s.picture.truncated, s.picture.exprs.vars], [[2, 2, 4, 4], 64, false, ['ti', 'tj', 'i', 'j']], 'the picture of C');
  assert(s.picture.exprs.apply, 'the picture has no apply expression');
  await sleep(500);
  // the picture for the docs (with a cell's tooltip), then the order toggled
  const seen = await screenshot('layout-picture', { cell: HOVERED });
  assert(seen, 'the driver did not report on the webview');
  assert(!seen.error, `using the webview: ${seen.error}`);
  // C = OrderBy(Row(8, 8)) in 4 x 4 tiles: stored row-major, so each row of cells reads r*8 .. r*8+7
  assertEqual(seen.labels, Array.from({ length: 8 }, (_, r) => Array.from({ length: 8 }, (_, c) => r * 8 + c).join(' ')), 'cell labels (physical positions), row by row');
  assertEqual(seen.fills, ['AAAABBBB', 'AAAABBBB', 'AAAABBBB', 'AAAABBBB', 'CCCCDDDD', 'CCCCDDDD', 'CCCCDDDD', 'CCCCDDDD'], 'cell colours (one per tile)');
  assertEqual(seen.tip, `logical (ti, tj, i, j) = (1, 0, 3, 3)\nphysical 59\n${s.picture.exprs.apply} = 59\ntile 2`, 'tooltip of the hovered cell');
  assertEqual(seen.caption, '2 x 2 x 4 x 4 = 64 cells; physical order; tiles of 4 x 4', 'caption after the click');
  // follows edits: change N to 12 and the picture is re-requested
  const before = api.picture()!.state.requests;
  await ed.edit((e) => e.replace(new vscode.Range(1, 0, 1, ed.document.lineAt(1).text.length), 'param M = 8, N = 12'));
  const after = await until('a re-request after the edit', () => {
    const st = api.picture()?.state;
    return st && st.requests > before && st.picture?.totalCells === 96 ? st : undefined;
  }, 10_000);
  assertEqual(after.picture!.logicalDims, [2, 3, 4, 4], 'logical dims after the edit');
  await vscode.commands.executeCommand('workbench.action.files.revert');
});

test('the picture of a big layout: a per-tile summary, then drawn at small params, recoloured, zoomed, tooltip inside', async () => {
  const ed = await open('matmul.layout');
  const line = ed.document.getText().split('\n').findIndex((l) => l.startsWith('layout A '));
  place(ed, line, 7);
  await vscode.commands.executeCommand('layout.showLayout');
  const s = await until('the summary of A', () => {
    const st = api.picture()?.state;
    return st?.picture?.name === 'A' && st.rendered?.title === 'A' ? st : undefined;
  }, 10_000);
  assertEqual([s.picture!.totalCells, s.picture!.cells.length, s.picture!.tiles?.length], [16777216, 0, 2048], 'A is summarised per tile');
  assertEqual(s.picture!.tiles![1], { tile: [0, 1], first: 64, min: 64, max: 520319 }, 'the second tile of A');
  await sleep(300);
  const sum = await driver({ shot: 'layout-summary', dir: 'docs', steps: [{ hover: 1 }] });
  assert(sum && !sum.error, `using the webview: ${String(sum?.error)}`);
  assertEqual(sum.caption, '32 x 64 x 128 x 64 = 16777216 cells; summary: 2048 tiles of 128 x 64, each labelled with the positions it takes', 'summary caption');
  assertEqual(sum.tip, 'tile (ti, tj) = (0, 1)\nfirst cell at 64\npositions 64..520319 (8192 cells over 520256 positions)', 'a tile\'s tooltip');
  // draw it at small sizes with the param controls, colour by physical order, zoom in twice
  const small = await driver({ shot: 'layout-params', dir: 'docs', steps: [
    { fill: '#param-M', value: 16 }, { fill: '#param-K', value: 16 }, { fill: '#param-BM', value: 4 }, { fill: '#param-BK', value: 8 },
    { click: '#drawParams' }, { wait: 'drawn with' }, { hover: 127 },
  ] });
  assert(small && !small.error, `using the webview: ${String(small?.error)}`);
  assertEqual(small.caption, '4 x 2 x 4 x 8 = 256 cells; logical order; tiles of 4 x 8; drawn with M = 16, K = 16, BM = 4, BK = 8', 'caption at small sizes');
  assertEqual(small.legend, 'colour: tile (8 tiles of 4 x 8)', 'legend');
  assertEqual((small.labels as string[])[0], '0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15', 'first row of A at small sizes');
  assertEqual((small.fills as string[]).slice(0, 5), ['AAAAAAAABBBBBBBB', 'AAAAAAAABBBBBBBB', 'AAAAAAAABBBBBBBB', 'AAAAAAAABBBBBBBB', 'CCCCCCCCDDDDDDDD'], 'one colour per 4 x 8 tile');
  assertEqual((small.svg as { lines: number }).lines, 4, 'tile boundaries: 3 between tile rows, 1 between tile columns');
  const tb = small.tipBox as { left: number; top: number; right: number; bottom: number };
  const panel = small.panel as { width: number; height: number };
  assert(tb.left >= 0 && tb.top >= 0 && tb.right <= panel.width && tb.bottom <= panel.height, `the tooltip leaves the panel: ${JSON.stringify(tb)} in ${JSON.stringify(panel)}`);
  const zoomed = await driver({ steps: [{ select: '#color', value: 'order' }, { click: '#zoomIn' }, { click: '#zoomIn' }] });
  assert(zoomed && !zoomed.error, `using the webview: ${String(zoomed?.error)}`);
  const w0 = (small.svg as { width: number }).width;
  assertEqual((zoomed.svg as { width: number }).width, Math.round(w0 * 2), 'zoomed in twice: twice as wide');
  assertEqual(zoomed.legend, 'colour: physical position (blue first, red last)', 'legend after choosing physical order');
  assertEqual(api.picture()!.state.lastRequest?.overrides, { M: 16, K: 16, BM: 4, BK: 8 }, 'the request carried the params');
});

test('a GenP that is not a bijection: the picture marks the shared positions and lists the missing ones', async () => {
  await vscode.workspace.fs.writeFile(file('genp.layout'), new TextEncoder().encode('perm bad()[i, j] = i + j\nlayout Bad = OrderBy(GenP([3, 3], bad())).GroupBy([3, 3])\n'));
  const ed = await open('genp.layout');
  place(ed, 1, 7);
  await vscode.commands.executeCommand('layout.showLayout');
  await until('the picture of Bad', () => (api.picture()?.state.rendered?.title === 'Bad' ? true : undefined), 10_000);
  await sleep(300);
  const seen = await driver({ shot: 'layout-genp-collisions', dir: 'docs', steps: [{ hover: 1 }] });
  assert(seen && !seen.error, `using the webview: ${String(seen?.error)}`);
  assertEqual(seen.problems, 'not a bijection: positions 1, 2, 3 are taken by more than one cell\nno cell maps to positions 5, 6, 7, 8', 'the problems under the picture');
  assertEqual(seen.labels, ['0 1 2', '1 2 3', '2 3 4'], 'positions');
  assertEqual(seen.tip, 'logical (i, j) = (0, 1)\nphysical 1\ni + j = 1\ncollision: (1, 0) maps here too', 'the tooltip names the other cell');
});

test('a swizzled linear layout: offsets in the logical grid, coloured by shared-memory bank', async () => {
  await vscode.workspace.fs.writeFile(file('swizzle-pic.layout'), new TextEncoder().encode('linear S = swizzled(shape=[8, 16], vec=2, perPhase=1, maxPhase=4, order=[1, 0])\n'));
  const ed = await open('swizzle-pic.layout');
  place(ed, 0, 7);
  await vscode.commands.executeCommand('layout.showLayout');
  await until('the picture of S', () => (api.picture()?.state.rendered?.title === 'S' ? true : undefined), 10_000);
  await sleep(300);
  const seen = await driver({ shot: 'layout-linear-swizzle', dir: 'docs', steps: [{ hover: 17 }] });
  assert(seen && !seen.error, `using the webview: ${String(seen?.error)}`);
  assertEqual(seen.legend, 'colour: shared-memory bank = (offset x 4 bytes / 4) mod 32; 4-byte elements (no elemBytes= in the declaration: 4 assumed); label: offset', 'legend');
  assertEqual((seen.labels as string[])[1], '18 19 16 17 22 23 20 21 26 27 24 25 30 31 28 29', 'row 1: the XOR swizzle');
  assertEqual(seen.tip, 'logical (i, j) = (1, 1)\nphysical 19\nbank 19', 'the tooltip names the bank');
});

test('the walkthrough: opens, its example opens, its emit step writes the kernel; emit targets follow the file', async () => {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('workbench.action.openWalkthrough', 'layout-tools.layout-lang#layout.gettingStarted', false);
  await sleep(1500);
  await screenshot('walkthrough');
  const ed = await vscode.commands.executeCommand<vscode.TextEditor | undefined>('layout.openExample');
  assert(ed, 'layout.openExample opened nothing');
  assertEqual(vscode.workspace.asRelativePath(ed.document.uri), 'matmul.layout', 'the example opened from the workspace folder');
  await vscode.commands.executeCommand('workbench.action.closeOtherEditors');
  await sleep(1500);
  await screenshot('walkthrough-example');
  const since = api.messages().length;
  const kernelLine = ed.document.getText().split('\n').findIndex((l) => l.startsWith('kernel matmul'));
  place(ed, kernelLine + 1, 2);
  const r = await vscode.commands.executeCommand<EmitResult | undefined>('layout.emitTriton');
  assert(r && r.written.length === 1 && r.written[0].endsWith('/generated/matmul.py'), `emit wrote ${JSON.stringify(r)}`);
  await expectMessage(since, 'info: Layout: wrote generated/matmul.py for matmul (Triton).');
  await sleep(1000);
  await screenshot('walkthrough-emit');
});

test('the task "layout: check" fills the Problems panel through the $layout problem matcher', async () => {
  const tasks = await vscode.tasks.fetchTasks({ type: 'layout' });
  assertEqual(tasks.map((t) => [t.name, t.source, t.definition.command]), [['check', 'layout', 'check']], 'the layout tasks');
  const ended = new Promise<number | undefined>((resolve) => {
    const sub = vscode.tasks.onDidEndTaskProcess((e) => {
      if (e.execution.task.definition.type === 'layout') {
        sub.dispose();
        resolve(e.exitCode);
      }
    });
  });
  await vscode.tasks.executeTask(tasks[0]);
  assertEqual(await ended, 1, 'layout check exits 1: the workspace has errors');
  // the task's problems are markers of the problem matcher (owner layout-check, source 'layout check'), which
  // the extension API does not list: read the Problems panel
  await vscode.commands.executeCommand('workbench.actions.view.problems');
  await sleep(1000);
  const seen = await until('the Problems panel to list the task\'s problems', async () => {
    const r = await driver({ query: '.markers-panel .monaco-list-row' });
    const rows = (r?.texts as string[] | undefined) ?? [];
    return rows.filter((t) => t.includes('layout check')).length >= 3 ? rows : undefined;
  }, 15_000);
  const fromTask = seen.filter((t) => t.includes('layout check')).map((t) => t.replace(/\s+/g, ' ').trim());
  assert(fromTask.some((t) => t.includes('32 does not divide M = 100') && t.includes('tile/not-divisible')), `Problems rows: ${JSON.stringify(fromTask)}`);
  assert(fromTask.some((t) => t.includes("unknown name 'N'") && t.includes('name/undefined')), `Problems rows: ${JSON.stringify(fromTask)}`);
  assert(fromTask.some((t) => t.includes("expected ')' to close the argument list opened at 5:19")), `Problems rows: ${JSON.stringify(fromTask)}`);
  await screenshot('task-problems');
});

test('the server is restarted, with a message, when it dies', async () => {
  const client = api.server.client;
  assert(client, 'no language client');
  await until('server ready', () => (api.serverState() === 'ready' ? true : undefined));
  const proc = (client as unknown as { serverProcess?: { pid?: number } }).serverProcess;
  assert(proc?.pid, 'no server process id');
  const states: string[] = [];
  const since = api.messages().length;
  const timer = setInterval(() => {
    const s = api.serverState();
    if (states[states.length - 1] !== s) states.push(s);
  }, 20);
  try {
    process.kill(proc.pid, 'SIGKILL');
    await until('a restarted, different server process', () => {
      const p = (api.server.client as unknown as { serverProcess?: { pid?: number } } | undefined)?.serverProcess;
      return api.serverState() === 'ready' && p?.pid && p.pid !== proc.pid ? true : undefined;
    }, 20_000);
  } finally {
    clearInterval(timer);
  }
  assert(states.includes('starting'), `the status bar never showed "starting": ${states.join(' -> ')}`);
  await expectMessage(since, 'warning: The Layout language server stopped unexpectedly and is being restarted (1 of 5 restarts in 3 minutes).');
});

// ------------------------------------------------------------------------------------------------ run

export async function run(): Promise<void> {
  const ext = vscode.extensions.getExtension<LayoutExtensionApi>(EXTENSION_ID);
  assert(ext, `extension ${EXTENSION_ID} is not loaded`);
  api = await ext.activate();
  console.log(`workspace ${ws().toString()}, VS Code ${vscode.version}`);
  let passed = 0, failed = 0;
  const results: string[] = [];
  for (const c of cases) {
    const t0 = Date.now();
    try {
      await Promise.race([c.fn(), sleep(TEST_TIMEOUT_MS).then(() => Promise.reject(new Error(`timed out after ${TEST_TIMEOUT_MS} ms`)))]);
      passed++;
      results.push(`PASS ${c.name} (${Date.now() - t0} ms)`);
    } catch (err) {
      failed++;
      // what the window showed when it failed
      await driver({ shot: `e2e-failure-${failed}`, dir: 'out' });
      results.push(`FAIL ${c.name}: ${(err as Error)?.message ?? String(err)} (screenshot test/out/e2e-failure-${failed}.png)`);
    }
    console.log(results[results.length - 1]);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  }
  const summary = `${passed} passed, ${failed} failed`;
  try {
    writeFileSync(join(ws().fsPath, '..', 'results.txt'), results.join('\n') + '\n' + summary + '\n');
  } catch {
    // the driver reads the log instead
  }
  console.log(summary);
  if (failed > 0) throw new Error(`${failed} of ${cases.length} real-VS-Code tests failed`);
}
