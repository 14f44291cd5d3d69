// Warming the hover path up while the server is idle after it starts. A layout's or a query's
// first hover runs the elaborator and the symbolic apply/inv (the expression simplifier's
// proofs): a lot of code that V8 compiles on first use, which made the first hovers of a session
// several times slower than the same work once compiled (bench/lsp.ts, docs/server.md). Each
// step computes the hovers of a small built-in file (a fresh snapshot, so nothing comes from a
// cache); the server runs the steps one macrotask at a time, so requests are answered between.
import { LayoutDocument } from './document.js';
import { hover } from './hover.js';
import { defaultSettings, type Settings } from './settings.js';

const SAMPLE = `param M = 1024, N = 512, K = 256
param BM = 64 in [32, 64], BN = 32, BK = 16, GM = 4
let num_pid_m = M / BM
let num_pid_n = N / BN
layout Pid = OrderBy(Col(max(num_pid_m / GM, 1), 1), Col(min(num_pid_m, GM), num_pid_n)).TileBy([num_pid_m, num_pid_n])
layout A = OrderBy(Row(M, K)).TileBy([M / BM, K / BK], [BM, BK])
layout B = OrderBy(Row(K, N)).TileBy([K / BK, N / BN], [BK, BN])
layout S = OrderBy(RegP([2, 2], [1, 0]), Col(3, 3)).OrderBy(RegP([2, 3, 2, 3], [0, 2, 1, 3])).GroupBy([6, 6])
kernel mm target triton template "mm.py" {
  pid_m, pid_n = Pid.inv(pid)
  a = A[pid_m, k, :, :]
  b = B[k, pid_n, :, :]
  s = S[i, j] + 1
  t = S.inv(pid)
}
`;

/** layouts (Pid, A, S), queries (on `.inv`, a bound name, a bracket), a query in an expression */
export const SPOTS = ['layout Pid', 'layout A', 'layout S'].map((s) => SAMPLE.indexOf(s) + 7)
  .concat(SAMPLE.indexOf('inv(pid)'), SAMPLE.indexOf('pid_m, pid_n') + 8, SAMPLE.indexOf('[pid_m'), SAMPLE.indexOf('S[i') + 1, SAMPLE.indexOf('S.inv') + 2);

/** at most this many steps (one hover each), and no step once this much time was spent (ms) */
export const WARM_UP_STEPS = 20 * SPOTS.length;
export const WARM_UP_BUDGET_MS = 1000;

let round: { k: number; doc: LayoutDocument; settings: Settings } | undefined;

/** Step `k`: one hover of the sample, in a fresh snapshot every SPOTS.length steps. Never throws. */
export function warmUpStep(k: number): void {
  try {
    const r = Math.floor(k / SPOTS.length);
    if (round?.k !== r) {
      const settings: Settings = { ...defaultSettings, hover: { ...defaultSettings.hover, language: r % 4 === 3 ? 'c' : 'triton' } };
      round = { k: r, doc: new LayoutDocument('warm-up:sample.layout', r, SAMPLE), settings };
    }
    hover(round.doc, SPOTS[k % SPOTS.length], round.settings);
  } catch {
    /* a warm-up never matters */
  }
}

/**
 * Runs the steps, each in its own macrotask (`schedule`, e.g. setImmediate), until
 * WARM_UP_STEPS or WARM_UP_BUDGET_MS or `stop()`.
 */
export function warmUp(schedule: (f: () => void) => void, stop: () => boolean = () => false): void {
  let k = 0;
  let spent = 0;
  const step = () => {
    if (stop() || k >= WARM_UP_STEPS || spent >= WARM_UP_BUDGET_MS) {
      round = undefined;
      return;
    }
    const t0 = performance.now();
    warmUpStep(k++);
    spent += performance.now() - t0;
    schedule(step);
  };
  schedule(step);
}
