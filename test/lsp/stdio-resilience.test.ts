// The real server over stdio, fed broken framing and hostile JSON-RPC (issue 10, section 5): frames
// whose Content-Length is 10 bytes short or long, a body without header, binary junk, malformed JSON,
// unknown methods, documents never opened, out-of-range positions, bad change ranges, cancellations and
// 10,000 rapid edits. After each, the next well-formed request must be answered: the server survives
// and never goes deaf; its memory stays bounded.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { buildServer, serverPath, root } from './harness.js';

let proc: ChildProcess;
const answers = new Map<number, { result?: unknown; error?: { code: number; message: string } }>();
const waiting = new Map<number, (v: unknown) => void>();
let stderr = '';
let out = Buffer.alloc(0);

function frame(body: string, lengthDelta = 0): Buffer {
  const b = Buffer.from(body, 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${b.length + lengthDelta}\r\n\r\n`), b]);
}
const msg = (o: object) => JSON.stringify({ jsonrpc: '2.0', ...o });
const send = (b: Buffer | string) => proc.stdin!.write(b);
let nextId = 100;
function request(method: string, params: unknown, id = nextId++): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  send(frame(msg({ id, method, params })));
  return answer(id);
}
function answer(id: number, timeoutMs = 30_000): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const have = answers.get(id);
  if (have) return Promise.resolve(have);
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no answer to request ${id} in ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`)), timeoutMs);
    waiting.set(id, (v) => { clearTimeout(t); resolve(v as never); });
  });
}
const notify = (method: string, params: unknown) => send(frame(msg({ method, params })));
const uri = 'file:///tmp/stdio-resilience.layout';
const hoverAt = (line: number, character: number, u = uri) => request('textDocument/hover', { textDocument: { uri: u }, position: { line, character } });
/** the liveness probe: a request every server answers */
const alive = async () => assert.deepEqual((await request('textDocument/foldingRange', { textDocument: { uri } })).error, undefined);

before(async () => {
  buildServer();
  proc = spawn(process.execPath, [serverPath, '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  proc.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
  proc.stdout!.on('data', (d: Buffer) => {
    out = Buffer.concat([out, d]);
    for (;;) {
      const end = out.indexOf('\r\n\r\n');
      if (end < 0) return;
      const len = Number(/Content-Length: (\d+)/.exec(out.subarray(0, end).toString())![1]);
      if (out.length < end + 4 + len) return;
      const m = JSON.parse(out.subarray(end + 4, end + 4 + len).toString('utf8'));
      out = out.subarray(end + 4 + len);
      if (typeof m.id === 'number' && !('method' in m)) {
        answers.set(m.id, m);
        waiting.get(m.id)?.(m);
      } else if ('method' in m && 'id' in m) {
        // server -> client requests (configuration, registrations): answer null
        send(frame(msg({ id: m.id, result: m.method === 'workspace/configuration' ? (m.params.items ?? []).map(() => null) : null })));
      }
    }
  });
  const init = await request('initialize', { processId: process.pid, rootUri: null, capabilities: {} }, 1);
  assert.ok(init.result);
  notify('initialized', {});
  notify('textDocument/didOpen', { textDocument: { uri, languageId: 'layout', version: 1, text: readFileSync(`${root}/examples/matmul.layout`, 'utf8') } });
});
after(() => { proc.kill(); });

test('a frame 10 bytes short: dropped, the next request answered', async () => {
  send(frame(msg({ id: 2, method: 'textDocument/hover', params: { textDocument: { uri }, position: { line: 0, character: 0 } } }), -10));
  await alive();
  assert.match(stderr, /dropped \d+ bytes of malformed input/);
});

test('a frame 10 bytes long: the request inside it is still found and answered', async () => {
  const long = frame(msg({ id: 3, method: 'textDocument/foldingRange', params: { textDocument: { uri } } }), +10);
  send(Buffer.concat([long, frame(msg({ id: 4, method: 'textDocument/foldingRange', params: { textDocument: { uri } } }))]));
  const a = await answer(4);
  assert.equal(a.error, undefined);
  await alive();
});

test('a body without a header, binary junk, a header without a number: dropped', async () => {
  send(msg({ id: 5, method: 'textDocument/hover', params: {} }));
  await alive();
  send(Buffer.from([0, 1, 2, 255, 254, 0x43, 0x6f, 0x6e, 13, 10, 13, 10, 7, 7]));
  await alive();
  send('Content-Length: lots\r\n\r\n{"jsonrpc":"2.0"}');
  await alive();
  send('Content-Length: 99999999999999999\r\n\r\n');
  await alive();
});

test('malformed JSON-RPC, unknown methods, documents never opened, out-of-range positions', async () => {
  send(frame('{"jsonrpc":"2.0","id":6,"method":'));
  send(frame('[1, 2, 3]'));
  send(frame(msg({ id: 7 })));
  send(frame(msg({ id: 8, method: 'textDocument/hover', params: 'not an object' })));
  await alive();
  const unknown = await request('layout/noSuchMethod', {});
  assert.equal(unknown.error?.code, -32601);
  assert.deepEqual(await hoverAt(0, 0, 'file:///never/opened.layout'), { jsonrpc: '2.0', id: nextId - 1, result: null });
  for (const [l, c] of [[100000, 5], [0, 100000], [-1, -1], [1e15, 1e15]]) {
    const r = await hoverAt(l, c);
    assert.ok(!('error' in r) || (r.error && r.error.code !== undefined), JSON.stringify(r));
  }
  await alive();
});

test('bad change ranges and cancellations are survived', async () => {
  notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ range: { start: { line: 5000, character: 0 }, end: { line: 1, character: 0 } }, text: 'x' }] });
  notify('textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: [{ range: { start: { line: -4, character: -2 }, end: { line: 9e9, character: 9e9 } }, text: 'param N = 4\n' }] });
  notify('textDocument/didChange', { textDocument: { uri: 'file:///never/opened.layout', version: 3 }, contentChanges: [{ text: 'x' }] });
  const id = nextId++;
  send(frame(msg({ id, method: 'textDocument/hover', params: { textDocument: { uri }, position: { line: 0, character: 7 } } })));
  notify('$/cancelRequest', { id });
  notify('$/cancelRequest', { id: 'nonsense' });
  notify('$/cancelRequest', null);
  await answer(id); // answered (a result or RequestCancelled), not lost
  await alive();
});

test('10,000 rapid edits: the server keeps answering and its memory stays bounded', async () => {
  let version = 10;
  const base = 'param N = 64\nlayout L = OrderBy(Row(N, N)).GroupBy([N, N])\n';
  const chunks: Buffer[] = [];
  for (let i = 0; i < 10_000; i++) {
    const text = i % 2 ? `${base}let x${i} = L[1, 2]\n` : `${base}let y = N * ${i}\n`;
    chunks.push(frame(msg({ method: 'textDocument/didChange', params: { textDocument: { uri, version: version++ }, contentChanges: [{ text }] } })));
    if (chunks.length === 500) send(Buffer.concat(chunks.splice(0)));
  }
  send(Buffer.concat(chunks));
  await alive();
  const hover = await hoverAt(0, 7);
  assert.equal(hover.error, undefined);
  const status = readFileSync(`/proc/${proc.pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  assert.ok(rssKb > 0 && rssKb < 1_000_000, `the server holds ${rssKb} kB`);
  assert.equal(proc.exitCode, null);
});

test('$/cancelRequest for a request still queued behind other work: answered RequestCancelled without running', async () => {
  const id = nextId++;
  // one write: both are queued before the main thread gets to the request
  send(Buffer.concat([
    frame(msg({ id, method: 'textDocument/hover', params: { textDocument: { uri }, position: { line: 0, character: 7 } } })),
    frame(msg({ method: '$/cancelRequest', params: { id } })),
  ]));
  const a = await answer(id);
  assert.deepEqual(a.error, { code: -32800, message: 'the request was cancelled before it ran' });
  await alive();
});
