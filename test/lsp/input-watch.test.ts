// transport.ts `InputWatch`, in a child process whose stdin is a real pipe: while the child's event
// loop is blocked (an analysis slice), a message written to the pipe is read by the watch itself,
// handed to the reader in order (after what Node had read, before what comes later), and `waiting()`
// says so; a framed message stays "waiting" for the turns the reader takes to dispatch it, then not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');
const frame = (o: object) => {
  const b = Buffer.from(JSON.stringify(o), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${b.length}\r\n\r\n`, 'latin1'), b]);
};

test('a message written while the loop is blocked is read by the watch, in order, and waiting() says so until it is dispatched', { skip: process.platform === 'win32' ? 'pipes block on Windows: no watch there' : false }, async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/lsp/input-watch-child.ts'], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  const events: Record<string, unknown>[] = [];
  const waiters: [(e: Record<string, unknown>) => boolean, () => void][] = [];
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    for (let i = out.indexOf('\n'); i >= 0; i = out.indexOf('\n')) {
      const e = JSON.parse(out.slice(0, i)) as Record<string, unknown>;
      out = out.slice(i + 1);
      events.push(e);
      for (const w of [...waiters]) if (w[0](e)) { waiters.splice(waiters.indexOf(w), 1); w[1](); }
    }
  });
  const until = (f: (e: Record<string, unknown>) => boolean) => (events.some(f) ? Promise.resolve() : new Promise<void>((r) => waiters.push([f, r])));
  try {
    child.stdin.write(frame({ n: 1 }));
    await until((e) => e.got === 1);
    // block the child's loop; once it spins, write two messages at different times
    child.stdin.write(frame({ n: 2, cmd: 'busy' }));
    await until((e) => e.spinning === true);
    await new Promise((r) => setTimeout(r, 50));
    child.stdin.write(Buffer.concat([frame({ n: 3 }), frame({ n: 4 })]));
    await until((e) => e.spun !== undefined);
    child.stdin.write(frame({ n: 5, cmd: 'turns' }));
    await until((e) => e.turns !== undefined);
    child.stdin.write(frame({ n: 6, cmd: 'exit' }));
    await new Promise((r) => child.on('exit', r));
  } finally {
    child.kill();
  }
  const spinning = events.find((e) => e.spinning === true)!;
  assert.equal(spinning.waiting, false, 'nothing waits when the loop starts spinning');
  // the watch saw the messages while the loop was blocked: the reader got them then, in order
  assert.deepEqual(events.find((e) => e.spun !== undefined), { spun: true });
  assert.deepEqual(events.filter((e) => e.got !== undefined), [
    { got: 1, during: false },
    { got: 2, during: false },
    { got: 3, during: true },
    { got: 4, during: true },
    { got: 5, during: false },
    { got: 6, during: false },
  ]);
  // message 5 counts as waiting on the turns the reader takes to dispatch it (3, from the turn it was
  // read in, which is the first asked here), then no more
  assert.deepEqual(events.find((e) => e.turns !== undefined), { turns: [true, true, true, false, false, false] });
});
