// Runs service/hover-prime.ts when the server is idle: after a document's complete diagnostics are
// published, the hovers of its layouts nearest where the user last asked something are computed,
// a slice at a time, so that a hover there (the first one at a layout, or one right after an edit
// elsewhere) finds its text kept. Bounded: at most `PRIME_MAX` layouts per published version (their
// texts stay within hover-cache.ts's bounds; the models elaborated for them stay with the version),
// only while the server is quiet (`busy`: no analysis running or waiting, no message for a while),
// each slice ended at once by a message that came (`inputWaiting`: transport.ts `InputWatch`).
// `LAYOUT_HOVER_PRIME=0` turns it off.
import type * as ast from '../../../grammar/src/ast.js';
import type { LayoutDocument } from '../service/document.js';
import { layoutsToPrime, primeLayoutHover } from '../service/hover-prime.js';
import type { Settings } from '../service/settings.js';

/** Layouts primed per published version at most: a 2,000-line file's all, a larger one's nearest. */
export const PRIME_MAX = 300;

export interface PrimingOptions {
  /** the document's current version and its snapshot */
  snapshot: (uri: string) => { version: number; model: LayoutDocument } | undefined;
  settings: () => Settings;
  /** true while the server is not idle (priming waits) */
  busy: () => boolean;
  /** true when a message came (the slice ends) */
  inputWaiting?: () => boolean;
  sliceMs?: number;
  /** how long a waiting priming waits before it looks again */
  pollMs?: number;
  max?: number;
}

interface Job {
  version: number;
  todo?: ast.LayoutDecl[];
  next: number;
}

export class HoverPriming {
  private readonly jobs = new Map<string, Job>();
  private readonly focus = new Map<string, number>();
  private timer?: NodeJS.Timeout | NodeJS.Immediate;
  private immediate = false;
  /** layouts primed so far (for tests) */
  primed = 0;

  constructor(private readonly o: PrimingOptions) {}

  /** where the user last asked something in `uri` (an offset): the layouts nearest it are primed first */
  focusAt(uri: string, offset: number): void {
    this.focus.set(uri, offset);
  }

  /** `uri`'s version `version` has its complete diagnostics: its layouts are primed once the server is idle */
  published(uri: string, version: number): void {
    this.jobs.delete(uri); // the most recent last: primed first
    this.jobs.set(uri, { version, next: 0 });
    this.schedule(false);
  }

  forget(uri: string): void {
    this.jobs.delete(uri);
    this.focus.delete(uri);
  }

  dispose(): void {
    this.jobs.clear();
    this.cancelTimer();
  }

  private cancelTimer(): void {
    if (this.timer && this.immediate) clearImmediate(this.timer as NodeJS.Immediate);
    else if (this.timer) clearTimeout(this.timer as NodeJS.Timeout);
    this.timer = undefined;
  }

  private schedule(now: boolean): void {
    if (this.timer || this.jobs.size === 0) return;
    this.immediate = now;
    this.timer = now ? setImmediate(() => this.slice()) : setTimeout(() => this.slice(), this.o.pollMs ?? 50);
    if (!now) (this.timer as NodeJS.Timeout).unref();
  }

  private slice(): void {
    this.timer = undefined;
    if (this.o.busy()) return this.schedule(false);
    const deadline = performance.now() + (this.o.sliceMs ?? 4);
    const max = this.o.max ?? PRIME_MAX;
    // the most recently published document first; each looked up once a slice, not once a layout
    for (const [uri, job] of [...this.jobs].reverse()) {
      const s = this.o.snapshot(uri);
      if (s && s.version === job.version) {
        const todo = (job.todo ??= layoutsToPrime(s.model, this.focus.get(uri) ?? 0, max));
        const settings = this.o.settings();
        while (job.next < todo.length && performance.now() < deadline && !this.o.inputWaiting?.()) {
          const decl = todo[job.next++];
          try {
            primeLayoutHover(s.model, decl, settings);
            this.primed++;
          } catch {
            /* a hover there reports it */
          }
        }
        if (job.next < todo.length) break; // out of time, or a message came
      }
      this.jobs.delete(uri); // done, or the document moved on (its next publish primes again)
    }
    // a message that came is answered first: the next slice waits until the server is quiet again
    this.schedule(!this.o.inputWaiting?.());
  }
}
