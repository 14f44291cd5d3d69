// V8 heap sizing for the server's two isolates (the main thread and the analysis worker). By
// default V8 lets the old generation grow to about four times what survived the last full
// collection before collecting again, and gives each isolate a young generation of 3 x 16 MB: an
// analysis allocates much short-lived data, so an idle server held several times its live data
// (at 10,000 lines, 160 MB of old space in the worker for about 40 MB live). Growing the old
// generation by half instead, and giving the worker a smaller young generation, keeps the
// resident size near the live data, at the cost of more frequent collections (bench/: RSS and
// CPU per edit in the same run).
//
// The main thread's young generation can be bounded only on Node's command line
// (`--max-semi-space-size`), which a client may not pass: left alone it grows to 2 x 16 MB (its two
// semi-spaces) within the first edits, though the main thread's work (a version's snapshot, a
// hover) keeps little alive across a collection. V8 grows a semi-space by
// `--semi-space-growth-factor` at a collection, reading the flag each time, so setting it to 1 at
// start-up keeps the main thread's semi-spaces at their first size (1 MB each). A new isolate resets
// a factor below 2 to 2 while it is set up, so the worker sets it again before it loads its code
// (`bootstrap.ts` calls `configureHeap` on both threads), which also keeps V8's code cache valid:
// the cache is used only under the flags it was made with (the build makes it after
// `configureHeap`). The worker's own young generation does not grow either: it starts at its full
// size (`--min-semi-space-size`, read when an isolate is set up).
import { setFlagsFromString } from 'node:v8';

/** The old generation grows by this much of what survived the last full collection (V8's `--heap-growing-percent`). */
export const HEAP_GROWING_PERCENT = 50;

/** The analysis worker's young generation (`resourceLimits.maxYoungGenerationSizeMb`: three semi-spaces of 8 MB). */
export const WORKER_YOUNG_GENERATION_MB = 24;

/** One of the worker's semi-spaces (V8 sizes a young generation as three semi-spaces). */
const WORKER_SEMI_SPACE_MB = WORKER_YOUNG_GENERATION_MB / 3;

/**
 * Applies the heap settings to the process (both isolates: V8 reads the growth flags at every
 * collection, the semi-space size when the worker's isolate is set up); call on the main thread
 * before the worker starts, and on the worker before its code is loaded.
 */
export function configureHeap(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  setFlagsFromString(`--min-semi-space-size=${WORKER_SEMI_SPACE_MB}`);
  setFlagsFromString('--semi-space-growth-factor=1');
}
