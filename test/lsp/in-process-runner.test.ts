// The in-process runner (lsp/analysis-runner.ts `InProcessRunner`, the server's default): it runs the
// analysis a slice at a time, so the event loop turns many times during a long GenP check (requests
// are answered meanwhile); a cancel stops a run at once and the next run of the document gives the
// whole-file result; a run past the timeout is stopped; with the snapshots' parse, a job for a version
// the document has left is not run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createRunner, type AnalysisJob, type AnalysisOutcome } from '../../server/src/lsp/analysis-runner.js';
import { SnapshotCache } from '../../server/src/lsp/context.js';
import { defaultSettings, type Settings } from '../../server/src/service/settings.js';
import { analyze } from '../../server/src/check/index.js';
import { fileDiagnostics } from '../../server/src/service/kernel-checks.js';

const slow = (s: number) => `param S = ${s}\nperm sw(n)[i, j] = j * n + i\nlayout L = OrderBy(GenP([S, S], sw(S)))\nlet y = zz\n`;
const settings: Settings = { ...defaultSettings, genp: { ...defaultSettings.genp, checkBudget: 1e8 } };
const job = (text: string, version = 1, uri = 'file:///slow.layout'): AnalysisJob => ({ uri, version, text, settings });

function plain(x: unknown): unknown {
  return JSON.parse(JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)));
}

/** counts event-loop turns (immediates) until `p` settles */
async function turnsUntil<T>(p: Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let done = false;
  const spin = () => {
    if (done) return;
    turns++;
    setImmediate(spin);
  };
  setImmediate(spin);
  const value = await p;
  done = true;
  return { value, turns };
}

test('a long GenP check runs in slices: the event loop turns many times before the result, which is the whole-file analysis', async () => {
  const runner = createRunner(undefined, 60_000);
  const text = slow(2000); // 4,000,000 points
  const { value, turns } = await turnsUntil(runner.run(job(text)));
  assert.equal(value.kind, 'done');
  const diagnostics = (value as Extract<AnalysisOutcome, { kind: 'done' }>).diagnostics;
  assert.deepEqual(plain(diagnostics), plain(fileDiagnostics(analyze(text, { slow: true, budget: 1e8 }), text, undefined)));
  assert.match(diagnostics[0].message, /checked exhaustively at S = 2000 \(4000000 points\)/);
  // 4,000,000 points polled every 65,536: some 60 pauses, each a turn of the loop at least
  assert.ok(turns >= 30, `${turns} turns`);
});

test('a cancel stops the run at once; the next run of the document finishes the work and gives the whole-file result', async () => {
  const runner = createRunner(undefined, 60_000);
  const text = slow(2000);
  const first = runner.run(job(text));
  // let it start (parse, names, a few slices of the enumeration)
  for (let i = 0; i < 8; i++) await new Promise((r) => setImmediate(r));
  runner.cancel();
  assert.equal((await first).kind, 'cancelled');
  const edited = text.replace('zz', 'S');
  const second = await runner.run(job(edited, 2));
  assert.equal(second.kind, 'done');
  assert.deepEqual(plain((second as Extract<AnalysisOutcome, { kind: 'done' }>).diagnostics), plain(fileDiagnostics(analyze(edited, { slow: true, budget: 1e8 }), edited, undefined)));
});

test('a run past its timeout is stopped (timeout); the next one runs', async () => {
  const runner = createRunner(undefined, 30);
  const outcome = await runner.run(job(slow(4000))); // 16,000,000 points: far more than 30 ms
  assert.equal(outcome.kind, 'timeout');
  const small = await runner.run(job(slow(6), 2));
  assert.equal(small.kind, 'done');
  assert.match((small as Extract<AnalysisOutcome, { kind: 'done' }>).diagnostics[0].message, /checked exhaustively at S = 6 \(36 points\)/);
});

test('with the snapshots\' parse: a job for a version the document has left is not run; the current one is, and a closed document\'s analysis is dropped', async () => {
  const snapshots = new SnapshotCache();
  const uri = 'file:///shared.layout';
  let current = TextDocument.create(uri, 'layout', 1, slow(6));
  const runner = createRunner(undefined, 60_000, 2000, (j) => (current.version === j.version ? snapshots.sharedParse(current) : undefined));
  const v1 = job(current.getText(), 1, uri);
  current = TextDocument.create(uri, 'layout', 2, slow(7));
  assert.equal((await runner.run(v1)).kind, 'cancelled');
  const v2 = await runner.run(job(current.getText(), 2, uri));
  assert.equal(v2.kind, 'done');
  assert.deepEqual(plain((v2 as Extract<AnalysisOutcome, { kind: 'done' }>).diagnostics), plain(fileDiagnostics(analyze(slow(7), { slow: true, budget: 1e8 }), slow(7), undefined)));
  runner.forget(uri);
  current = TextDocument.create(uri, 'layout', 3, slow(8));
  const v3 = await runner.run(job(current.getText(), 3, uri));
  assert.equal(v3.kind, 'done');
  assert.match((v3 as Extract<AnalysisOutcome, { kind: 'done' }>).diagnostics[0].message, /S = 8 \(64 points\)/);
});

test('while a message waits (inputWaiting), no slice runs; each slice ends when one comes; the result is the whole-file analysis', async () => {
  let waiting = true;
  let asked = 0;
  const runner = createRunner(undefined, 60_000, undefined, undefined, () => {
    asked++;
    return waiting;
  });
  const text = slow(1000); // 1,000,000 points
  let syntax = 0;
  let settled = false;
  const run = runner.run(job(text), { syntax: () => syntax++ });
  void run.then(() => (settled = true));
  for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
  // asked on every turn, and nothing ran: not even the parse (whose stage would be out)
  assert.ok(asked >= 20, `${asked} asks`);
  assert.equal(syntax, 0);
  assert.equal(settled, false);
  // a message every other ask: each slice stops at the first, the enumeration pauses at its polls
  waiting = false;
  let n = 0;
  const paused = createRunner(undefined, 60_000, undefined, undefined, () => ++n % 2 === 0);
  const [a, b] = await Promise.all([run, turnsUntil(paused.run(job(text, 1, 'file:///other.layout')))]);
  assert.equal(syntax, 1);
  const expected = plain(fileDiagnostics(analyze(text, { slow: true, budget: 1e8 }), text, undefined));
  for (const o of [a, b.value]) {
    assert.equal(o.kind, 'done');
    assert.deepEqual(plain((o as Extract<AnalysisOutcome, { kind: 'done' }>).diagnostics), expected);
  }
});
