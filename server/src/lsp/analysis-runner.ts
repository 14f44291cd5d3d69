// Runs the full check of one document version (what `diagnose` gives) so that the server keeps
// answering hover and completion while an expensive check (exhaustive GenP enumeration) runs. By
// default on the main thread, a slice at a time (`InProcessRunner`, below: `IncrementalAnalysis.steps`,
// reading the document's snapshot parse and names); with a worker entry (`LAYOUT_ANALYSIS_THREAD=worker`),
// in a worker thread with its own parse. Either keeps an `IncrementalAnalysis` per document, so an
// edit re-checks only what it touches. Results come in stages: the syntax and name diagnostics as
// soon as the file is parsed and resolved (`syntax`), then, when slow checks remain to run,
// everything else (`partial`), then the whole result. Cancelling a stale analysis stops it: on the
// main thread at once (the steps are told to stop); in the worker, a shared flag the incremental
// analysis polls before each declaration's work and during the slow rules (cooperative: typing never
// restarts the worker, which keeps its incremental state and its warm code), and only a worker that
// does not answer within `graceMs` (a hang) is terminated and replaced (its kept results go with
// it); `restarts` counts those.
import { Worker, type MessagePort } from 'node:worker_threads';
import type { Diagnostic } from '../../../grammar/src/diagnostic.js';
import type { Settings } from '../service/settings.js';
import { IncrementalAnalysis, type AnalysisSteps } from '../service/incremental.js';
import type { ChunkedParse } from '../service/chunks.js';
import type { Resolution } from '../../../grammar/src/resolve.js';
import { syntaxDiagnostics } from '../service/diagnose.js';
import { warmUp } from './warm-up.js';
import { growingFreely, WHOLE_FILE_COMPACT_MS, WORKER_YOUNG_GENERATION_MB, type IdleCompaction } from './heap.js';

/**
 * Files longer than this (UTF-16 code units) get syntax and name diagnostics only, and an information
 * diagnostic that says so: the full checks of a multi-megabyte file would hold the worker (and memory)
 * for minutes.
 */
export const MAX_FULL_ANALYSIS_CHARS = 4_000_000;

/** The diagnostics of a file too large for the full checks (see MAX_FULL_ANALYSIS_CHARS). */
export function tooLargeDiagnostics(text: string): Diagnostic[] {
  return [{
    code: 'analysis/too-large',
    severity: 'information',
    message: `this file has ${text.length.toLocaleString('en-US')} characters, more than the ${MAX_FULL_ANALYSIS_CHARS.toLocaleString('en-US')} checked in full: only syntax and name errors are shown (layouts, queries, GenP, kernels and schedules are not checked); \`layout check\` checks it all`,
    range: { start: 0, end: 0 },
  }, ...syntaxDiagnostics(text)];
}

export interface AnalysisJob {
  uri: string;
  version: number;
  text: string;
  settings: Settings;
}

export type AnalysisOutcome =
  | { kind: 'done'; diagnostics: Diagnostic[]; ms: number }
  | { kind: 'cancelled' }
  | { kind: 'timeout'; ms: number }
  | { kind: 'failed'; message: string };

/** Early results of one job, each called at most once before its promise settles. */
export interface AnalysisStages {
  /** the syntax and name diagnostics (exactly those of the final result), as soon as they are known */
  syntax?: (diagnostics: Diagnostic[]) => void;
  /** every diagnostic but those of slow checks still running */
  partial?: (diagnostics: Diagnostic[]) => void;
}

export interface AnalysisRunner {
  /** One job at a time: call again only after the promise settled. */
  run(job: AnalysisJob, stages?: AnalysisStages): Promise<AnalysisOutcome>;
  /** stops the running job (its promise resolves `cancelled`) */
  cancel(): void;
  /** workers terminated and replaced so far (a hang, a crash or a timeout; never for a cancel that is answered) */
  readonly restarts: number;
  /**
   * Starts the worker ahead of the first job (the server calls it as it starts: server.ts); the first
   * `run` starts it anyway.
   */
  start(): void;
  /**
   * A job posted now starts at once: the worker's code is loaded (it says so as it starts serving;
   * until then a job waits for it, some 60 ms after `start`). Always, without a worker.
   */
  isUp(): boolean;
  /** the document was closed: its kept analysis goes (the worker keeps the `KEEP_DOCUMENTS` most recent) */
  forget(uri: string): void;
  /**
   * The analysis runs on this thread over the snapshots' parse: a document's first stage from its
   * snapshot costs this thread nothing the analysis would not cost it anyway, whatever its size.
   */
  readonly sharesParse: boolean;
  dispose(): void;
}

export const workerRole = 'layout-analysis-worker';

interface Request {
  id: number;
  job: AnalysisJob;
  /** Int32Array over a SharedArrayBuffer: [0] becomes 1 when the job is cancelled */
  stop: SharedArrayBuffer;
}
interface Reply {
  id: number;
  /** the worker serves requests from now on (id 0) */
  up?: true;
  /** an early message: the syntax and name diagnostics */
  syntax?: Diagnostic[];
  /** an early message: everything but the slow checks still to run */
  partial?: Diagnostic[];
  diagnostics?: Diagnostic[];
  cancelled?: boolean;
  ms?: number;
  error?: string;
}

/** How many documents' analyses a runner keeps (the most recently analysed). */
const KEEP_DOCUMENTS = 16;

/** One `IncrementalAnalysis` per document, the least recently used dropped beyond `KEEP_DOCUMENTS`. */
export class Analyses {
  private readonly byUri = new Map<string, IncrementalAnalysis>();

  /** there is an analysis of `uri` (its next run is incremental) */
  has(uri: string): boolean {
    return this.byUri.has(uri);
  }

  delete(uri: string): void {
    this.byUri.delete(uri);
  }

  for(uri: string): IncrementalAnalysis {
    let a = this.byUri.get(uri);
    if (a) this.byUri.delete(uri);
    else a = new IncrementalAnalysis();
    this.byUri.set(uri, a);
    while (this.byUri.size > KEEP_DOCUMENTS) this.byUri.delete(this.byUri.keys().next().value!);
    return a;
  }
}

/**
 * The worker's side: answers `Request`s with the document's diagnostics (as `diagnose` gives them).
 * `jobPosted`: a flag the main thread sets as it posts a job (before the message can be handled),
 * which stops the warm-up inside its current step. `compaction`: told when a request comes and when
 * it is answered, to compact the heap once idle (heap.ts).
 */
export function serveAnalysisRequests(port: MessagePort, options: { warmUp?: boolean; jobPosted?: Int32Array; compaction?: IdleCompaction } = {}): void {
  const analyses = new Analyses();
  let requested = false;
  const posted = options.jobPosted;
  // warm the code up while no request is there (warm-up.ts); the first request stops it
  port.postMessage({ id: 0, up: true } satisfies Reply);
  const stopWarming = options.warmUp === false ? () => undefined : warmUp(() => requested || (posted !== undefined && Atomics.load(posted, 0) !== 0));
  port.on('message', (m: Request) => {
    requested = true;
    stopWarming();
    options.compaction?.busy();
    const t0 = performance.now();
    const flag = new Int32Array(m.stop);
    // a document's first analysis is of the whole file: its heap grows freely meanwhile, and is compacted soon after (heap.ts)
    const wholeFile = options.compaction !== undefined && !analyses.has(m.job.uri);
    try {
      if (m.job.text.length > MAX_FULL_ANALYSIS_CHARS) {
        port.postMessage({ id: m.id, diagnostics: tooLargeDiagnostics(m.job.text), cancelled: false, ms: performance.now() - t0 } satisfies Reply);
        return;
      }
      const analysis = analyses.for(m.job.uri);
      const run = () => analysis.diagnose(m.job.text, {
        budget: m.job.settings.genp.checkBudget,
        gpuTarget: m.job.settings.gpuTarget,
        shouldStop: () => Atomics.load(flag, 0) !== 0,
        onSyntax: (syntax) => port.postMessage({ id: m.id, syntax } satisfies Reply),
        onFast: (partial) => port.postMessage({ id: m.id, partial } satisfies Reply),
        uri: m.job.uri,
      });
      const r = wholeFile ? growingFreely(run) : run();
      port.postMessage({ id: m.id, diagnostics: r.diagnostics, cancelled: r.cancelled, ms: performance.now() - t0 } satisfies Reply);
    } catch (e) {
      port.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) } satisfies Reply);
    } finally {
      options.compaction?.idle(wholeFile ? WHOLE_FILE_COMPACT_MS : undefined, wholeFile);
    }
  });
}

/** A runner for the worker entry `entry` (the worker starts on `start()` or the first job); in process without one. */
export function createRunner(entry: string | undefined, timeoutMs: number, graceMs = 2000, parses?: ParseSource, inputWaiting?: () => boolean): AnalysisRunner {
  return entry ? new WorkerRunner(entry, timeoutMs, graceMs) : new InProcessRunner(timeoutMs, parses, inputWaiting);
}

interface Current {
  id: number;
  settle: (o: AnalysisOutcome) => void;
  stages: AnalysisStages;
  timer: NodeJS.Timeout;
  stop: Int32Array;
  killTimer?: NodeJS.Timeout;
}

class WorkerRunner implements AnalysisRunner {
  readonly sharesParse = false;
  private worker?: Worker;
  /** the in-process runner, where no worker could be started */
  private inline?: InProcessRunner;
  private nextId = 1;
  private current?: Current;
  /** set by dispose(): the worker's exit is then expected, and no other is started */
  private disposed = false;
  restarts = 0;
  /** the current worker has said it is up */
  private up = false;

  constructor(private readonly entry: string, private readonly timeoutMs: number, private readonly graceMs: number) {}

  start(): void {
    if (this.worker || this.inline || this.disposed) return;
    try {
      this.worker = this.spawn();
    } catch {
      this.inline = new InProcessRunner(this.timeoutMs);
    }
  }

  /** the current worker's `jobPosted` flag (serveAnalysisRequests) */
  private posted = new Int32Array(new SharedArrayBuffer(4));

  isUp(): boolean {
    return this.inline !== undefined || (this.worker !== undefined && this.up);
  }

  private spawn(): Worker {
    this.posted = new Int32Array(new SharedArrayBuffer(4));
    this.up = false;
    const w = new Worker(this.entry, {
      workerData: { role: workerRole, jobPosted: this.posted.buffer },
      argv: [],
      // only the CPU profiler's flags: a server run with --cpu-prof profiles its worker too
      execArgv: process.execArgv.filter((a) => a.startsWith('--cpu-prof')),
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: 2048, maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    w.unref();
    // stdout is the LSP channel: whatever the worker prints goes to stderr
    w.stdout.on('data', (d: Buffer) => process.stderr.write(d));
    w.stderr.on('data', (d: Buffer) => process.stderr.write(d));
    w.on('message', (m: Reply) => {
      if (m.up) {
        if (w === this.worker) this.up = true;
        return;
      }
      const c = this.current;
      if (!c || c.id !== m.id) return;
      if (m.syntax || m.partial) {
        if (Atomics.load(c.stop, 0) === 0) {
          if (m.syntax) c.stages.syntax?.(m.syntax);
          else c.stages.partial?.(m.partial!);
        }
        return;
      }
      if (m.error !== undefined) this.finish({ kind: 'failed', message: m.error });
      else if (m.cancelled || Atomics.load(c.stop, 0) !== 0) this.finish({ kind: 'cancelled' });
      else this.finish({ kind: 'done', diagnostics: m.diagnostics ?? [], ms: m.ms ?? 0 });
    });
    w.on('error', (e) => {
      if (this.disposed || w !== this.worker) return;
      this.replace();
      this.finish({ kind: 'failed', message: e instanceof Error ? e.message : String(e) });
    });
    w.on('exit', () => {
      if (this.disposed || w !== this.worker) return;
      this.replace();
      this.finish({ kind: 'failed', message: 'the analysis worker stopped' });
    });
    return w;
  }

  private replace(): void {
    this.restarts++;
    const old = this.worker;
    this.worker = this.spawn();
    void old?.terminate().catch(() => undefined);
  }

  private finish(o: AnalysisOutcome): void {
    const c = this.current;
    if (!c) return;
    this.current = undefined;
    clearTimeout(c.timer);
    clearTimeout(c.killTimer);
    c.settle(o);
  }

  run(job: AnalysisJob, stages: AnalysisStages = {}): Promise<AnalysisOutcome> {
    this.start();
    if (this.inline) return this.inline.run(job, stages);
    return new Promise((settle) => {
      const id = this.nextId++;
      const started = performance.now();
      const stop = new SharedArrayBuffer(4);
      const timer = setTimeout(() => {
        if (this.current?.id !== id) return;
        this.replace();
        this.finish({ kind: 'timeout', ms: performance.now() - started });
      }, this.timeoutMs);
      this.current = { id, settle, timer, stop: new Int32Array(stop), stages };
      Atomics.store(this.posted, 0, 1);
      this.worker!.postMessage({ id, job, stop } satisfies Request);
    });
  }

  cancel(): void {
    this.inline?.cancel();
    const c = this.current;
    if (!c || c.killTimer) return;
    Atomics.store(c.stop, 0, 1);
    // a check that does not poll (or a hang): stop the worker itself
    c.killTimer = setTimeout(() => {
      if (this.current !== c) return;
      this.replace();
      this.finish({ kind: 'cancelled' });
    }, this.graceMs);
  }

  forget(uri: string): void {
    this.inline?.forget(uri);
  }

  dispose(): void {
    this.disposed = true;
    this.finish({ kind: 'cancelled' });
    void this.worker?.terminate().catch(() => undefined);
  }
}

/**
 * What the in-process runner reads of a job's version instead of parsing it again: the parse of the
 * document's snapshot (one parse per version, shared with the requests' features), and `claim`, which
 * puts its objects back at that version's offsets (another version may have been read since).
 */
export interface SharedParse {
  parse: ChunkedParse;
  /** its name resolution (the snapshot's, which the requests read too) */
  resolution: Resolution;
  claim(): void;
  /**
   * Work for the requests that the first diagnostics need not wait for (the index of which
   * declarations look each name up, which a hover counts uses with), done by the runner once the
   * first stage is out.
   */
  afterFirstStage?(): void;
}

/** Gives the shared parse of a job's version, or undefined when the document is no longer at it. */
export type ParseSource = (job: AnalysisJob) => SharedParse | undefined;

/**
 * Runs `f` after the messages that arrived until now are dispatched, without waiting for more: two
 * immediates. Node reads input after the timers and before the immediates of a loop turn, and
 * vscode-jsonrpc dispatches a message it read from an immediate of its own, queued behind one queued
 * before the input was read: a slice queued as one immediate ran before a hover that came during
 * the slice before it. (A timer would wait a millisecond when nothing came.)
 */
function afterInput(f: () => void): void {
  setImmediate(() => setImmediate(f));
}

/** How long the in-process runner works before it lets the thread answer what came meanwhile (ms). */
export const SLICE_MS = 4;

/**
 * Runs the analysis on this thread a slice at a time (`IncrementalAnalysis.steps`): each slice works
 * for about `SLICE_MS`, then yields to the event loop (requests, edits: `afterInput`); a GenP
 * enumeration pauses inside its slice and goes on in the next. `cancel` stops the run at once (its
 * state kept consistent: the steps are told to stop, not dropped). With `parses`, a version is parsed
 * once, by the document's snapshot (the main thread's requests read the same parse).
 */
class InProcessRunner implements AnalysisRunner {
  private readonly analyses = new Analyses();
  readonly restarts = 0;
  private current?: { stop: () => void };
  readonly sharesParse: boolean;

  /**
   * `inputWaiting`: whether a message came that is not answered yet (transport.ts `InputWatch`): it
   * ends a slice at once (a GenP enumeration pauses too), and a slice waits while it holds, so that a
   * request waits for one step of the analysis at most, not for the rest of a slice.
   */
  constructor(private readonly timeoutMs: number, private readonly parses?: ParseSource, private readonly inputWaiting: () => boolean = () => false) {
    this.sharesParse = parses !== undefined;
  }

  start(): void {}
  isUp(): boolean {
    return true;
  }

  run(job: AnalysisJob, stages: AnalysisStages = {}): Promise<AnalysisOutcome> {
    return new Promise((settle) => {
      const t0 = performance.now();
      let steps: AnalysisSteps | undefined;
      let shared: SharedParse | undefined;
      let stopped = false;
      let settled = false;
      let deadline = 0;
      /** slices of steps run so far (the first stage is out after the first) */
      let stepped = 0;
      const end = (o: AnalysisOutcome): void => {
        if (settled) return;
        settled = true;
        if (this.current === current) this.current = undefined;
        settle(o);
      };
      /** tells the steps to stop (their state stays consistent) and settles */
      const stop = (kind: 'cancelled' | 'timeout'): void => {
        if (settled) return;
        stopped = true;
        try {
          shared?.claim();
          // (steps never started have done nothing: dropped)
          if (steps && stepped > 0) for (let r = steps.next(true); !r.done; r = steps.next(true));
        } catch {
          /* the analysis resets itself on a failure */
        }
        end(kind === 'timeout' ? { kind, ms: performance.now() - t0 } : { kind });
      };
      const current = { stop: () => stop('cancelled') };
      this.current = current;
      const slice = (): void => {
        if (settled || stopped) return;
        // a message came that is not answered yet: it goes first
        if (this.inputWaiting()) {
          afterInput(slice);
          return;
        }
        try {
          if (!steps) {
            if (job.text.length > MAX_FULL_ANALYSIS_CHARS) {
              end({ kind: 'done', diagnostics: tooLargeDiagnostics(job.text), ms: performance.now() - t0 });
              return;
            }
            shared = this.parses?.(job);
            if (this.parses && !shared) {
              end({ kind: 'cancelled' }); // the document moved on: a newer job follows
              return;
            }
            steps = this.analyses.for(job.uri).steps(job.text, {
              budget: job.settings.genp.checkBudget,
              gpuTarget: job.settings.gpuTarget,
              uri: job.uri,
              shouldStop: () => stopped,
              shouldPause: () => performance.now() >= deadline || this.inputWaiting(),
              ...(stages.syntax ? { onSyntax: stages.syntax } : {}),
              ...(stages.partial ? { onFast: stages.partial } : {}),
              ...(shared ? { parsed: shared.parse, resolution: shared.resolution } : {}),
            });
            if (shared) {
              // the version's parse and names (which any request on it needs too) are a slice of
              // their own: a request that came meanwhile (an editor asks right after an edit) is
              // answered before the analysis goes on
              afterInput(slice);
              return;
            }
          } else {
            shared?.claim();
            if (stepped === 1) shared?.afterFirstStage?.();
          }
          stepped++;
          deadline = performance.now() + SLICE_MS;
          let r = steps.next(false);
          while (!r.done && performance.now() < deadline && !this.inputWaiting()) r = steps.next(false);
          if (r.done) {
            end(r.value.cancelled ? { kind: 'cancelled' } : { kind: 'done', diagnostics: r.value.diagnostics, ms: performance.now() - t0 });
            return;
          }
          if (performance.now() - t0 > this.timeoutMs) stop('timeout');
          else afterInput(slice);
        } catch (e) {
          end({ kind: 'failed', message: e instanceof Error ? e.message : String(e) });
        }
      };
      setImmediate(slice);
    });
  }

  cancel(): void {
    this.current?.stop();
  }

  forget(uri: string): void {
    this.analyses.delete(uri);
  }

  dispose(): void {
    this.cancel();
  }
}
