// Diagnostics: re-analyse each open document after an edit (debounced), one analysis at a time,
// newest version first; a newer edit cancels a running analysis of an older version, and a
// result is published only while its version is still the document's current one.
import type { Connection } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from '../../../grammar/src/diagnostic.js';
import type { Settings } from '../service/settings.js';
import { quickDiagnostics } from '../service/diagnose.js';
import { toDiagnostic } from './convert.js';
import type { AnalysisJob, AnalysisOutcome, AnalysisRunner } from './analysis-runner.js';

export interface SchedulerOptions {
  connection: Connection;
  runner: AnalysisRunner;
  /** the open document, or undefined once closed */
  document: (uri: string) => TextDocument | undefined;
  settings: () => Settings;
  /** a stale analysis that has run this long is cancelled at once; a younger one gets the chance to finish first */
  cancelAfterMs?: number;
  timeoutMs: number;
  /** called after each publish (tests, benchmarks, logging) */
  onPublished?: (uri: string, version: number, ms: number) => void;
}

export class DiagnosticsScheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** newest job per document that waits to run */
  private readonly pending = new Map<string, AnalysisJob>();
  private running?: { job: AnalysisJob; started: number };
  private cancelTimer?: NodeJS.Timeout;
  /** the last result per document, kept to answer code actions */
  private readonly last = new Map<string, { version: number; diagnostics: Diagnostic[] }>();

  constructor(private readonly o: SchedulerOptions) {}

  /** a document was opened or changed; `immediate` skips the debounce (open, settings change) */
  update(doc: TextDocument, immediate = false): void {
    const uri = doc.uri;
    clearTimeout(this.timers.get(uri));
    this.timers.delete(uri);
    this.cancelIfStale(uri, doc.version);
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
    if (this.running?.job.uri === uri) this.o.runner.cancel();
    void this.o.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  /** the diagnostics last published for `uri` at `version` (data, with fixes) */
  published(uri: string, version: number): Diagnostic[] | undefined {
    const l = this.last.get(uri);
    return l && l.version === version ? l.diagnostics : undefined;
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.o.runner.dispose();
  }

  private cancelIfStale(uri: string, version: number): void {
    const r = this.running;
    if (!r || r.job.uri !== uri || r.job.version >= version) return;
    const wait = Math.max(0, (this.o.cancelAfterMs ?? 30) - (performance.now() - r.started));
    clearTimeout(this.cancelTimer);
    this.cancelTimer = setTimeout(() => {
      if (this.running === r) this.o.runner.cancel();
    }, wait);
  }

  private pump(): void {
    if (this.running) return;
    const next = this.pending.values().next();
    if (next.done) return;
    const job = next.value;
    this.pending.delete(job.uri);
    if (this.o.document(job.uri)?.version !== job.version) return this.pump();
    const started = performance.now();
    const running = { job, started };
    this.running = running;
    void this.o.runner.run(job).then((outcome) => {
      if (this.running === running) this.running = undefined;
      clearTimeout(this.cancelTimer);
      try {
        this.finish(job, outcome, performance.now() - started);
      } finally {
        this.pump();
      }
    });
  }

  private finish(job: AnalysisJob, outcome: AnalysisOutcome, ms: number): void {
    if (outcome.kind === 'cancelled') return;
    const doc = this.o.document(job.uri);
    if (!doc || doc.version !== job.version) return; // stale: a newer version is pending
    let diagnostics: Diagnostic[];
    if (outcome.kind === 'done') diagnostics = outcome.diagnostics;
    else {
      // the full analysis failed or ran too long: publish what the fast passes find, and say why
      diagnostics = quickDiagnostics(job.text);
      diagnostics.push({
        code: outcome.kind === 'timeout' ? 'analysis/timeout' : 'analysis/internal-error',
        severity: 'warning',
        message:
          outcome.kind === 'timeout'
            ? `the checks of this file ran longer than ${Math.round(this.o.timeoutMs / 1000)} s and were stopped; only syntax and name errors are shown`
            : `internal error while checking this file (${outcome.message}); only syntax and name errors are shown`,
        range: { start: 0, end: 0 },
      });
    }
    this.last.set(job.uri, { version: job.version, diagnostics });
    void this.o.connection.sendDiagnostics({
      uri: job.uri,
      version: job.version,
      diagnostics: diagnostics.map((d) => toDiagnostic(doc, d, job.uri)),
    });
    this.o.onPublished?.(job.uri, job.version, ms);
  }
}
