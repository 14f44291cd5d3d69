// Cancellation is cooperative: typing at any speed (keystrokes faster than the analysis, slower
// than it, or in between) cancels the running analysis through the shared flag, and the worker
// answers in time: it is never terminated and replaced, so it keeps its incremental state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRunner, type AnalysisOutcome } from '../../server/src/lsp/analysis-runner.js';
import { defaultSettings } from '../../server/src/service/settings.js';
import { IncrementalAnalysis } from '../../server/src/service/incremental.js';
import { layoutFile } from '../../bench/support/lsp-files.js';
import { buildServer, serverPath } from './harness.js';

test('typing at several speeds never terminates the analysis worker', { timeout: 240_000 }, async () => {
  buildServer();
  // the server's own grace: a worker that did not poll its flag within it would be replaced (and counted)
  const runner = createRunner(serverPath, 120_000);
  const uri = 'file:///typing.layout';
  // the worker is started with the server: let it load before the first keystroke
  assert.equal((await runner.run({ uri: 'file:///warm.layout', version: 1, text: 'param x = 1\n', settings: defaultSettings })).kind, 'done');
  let text = layoutFile(4000);
  const spots = [...text.matchAll(/GM\d+ = 8/g)].map((m) => m.index! + m[0].length - 1);
  let version = 0;
  const outcomes: AnalysisOutcome['kind'][] = [];
  let running: Promise<AnalysisOutcome> | undefined;
  const keystroke = async (): Promise<void> => {
    const at = spots[(version * 7) % spots.length];
    text = text.slice(0, at) + (text[at] === '8' ? '4' : '8') + text.slice(at + 1);
    version++;
    if (running) {
      runner.cancel();
      outcomes.push((await running).kind);
    }
    running = runner.run({ uri, version, text, settings: defaultSettings });
  };
  try {
    for (const gapMs of [0, 5, 40, 150, 400]) {
      for (let k = 0; k < 6; k++) {
        await keystroke();
        await new Promise((r) => setTimeout(r, gapMs));
      }
    }
    const last = await running!;
    assert.equal(last.kind, 'done');
    assert.deepEqual(last.kind === 'done' && last.diagnostics, new IncrementalAnalysis().diagnose(text, { budget: defaultSettings.genp.checkBudget, gpuTarget: 'sm_90', uri }).diagnostics);
    assert.ok(outcomes.includes('cancelled'), `some analyses were cancelled: ${outcomes.join(' ')}`);
    assert.ok(outcomes.every((o) => o === 'done' || o === 'cancelled'), outcomes.join(' '));
    assert.equal(runner.restarts, 0);
  } finally {
    runner.dispose();
  }
});

test('dispose stops the worker for good: its exit starts no other (which would keep the process alive)', async () => {
  buildServer();
  const runner = createRunner(serverPath, 120_000);
  assert.equal((await runner.run({ uri: 'file:///d.layout', version: 1, text: 'param x = 1\n', settings: defaultSettings })).kind, 'done');
  runner.dispose();
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(runner.restarts, 0);
});
