// `workspace/executeCommand layout.emit` over the protocol: writes under the workspace's output
// folder and reports it; refuses stale versions, files outside the workspace, destinations open
// with unsaved edits; reports code generation errors and writes nothing then.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, realpathSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspClient } from './harness.js';

const src = [
  'param M = 64, K = 32',
  'param BM = 16, BK = 16',
  'layout A = OrderBy(Row(M, K)).TileBy([M / BM, K / BK], [BM, BK])',
  'kernel copy target triton template "copy_template.py" {',
  '  offs = A[pid_m, k, :, :]',
  '}',
  'schedule gemm for linalg.matmul(64, 64, 64) on sm_90 {',
  '  mm = findOp("linalg.matmul")',
  '  tile(mm, [0, 0, 16])',
  '}',
  '',
].join('\n');

let c: LspClient;
let uri: string;
const emit = (args: unknown) => c.request<{ written: string[]; messages: string[] }>('workspace/executeCommand', { command: 'layout.emit', arguments: [args] });

before(async () => {
  c = await LspClient.start();
  writeFileSync(join(c.workspace, 'copy_template.py'), 'def offsets(pid_m, k):\n    return {{ offs }}\n');
  uri = c.uri('k.layout');
  await c.open(uri, src);
});
after(() => c.stop());

test('emits one kernel into the output folder and says what it wrote', async () => {
  const out = join(c.workspace, 'generated', 'copy.py');
  assert.deepEqual(await emit({ uri, target: 'triton', block: 'copy', version: 1 }), { written: [pathToFileURL(out).href], messages: [] });
  const text = readFileSync(out, 'utf8');
  assert.ok(text.includes('def offsets(pid_m, k):\n    return BK*k + K*(BM*pid_m + ((tl.arange(0, BM))[:, None])) + ((tl.arange(0, BK))[None, :])\n'), text);
});

test('the output folder setting is applied', async () => {
  c.changeConfiguration({ emit: { outputFolder: 'out/triton' } });
  await new Promise((r) => setTimeout(r, 200));
  const r = await emit({ uri, target: 'triton', version: 1 });
  assert.deepEqual(r.written, [pathToFileURL(join(c.workspace, 'out', 'triton', 'copy.py')).href]);
  c.changeConfiguration({});
  await new Promise((r) => setTimeout(r, 200));
});

test('refuses a stale version and writes nothing', async () => {
  assert.deepEqual(await emit({ uri, target: 'triton', block: 'copy', version: 7 }), {
    written: [],
    messages: ['the document changed (version 1, the request was for 7); nothing was written'],
  });
});

test('reports code generation errors and writes nothing', async () => {
  const r = await emit({ uri, target: 'mlir', version: 1 });
  assert.deepEqual(r.written, []);
  assert.equal(r.messages[r.messages.length - 1], 'nothing was written');
  assert.ok(r.messages.some((m) => m.startsWith('error schedule/')), r.messages.join('\n'));
  assert.deepEqual(await emit({ uri, target: 'cuda', version: 1 }), { written: [], messages: ['there is nothing to emit for cuda'] });
});

test('never over a file open with unsaved edits', async () => {
  const out = join(c.workspace, 'generated', 'copy.py');
  const outUri = pathToFileURL(out).href;
  await c.open(outUri, 'my unsaved edits\n');
  const before = readFileSync(out, 'utf8');
  assert.deepEqual(await emit({ uri, target: 'triton', block: 'copy', version: 1 }), {
    written: [],
    messages: ['refused copy.py: it is open with unsaved changes'],
  });
  assert.equal(readFileSync(out, 'utf8'), before);
  c.close(outUri);
});

test('never outside the workspace', async () => {
  const elsewhere = realpathSync(mkdtempSync(join(tmpdir(), 'layout-outside-')));
  const outsideUri = pathToFileURL(join(elsewhere, 'x.layout')).href;
  await c.open(outsideUri, src);
  const r = await emit({ uri: outsideUri, target: 'triton', version: 1 });
  assert.deepEqual(r, { written: [], messages: [`${join(elsewhere, 'x.layout')} is not inside a workspace folder; the server writes only inside the workspace`] });
  assert.equal(existsSync(join(elsewhere, 'generated')), false);
  c.changeConfiguration({ emit: { outputFolder: '../escape' } });
  await new Promise((r) => setTimeout(r, 200));
  const esc = await emit({ uri, target: 'triton', version: 1 });
  assert.deepEqual(esc.written, []);
  assert.match(esc.messages[0], /^refused copy\.py: .* is outside the workspace /);
  c.changeConfiguration({});
});

test('bad arguments are answered, not crashed on', async () => {
  assert.deepEqual(await emit({ uri, target: 'rust', version: 1 }), { written: [], messages: ['layout.emit needs { uri, target: "triton" | "cuda" | "mlir", block?, version }'] });
  assert.deepEqual(await emit(undefined), { written: [], messages: ['layout.emit needs { uri, target: "triton" | "cuda" | "mlir", block?, version }'] });
  assert.deepEqual(await emit({ uri: 'untitled:Untitled-1', target: 'triton', version: 1 }), { written: [], messages: ['untitled:Untitled-1 is not a file on disk; save it first'] });
});
