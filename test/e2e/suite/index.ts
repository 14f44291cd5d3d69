// The real-VS-Code suite: runs inside VS Code's extension host (code-server's VS Code server, driven by
// test/e2e/run.mjs) against the extension from this checkout and its bundled language server.
// Bundled to dist/test/e2e-suite.js; VS Code calls `run()`; a rejection makes the run exit with code 1.
//
// A test that needs a server feature the server does not announce (in its `initialize` capabilities, or by
// answering "method not found") is reported as SKIP with the reason, unless LAYOUT_E2E_STRICT=1.
import * as vscode from 'vscode';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LayoutExtensionApi } from '../../../client/src/extension.js';
import type { EmitResult } from '../../../server/src/lsp/protocol.js';
import { tilesColumnMajor } from '../../client/fixtures.js';

const EXTENSION_ID = 'layout-tools.layout-lang';
const TEST_TIMEOUT_MS = 40_000;

class Skip extends Error {}
const skip = (why: string): never => {
  throw new Skip(why);
};

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

/**
 * Asks the driver for a screenshot (docs/images/<name>.png) and waits until it is taken. Returns what the
 * driver reports (for `layout-picture`: what it saw using the webview), or undefined after 20 s.
 */
async function screenshot(name: string): Promise<Record<string, string> | undefined> {
  const sync = join(ws().fsPath, '..', 'sync');
  await vscode.commands.executeCommand('notifications.clearAll');
  console.log(`__screenshot__ ${name}`);
  const done = join(sync, `${name}.done`);
  const ok = await until(`screenshot ${name}`, () => existsSync(done) || undefined, 20_000).catch(() => undefined);
  if (!ok) return undefined;
  try {
    return JSON.parse(readFileSync(done, 'utf8')) as Record<string, string>;
  } catch {
    return undefined;
  }
}

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

const codeOf = (d: vscode.Diagnostic) => (typeof d.code === 'object' && d.code !== null ? String(d.code.value) : String(d.code ?? ''));

function hoverText(hovers: vscode.Hover[] | undefined): string {
  return (hovers ?? []).flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))).join('\n');
}

async function capability(name: string): Promise<unknown> {
  const caps = await api.capabilities(20_000);
  return caps[name];
}

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
  for (const p of ['param', 'layout', 'perm', 'kernel', 'schedule']) assert(snippets.includes(p), `snippet ${p} missing from ${JSON.stringify(snippets)}`);
});

test('a broken file shows the expected diagnostics', async () => {
  const ed = await open('broken.layout');
  const doc = ed.document;
  // three mistakes; take what there is after 15 s, so that a failure says which are missing
  const diags = await until('3 diagnostics for broken.layout', () => {
    const d = vscode.languages.getDiagnostics(doc.uri);
    return d.length >= 3 ? d : undefined;
  }, 15_000).catch(() => vscode.languages.getDiagnostics(doc.uri));
  const byCode = new Map(diags.map((d) => [codeOf(d), d]));
  const undef = byCode.get('name/undefined');
  assert(undef, `no name/undefined among ${JSON.stringify(diags.map(codeOf))}`);
  const n = find(doc, 3, 'N');
  assertEqual([undef.range.start.line, undef.range.start.character, undef.range.end.line, undef.range.end.character], [3, n.character, 3, n.character + 1], 'name/undefined range');
  assertEqual(undef.severity, vscode.DiagnosticSeverity.Error, 'name/undefined severity');
  assert(/\bN\b/.test(undef.message), `name/undefined message does not name N: ${undef.message}`);
  // picture for the docs: the squiggle under N with its hover
  place(ed, 3, n.character);
  await vscode.commands.executeCommand('editor.action.showHover');
  await sleep(1500);
  await screenshot('diagnostic-hover');
  const tile = byCode.get('tile/not-divisible');
  assert(tile, `no tile/not-divisible among ${JSON.stringify(diags.map(codeOf))}`);
  const div = find(doc, 2, 'M / 32');
  assertEqual([tile.range.start.line, tile.range.start.character, tile.range.end.line, tile.range.end.character], [2, div.character, 2, div.character + 'M / 32'.length], 'tile/not-divisible range');
  assertEqual(tile.message, '32 does not divide M = 100', 'tile/not-divisible message');
  const parse = diags.find((d) => codeOf(d).startsWith('parse/'));
  assert(parse, `no parse/* diagnostic among ${JSON.stringify(diags.map(codeOf))}`);
  assert(parse.range.start.line >= 4, `the parse error should be on line 4 or after, is on ${parse.range.start.line}`);
});

test('hover on a layout shows its expression', async () => {
  if (!(await capability('hoverProvider'))) skip('the server announces no hoverProvider');
  const ed = await open('hover.layout');
  const at = find(ed.document, 1, 'A');
  const text = await until('a hover on A', async () => {
    const t = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', ed.document.uri, at));
    return t.trim() ? t : undefined;
  }, 10_000);
  assert(/\b\w+\s*\*\s*8\s*\+\s*\w+\b|\b8\s*\*\s*\w+\s*\+\s*\w+\b/.test(text), `the hover does not show a row-major expression (x * 8 + y): ${text}`);
});

test('completion offers the constructors', async () => {
  if (!(await capability('completionProvider'))) skip('the server announces no completionProvider');
  const ed = await open('hover.layout');
  const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', ed.document.uri, new vscode.Position(2, 11));
  const labels = list.items.filter((i) => i.kind !== vscode.CompletionItemKind.Snippet).map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
  for (const c of ['OrderBy', 'GroupBy', 'Row', 'Col', 'RegP', 'GenP']) assert(labels.includes(c), `constructor ${c} missing from ${JSON.stringify(labels.slice(0, 40))}`);
});

test('"Layout: Emit Triton" writes a file and opens it', async () => {
  const cmds = (await capability('executeCommandProvider')) as { commands?: string[] } | undefined;
  if (!cmds?.commands?.includes('layout.emit')) skip('the server announces no layout.emit command');
  const ed = await open('kernel.layout');
  place(ed, 6, 4); // inside the kernel block
  const result = await vscode.commands.executeCommand<EmitResult | undefined>('layout.emitTriton');
  assert(result, 'the command returned nothing');
  assert(result.written.length >= 1, `nothing written: ${result.messages.join(' | ')}`);
  const out = vscode.Uri.parse(result.written[0]);
  const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(out));
  assert(text.includes('def offsets(pid_m, k'), `the output does not come from the template: ${text.slice(0, 200)}`);
  assert(!text.includes('{{'), 'the output still has {{ placeholders }}');
  await until(`an editor on ${out.path}`, () => vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === out.toString()) || undefined, 5000);
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
  // the driver hovers cell 5 (logical (0, 0, 1, 1): row 1, column 1) and clicks "Show physical order"
  const seen = await screenshot('layout-picture');
  assert(seen, 'the driver did not report on the webview');
  assert(!seen.error, `using the webview: ${seen.error}`);
  assertEqual(seen.tip, 'logical (ti, tj, i, j) = (0, 0, 1, 1)\nphysical 5\n(tj*2 + ti)*16 + i*4 + j = 5\ntile 0', 'tooltip of cell 5');
  assertEqual(seen.button, 'Show logical order', 'toggle button after the click');
  assertEqual(seen.caption, '2 x 2 x 4 x 4 = 64 cells; physical order', 'caption after the click');
  await until('the webview to report the physical order', () => (api.picture()?.state.rendered?.view.mode === 'physical' ? true : undefined), 5000);
});

test('"Layout: Show Layout" draws the layout at the cursor (server layout/picture)', async () => {
  const ed = await open('picture.layout');
  place(ed, 2, ed.document.lineAt(2).text.indexOf('C'));
  await vscode.commands.executeCommand('layout.showLayout');
  const s = await until('a picture or a status from the server', () => {
    const st = api.picture()?.state;
    return st && (st.rendered?.title === 'C' && st.picture?.name === 'C' && st.requests > 0 ? st : st.status ? st : undefined);
  });
  if (/does not answer layout\/picture/.test(s.status)) skip('the server does not implement layout/picture yet');
  assert(s.picture, `no picture: ${s.status}`);
  assertEqual(s.picture.logicalDims, [2, 2, 4, 4], 'logical dims of C');
  assertEqual(s.picture.totalCells, 64, 'cells of C');
  // follows edits: change N to 12 and the picture is re-requested
  const before = s.requests;
  await ed.edit((e) => e.replace(new vscode.Range(1, 0, 1, ed.document.lineAt(1).text.length), 'param M = 8, N = 12'));
  const after = await until('a re-request after the edit', () => {
    const st = api.picture()?.state;
    return st && st.requests > before && st.picture?.totalCells === 96 ? st : undefined;
  }, 10_000);
  assertEqual(after.picture!.logicalDims, [2, 3, 4, 4], 'logical dims after the edit');
  await vscode.commands.executeCommand('workbench.action.files.revert');
});

test('the server is restarted, with a message, when it dies', async () => {
  const client = api.server.client;
  assert(client, 'no language client');
  await until('server ready', () => (api.serverState() === 'ready' ? true : undefined));
  const proc = (client as unknown as { serverProcess?: { pid?: number } }).serverProcess;
  assert(proc?.pid, 'no server process id');
  const states: string[] = [];
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
});

// ------------------------------------------------------------------------------------------------ run

export async function run(): Promise<void> {
  const ext = vscode.extensions.getExtension<LayoutExtensionApi>(EXTENSION_ID);
  assert(ext, `extension ${EXTENSION_ID} is not loaded`);
  api = await ext.activate();
  console.log(`workspace ${ws().toString()}, VS Code ${vscode.version}`);
  const strict = process.env.LAYOUT_E2E_STRICT === '1';
  let passed = 0, failed = 0, skipped = 0;
  const results: string[] = [];
  for (const c of cases) {
    const t0 = Date.now();
    try {
      await Promise.race([c.fn(), sleep(TEST_TIMEOUT_MS).then(() => Promise.reject(new Error(`timed out after ${TEST_TIMEOUT_MS} ms`)))]);
      passed++;
      results.push(`PASS ${c.name} (${Date.now() - t0} ms)`);
    } catch (err) {
      if (err instanceof Skip && !strict) {
        skipped++;
        results.push(`SKIP ${c.name}: ${err.message}`);
      } else {
        failed++;
        results.push(`FAIL ${c.name}: ${(err as Error)?.message ?? String(err)}`);
      }
    }
    console.log(results[results.length - 1]);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  }
  const summary = `${passed} passed, ${failed} failed, ${skipped} skipped`;
  try {
    writeFileSync(join(ws().fsPath, '..', 'results.txt'), results.join('\n') + '\n' + summary + '\n');
  } catch {
    // the driver reads the log instead
  }
  console.log(summary);
  if (failed > 0) throw new Error(`${failed} of ${cases.length} real-VS-Code tests failed`);
}
