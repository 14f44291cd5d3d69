// The editor's emit (`workspace/executeCommand layout.emit`, the real server over stdio) refuses when the
// emitted block or what it depends on has errors (listing them in `blockedBy`), emits with `force` (marked),
// and writes safely: never through a link, never over a read-only file, no temporary files left behind.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspClient } from './harness.js';

const src = [
  'param N = 8',
  'layout L = OrderBy(Row(N, N)).GroupBy([N, 2 * N])',
  'layout Q = OrderBy(Row(N, N)).GroupBy([N, N])',
  'kernel bad target cuda template "idx.cu.tmpl" {',
  '  idx = L[i, j]',
  '}',
  'kernel good target cuda template "idx.cu.tmpl" {',
  '  idx = Q[i, j]',
  '}',
  '',
].join('\n');

interface Answer { written: string[]; messages: string[]; blockedBy?: string[] }
let c: LspClient;
let uri: string;
const emit = (args: unknown) => c.request<Answer>('workspace/executeCommand', { command: 'layout.emit', arguments: [args] });
const gen = () => join(c.workspace, 'generated');

before(async () => {
  c = await LspClient.start();
  writeFileSync(join(c.workspace, 'idx.cu.tmpl'), 'int idx(int i, int j) { return {{ idx }}; }\n');
  uri = c.uri('a.layout');
  writeFileSync(join(c.workspace, 'a.layout'), src);
  await c.open(uri, src);
});
after(() => c.stop());

const BLOCKER = '2:39: GroupBy [8, 16] has 128 elements but OrderBy(Row(N, N)) has 64 [size/groupby-mismatch]';

test('refuses a kernel whose layout has an error, and lists the error', async () => {
  assert.deepEqual(await emit({ uri, target: 'cuda', block: 'bad', version: 1 }), {
    written: [],
    messages: [`nothing was written: 1 error in what would be emitted or what it depends on (${BLOCKER})`],
    blockedBy: [BLOCKER],
  });
  // the whole file for cuda includes `bad`: refused as a whole
  assert.deepEqual((await emit({ uri, target: 'cuda', version: 1 })).written, []);
  assert.equal(existsSync(join(gen(), 'bad.cu')), false);
  assert.equal(existsSync(join(gen(), 'good.cu')), false);
});

test('a clean kernel of the same file is emitted', async () => {
  assert.deepEqual(await emit({ uri, target: 'cuda', block: 'good', version: 1 }), { written: [pathToFileURL(join(gen(), 'good.cu')).href], messages: [] });
});

test('force emits anyway and marks the file', async () => {
  const r = await emit({ uri, target: 'cuda', block: 'bad', version: 1, force: true });
  assert.deepEqual(r, {
    written: [pathToFileURL(join(gen(), 'bad.cu')).href],
    messages: ['emitted despite 1 error (forced); the files say so in their first lines'],
  });
  assert.deepEqual(readFileSync(join(gen(), 'bad.cu'), 'utf8').split('\n').slice(0, 3), [
    '// WARNING: emitted with --force although the .layout file has 1 error:',
    `//   a.layout:${BLOCKER}`,
    '// This code may compute wrong indices: fix the errors and emit again.',
  ]);
});

test('a read-only destination is refused and kept; a link at the destination is refused; no temporary files', async () => {
  chmodSync(join(gen(), 'good.cu'), 0o444);
  const before = readFileSync(join(gen(), 'good.cu'), 'utf8');
  assert.deepEqual(await emit({ uri, target: 'cuda', block: 'good', version: 1 }), {
    written: [],
    messages: ['cannot write good.cu: it is read-only; make it writable to replace it'],
  });
  assert.equal(readFileSync(join(gen(), 'good.cu'), 'utf8'), before);
  chmodSync(join(gen(), 'good.cu'), 0o644);

  mkdirSync(join(c.workspace, 'elsewhere'));
  writeFileSync(join(c.workspace, 'elsewhere', 'keep.cu'), 'precious\n');
  rmSync(join(gen(), 'bad.cu'));
  symlinkSync(join(c.workspace, 'elsewhere', 'keep.cu'), join(gen(), 'bad.cu'), 'file');
  // bad.cu is now a link: the forced emit must not write through it
  const r = await emit({ uri, target: 'cuda', block: 'bad', version: 1, force: true });
  assert.deepEqual(r.written, []);
  assert.deepEqual(r.messages.slice(-1), ['cannot write bad.cu: it is a symbolic link; links are never written through (remove it, or emit elsewhere)']);
  assert.equal(readFileSync(join(c.workspace, 'elsewhere', 'keep.cu'), 'utf8'), 'precious\n');
  assert.ok(lstatSync(join(gen(), 'bad.cu')).isSymbolicLink());
  assert.deepEqual(readdirSync(gen()).sort(), ['bad.cu', 'good.cu']);
});

test('a binding of a broken query: the query\'s error, not also "cannot generate code" (what evaluating it repeats), as the Problems panel', async () => {
  const u = c.uri('arity.layout');
  const text = 'layout P = OrderBy(Row(4, 4))\nkernel k target cuda template "idx.cu.tmpl" {\n  idx = P[i, j, 0]\n}\n';
  writeFileSync(join(c.workspace, 'arity.layout'), text);
  await c.open(u, text);
  const arity = '3:10: P takes 2 indices (its logical shape is [4, 4]) but 3 are given [query/arity]';
  assert.deepEqual(await emit({ uri: u, target: 'cuda', block: 'k', version: 1 }), {
    written: [],
    messages: [`nothing was written: 1 error in what would be emitted or what it depends on (${arity})`],
    blockedBy: [arity],
  });
});
