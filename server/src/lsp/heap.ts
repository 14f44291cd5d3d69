// V8 heap sizing for the server's two isolates (the main thread and the analysis worker). By
// default V8 lets the old generation grow to about four times what survived the last full
// collection before collecting again, and gives each isolate a young generation of 3 x 16 MB: an
// analysis allocates much short-lived data, so an idle server held several times its live data
// (at 10,000 lines, 160 MB of old space in the worker for about 40 MB live). Growing the old
// generation by half instead, and giving the worker a smaller young generation, keeps the
// resident size near the live data, at the cost of more frequent collections (bench/: RSS and
// CPU per edit in the same run).
import { setFlagsFromString } from 'node:v8';

/** The old generation grows by this much of what survived the last full collection (V8's `--heap-growing-percent`). */
export const HEAP_GROWING_PERCENT = 50;

/** The analysis worker's young generation (`resourceLimits.maxYoungGenerationSizeMb`: three semi-spaces of 8 MB). */
export const WORKER_YOUNG_GENERATION_MB = 24;

/**
 * Applies the heap settings to the process (both isolates: V8 reads the flag at every full
 * collection); call before the worker starts.
 */
export function configureHeap(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
