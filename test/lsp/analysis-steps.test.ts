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
import { TextDocument } from 'vscode-languageserver-textdocument';
import { SnapshotCache } from '../../server/src/lsp/context.js';
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

test('an analysis that reads the snapshots\' parse and name resolution (one parse per version) is the whole-file analysis, whatever versions the snapshots read meanwhile (property)', () => {
  fc.assert(fc.property(fc.constantFrom(...examples.keys()), fc.array(fc.tuple(edit, fc.constantFrom('analyse', 'skip', 'stop-for-next', 'read-older')), { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 40 }), (k, plan, stopAt) => {
    const snapshots = new SnapshotCache();
    const uri = 'file:///shared.layout';
    const a = new IncrementalAnalysis();
    let text = examples[k];
    let version = 1;
    const docs: TextDocument[] = [TextDocument.create(uri, 'layout', version, text)];
    /** runs the analysis of the latest version in steps, claiming its parse before each (as the runner does) */
    const analyse = (doc: TextDocument, between?: () => void, at = Infinity, stop = true): IncrementalResult => {
      const shared = snapshots.sharedParse(doc);
      const steps = a.steps(doc.getText(), { budget: BUDGET, gpuTarget: 'sm_90', shouldPause: () => true, parsed: shared.parse, resolution: shared.resolution });
      let n = 0;
      let r = steps.next(false);
      while (!r.done) {
        if (++n > 100_000) throw new Error('no end');
        if (n === at) between?.();
        shared.claim();
        r = steps.next(stop && n >= at);
      }
      return r.value;
    };
    const check = (doc: TextDocument, between?: () => void) => {
      const r = analyse(doc, between, stopAt, false);
      assert.equal(r.cancelled, false);
      const whole = fileDiagnostics(analyze(doc.getText(), { slow: true, budget: BUDGET, gpuTarget: 'sm_90' }), doc.getText(), undefined);
      assert.deepEqual(plain(r.diagnostics), plain(whole), JSON.stringify(doc.getText()));
    };
    check(docs[0]);
    for (const [e, what] of plan) {
      text = apply(text, e);
      const doc = TextDocument.create(uri, 'layout', ++version, text);
      docs.push(doc);
      if (what === 'skip') {
        void snapshots.sharedParse(doc); // parsed and resolved for a request, not analysed
        continue;
      }
      if (what === 'stop-for-next') {
        // the run of this version is stopped part of the way because the next version came (and was parsed)
        text = apply(text, e);
        const next = TextDocument.create(uri, 'layout', ++version, text);
        docs.push(next);
        const r = analyse(doc, () => void snapshots.sharedParse(next), stopAt);
        if (r.cancelled) assert.deepEqual(r.diagnostics, []);
        continue;
      }
      // an older snapshot read between two steps (its parse claimed back): the run claims its own again
      check(doc, what === 'read-older' ? () => void snapshots.get(docs[Math.max(0, docs.length - 3)]).symbols : undefined);
    }
    check(TextDocument.create(uri, 'layout', ++version, text));
  }), { numRuns: Number(process.env.RUNS ?? 60) });
});

test('with the snapshots\' parse, versions parsed but not analysed in between: only what changed since the last analysed version is re-checked', () => {
  const snapshots = new SnapshotCache();
  const uri = 'file:///skipped.layout';
  const a = new IncrementalAnalysis();
  const block = (k: number) => `param P${k} = ${k + 1}\nlayout L${k} = OrderBy(Row(P${k}, 4))\nlet use${k} = L${k}.size()\n`;
  let text = Array.from({ length: 40 }, (_, k) => block(k)).join('');
  const run = (version: number) => {
    const shared = snapshots.sharedParse(TextDocument.create(uri, 'layout', version, text));
    return a.diagnose(text, { parsed: shared.parse, resolution: shared.resolution });
  };
  assert.equal(run(1).stats.rechecked, 120);
  // version 2 (a declaration added near the top: every later chunk moves to another index) is parsed for a request only
  text = text.replace('let use1 = L1.size()\n', 'let use1 = L1.size()\nlet extra = 3\n');
  void snapshots.sharedParse(TextDocument.create(uri, 'layout', 2, text));
  // version 3 edits P30; analysed: the new let and P30's declaration and uses, nothing else
  text = text.replace('param P30 = 31', 'param P30 = 32');
  const r = run(3);
  assert.equal(r.stats.decls, 121);
  assert.equal(r.stats.rechecked, 4, 'extra, P30 and the two that use it');
  assert.deepEqual(plain(r.diagnostics), plain(fileDiagnostics(analyze(text, { slow: true }), text, undefined)));
});

test('a kernel\'s bindings are evaluated a step each: the run yields between two, and stopped between two, the next run evaluates the kernel again, exactly', () => {
  const text = [
    'const M = 256, N = 256, K = 256, BM = 64, BN = 64, BK = 32, GM = 4',
    'layout A = OrderBy(Row(M, K)).TileBy([M / BM, K / BK], [BM, BK])',
    'layout B = OrderBy(Row(K, N)).TileBy([K / BK, N / BN], [BK, BN])',
    'layout C = OrderBy(Row(M, N)).TileBy([M / BM, N / BN], [BM, BN])',
    'layout P = OrderBy(Col(max(M / BM / GM, 1), 1), Col(min(M / BM, GM), N / BN)).TileBy([M / BM, N / BN])',
    'kernel mm target triton builtin matmul {',
    '  pid_m, pid_n = P.inv(pid)',
    '  offset_aptrs = A[pid_m, k, :, :]',
    '  offset_bptrs = B[k, pid_n, :, :]',
    '  offset_cptrs = C[pid_m, pid_n, 0:BM, 0:BN]',
    '  param_M = M', '  param_N = N', '  param_K = K', '  param_BM = BM', '  param_BN = BN', '  param_BK = BK', '  param_GM = GM',
    '}', '',
  ].join('\n');
  const whole = plain(fileDiagnostics(analyze(text, { slow: true, budget: BUDGET }), text, undefined));
  // the steps of a run with the kernel, and of the same file without its evaluation (no kernel)
  const noKernel = text.slice(0, text.indexOf('kernel mm'));
  const withK = stepped(new IncrementalAnalysis(), text, { budget: BUDGET });
  const without = stepped(new IncrementalAnalysis(), noKernel, { budget: BUDGET });
  assert.deepEqual(plain(withK.result.diagnostics), whole);
  // the kernel's own steps: its check, its evaluation's first binding, then one per other binding the template uses (4 in all)
  assert.ok(withK.steps - without.steps >= 5, `${withK.steps} steps with the kernel, ${without.steps} without`);
  // stopped at each step of the evaluation in turn: the next run gives the whole-file result
  for (let stopAt = without.steps; stopAt <= withK.steps; stopAt++) {
    const a = new IncrementalAnalysis();
    stepped(a, text, { budget: BUDGET }, stopAt);
    assert.deepEqual(plain(stepped(a, text, { budget: BUDGET }).result.diagnostics), whole, `stopped at step ${stopAt}`);
  }
});
