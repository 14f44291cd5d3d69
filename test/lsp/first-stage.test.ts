// The first stage of a just-opened document (its syntax and name diagnostics) comes from the worker,
// or, while the worker is not up yet (an editor opens its documents as soon as `initialize` is
// answered, while the worker loads its code), from the main thread's snapshot. Both must be one list:
// the main thread's (`firstStage` over a LayoutDocument, as server.ts builds it) equals the worker's
// (IncrementalAnalysis's `onSyntax`) on the examples and on fuzz inputs. And the scheduler publishes the
// main thread's list while the worker is not up, and only then.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from '../../grammar/src/diagnostic.js';
import { IncrementalAnalysis } from '../../server/src/service/incremental.js';
import { firstStage } from '../../server/src/service/incremental-move.js';
import { ChunkedParser } from '../../server/src/service/chunks.js';
import { DocumentHistory, LayoutDocument } from '../../server/src/service/document.js';
import { defaultSettings } from '../../server/src/service/settings.js';
import { DiagnosticsScheduler, MAIN_FIRST_STAGE_MAX_CHARS, MAIN_FIRST_STAGE_WARM_MAX_CHARS } from '../../server/src/lsp/diagnostics.js';
import type { AnalysisJob, AnalysisOutcome, AnalysisRunner, AnalysisStages } from '../../server/src/lsp/analysis-runner.js';
import { examples, mutatedExample, generatedProgram } from '../fuzz/fuzz-lib.js';

function worker(text: string): Diagnostic[] {
  let got: Diagnostic[] | undefined;
  new IncrementalAnalysis().diagnose(text, { onSyntax: (d) => { got = d; } });
  assert.ok(got, 'the worker gives a first stage');
  return got;
}

function mainThread(text: string): Diagnostic[] {
  const m = new LayoutDocument('file:///t.layout', 1, text, new ChunkedParser(), new DocumentHistory());
  return firstStage(m.parseDiagnostics, m.symbols.resolution.diagnostics);
}

test("the main thread's first stage is the worker's: the examples", () => {
  for (const t of examples) assert.deepEqual(mainThread(t), worker(t));
});

test("the main thread's first stage is the worker's: mutated examples and generated programs", () => {
  fc.assert(fc.property(fc.oneof(mutatedExample, generatedProgram), (t) => {
    assert.deepEqual(mainThread(t), worker(t));
  }), { seed: 20261124, numRuns: 150 });
});

/** A runner whose worker is up or not, and whose jobs end when the test says so. */
function fakeRunner(up: boolean, sharesParse = false) {
  const jobs: { job: AnalysisJob; stages: AnalysisStages; end: (o: AnalysisOutcome) => void }[] = [];
  const runner: AnalysisRunner = {
    run: (job, stages = {}) => new Promise((end) => jobs.push({ job, stages, end })),
    cancel: () => undefined,
    restarts: 0,
    start: () => undefined,
    isUp: () => up,
    forget: () => undefined,
    sharesParse,
    dispose: () => undefined,
  };
  return { runner, jobs };
}

const SMALL = 'param N = 4\nlayout A = OrderBy(Row(N, M)).GroupBy([N, N])\n';

/** A scheduler over a fake runner for one document: what it publishes, the jobs it starts, the versions whose first stage it asked for. */
function scheduled(doc: TextDocument, o: { up?: boolean; sharesParse?: boolean; ready?: Promise<unknown>; current?: () => TextDocument } = {}) {
  const sent: { version?: number; diagnostics: unknown[] }[] = [];
  const { runner, jobs } = fakeRunner(o.up ?? true, o.sharesParse);
  const asked: number[] = [];
  const scheduler = new DiagnosticsScheduler({
    connection: { sendDiagnostics: (p: { version?: number; diagnostics: unknown[] }) => { sent.push(p); return Promise.resolve(); } } as never,
    runner,
    document: o.current ?? (() => doc),
    settings: () => defaultSettings,
    timeoutMs: 10_000,
    earlyMinChars: 10,
    ...(o.ready ? { ready: o.ready } : {}),
    firstStage: (job) => {
      asked.push(job.version);
      return mainThread(job.text);
    },
  });
  return { scheduler, sent, jobs, asked };
}

async function opened(up: boolean, text = SMALL, sharesParse = false) {
  const doc = TextDocument.create('file:///t.layout', 'layout', 1, text);
  const { scheduler, sent, jobs, asked } = scheduled(doc, { up, sharesParse });
  scheduler.update(doc, true);
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  return { sent, jobs, asked, text };
}

test('the scheduler publishes the main thread\'s first stage while the worker is not up, and takes it once', async () => {
  const { sent, jobs, asked, text } = await opened(false);
  assert.deepEqual(asked, [1]);
  assert.equal(jobs.length, 1);
  assert.deepEqual(sent.map((p) => p.diagnostics.map((d) => (d as { code: string }).code)), [['name/undefined']]);
  // the worker's own first stage, later: the same list, not published again
  jobs[0].stages.syntax?.(worker(text));
  assert.equal(sent.length, 1);
  jobs[0].end({ kind: 'done', diagnostics: worker(text), ms: 1 });
  await new Promise((r) => setImmediate(r));
  assert.equal(sent.length, 2); // the complete result
});

test('with the worker up, a small document\'s first stage is still the main thread\'s (MAIN_FIRST_STAGE_WARM_MAX_CHARS), taken once', async () => {
  const { sent, jobs, asked, text } = await opened(true);
  assert.deepEqual(asked, [1]);
  assert.deepEqual(sent.map((p) => p.diagnostics.map((d) => (d as { code: string }).code)), [['name/undefined']]);
  jobs[0].stages.syntax?.(worker(text));
  assert.equal(sent.length, 1);
});

test('with the worker up, a document larger than MAIN_FIRST_STAGE_WARM_MAX_CHARS gets the worker\'s first stage', async () => {
  const big = SMALL + '# padding\n'.repeat(Math.ceil(MAIN_FIRST_STAGE_WARM_MAX_CHARS / 10));
  assert.ok(big.length <= MAIN_FIRST_STAGE_MAX_CHARS);
  const { sent, jobs, asked, text } = await opened(true, big);
  assert.deepEqual(asked, []);
  assert.equal(sent.length, 0);
  jobs[0].stages.syntax?.(worker(text));
  assert.deepEqual(sent.map((p) => p.diagnostics.map((d) => (d as { code: string }).code)), [['name/undefined']]);
});

test('with the analysis on the main thread over the snapshots\' parse, a large document\'s first stage is the main thread\'s too, taken once', async () => {
  const big = SMALL + '# padding\n'.repeat(Math.ceil(MAIN_FIRST_STAGE_MAX_CHARS / 10));
  const { sent, jobs, asked, text } = await opened(true, big, true);
  assert.deepEqual(asked, [1]);
  assert.deepEqual(sent.map((p) => p.diagnostics.map((d) => (d as { code: string }).code)), [['name/undefined']]);
  jobs[0].stages.syntax?.(worker(text));
  assert.equal(sent.length, 1);
});

test('a document larger than MAIN_FIRST_STAGE_MAX_CHARS waits for the worker (its cold parse, not the worker\'s load, is the wait)', async () => {
  const big = SMALL + '# padding\n'.repeat(Math.ceil(MAIN_FIRST_STAGE_MAX_CHARS / 10));
  const { sent, asked } = await opened(false, big);
  assert.deepEqual(asked, []);
  assert.equal(sent.length, 0);
});

// A request on a just-opened document waits for its first diagnostics (server.ts, through
// `untilFirstPublish`): while the document is staged and nothing was published for it, at most the cap.
test('untilFirstPublish: resolves at the first publish of a just-opened staged document, or at the cap; undefined otherwise', async () => {
  const doc = TextDocument.create('file:///t.layout', 'layout', 1, SMALL);
  const { runner, jobs } = fakeRunner(true);
  const make = (earlyMinChars: number) => new DiagnosticsScheduler({
    connection: { sendDiagnostics: () => Promise.resolve() } as never,
    runner,
    document: (uri) => (uri === doc.uri ? doc : undefined),
    settings: () => defaultSettings,
    timeoutMs: 10_000,
    earlyMinChars,
  });
  const s = make(10);
  assert.equal(s.untilFirstPublish(doc.uri, 1000), undefined, 'no analysis running or waiting');
  s.update(doc, true);
  await new Promise((r) => setImmediate(r));
  assert.equal(jobs.length, 1);
  const t0 = performance.now();
  let resolved = false;
  const wait = s.untilFirstPublish(doc.uri, 5000)!.then(() => { resolved = true; });
  assert.equal(s.untilFirstPublish('file:///other.layout', 1000), undefined, 'another document');
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(resolved, false, 'not before a publish');
  jobs[0].stages.syntax!([]);
  await wait;
  assert.ok(performance.now() - t0 < 1000);
  assert.equal(s.untilFirstPublish(doc.uri, 1000), undefined, 'published once: requests no longer wait');

  // a document below `earlyMinChars` (its complete result comes soon): no wait
  const small = make(SMALL.length + 1);
  small.update(doc, true);
  await new Promise((r) => setImmediate(r));
  assert.equal(small.untilFirstPublish(doc.uri, 1000), undefined);

  // the cap: nothing is published
  const capped = make(10);
  capped.update(doc, true);
  await new Promise((r) => setImmediate(r));
  const c0 = performance.now();
  await capped.untilFirstPublish(doc.uri, 60);
  const waited = performance.now() - c0;
  assert.ok(waited >= 55 && waited < 1000, String(waited));
  // closing the document releases its waiters
  const pending = capped.untilFirstPublish(doc.uri, 5000)!;
  const p0 = performance.now();
  capped.close(doc.uri);
  await pending;
  assert.ok(performance.now() - p0 < 1000);
});

test('while the first settings pull is under way, a just-opened document\'s first stage is published from the main thread; the analysis, once the settings came, takes it as its own', async () => {
  const doc = TextDocument.create('file:///t.layout', 'layout', 1, SMALL);
  let settingsCame!: () => void;
  const ready = new Promise<void>((r) => (settingsCame = r));
  const { scheduler, sent, jobs, asked } = scheduled(doc, { ready });
  scheduler.update(doc, true);
  await new Promise((r) => setImmediate(r));
  assert.equal(jobs.length, 0, 'the analysis waits for the settings');
  assert.deepEqual(sent.map((p) => [p.version, p.diagnostics.map((d) => (d as { code: string }).code)]), [[1, ['name/undefined']]]);
  settingsCame();
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  assert.equal(jobs.length, 1);
  // neither the main thread's first stage nor the analysis's own is published again
  jobs[0].stages.syntax?.(worker(SMALL));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(asked, [1]);
  assert.equal(sent.length, 1);
  // the stage after it (everything but the slow checks) is published: the document is still staged
  jobs[0].stages.partial?.(worker(SMALL));
  assert.equal(sent.length, 2);
  jobs[0].end({ kind: 'done', diagnostics: worker(SMALL), ms: 1 });
  await new Promise((r) => setImmediate(r));
  assert.equal(sent.length, 3);
  // an edit before the settings came: no stage of the edited version from before the pull
  const edited = TextDocument.create('file:///u.layout', 'layout', 1, SMALL);
  const later = scheduled(edited, { ready: new Promise(() => undefined), current: () => TextDocument.create('file:///u.layout', 'layout', 2, SMALL) });
  later.scheduler.update(edited, true);
  await new Promise((r) => setImmediate(r));
  assert.equal(later.sent.length, 0);
});
