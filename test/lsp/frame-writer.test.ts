// The server's message writer (server/src/lsp/transport.ts FrameWriter): each message is one frame,
// written at once (no later turn of the event loop), in the order sent, its Content-Length the UTF-8
// length of its body; vscode-jsonrpc's own reader reads the frames back to the same messages; a
// stream that fails is reported through onError and the promise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { StreamMessageReader, type Message } from 'vscode-languageserver/node';
import { FrameWriter } from '../../server/src/lsp/transport.js';

function sink(): { stream: Writable; chunks: Buffer[] } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return { stream, chunks };
}

const messages: Message[] = [
  { jsonrpc: '2.0', id: 1, result: { contents: { kind: 'markdown', value: 'size: 4096 elements — `A[i, j]` = i·K + j 🧩' } } } as Message,
  { jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { uri: 'file:///a.layout', version: 2, diagnostics: [] } } as Message,
  { jsonrpc: '2.0', id: 'x', error: { code: -32800, message: 'the request was cancelled' } } as Message,
];

test('one frame per message, written before write() returns, in order, with the UTF-8 length', () => {
  const { stream, chunks } = sink();
  const w = new FrameWriter(stream);
  messages.forEach((m, k) => {
    void w.write(m);
    assert.equal(chunks.length, k + 1, 'the frame is written synchronously, in one piece');
  });
  chunks.forEach((c, k) => {
    const end = c.indexOf('\r\n\r\n');
    const header = c.subarray(0, end).toString('latin1');
    const body = c.subarray(end + 4);
    assert.equal(header, `Content-Length: ${body.byteLength}`);
    assert.deepEqual(JSON.parse(body.toString('utf8')), messages[k]);
  });
  // the first body has multi-byte characters: bytes, not UTF-16 units
  const first = chunks[0].subarray(chunks[0].indexOf('\r\n\r\n') + 4);
  assert.notEqual(first.byteLength, JSON.stringify(messages[0]).length);
});

test("vscode-jsonrpc's reader reads the frames back, also split at arbitrary points", async () => {
  const pipe = new PassThrough();
  const w = new FrameWriter(pipe);
  // the frames, cut into 7-byte pieces, through the library's reader
  const input = new PassThrough();
  const got: Message[] = [];
  const reader = new StreamMessageReader(input);
  const all = new Promise<void>((resolve) => {
    reader.listen((m) => {
      got.push(m);
      if (got.length === messages.length) resolve();
    });
  });
  const bytes: Buffer[] = [];
  pipe.on('data', (d: Buffer) => bytes.push(d));
  for (const m of messages) await w.write(m);
  const whole = Buffer.concat(bytes);
  for (let i = 0; i < whole.length; i += 7) input.write(whole.subarray(i, i + 7));
  await all;
  assert.deepEqual(got, messages);
  reader.dispose();
});

test('a stream that throws: the promise rejects and onError is told the message and the count', async () => {
  const broken = new Writable({ write: (_c, _e, done) => done() });
  broken.write = () => {
    throw new Error('EPIPE');
  };
  const w = new FrameWriter(broken);
  const seen: [string, unknown, unknown][] = [];
  w.onError(([e, m, n]) => seen.push([e.message, m, n]));
  await assert.rejects(w.write(messages[1]), /EPIPE/);
  await assert.rejects(w.write(messages[2]), /EPIPE/);
  assert.deepEqual(seen, [['EPIPE', messages[1], 1], ['EPIPE', messages[2], 2]]);
});

test("the stream's own error and close reach onError and onClose", () => {
  const { stream } = sink();
  const w = new FrameWriter(stream);
  const errors: string[] = [];
  let closed = 0;
  w.onError(([e]) => errors.push(e.message));
  w.onClose(() => closed++);
  stream.emit('error', new Error('gone'));
  stream.emit('close');
  assert.deepEqual(errors, ['gone']);
  assert.equal(closed, 1);
});
