// transport.ts `OutputWatch`: output written to the client and not taken yet holds background work
// back (the analysis's slices), until it has all left, or until it has not moved for the stall time
// (a client that stopped reading does not stop the analysis). With a clock of our own, then on a
// real socket whose other end reads late.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, createConnection, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OutputWatch, OUTPUT_STALL_MS } from '../../server/src/lsp/transport.js';

test('pending while bytes wait and move; not once they have not moved for the stall time; not when none wait', () => {
  const out = { writableLength: 0 };
  let now = 1000;
  const w = new OutputWatch(out, 100, () => now);
  assert.equal(w.pending(), false);
  out.writableLength = 5000;
  assert.equal(w.pending(), true);
  now += 99;
  assert.equal(w.pending(), true, 'unchanged for 99 ms: still pending');
  now += 1;
  assert.equal(w.pending(), false, 'unchanged for 100 ms: the client does not read');
  now += 500;
  assert.equal(w.pending(), false);
  out.writableLength = 3000; // the client read some
  assert.equal(w.pending(), true, 'moved again: pending again');
  now += 50;
  out.writableLength = 9000; // more written
  assert.equal(w.pending(), true);
  now += 60;
  assert.equal(w.pending(), true, 'the last move was 60 ms ago');
  out.writableLength = 0;
  assert.equal(w.pending(), false);
  out.writableLength = 10;
  assert.equal(w.pending(), true, 'a new write after the stream emptied counts at once');
  assert.equal(OUTPUT_STALL_MS, 100);
});

test('on a real socket: pending while a large write waits for the reader, not after the stall, and not once it is read', { skip: process.platform === 'win32' ? 'a unix socket path' : false }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'output-watch-'));
  const path = join(dir, 's');
  let peer: Socket | undefined;
  const server = createServer((s) => {
    peer = s;
    s.pause(); // the client does not read yet
  });
  await new Promise<void>((r) => server.listen(path, r));
  const sock = createConnection(path);
  await new Promise<void>((r) => sock.on('connect', r));
  while (!peer) await new Promise((r) => setTimeout(r, 5));
  try {
    const w = new OutputWatch(sock, 60);
    assert.equal(w.pending(), false);
    sock.write(Buffer.alloc(16 * 2 ** 20, 0x61)); // far more than the kernel's buffers take
    assert.ok(sock.writableLength > 0);
    assert.equal(w.pending(), true);
    await new Promise((r) => setTimeout(r, 100));
    assert.ok(sock.writableLength > 0, 'the reader has read nothing');
    assert.equal(w.pending(), false, 'not moved for 60 ms: no longer holds work back');
    let got = 0;
    const all = new Promise<void>((r) => peer!.on('data', (d: Buffer) => { got += d.length; if (got === 16 * 2 ** 20) r(); }));
    peer.resume();
    // the reader takes it: the pending bytes move, and count again (unless all left in one turn)
    const before = sock.writableLength;
    while (sock.writableLength === before) await new Promise((r) => setImmediate(r));
    assert.equal(w.pending(), sock.writableLength > 0);
    await all;
    assert.equal(sock.writableLength, 0);
    assert.equal(w.pending(), false);
  } finally {
    sock.destroy();
    peer?.destroy();
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  }
});
