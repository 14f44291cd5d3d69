// transport.ts `Resync` (and `FrameReader`, to which it hands the messages it parsed): however the input is cut into pieces (a 750 KB didOpen comes in 64 KB pieces,
// a body's pieces are kept aside until it is complete), the frames passed on are the same as when the
// whole input comes at once; well-formed frames all pass, in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FrameReader, Resync } from '../../server/src/lsp/transport.js';

function frame(body: string, lengthDelta = 0): Buffer {
  const b = Buffer.from(body, 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${b.length + lengthDelta}\r\n\r\n`, 'latin1'), b]);
}

/** the bodies Resync passes on for `input` cut at `cuts` (offsets) */
async function passed(input: Buffer, cuts: number[]): Promise<string[]> {
  const r = new Resync();
  const out: Buffer[] = [];
  r.on('data', (b: Buffer) => out.push(b));
  const ends = [...new Set(cuts.filter((c) => c > 0 && c < input.length))].sort((a, b) => a - b);
  let at = 0;
  for (const e of [...ends, input.length]) {
    r.write(input.subarray(at, e));
    at = e;
  }
  r.end();
  await new Promise((resolve) => r.on('end', resolve));
  // split what came out into frames again (each pushed frame is a header and its body)
  const all = Buffer.concat(out).toString('utf8');
  const bodies: string[] = [];
  for (let rest = all; rest.length > 0; ) {
    const m = /^Content-Length: (\d+)\r\n\r\n/.exec(rest)!;
    assert.ok(m, `not a frame: ${rest.slice(0, 40)}`);
    const body = Buffer.from(rest.slice(m[0].length), 'utf8').subarray(0, Number(m[1])).toString('utf8');
    bodies.push(body);
    rest = rest.slice(m[0].length + body.length);
  }
  return bodies;
}

const message = fc.record({
  id: fc.nat(),
  method: fc.constantFrom('textDocument/didOpen', 'textDocument/hover', 'textDocument/didChange'),
  // some large (many of the cuts fall inside them), some with non-ASCII text
  text: fc.oneof(fc.string({ maxLength: 40 }), fc.string({ minLength: 2000, maxLength: 6000 }), fc.constant('é∑ ☃ 𝔽₂ '.repeat(300))),
}).map((m) => JSON.stringify({ jsonrpc: '2.0', id: m.id, method: m.method, params: { text: m.text } }));

test('Resync: well-formed frames cut anywhere pass on whole and in order', async () => {
  await fc.assert(fc.asyncProperty(fc.array(message, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 40 }), async (bodies, rawCuts) => {
    const input = Buffer.concat(bodies.map((b) => frame(b)));
    const cuts = rawCuts.map((c) => c % input.length);
    assert.deepEqual(await passed(input, cuts), bodies);
  }), { seed: 20261124, numRuns: 200 });
});

test('Resync: with broken frames among them (a wrong length, junk), the pieces do not change what passes', async () => {
  const broken = fc.oneof(
    message.map((b) => frame(b, 10)),
    message.map((b) => frame(b, -10)),
    fc.constant(Buffer.from('junk without a header\r\n', 'latin1')),
    fc.constant(Buffer.from('Content-Length: x\r\n\r\n{}', 'latin1')),
  );
  const part = fc.oneof(message.map((b) => ({ ok: true, b: frame(b), body: b })), broken.map((b) => ({ ok: false, b, body: '' })));
  await fc.assert(fc.asyncProperty(fc.array(part, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 40 }), async (parts, rawCuts) => {
    const input = Buffer.concat(parts.map((p) => p.b));
    const whole = await passed(input, []);
    assert.deepEqual(await passed(input, rawCuts.map((c) => c % input.length)), whole);
    // every well-formed frame that follows a well-formed one is among them
    for (let i = 0; i < parts.length; i++) if (parts[i].ok && (i === 0 || parts[i - 1].ok)) assert.ok(whole.includes(parts[i].body));
  }), { seed: 20261125, numRuns: 200 });
});

test('Resync: a large body in 64 KB pieces is kept aside, not joined piece by piece', async () => {
  const body = JSON.stringify({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { text: 'x'.repeat(800_000) } });
  const input = frame(body);
  const r = new Resync();
  const out: Buffer[] = [];
  r.on('data', (b: Buffer) => out.push(b));
  const concat = Buffer.concat;
  let copied = 0;
  Buffer.concat = ((list: readonly Uint8Array[], n?: number) => {
    const joined = concat(list, n);
    copied += joined.length;
    return joined;
  }) as typeof Buffer.concat;
  try {
    for (let at = 0; at < input.length; at += 65536) r.write(input.subarray(at, at + 65536));
  } finally {
    Buffer.concat = concat;
  }
  r.end();
  await new Promise((resolve) => r.on('end', resolve));
  assert.equal(concat(out).toString('utf8'), input.toString('utf8'));
  // the body joined once, and the frame passed on once: not once per piece (13 pieces, about 6 MB)
  assert.ok(copied <= 2 * input.length + 64, `${copied} bytes copied for a ${input.length}-byte frame`);
});

test('FrameReader: Resync delivers the messages it framed, parsed, the same as the frames it passes on as bytes, in order; a message the connection throws on does not stop the next', async () => {
  const part = fc.oneof(message.map((b) => frame(b)), fc.constant(Buffer.from('junk\r\n', 'latin1')), message.map((b) => frame(b, 7)));
  await fc.assert(fc.asyncProperty(fc.array(part, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 20 }), async (parts, rawCuts) => {
    const input = Buffer.concat(parts);
    const cuts = rawCuts.map((c) => c % input.length);
    const reader = new FrameReader();
    const got: unknown[] = [];
    const errors: unknown[] = [];
    reader.onError((e) => errors.push(e));
    let calls = 0;
    reader.listen((m) => {
      // the connection throws on every other message (as on `$/cancelRequest` with `params: null`)
      if (calls++ % 2 === 1) throw new Error('cannot take it');
      got.push(m);
    });
    const r = new Resync(() => undefined, () => undefined, (m) => reader.deliver(m));
    const ends = [...new Set(cuts.filter((c) => c > 0 && c < input.length))].sort((a, b) => a - b);
    let at = 0;
    for (const e of [...ends, input.length]) {
      r.write(input.subarray(at, e));
      at = e;
    }
    const bodies = (await passed(input, cuts)).map((b) => JSON.parse(b) as unknown);
    assert.deepEqual(got, bodies.filter((_, k) => k % 2 === 0));
    assert.equal(errors.length, Math.floor(bodies.length / 2));
  }), { seed: 20261125, numRuns: 150 });
});

test('FrameReader: messages delivered before the connection listens are handed on when it does; a shutdown request is noted', () => {
  const reader = new FrameReader();
  reader.deliver({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
  reader.deliver({ jsonrpc: '2.0', id: 2, method: 'shutdown' });
  assert.equal(reader.shutdownRequested, true);
  const got: unknown[] = [];
  reader.listen((m) => got.push(m));
  reader.deliver({ jsonrpc: '2.0', method: 'exit' });
  assert.deepEqual(got.map((m) => (m as { method: string }).method), ['initialize', 'shutdown', 'exit']);
});
