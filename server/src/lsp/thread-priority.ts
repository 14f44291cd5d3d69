// The analysis worker runs at a lower scheduling priority than the main thread: the main thread
// answers hovers, completions and the other requests a user waits for, the worker does background
// work (an edit's analysis, warm-up, heap compaction). On a machine with fewer free cores than
// busy threads (two cores: the main thread, the worker, the editor), a hover sent right after an
// edit otherwise waits for the CPU behind that edit's analysis. As rust-analyzer gives its
// latency-sensitive threads a higher quality of service than its workers.
//
// Linux keeps a nice value per thread, and `setpriority` given a thread's id changes that thread
// only (its own id is read from /proc/thread-self); raising one's own nice value needs no
// privilege. By 5, not more: with the main thread on the same core the worker then gets about a
// quarter of it (CFS weights 335 : 1024), with a build's compilers (nice 0) it is not starved; the
// benchmark's hover right after an edit at 2,000 lines, p50, 0 -> 5 or 10: 9.8 -> 4.2-6.6 ms under
// load, 5 and 10 alike. Other systems have no per-thread nice value that Node can reach: nothing is changed
// there (macOS's `setpriority` would lower the whole process).
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** How much the worker's nice value is raised (`LAYOUT_WORKER_NICE` overrides it; 0 leaves it). */
export const WORKER_NICE = 5;

/**
 * Raises the calling thread's nice value by `nice` (at most to 19), on Linux and in a thread other
 * than the process's main one; returns the thread's id and its new nice value, or undefined where
 * nothing was changed.
 */
export function lowerThreadPriority(nice: number): { tid: number; nice: number } | undefined {
  if (process.platform !== 'linux' || !(nice > 0)) return undefined;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0 || tid === process.pid) return undefined;
    const to = Math.min(19, getPriority(tid) + nice);
    setPriority(tid, to);
    return { tid, nice: getPriority(tid) };
  } catch {
    return undefined; // best effort: no /proc, or not allowed
  }
}
