// The stdio transport's framing, made resilient (issue 10, section 5). vscode-jsonrpc's reader trusts
// every `Content-Length`: one frame 10 bytes short or long, a missing header or binary junk leaves it
// reading garbage for ever (the server alive but deaf). `Resync` sits between stdin and that reader and
// passes on only well-formed frames: a header with a Content-Length, then a body of exactly that many
// bytes that parses as JSON. Anything else is dropped (and logged) and reading resumes at the next
// `Content-Length:` header, also one found inside a frame that turned out malformed, so the message
// after a broken one is not lost.
//
// Writing: `FrameWriter` writes each message at once, header and body in one `write`, in the order
// they are sent. vscode-jsonrpc's stream writer queues every message behind a lock that runs on a
// later turn of the event loop (`setImmediate`), then writes the header and waits for its callback
// before writing the body: an answer computed in a millisecond waited behind whatever the loop took
// up meanwhile, most often the worker's diagnostics being converted and published (a hover right
// after an edit at 10,000 lines, from the handler's end to the client: p50 0.6-1.0 ms before, 0.36-0.43
// after; the slowest tenth 3-5 ms either way, the client's own pauses among them).
//
// Reading: `FrameReader` hands the connection the messages `Resync` parsed (parsed once, at once), and
// `InputWatch` tells background work on this thread (the analysis's slices) that a message came.
// `OutputWatch` tells it that an answer is still on its way out: stdout is a socket or a pipe that
// Node writes to asynchronously, so what does not fit in the kernel's buffer waits in the stream
// until the event loop gets back to it.
import { fstatSync, readSync } from 'node:fs';
import { Transform, type TransformCallback } from 'node:stream';
import { AbstractMessageReader, AbstractMessageWriter, type DataCallback, type Disposable, type Message, type MessageReader, type MessageWriter } from 'vscode-languageserver/node';

const HEADER = Buffer.from('Content-Length:', 'latin1');
const END = Buffer.from('\r\n\r\n', 'latin1');
/** a header longer than this is junk */
const MAX_HEADER = 4096;
/** a body larger than this is refused */
export const MAX_BODY = 512 * 1024 * 1024;

export class Resync extends Transform {
  private buf: Buffer = Buffer.alloc(0);
  /**
   * Chunks of a frame's body that came after `buf` and are kept aside until the body is complete
   * (`pendingBytes` in all; `need`: the length `buf` must reach): a 750 KB didOpen comes in 64 KB
   * pieces, and joining each to what came before copied it about six times over.
   */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private need = 0;
  /** bytes dropped since the last report */
  private dropped = 0;

  /**
   * `framed`: called for each frame passed on (`InputWatch.framed`). `deliver`: given each frame's
   * message, parsed (the check parses it anyway), instead of the frame's bytes (`FrameReader`).
   */
  constructor(private readonly log: (message: string) => void = () => undefined, private readonly framed: () => void = () => undefined, private readonly deliver?: (message: object) => void) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (this.need > 0 && this.buf.length + this.pendingBytes + chunk.length < this.need) {
      // more of a body that is not complete yet
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
      done();
      return;
    }
    if (this.pending.length > 0) {
      this.buf = Buffer.concat([this.buf, ...this.pending, chunk]);
      this.pending = [];
      this.pendingBytes = 0;
    } else this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    this.need = 0;
    this.pump();
    done();
  }

  private discard(n: number, why: string): void {
    this.buf = this.buf.subarray(n);
    this.dropped += n;
    if (why) {
      this.log(`layout-language-server: dropped ${this.dropped} bytes of malformed input (${why}); reading on at the next Content-Length header`);
      this.dropped = 0;
    }
  }

  private pump(): void {
    for (;;) {
      const at = this.buf.indexOf(HEADER);
      if (at < 0) {
        // keep a tail that may be the start of a header
        const keep = Math.min(this.buf.length, HEADER.length - 1);
        if (this.buf.length > keep) this.discard(this.buf.length - keep, this.buf.length - keep > 0 && !isWhitespace(this.buf.subarray(0, this.buf.length - keep)) ? 'no header' : '');
        return;
      }
      if (at > 0) {
        const junk = this.buf.subarray(0, at);
        this.discard(at, isWhitespace(junk) ? '' : 'bytes before a header');
      }
      const end = this.buf.indexOf(END);
      if (end < 0) {
        if (this.buf.length > MAX_HEADER) this.discard(1, 'a header without an end');
        else return; // wait for the rest of the header
        continue;
      }
      if (end > MAX_HEADER) {
        this.discard(1, 'a header too long');
        continue;
      }
      const header = this.buf.subarray(0, end).toString('latin1');
      const m = /^Content-Length:[ \t]*(\d{1,12})[ \t]*(?:\r\n|$)/i.exec(header);
      const length = m ? Number(m[1]) : NaN;
      if (!Number.isSafeInteger(length) || length > MAX_BODY || !/^(?:[A-Za-z-]+:[^\r\n]*(?:\r\n|$))+$/.test(header)) {
        this.discard(1, 'a malformed header');
        continue;
      }
      const start = end + END.length;
      if (this.buf.length < start + length) {
        // wait for the body (kept aside as it comes: `pending`)
        this.need = start + length;
        return;
      }
      const body = this.buf.subarray(start, start + length);
      let message: object | undefined;
      try {
        const v: unknown = JSON.parse(body.toString('utf8'));
        if (typeof v === 'object' && v !== null) message = v;
      } catch {
        message = undefined;
      }
      if (!message) {
        // a wrong length (or junk): look for the next header after this one's start
        this.discard(1, `a frame whose ${length}-byte body is not a JSON message (a wrong Content-Length?)`);
        continue;
      }
      if (this.deliver) this.deliver(message);
      else this.push(Buffer.concat([Buffer.from(`Content-Length: ${length}\r\n\r\n`, 'latin1'), body]));
      this.framed();
      this.buf = this.buf.subarray(start + length);
    }
  }
}

function isWhitespace(b: Buffer): boolean {
  for (const c of b) if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false;
  return true;
}

/** A message writer that frames and writes each message synchronously (see above). */
export class FrameWriter extends AbstractMessageWriter implements MessageWriter {
  private errors = 0;

  constructor(private readonly out: NodeJS.WritableStream) {
    super();
    out.on('error', (e: Error) => this.fireError(e));
    out.on('close', () => this.fireClose());
  }

  write(msg: Message): Promise<void> {
    try {
      // header and body encoded into one buffer (a 10,000-line file's symbols are 2 MB: no second copy)
      const json = JSON.stringify(msg);
      const length = Buffer.byteLength(json, 'utf8');
      const header = `Content-Length: ${length}\r\n\r\n`;
      const frame = Buffer.allocUnsafe(header.length + length);
      frame.write(header, 0, 'latin1');
      frame.write(json, header.length, 'utf8');
      this.out.write(frame);
      return Promise.resolve();
    } catch (e) {
      const error = e instanceof Error ? e : new Error(String(e));
      this.fireError(error, msg, ++this.errors);
      return Promise.reject(error);
    }
  }

  end(): void {
    this.out.end();
  }
}

/**
 * A message reader fed by `Resync` with the messages it parsed (`deliver`): vscode-jsonrpc's own
 * stream reader parsed each body a second time (a 10,000-line didOpen is 400 KB of JSON), and handed
 * each message on from an immediate of its own, a turn of the event loop after the frame was read.
 * `shutdownRequested` says whether a `shutdown` request came (the exit code when the input ends).
 */
export class FrameReader extends AbstractMessageReader implements MessageReader {
  private callback?: DataCallback;
  private readonly early: Message[] = [];
  shutdownRequested = false;

  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    for (const m of this.early.splice(0)) this.handOn(callback, m);
    return { dispose: () => (this.callback = undefined) };
  }

  /** a message framed by `Resync` */
  deliver(message: object): void {
    const m = message as Message & { method?: unknown };
    if (m.method === 'shutdown') this.shutdownRequested = true;
    if (this.callback) this.handOn(this.callback, m);
    else this.early.push(m);
  }

  /** a message the connection cannot take (`$/cancelRequest` with `params: null`) is reported, and reading goes on */
  private handOn(callback: DataCallback, m: Message): void {
    try {
      callback(m);
    } catch (e) {
      this.fireError(e);
    }
  }

  /** the input ended */
  close(): void {
    this.fireClose();
  }
}

/** How often `InputWatch.waiting` looks at the pipe at most (ms): a look costs about 5 µs. */
const PEEK_INTERVAL_MS = 0.2;
/**
 * Turns of the event loop during which a frame that `Resync` passed on counts as not dispatched yet:
 * vscode-jsonrpc's connection dispatches a message from an immediate (its stream reader, before
 * `FrameReader`, handed it on from another one first); the turn it was read in, and one to spare.
 */
const DISPATCH_TURNS = 3;

/**
 * Whether a message came that is not answered yet, so that background work on this thread (the
 * analysis's slices: analysis-runner.ts) stops and lets it be answered first. Two ways a message can
 * be waiting:
 * - Read and framed (`Resync` calls `framed`), but not yet dispatched: vscode-jsonrpc dispatches a
 *   message from an immediate, so a slice queued before it came ran first.
 * - Not read yet: Node reads its input only between two callbacks of the event loop, so a request
 *   that came during a slice waited for the slice's end. Where the input is a pipe or a socket (not
 *   on Windows, whose pipes block), `waiting` reads, without blocking, what waits on `fd` (libuv
 *   keeps it non-blocking) and hands it to `into`, the `Resync` that the stream `from` is piped to;
 *   only when `from` holds nothing it read before (else the order of the bytes would change), at
 *   most every `PEEK_INTERVAL_MS`. `LAYOUT_INPUT_PEEK=0` turns this reading off.
 */
export class InputWatch {
  private last = -Infinity;
  private readonly buf = Buffer.alloc(64 * 1024);
  private peeking: boolean;
  /** a frame came and its dispatch may not have run yet */
  private undispatched = false;
  private epoch = 0;

  constructor(private readonly fd: number, private readonly from: NodeJS.ReadableStream & { readableLength: number }, private readonly into: NodeJS.WritableStream) {
    this.peeking = process.platform !== 'win32' && process.env.LAYOUT_INPUT_PEEK !== '0' && isPipe(fd);
  }

  /** a frame was passed on to the reader (`Resync`) */
  framed(): void {
    this.undispatched = true;
    const epoch = ++this.epoch;
    let turns = DISPATCH_TURNS;
    const turn = (): void => {
      if (epoch !== this.epoch) return; // a later frame waits longer
      if (--turns > 0) setImmediate(turn);
      else this.undispatched = false;
    };
    setImmediate(turn);
  }

  /** true when a message came that has not been dispatched yet (reading what waits on the pipe) */
  waiting(): boolean {
    if (this.undispatched) return true;
    if (!this.peeking) return false;
    const now = performance.now();
    if (now - this.last < PEEK_INTERVAL_MS) return false;
    this.last = now;
    if (this.from.readableLength > 0) return true; // read already, not yet passed on
    let n: number;
    // nothing waiting (EAGAIN, thrown as an error) is the common case: an error without a stack
    // trace costs about 3.3 µs instead of 5.2, at up to 5,000 looks a second during an analysis
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      n = readSync(this.fd, this.buf, 0, this.buf.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EAGAIN' && code !== 'EWOULDBLOCK') this.peeking = false;
      return false;
    } finally {
      Error.stackTraceLimit = limit;
    }
    if (n === 0) {
      // the end of the input: the stream sees it too
      this.peeking = false;
      return false;
    }
    this.into.write(Buffer.from(this.buf.subarray(0, n)));
    return true;
  }
}

/**
 * How long output that the client does not take (the stream's pending bytes unchanged) still holds
 * background work back (ms): a client that stopped reading must not stop the analysis.
 */
export const OUTPUT_STALL_MS = 100;

/**
 * Whether what was written to the client has not all left yet, so that background work on this
 * thread waits and the event loop can hand it to the kernel as the client reads. Node writes to a
 * socket or a pipe (stdout, as clients start a server) asynchronously: a large answer (the symbols
 * of a 10,000-line file are 2.2 MB of JSON, its semantic tokens 0.65 MB) goes out a socket buffer at
 * a time, once per turn of the loop, and a turn that runs an analysis slice takes milliseconds: the
 * client got the symbols of a 10,000-line open 150-230 ms after they were written. Pending output
 * counts until it has not moved for `OUTPUT_STALL_MS` (a client that does not read), and again as
 * soon as it moves.
 */
export class OutputWatch {
  private length = 0;
  private moved = 0;

  constructor(private readonly out: { readonly writableLength: number }, private readonly stallMs = OUTPUT_STALL_MS, private readonly now: () => number = () => performance.now()) {}

  /** true while bytes written to the client wait in the stream, unless they have not moved for `stallMs` */
  pending(): boolean {
    const n = this.out.writableLength;
    if (n === 0) {
      this.length = 0;
      return false;
    }
    const t = this.now();
    if (n !== this.length) {
      this.length = n;
      this.moved = t;
    }
    return t - this.moved < this.stallMs;
  }
}

function isPipe(fd: number): boolean {
  try {
    const st = fstatSync(fd);
    return st.isFIFO() || st.isSocket();
  } catch {
    return false;
  }
}
