// The incremental analysis run in steps (`IncrementalAnalysis.steps`), as a thread that must keep
// answering requests runs it a slice at a time: paused at every point where it can pause (a GenP
// enumeration too, which goes on where it stopped), it gives exactly what one uninterrupted call gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Diagnostic } from '../../grammar/src/diagnostic.js';
import { analyze } from '../../server/src/check/index.js';
import { IncrementalAnalysis, type IncrementalOptions, type IncrementalResult } from '../../server/src/service/incremental.js';
import { fileDiagnostics } from '../../server/src/service/kernel-checks.js';
import { root } from './harness.js';
import { apply, edit } from './edits.js';

const BUDGET = 4096;
const examples = readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.layout')).sort()
  .map((f) => readFileSync(join(root, 'examples', f), 'utf8'));

function plain(x: unknown): unknown {
  return JSON.parse(JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)));
}

/** Runs `a` on `text` one step at a time, pausing every GenP enumeration at each poll; `stopAt`: stops it at that step. */
function stepped(a: IncrementalAnalysis, text: string, options: IncrementalOptions, stopAt = Infinity): { result: IncrementalResult; steps: number } {
  const steps = a.steps(text, { ...options, shouldPause: () => true });
  let steps_ = 0;
  let r = steps.next(false);
  while (!r.done) {
    if (steps_ > 100_000) throw new Error('the analysis never ends: a paused step starts over instead of going on');
    r = steps.next(++steps_ >= stopAt);
  }
  return { result: r.value, steps: steps_ };
}

test('an analysis run in steps, paused wherever it can pause, is the whole-file analysis after any edits (property)', () => {
  fc.assert(fc.property(fc.constantFrom(...examples.keys()), fc.array(edit, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 60 }), (k, edits, stopAt) => {
    const a = new IncrementalAnalysis();
    let text = examples[k];
    for (const [n, e] of [undefined, ...edits].entries()) {
      if (e) text = apply(text, e);
      // every third version is stopped part of the way first (as a newer version stops it); the next run finishes it
      if (n % 3 === 2) stepped(a, text, { budget: BUDGET, gpuTarget: 'sm_90' }, stopAt);
      const { result } = stepped(a, text, { budget: BUDGET, gpuTarget: 'sm_90' });
      assert.equal(result.cancelled, false);
      const whole = fileDiagnostics(analyze(text, { slow: true, budget: BUDGET, gpuTarget: 'sm_90' }), text, undefined);
      assert.deepEqual(plain(result.diagnostics), plain(whole), JSON.stringify(text));
    }
  }), { numRuns: Number(process.env.RUNS ?? 60) });
});

test('a GenP enumeration paused at every poll goes on where it stopped: one run, many steps, the exhaustive result', () => {
  const text = 'param S = 700\nperm sw(n)[i, j] = j * n + i\nlayout L = OrderBy(GenP([S, S], sw(S)))\n';
  const a = new IncrementalAnalysis();
  const { result, steps } = stepped(a, text, { budget: 1e6 });
  assert.equal(result.cancelled, false);
  assert.match(result.diagnostics[0].message, /checked exhaustively at S = 700 \(490000 points\)/);
  // the enumeration polls every 65,536 points: 490,000 points are 7 pauses at least (a restart at each would never end)
  assert.ok(steps >= 7, `${steps} steps`);
  const fast: Diagnostic[][] = [];
  // stopped between two pauses of the enumeration: cancelled, and the next run checks it all again
  const b = new IncrementalAnalysis();
  const stopped = stepped(b, text, { budget: 1e6, onFast: (d) => fast.push(d) }, 4);
  assert.equal(stopped.result.cancelled, true);
  assert.ok(!stopped.result.diagnostics.some((d) => d.code.startsWith('genp/')));
  const again = b.diagnose(text, { budget: 1e6 });
  assert.deepEqual(plain(again.diagnostics), plain(result.diagnostics));
});
