// workspace/symbol from the workspace index: files present at start are found by the initial scan; a file
// created later appears after a didChangeWatchedFiles notification, a changed one is re-read, a deleted
// file (or folder) disappears; without a notification the disk is not walked again. Saved and closed
// documents are re-read (clients that do not watch files). The server registers its file watchers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspClient } from './harness.js';

let c: LspClient;
let ws = '';
const url = (rel: string) => pathToFileURL(join(ws, rel)).href;
const Created = 1, Changed = 2, Deleted = 3;

before(async () => {
  ws = realpathSync(mkdtempSync(join(tmpdir(), 'layout-wsym-')));
  mkdirSync(join(ws, 'a/b'), { recursive: true });
  mkdirSync(join(ws, 'node_modules/x'), { recursive: true });
  mkdirSync(join(ws, '.hidden'), { recursive: true });
  writeFileSync(join(ws, 'a/one.layout'), 'param ZZ_one = 1\n');
  writeFileSync(join(ws, 'a/b/two.layout'), 'param ZZ_two = 2\nlayout ZZ_lay = OrderBy(Row(ZZ_two, 2))\n');
  writeFileSync(join(ws, 'node_modules/x/dep.layout'), 'param ZZ_dep = 1\n');
  writeFileSync(join(ws, '.hidden/h.layout'), 'param ZZ_hidden = 1\n');
  c = await LspClient.start({ workspace: ws });
});
after(() => c.stop());

async function names(query = 'zz'): Promise<string[]> {
  const r = await c.request<{ name: string; location: { uri: string } }[]>('workspace/symbol', { query });
  return r.map((s) => `${s.name} ${s.location.uri.slice(pathToFileURL(ws).href.length + 1)}`);
}
function notify(changes: [string, number][]): void {
  c.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: changes.map(([rel, type]) => ({ uri: url(rel), type })) });
}

test('the server registers watchers for .layout files (and deletions)', async () => {
  const deadline = Date.now() + 5000;
  while (!c.registrations.some((r) => r.method === 'workspace/didChangeWatchedFiles') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const reg = c.registrations.find((r) => r.method === 'workspace/didChangeWatchedFiles');
  assert.deepEqual(reg?.registerOptions, { watchers: [{ globPattern: '**/*.layout' }, { globPattern: '**/*', kind: 4 }] });
});

test('the initial scan finds the files present at start (not in node_modules or dot-folders)', async () => {
  assert.deepEqual(await names(), ['ZZ_two a/b/two.layout', 'ZZ_lay a/b/two.layout', 'ZZ_one a/one.layout']);
});

test('a new file appears after a change notification, not before', async () => {
  writeFileSync(join(ws, 'a/three.layout'), 'param ZZ_three = 3\n');
  assert.deepEqual(await names('zz_three'), [], 'no notification yet: the disk is not walked per request');
  notify([['a/three.layout', Created]]);
  assert.deepEqual(await names('zz_three'), ['ZZ_three a/three.layout']);
});

test('a changed file is re-read; a deleted file disappears; a deleted folder takes its files', async () => {
  writeFileSync(join(ws, 'a/one.layout'), 'param ZZ_renamed = 1\n');
  notify([['a/one.layout', Changed]]);
  assert.deepEqual(await names('zz_one'), []);
  assert.deepEqual(await names('zz_renamed'), ['ZZ_renamed a/one.layout']);
  rmSync(join(ws, 'a/three.layout'));
  notify([['a/three.layout', Deleted]]);
  assert.deepEqual(await names('zz_three'), []);
  rmSync(join(ws, 'a/b'), { recursive: true });
  notify([['a/b', Deleted]]);
  assert.deepEqual(await names(), ['ZZ_renamed a/one.layout']);
});

test('open documents win over their files; closing re-reads the file', async () => {
  const uri = url('a/one.layout');
  await c.open(uri, 'param ZZ_editing = 1\n');
  assert.deepEqual(await names(), ['ZZ_editing a/one.layout']);
  writeFileSync(join(ws, 'a/one.layout'), 'param ZZ_saved = 1\n');
  c.close(uri);
  assert.deepEqual(await names(), ['ZZ_saved a/one.layout']);
});

test('files outside the folders, and non-.layout files, are ignored', async () => {
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'layout-outside-')));
  writeFileSync(join(outside, 'o.layout'), 'param ZZ_out = 1\n');
  writeFileSync(join(ws, 'a/notes.txt'), 'param ZZ_txt = 1\n');
  c.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(join(outside, 'o.layout')).href, type: Created }, { uri: url('a/notes.txt'), type: Created }] });
  assert.deepEqual(await names(), ['ZZ_saved a/one.layout']);
});
