// Diagnostics: re-analyse each open document after an edit (debounced), one analysis at a time,
// newest version first; a newer edit cancels a running analysis of an older version, and a
// result is published only while its version is still the document's current one.
//
// Staged publishing (as TypeScript's server shows syntax errors before semantic ones): the worker
// sends the syntax and name diagnostics as soon as the file is parsed and resolved, then (when slow
// GenP checks remain) everything else. Each stage is published as it arrives while no complete
// result has been published for the document (it was just opened, or edited before its first
// result) and the file is large enough for the full analysis to take a while (`earlyMinChars`): a
// stage is complete for what it covers and the client shows nothing more complete meanwhile. Otherwise a stage only feeds the interim publish of a long analysis
// (`interimAfterMs`): published at once, it would replace the previous version's full result by a
// smaller set on every edit. A stage is published only while its analysis is the running one for
// the current version: the full result of that version always comes after it, and nothing older
// overwrites a newer one.
import type { Connection } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from '../../../grammar/src/diagnostic.js';
import type { Settings } from '../service/settings.js';
import { syntaxDiagnostics } from '../service/diagnose.js';
import { toDiagnostic } from './convert.js';
import { MAX_FULL_ANALYSIS_CHARS, type AnalysisJob, type AnalysisOutcome, type AnalysisRunner } from './analysis-runner.js';

export interface SchedulerOptions {
  connection: Connection;
  runner: AnalysisRunner;
  /** the open document, or undefined once closed */
  document: (uri: string) => TextDocument | undefined;
  settings: () => Settings;
  /**
   * When the full analysis of the current version runs longer than this, what is known of it is
   * published meanwhile: the worker's latest stage (everything but the slow checks still running,
   * else the syntax and name diagnostics), as soon as there is one.
   */
  interimAfterMs?: number;
  /**
   * A document of at least this many characters that has had no diagnostics published since it
   * was opened gets its syntax and name diagnostics as soon as the worker knows them (see above).
   */
  earlyMinChars?: number;
  timeoutMs: number;
  /**
   * The syntax and name diagnostics of a job's version computed on this thread (the main thread's
   * snapshot: service/incremental-move.ts `firstStage`, the worker's list), or undefined when the
   * document is no longer at that version. Used for a staged document while the worker is not up
   * (an editor opens its documents as soon as `initialize` is answered, while the worker loads its
   * code, some 60 ms), so that the first stage does not wait for the worker to load, and for a small
   * one when it is (`MAIN_FIRST_STAGE_WARM_MAX_CHARS`).
   */
  firstStage?: (job: AnalysisJob) => Diagnostic[] | undefined;
  /** analyses wait for this (the first settings pull) */
  ready?: Promise<unknown>;
  /** called after each publish (tests, benchmarks, logging) */
  onPublished?: (uri: string, version: number, ms: number) => void;
}

interface Running {
  job: AnalysisJob;
  started: number;
  interim?: NodeJS.Timeout;
  /** the interim time has come */
  interimDue?: boolean;
  /** the worker's early result: all but the slow checks still running */
  partial?: Diagnostic[];
  /** the worker's first stage: the syntax and name diagnostics */
  syntax?: Diagnostic[];
  /** the document was just opened and large: every stage is published as it arrives */
  staged?: boolean;
}

/**
 * The main thread computes a just-opened document's first stage while the worker is not up only up
 * to this size (about 6,000 lines): there the worker's load is a large part of the wait; beyond it the
 * cold parse is (10,000 lines: 162 ms on the main thread against about 170 through the worker), and the
 * main thread would stop answering for that long.
 */
export const MAIN_FIRST_STAGE_MAX_CHARS = 200_000;

/**
 * With the worker up, the main thread still computes the first stage of a just-opened document up
 * to this size (about 1,700 lines): its own parse and name resolution, which the editor's requests
 * on the document need anyway, are done before the worker's answer has come back (the job's message,
 * a warm-up step the worker finishes first, the answer's message). Fresh servers, didOpen 200 ms
 * after `initialize`, first diagnostics p50 of 8: 500 lines 8.4 -> 4.2 ms (mlir-lsp-server-22: 3.2);
 * with no size limit, 2,000 lines 13.7 -> 12.5 (no clear gain), 5,000 lines 23 -> 36 and 20,000
 * lines 101 -> 144 (the main thread's parse is the slower there, and it holds back the worker's answer).
 */
export const MAIN_FIRST_STAGE_WARM_MAX_CHARS = 64_000;

/** `SchedulerOptions.earlyMinChars` by default: about 250 lines, whose cold analysis takes some 100 ms */
export const EARLY_STAGE_MIN_CHARS = 8000;

export class DiagnosticsScheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** newest job per document that waits to run */
  private readonly pending = new Map<string, AnalysisJob>();
  private running?: Running;
  /** the last result per document, kept to answer code actions */
  private readonly last = new Map<string, { version: number; diagnostics: Diagnostic[]; complete: boolean }>();

  private isReady: boolean;

  constructor(private readonly o: SchedulerOptions) {
    this.isReady = !o.ready;
    void o.ready?.finally(() => {
      this.isReady = true;
      this.pump();
    });
  }

  /** a document was opened or changed; `immediate` skips the debounce (open, settings change) */
  update(doc: TextDocument, immediate = false): void {
    const uri = doc.uri;
    clearTimeout(this.timers.get(uri));
    this.timers.delete(uri);
    this.cancelIfStale(uri, doc.version);
    if (immediate && !this.isReady) this.firstStageBeforeReady(doc);
    const delay = immediate ? 0 : this.o.settings().diagnostics.debounceMs;
    const enqueue = () => {
      this.timers.delete(uri);
      const cur = this.o.document(uri);
      if (!cur) return;
      this.pending.set(uri, { uri, version: cur.version, text: cur.getText(), settings: this.o.settings() });
      this.pump();
    };
    if (delay <= 0) enqueue();
    else this.timers.set(uri, setTimeout(enqueue, delay));
  }

  close(uri: string): void {
    clearTimeout(this.timers.get(uri));
    this.timers.delete(uri);
    this.pending.delete(uri);
    this.last.delete(uri);
    this.releaseWaiters(uri);
    if (this.running?.job.uri === uri) this.o.runner.cancel();
    this.o.runner.forget(uri);
    void this.o.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  /** the diagnostics last published for `uri` at `version` (data, with fixes) */
  published(uri: string, version: number): Diagnostic[] | undefined {
    const l = this.last.get(uri);
    return l && l.version === version ? l.diagnostics : undefined;
  }

  /**
   * While a just-opened document (large enough to be staged, see `earlyMinChars`) has had nothing
   * published: a promise that resolves at its first publish, or after `capMs` at most (undefined
   * otherwise). The server's requests on such a document wait for it (server.ts): an editor sends
   * its requests (symbols, folding, semantic tokens) right after the didOpen, and the first of them
   * builds the main thread's snapshot of the whole file (cold, 70 ms at 2,000 lines, 0.6 s at 20,000);
   * the worker's first stage, which comes meanwhile, was published only after it.
   */
  untilFirstPublish(uri: string, capMs: number): Promise<void> | undefined {
    if (this.last.has(uri)) return undefined;
    const doc = this.o.document(uri);
    if (!doc || !this.stageable(doc.getText().length)) return undefined;
    if (this.running?.job.uri !== uri && !this.pending.has(uri) && !this.timers.has(uri)) return undefined;
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, capMs);
      const list = this.firstPublishWaiters.get(uri) ?? [];
      list.push(done);
      this.firstPublishWaiters.set(uri, list);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
    });
  }

  /**
   * The main thread computes the first stage of a just-opened document of this many characters at
   * most: any size when the analysis runs on it over the same parse (up to the full analysis's
   * limit); with a worker, see `MAIN_FIRST_STAGE_MAX_CHARS` and `MAIN_FIRST_STAGE_WARM_MAX_CHARS`.
   */
  private firstStageMax(): number {
    if (this.o.runner.sharesParse) return MAX_FULL_ANALYSIS_CHARS;
    return this.o.runner.isUp() ? MAIN_FIRST_STAGE_WARM_MAX_CHARS : MAIN_FIRST_STAGE_MAX_CHARS;
  }

  /**
   * A just-opened document's first stage (its syntax and names) does not depend on the settings:
   * while the first settings pull is under way (analyses wait for it: `ready`), it is published from
   * this thread's snapshot; the analysis, once it runs, takes that stage as its own (`pump`). An
   * editor opens its documents with `initialized`, as the server asks for the settings.
   */
  private firstStageBeforeReady(doc: TextDocument): void {
    const { uri, version } = doc;
    const length = doc.getText().length;
    if (!this.o.firstStage || !this.stageable(length) || length > this.firstStageMax()) return;
    setImmediate(() => {
      const cur = this.o.document(uri);
      if (this.isReady || !cur || cur.version !== version || this.last.has(uri)) return;
      const job: AnalysisJob = { uri, version, text: cur.getText(), settings: this.o.settings() };
      const ds = this.o.firstStage!(job);
      if (ds) this.publish(cur, job, ds, false);
    });
  }

  /** a document of this many characters gets its stages published while it has no complete result (`earlyMinChars`) */
  private stageable(length: number): boolean {
    return length >= (this.o.earlyMinChars ?? EARLY_STAGE_MIN_CHARS);
  }

  /** `untilFirstPublish`'s promises, by document */
  private readonly firstPublishWaiters = new Map<string, (() => void)[]>();

  private releaseWaiters(uri: string): void {
    const list = this.firstPublishWaiters.get(uri);
    if (!list) return;
    this.firstPublishWaiters.delete(uri);
    for (const done of list) done();
  }

  /** an analysis is running or waiting to run (its results are to be published soon) */
  busy(): boolean {
    return this.running !== undefined || this.pending.size > 0 || this.timers.size > 0;
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.o.runner.dispose();
  }

  private cancelIfStale(uri: string, version: number): void {
    const r = this.running;
    if (r && r.job.uri === uri && r.job.version < version) this.o.runner.cancel();
  }

  private pump(): void {
    if (this.running || !this.isReady) return;
    const next = this.pending.values().next();
    if (next.done) return;
    const job = next.value;
    this.pending.delete(job.uri);
    if (this.o.document(job.uri)?.version !== job.version) return this.pump();
    job.settings = this.o.settings(); // the settings in force when the analysis starts
    const started = performance.now();
    const running: Running = { job, started };
    running.interim = setTimeout(() => {
      running.interimDue = true;
      this.publishInterim(running);
    }, this.o.interimAfterMs ?? 400);
    this.running = running;
    const partial = (diagnostics: Diagnostic[]) => {
      if (this.running !== running) return;
      running.partial = diagnostics;
      if (running.interimDue || running.staged) this.publishInterim(running);
    };
    const staged = () => !this.last.get(job.uri)?.complete && this.stageable(job.text.length);
    // its first stage published while the settings were pulled (`firstStageBeforeReady`): taken as this run's
    const early = this.last.get(job.uri);
    if (early && early.version === job.version && !early.complete) {
      running.syntax = early.diagnostics;
      running.staged = staged();
    }
    // the first stage, from the worker or (while it is not up) from this thread: the same list, taken once
    const syntax = (diagnostics: Diagnostic[]) => {
      if (this.running !== running || running.syntax) return;
      running.syntax = diagnostics;
      running.staged = staged();
      if (running.staged || (running.interimDue && !running.partial)) this.publishInterim(running);
    };
    const firstStageMax = this.firstStageMax();
    void this.o.runner.run(job, { partial, syntax }).then((outcome) => {
      if (this.running === running) this.running = undefined;
      clearTimeout(running.interim);
      try {
        this.finish(job, outcome, performance.now() - started, running.syntax);
      } finally {
        this.pump();
      }
    });
    if (this.o.firstStage && staged() && !running.syntax && job.text.length <= firstStageMax) {
      // after the messages already waiting (a request for the same snapshot builds it as well)
      setImmediate(() => {
        if (this.running !== running || running.syntax) return;
        const ds = this.o.firstStage!(job);
        if (ds) syntax(ds);
      });
    }
  }

  /** the full analysis is still running: publish what the worker knows of the same version meanwhile (its latest stage) */
  private publishInterim(running: Running): void {
    const job = running.job;
    const doc = this.o.document(job.uri);
    if (!doc || doc.version !== job.version || this.running !== running) return;
    const diagnostics = running.partial ?? running.syntax;
    // (a stage published already, on open, is not sent again when the interim time comes)
    if (diagnostics && this.last.get(job.uri)?.diagnostics !== diagnostics) this.publish(doc, job, diagnostics, false);
  }

  /** `complete`: the full result of the version (not a stage) */
  private publish(doc: TextDocument, job: AnalysisJob, diagnostics: Diagnostic[], complete: boolean): void {
    this.last.set(job.uri, { version: job.version, diagnostics, complete });
    this.releaseWaiters(job.uri);
    void this.o.connection.sendDiagnostics({
      uri: job.uri,
      version: job.version,
      diagnostics: diagnostics.map((d) => toDiagnostic(doc, d, job.uri)),
    });
  }

  /** `syntax`: the worker's syntax and name diagnostics of this job, when it sent them */
  private finish(job: AnalysisJob, outcome: AnalysisOutcome, ms: number, syntax: Diagnostic[] | undefined): void {
    if (outcome.kind === 'cancelled') return;
    const doc = this.o.document(job.uri);
    if (!doc || doc.version !== job.version) return; // stale: a newer version is pending
    let diagnostics: Diagnostic[];
    if (outcome.kind === 'done') diagnostics = outcome.diagnostics;
    else {
      // the full analysis failed or ran too long: publish what the fast passes find (the worker's
      // first stage; parsed here only when the worker failed before it), and say why
      if (syntax) diagnostics = [...syntax];
      else {
        try {
          diagnostics = syntaxDiagnostics(job.text);
        } catch {
          diagnostics = [];
        }
      }
      diagnostics.unshift({
        code: outcome.kind === 'timeout' ? 'analysis/timeout' : 'analysis/internal-error',
        severity: 'warning',
        message:
          outcome.kind === 'timeout'
            ? `the checks of this file ran longer than ${this.o.timeoutMs >= 1000 ? `${Math.round(this.o.timeoutMs / 1000)} s` : `${this.o.timeoutMs} ms`} and were stopped; only syntax and name errors are shown`
            : `internal error while checking this file (${outcome.message}); only syntax and name errors are shown`,
        range: { start: 0, end: 0 },
      });
    }
    this.publish(doc, job, diagnostics, true);
    this.o.onPublished?.(job.uri, job.version, ms);
  }
}
