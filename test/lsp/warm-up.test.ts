// The analysis worker's warm-up (lsp/warm-up.ts): a sample that analyses without a diagnostic (the
// warm-up runs the normal paths, not error paths), one step per event-loop turn, stopped by a
// request (busy) or by its stop function, never more than `runs` steps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BROKEN_UNIT, WARM_UP_RUNS, WARM_UP_UNITS, warmUp } from '../../server/src/lsp/warm-up.js';
import { IncrementalAnalysis } from '../../server/src/service/incremental.js';

const turns = (n: number) => new Promise<void>((resolve) => {
  let left = n;
  const next = () => (left-- <= 0 ? resolve() : setImmediate(next));
  next();
});

test('the warm-up sample touches every declaration kind and has no diagnostics', () => {
  const sample = WARM_UP_UNITS.join('\n');
  for (const kw of ['param', 'const', 'let', 'layout', 'perm', 'kernel', 'schedule', 'GenP', 'RegP', 'TileBy', '.inv(']) assert.ok(sample.includes(kw), kw);
  assert.deepEqual(new IncrementalAnalysis().diagnose(sample).diagnostics, []);
  assert.equal(WARM_UP_RUNS, 72);
});

test('the last step parses a unit with a syntax error (building Chevrotain\'s parser); the others take the fast path', async () => {
  const { parseCounts } = await import('../../grammar/src/parser.js');
  const { parse } = await import('../../grammar/src/parse.js');
  assert.deepEqual(parse(BROKEN_UNIT).diagnostics.map((d) => d.code), ['parse/unclosed']);
  const before = parseCounts.chevrotain;
  const seen: number[] = [];
  warmUp(() => false, 5, () => seen.push(parseCounts.chevrotain - before));
  await turns(10);
  // as each step starts, how many pieces Chevrotain parsed so far: none before the last step
  assert.deepEqual(seen, [0, 0, 0, 0, 0]);
  assert.equal(parseCounts.chevrotain, before + 1);
});

test('warm-up: one step per event-loop turn, at most `runs`, and none once a request is there', async () => {
  const steps: number[] = [];
  warmUp(() => false, 30, (s) => steps.push(s));
  assert.deepEqual(steps, [], 'nothing runs before the event loop turns');
  await turns(40);
  assert.deepEqual(steps, Array.from({ length: 30 }, (_, k) => k));

  let busy = false;
  const seen: number[] = [];
  warmUp(() => busy, 30, (s) => seen.push(s));
  await turns(3);
  busy = true;
  const at = seen.length;
  assert.ok(at >= 1 && at <= 3, String(at));
  await turns(10);
  assert.equal(seen.length, at);

  const more: number[] = [];
  const stop = warmUp(() => false, 30, (s) => more.push(s));
  await turns(2);
  stop();
  const n = more.length;
  await turns(10);
  assert.equal(more.length, n);
});

test('warm-up: `busy` is polled inside each step (before each chunk and declaration), and a step stops at the first yes', async () => {
  let polls = 0;
  const perStep: number[] = [];
  let before = 0;
  warmUp(() => (polls++, false), 30, () => { perStep.push(polls - before); before = polls; });
  await turns(40);
  assert.equal(perStep.length, 30);
  // (a step's count is read as the next one starts: the polls of the step before it, plus the one between steps)
  for (const n of perStep.slice(1)) assert.ok(n >= 10, `only ${n} polls in a step`);

  let asked = 0;
  const steps: number[] = [];
  warmUp(() => ++asked > 4, 30, (s) => steps.push(s));
  await turns(10);
  // the first step parses the sample: it stops at the fourth chunk's poll, and nothing runs after it
  assert.deepEqual(steps, [0]);
  assert.equal(asked, 6);
});

test('the main thread\'s warm-up waits while diagnostics are being computed, then runs every step', async () => {
  const { warmUpMainThread } = await import('../../server/src/lsp/warm-main.js');
  let paused = true;
  const steps: number[] = [];
  const stop = warmUpMainThread(() => paused, (s) => steps.push(s));
  await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual(steps, []);
  paused = false;
  await new Promise((r) => setTimeout(r, 100));
  await turns(50);
  assert.ok(steps.length >= 5, String(steps.length));
  assert.deepEqual(steps, Array.from({ length: steps.length }, (_, k) => k));
  stop();
});

// Input that arrives during a step (a MessagePort's message is read where a socket's data is, in the
// loop's poll phase) and is dispatched from an immediate of its own, as vscode-jsonrpc dispatches a
// message it read: with `afterIo` it is handled before the next step, else a step queued as an
// immediate before the input was read goes first.
for (const afterIo of [true, false]) {
  test(`stepByStep${afterIo ? ' with afterIo: input that came during a step is handled before the next one' : ': without afterIo, the next step goes first'}`, async () => {
    const { stepByStep } = await import('../../server/src/lsp/warm-up.js');
    const { MessageChannel } = await import('node:worker_threads');
    const { port1, port2 } = new MessageChannel();
    const done: number[] = [];
    let handledAfter = -1;
    port2.on('message', () => setImmediate(() => (handledAfter = done.length)));
    const stop = stepByStep(6, (step) => {
      done.push(step);
      if (step === 1) {
        port1.postMessage('didOpen');
        const t = performance.now() + 2;
        while (performance.now() < t) { /* a step that takes a while: the message arrives during it */ }
      }
    }, { afterIo });
    await new Promise((r) => setTimeout(r, 100));
    stop();
    port1.close();
    assert.deepEqual(done, [0, 1, 2, 3, 4, 5]);
    assert.equal(handledAfter, afterIo ? 2 : 3, `handled after step ${handledAfter - 1}`);
  });
}

test('the main thread\'s first-stage warm-up runs its steps in order until a document is opened', async () => {
  const { warmMainFirstStage, MAIN_FIRST_STAGE_RUNS } = await import('../../server/src/lsp/warm-main.js');
  const steps: number[] = [];
  warmMainFirstStage(() => false, (s) => steps.push(s));
  // (one step per timer: as long as the steps take, 5 s at most)
  for (const until = performance.now() + 5000; steps.length < MAIN_FIRST_STAGE_RUNS && performance.now() < until; ) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(steps, Array.from({ length: MAIN_FIRST_STAGE_RUNS }, (_, k) => k));

  let opened = false;
  const some: number[] = [];
  warmMainFirstStage(() => opened, (s) => {
    some.push(s);
    if (s === 2) opened = true;
  });
  await turns(20);
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(some, [0, 1, 2]);
});
