// Runs `diagnose` (the full check of one document version) off the main thread, so that the
// server keeps answering hover and completion while an expensive check (exhaustive GenP
// enumeration) runs. A stale analysis is cancelled by terminating its worker; a replacement
// worker is started at once. Without a worker entry (the sources run under tsx) the analysis
// runs on the main thread instead.
import { Worker } from 'node:worker_threads';
import type { Diagnostic } from '../../../grammar/src/diagnostic.js';
import type { Settings } from '../service/settings.js';
import { diagnose } from '../service/diagnose.js';

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

export interface AnalysisRunner {
  /** one job at a time: call again only after the promise settled */
  run(job: AnalysisJob): Promise<AnalysisOutcome>;
  /** stops the running job (its promise resolves `cancelled`) */
  cancel(): void;
  dispose(): void;
}

export const workerRole = 'layout-analysis-worker';

/** The worker's side: answers `AnalysisJob`s with `diagnose` results. */
export function serveAnalysisRequests(port: import('node:worker_threads').MessagePort): void {
  port.on('message', (m: { id: number; job: AnalysisJob }) => {
    const t0 = performance.now();
    try {
      const diagnostics = diagnose(m.job.text, m.job.settings);
      port.postMessage({ id: m.id, diagnostics, ms: performance.now() - t0 });
    } catch (e) {
      port.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) });
    }
  });
}

export function createRunner(entry: string | undefined, timeoutMs: number): AnalysisRunner {
  if (entry) {
    try {
      return new WorkerRunner(entry, timeoutMs);
    } catch {
      /* fall through to the in-process runner */
    }
  }
  return new InlineRunner();
}

class WorkerRunner implements AnalysisRunner {
  private worker: Worker;
  private nextId = 1;
  private current?: { id: number; settle: (o: AnalysisOutcome) => void; timer: NodeJS.Timeout; started: number };

  constructor(private readonly entry: string, private readonly timeoutMs: number) {
    this.worker = this.spawn();
  }

  private spawn(): Worker {
    const w = new Worker(this.entry, {
      workerData: { role: workerRole },
      argv: [],
      execArgv: [],
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: 2048 },
    });
    w.unref();
    // stdout is the LSP channel: whatever the worker prints goes to stderr
    w.stdout.on('data', (d: Buffer) => process.stderr.write(d));
    w.stderr.on('data', (d: Buffer) => process.stderr.write(d));
    w.on('message', (m: { id: number; diagnostics?: Diagnostic[]; ms?: number; error?: string }) => {
      const c = this.current;
      if (!c || c.id !== m.id) return;
      this.finish(m.error !== undefined ? { kind: 'failed', message: m.error } : { kind: 'done', diagnostics: m.diagnostics ?? [], ms: m.ms ?? 0 });
    });
    w.on('error', (e) => {
      if (w !== this.worker) return;
      this.replace();
      this.finish({ kind: 'failed', message: e instanceof Error ? e.message : String(e) });
    });
    w.on('exit', () => {
      if (w !== this.worker) return;
      this.replace();
      this.finish({ kind: 'failed', message: 'the analysis worker stopped' });
    });
    return w;
  }

  private replace(): void {
    const old = this.worker;
    this.worker = this.spawn();
    void old.terminate().catch(() => undefined);
  }

  private finish(o: AnalysisOutcome): void {
    const c = this.current;
    if (!c) return;
    this.current = undefined;
    clearTimeout(c.timer);
    c.settle(o);
  }

  run(job: AnalysisJob): Promise<AnalysisOutcome> {
    return new Promise((settle) => {
      const id = this.nextId++;
      const started = performance.now();
      const timer = setTimeout(() => {
        if (this.current?.id !== id) return;
        this.replace();
        this.finish({ kind: 'timeout', ms: performance.now() - started });
      }, this.timeoutMs);
      this.current = { id, settle, timer, started };
      this.worker.postMessage({ id, job });
    });
  }

  /** milliseconds the running job has run, or undefined when idle */
  get runningFor(): number | undefined {
    return this.current ? performance.now() - this.current.started : undefined;
  }

  cancel(): void {
    if (!this.current) return;
    this.replace();
    this.finish({ kind: 'cancelled' });
  }

  dispose(): void {
    this.finish({ kind: 'cancelled' });
    void this.worker.terminate().catch(() => undefined);
  }
}

class InlineRunner implements AnalysisRunner {
  run(job: AnalysisJob): Promise<AnalysisOutcome> {
    return new Promise((settle) => {
      setImmediate(() => {
        const t0 = performance.now();
        try {
          settle({ kind: 'done', diagnostics: diagnose(job.text, job.settings), ms: performance.now() - t0 });
        } catch (e) {
          settle({ kind: 'failed', message: e instanceof Error ? e.message : String(e) });
        }
      });
    });
  }
  cancel(): void { /* a synchronous analysis cannot be interrupted; its result is dropped as stale */ }
  dispose(): void {}
}
