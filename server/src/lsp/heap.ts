// V8 heap sizing for the server's two isolates (the main thread and the analysis worker). By
// default V8 lets the old generation grow to about four times what survived the last full
// collection before collecting again, and gives each isolate a young generation of 3 x 16 MB: an
// analysis allocates much short-lived data, so an idle server held several times its live data
// (at 10,000 lines, 160 MB of old space in the worker for about 40 MB live). Growing the old
// generation by a fifth instead (V8 adds at least 8 MB, and the young generation's size), and
// giving the worker a smaller young generation, keeps the resident size near the live data, at the
// cost of more frequent collections (bench/: RSS and CPU per edit in the same run). 20% rather than
// 50% (a scratch client: open, 60 edits, RSS every 5th, 4 runs each, load 5-8): mean RSS while
// editing 230-237 -> 214-218 MB at 20,000 lines, no clear change at 10,000 (the 8 MB floor), for
// 13-14% more CPU per edit at 20,000 lines (23-24 -> 26-28 ms), 5% at 10,000; a whole-file
// analysis grows freely instead (below), so the open does not pay for the smaller steps.
//
// The main thread's young generation can be bounded only on Node's command line
// (`--max-semi-space-size`), which a client may not pass: left alone it grows to 2 x 16 MB (its two
// semi-spaces) within the first edits. V8 grows a semi-space by `--semi-space-growth-factor` at a
// scavenge (once more survived since the last growth than it holds), reading the flag each time;
// with the factor at 1 it never grows. So `configureHeap` sets it to 1, and the main thread sizes
// its young generation once it is quiet after `initialize` (`sizeMainYoungGeneration`): a factor that
// takes the semi-spaces from their first 1 MB to `MAIN_SEMI_SPACE_MB` in one step, objects kept
// alive until a scavenge has grown them, then factor 1 again (a few ms). Semi-spaces of 1 MB cost
// the main thread's snapshot and hover work about a third more CPU (more promotion, more full
// collections); 4 MB about 10%, for 24 MB less than V8's own 16 (figures in docs/server.md). The flag is the process's: the worker's
// young generation has its full size from its start instead (`--min-semi-space-size`, read when an
// isolate is set up), and it is part of the flags V8's code cache was made with (`bootstrap.ts`), so
// it is 1 at every load: the build's, the main thread's, and the worker's, which sets it again (an
// isolate's set-up resets a factor below 2 to 2). In the moment between that reset and the worker's
// own setting, the main thread's warm-up can still grow its semi-spaces one step (to 8 MB: seen in
// one benchmark start of about ten), and a reset while the sizing runs can leave them one step short
// (2 MB: seen once in a test under load).
//
// The worker's old generation keeps the size it reached while it opened a file (the whole-file
// analysis's transient data), and V8 collects it again only when it reaches a limit computed from
// what was live then: at 20,000 lines about 100 MB of old space for 60 MB live, for as long as the
// server runs. V8's own memory reducer compacts only after 8 s without allocation, and not at all
// when no full collection happened since (an editing session does none after the open). So the
// worker compacts its heap itself once it has had no request for `IDLE_COMPACT_MS` and its heap grew
// by 4 MB since it last did (`IdleCompaction`; it was 500 ms and a quarter: after 40 edits and 3 s
// idle, a scratch client, RSS 164-170 -> 156-159 MB at 10,000 lines, 216-219 -> 199-205 at 20,000,
// for a compaction of 105-220 ms in the worker, which an edit that comes then waits for): a full
// collection that also moves objects out of sparse pages, so that they are given back (V8's `gc`
// with `--compact-on-every-full-gc` for that one call; `--expose-gc` makes `gc` exist in the
// worker's context, which is made after the flag is set).
//
// The main thread keeps every edited version's whole text until a full collection: the text of a
// version (0.9 MB at 20,000 lines: a large object) lives while it is the current one, so a
// scavenge promotes it, and V8 collected the old generation only once it grew by half of what
// survived (`HEAP_GROWING_PERCENT` was 50), which an editing session reached every 20-30 versions at
// 20,000 lines: 4-7 MB of dead texts at 10,000 lines, 12-22 at 20,000 (heap snapshots and the large-object
// space after 40 edits). So the main thread, too, collects once it has had no request, edit or
// publish for `MAIN_IDLE_COLLECT_MS` and its heap grew by 4 MB since it last did: a full collection,
// not compacting (`gc` from a context made after `--expose-gc` was set, `mainThreadCollection`).
// Measured (a scratch client: open, 40 edits with a hover every fourth, 3 s idle; load 5 on 2
// cores): main-thread heap after the edits -> after the idle time 45.5 -> 40.5 MB at 10,000 lines
// (large objects 6.6 -> 2.2), 78.8 -> 59.7 at 20,000 (21.3 -> 3.9); the collection stops the main
// thread for 30-40 ms at 2,000-20,000 lines (up to 110 at 20,000 in one run under load), which a
// request that comes in that moment waits for; a compacting one took 110-150 ms at 20,000 lines.
// The benchmark's "RSS after the run" is read right after its last edit, so this does not change it.
//
// A whole-file analysis (the worker's first analysis of a document) grows the worker's heap from the
// warm-up's 10-20 MB to 50-130 MB, and with the old generation growing by half at each full
// collection it took 2 full collections at 10,000 lines, 3 at 20,000 (one or two of them before the
// first stage is posted). So the worker lets it grow by `WHOLE_FILE_GROWING_PERCENT` while it runs
// (`growingFreely`): V8 reads the flag at the end of each full collection, so the first one sets a
// limit far above what the analysis needs; the flag is the process's, so a main-thread collection
// in that time sets a high limit too (the main thread's idle collection waits for the analysis to
// end, and sets it back). The worker then compacts its heap `WHOLE_FILE_COMPACT_MS` after the
// analysis, whatever it grew: the collection that sets the limit from `HEAP_GROWING_PERCENT` again
// (and gives back what the analysis left). Measured in process (a scratch script: the worker's heap
// flags and parse warm-up, then the open; CPU, 4 fresh processes each, load 7): full collections
// 2 -> 1 at 10,000 lines (whole analysis 1,194-1,282 -> 1,099-1,200 ms), 3 -> 1-2 at 20,000
// (1,942-2,096 -> 1,988-2,090 ms: no clear change). Most of the collector's time in an open is not
// these but scavenges copying the growing AST (10-11 at 10,000 lines before the first stage, 70-230
// ms of its 260-300 ms CPU, depending on the load), which this does not change; a young generation
// of 2 x 16 MB instead of 2 x 8 cut the first stage by about 8% for 16 MB more resident.
import { getHeapSpaceStatistics, getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The old generation grows by this much of what survived the last full collection (V8's `--heap-growing-percent`). */
export const HEAP_GROWING_PERCENT = 20;

/** The analysis worker's young generation (`resourceLimits.maxYoungGenerationSizeMb`: three semi-spaces of 8 MB). */
export const WORKER_YOUNG_GENERATION_MB = 24;

/** One of the worker's semi-spaces (V8 sizes a young generation as three semi-spaces). */
const WORKER_SEMI_SPACE_MB = WORKER_YOUNG_GENERATION_MB / 3;

/**
 * The main thread's semi-spaces grow to this size (MB) and no further (V8's own limit: 16). 8 since
 * the analysis runs on the main thread (a whole-file parse is its first stage): fresh servers,
 * didOpen 200 ms after `initialize`, builds side by side, p50 of 7-9: 2,000 lines 24.9-28.6 ->
 * 19.6-22.6 ms, 10,000 lines 125 -> 105, 20,000 lines 190 -> 180, for 5-9 MB more resident
 * (1.5 s after the open: 97 -> 102 MB at 2,000 lines, 163 -> 172 at 20,000).
 */
export const MAIN_SEMI_SPACE_MB = 8;

/**
 * Applies the heap settings to the process (both isolates: V8 reads the growth flags at every
 * collection, the semi-space size when the worker's isolate is set up); call on the main thread
 * before the worker starts, and on the worker before its code is loaded.
 */
export function configureHeap(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  setFlagsFromString(`--min-semi-space-size=${WORKER_SEMI_SPACE_MB}`);
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--expose-gc');
  // the default, set here too so that a worker starting during a compaction loads its code under the flags the cache was made with
  setFlagsFromString('--no-compact-on-every-full-gc');
}

/**
 * The main thread's, once it is quiet after `initialize` (server.ts): grows its semi-spaces to `MAIN_SEMI_SPACE_MB`
 * (see above); returns their size (MB).
 */
export function sizeMainYoungGeneration(): number {
  const semiMb = () => (getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0) / 2 ** 21;
  setFlagsFromString(`--semi-space-growth-factor=${MAIN_SEMI_SPACE_MB}`);
  try {
    // objects that survive scavenges until one grows the semi-spaces (a few MB at most)
    const kept: unknown[] = [];
    for (let i = 0; i < MAIN_SEMI_SPACE_MB * 2 ** 16 && (i % 1024 !== 0 || semiMb() < MAIN_SEMI_SPACE_MB); i++) kept.push({ i });
  } finally {
    setFlagsFromString('--semi-space-growth-factor=1');
  }
  return semiMb();
}

/** The worker compacts its heap after this long without a request (if its heap grew: `IdleCompaction`). */
export const IDLE_COMPACT_MS = 1000;

/**
 * The old generation's growth (`--heap-growing-percent`) while the worker analyses a whole file (a
 * document it has no earlier version of: `growingFreely`).
 */
export const WHOLE_FILE_GROWING_PERCENT = 300;

/**
 * The worker compacts its heap this long after a whole-file analysis (instead of `IDLE_COMPACT_MS`,
 * and whether or not it grew by `WORKER_COMPACT_BOUNDS`): the collection that sets the old
 * generation's limit from `HEAP_GROWING_PERCENT` again.
 */
export const WHOLE_FILE_COMPACT_MS = 150;

/**
 * Runs `f` (a whole-file analysis) with the old generation growing by `WHOLE_FILE_GROWING_PERCENT`
 * at each full collection instead of `HEAP_GROWING_PERCENT` (see above); the limit a collection
 * sets meanwhile holds until the next full collection (the compaction that follows).
 */
export function growingFreely<T>(f: () => T): T {
  setFlagsFromString(`--heap-growing-percent=${WHOLE_FILE_GROWING_PERCENT}`);
  try {
    return f();
  } finally {
    setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  }
}

/**
 * The main thread collects its heap (`mainThreadCollection`) after this long without a request, an
 * edit or a publish, if its heap grew since it last did (`MAIN_COLLECT_BOUNDS`): after the requests
 * an editor sends itself once an edit or a cursor move settles (a few hundred ms), so that a user
 * who is typing or moving over the text is not stopped by it, and after the worker's compaction
 * (`IDLE_COMPACT_MS`, 100-220 ms long), so that the two do not compete for the CPU. A hover that
 * comes while one runs waits: a scratch client's hover sent as the worker compacted took 12-30 ms
 * at 20,000 lines, as the main thread collected 26 (2-4 otherwise; with both at 1 s, up to 120).
 */
export const MAIN_IDLE_COLLECT_MS = 1500;

/** When an isolate collects at idle: its heap (as `IdleCompaction` measures it: committed, or for the main thread used) exceeds what it was right after its last compaction by `factor` and by `minBytes`. */
export interface CompactionBounds {
  factor: number;
  minBytes: number;
}

/** The worker's: by 4 MB (mostly the superseded versions' texts, as on the main thread, below). */
export const WORKER_COMPACT_BOUNDS: CompactionBounds = { factor: 1, minBytes: 4 * 2 ** 20 };
/**
 * The main thread's: by 4 MB (its growth between collections is mostly the superseded versions'
 * texts, about 45 bytes a line each: 0.9 MB a version at 20,000 lines, dead but kept until a full
 * collection, which V8 starts only once the old generation grew by a fifth and 8 MB), measured on
 * what its heap holds (`usedHeapBytes`), not on what it committed: the garbage of an editing
 * session fills space V8 committed already (at 20,000 lines, 7 MB held over the 42 MB live while
 * the committed heap stayed within 4 MB of its size after the last collection, so it was never
 * collected at idle: `bench/lsp-vs-mlir.ts`'s RSS 3 s after the run, 193-200 MB against 186-189).
 */
export const MAIN_COLLECT_BOUNDS: CompactionBounds = { factor: 1, minBytes: 4 * 2 ** 20 };

/** What the isolate's heap holds (live and not yet collected), the main thread's measure for `IdleCompaction`. */
export function usedHeapBytes(): number {
  return getHeapStatistics().used_heap_size;
}

/**
 * Compacts an isolate's heap once it is idle and has grown since it last did (see above). `busy` when
 * a request comes, `idle` when it is answered (or, where requests are not seen one by one, at every
 * message: the delay then counts from the last); `collect` is a full, compacting collection.
 */
export class IdleCompaction {
  private timer?: NodeJS.Timeout;
  /** the heap's size (as measured) right after the last compaction; 0 before the first */
  private after = 0;
  /** compactions done and their total time (ms) */
  count = 0;
  ms = 0;

  constructor(
    private readonly collect: () => void,
    private readonly idleMs = IDLE_COMPACT_MS,
    private readonly committed: () => number = () => getHeapStatistics().total_heap_size,
    private readonly bounds: CompactionBounds = WORKER_COMPACT_BOUNDS,
    /** while this says so when the time comes, it waits as long again */
    private readonly deferWhile?: () => boolean,
  ) {}

  busy(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** `ms`: this time's delay, if not the usual; `always`: compacts then whether or not the heap grew */
  idle(ms = this.idleMs, always = false): void {
    this.busy();
    this.timer = setTimeout(() => (this.deferWhile?.() ? this.idle(ms, always) : this.compactIfGrown(always)), ms);
    this.timer.unref();
  }

  /** compacts when the heap grew beyond the bounds since the last compaction (always the first time) */
  compactIfGrown(always = false): boolean {
    this.timer = undefined;
    const now = this.committed();
    if (!always && this.after > 0 && now <= Math.max(this.after * this.bounds.factor, this.after + this.bounds.minBytes)) return false;
    const t0 = performance.now();
    this.collect();
    this.ms += performance.now() - t0;
    this.count++;
    this.after = this.committed();
    return true;
  }
}

/**
 * The isolate's compacting full collection, where `--expose-gc` was set before its context was made
 * (the worker's); otherwise undefined.
 */
export function compactingCollection(): (() => void) | undefined {
  return compacting((globalThis as { gc?: unknown }).gc);
}

/**
 * The main thread's full collection (not compacting: what it frees is mostly large objects, the
 * superseded versions' texts, whose pages are given back without moving anything; a compaction cost
 * it 110-150 ms at 20,000 lines against 55-110). Its own context was made before `configureHeap` set
 * `--expose-gc`, so `gc` comes from a context made after (it collects the whole isolate, whichever
 * context it belongs to); undefined before `configureHeap`.
 */
export function mainThreadCollection(): (() => void) | undefined {
  try {
    const gc: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
    return typeof gc === 'function' ? () => (gc as () => void)() : undefined;
  } catch {
    return undefined;
  }
}

function compacting(gc: unknown): (() => void) | undefined {
  if (typeof gc !== 'function') return undefined;
  return () => {
    setFlagsFromString('--compact-on-every-full-gc');
    try {
      (gc as () => void)();
    } finally {
      setFlagsFromString('--no-compact-on-every-full-gc');
    }
  };
}
