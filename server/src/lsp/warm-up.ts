// The analysis worker warms up as soon as it starts, before the first document arrives: the first
// analysis in a fresh thread runs cold code (V8 compiles and optimises as it goes) and costs two to
// three times a warm one. The worker parses, then analyses, a small sample program that touches
// every stage (parse, names, elaboration, every rule, a GenP check, a kernel and a schedule) a few
// times, one step per event-loop turn, and stops at once when a request arrives: warming never
// delays a job by more than one step, and a step stops early when a job is posted during it.
import { ChunkedParser } from '../service/chunks.js';
import { IncrementalAnalysis } from '../service/incremental.js';
import { resolve } from '../../../grammar/src/resolve.js';

/** One unit of the sample, names made unique by `k` (the worker's sample is units 0 to 3). */
export function warmUpUnit(k: number): string {
  return `# sample ${k}
const M${k} = 1024, N${k} = 512, K${k} = 256
const BM${k} = 64, BN${k} = 64, BK${k} = 16
const W${k} = 16
param SM${k} = 64 in [32, 64], SK${k} = 1024 in [512, 1024]
let tiles_m${k} = M${k} / BM${k}
let tiles_n${k} = N${k} / BN${k}
layout P${k} = OrderBy(Col(max(tiles_m${k} / 4, 1), 1), Col(min(tiles_m${k}, 4), tiles_n${k})).TileBy([tiles_m${k}, tiles_n${k}])
layout X${k} = OrderBy(Row(M${k}, K${k})).TileBy([M${k} / BM${k}, K${k} / BK${k}], [BM${k}, BK${k}])
layout Y${k} = OrderBy(Row(K${k}, N${k})).TileBy([K${k} / BK${k}, N${k} / BN${k}], [BK${k}, BN${k}])
layout Z${k} = OrderBy(Row(M${k}, N${k})).TileBy([M${k} / BM${k}, N${k} / BN${k}], [BM${k}, BN${k}])
perm diag${k}(n)[i, j] =
  if i + j < n then (i + j + 1) * (i + j) / 2 + i
  else n * n - n + i - (2 * n - i - j - 1) * (2 * n - i - j - 2) / 2
layout D${k} = OrderBy(RegP([2, 2], [1, 0]), GenP([4, 4], diag${k}(4))).GroupBy([8, 8])
kernel mm${k} target triton builtin matmul {
  pid_m, pid_n = P${k}.inv(pid)
  offset_aptrs = X${k}[pid_m, k, :, :]
  offset_bptrs = Y${k}[k, pid_n, :, :]
  offset_cptrs = Z${k}[pid_m, pid_n, 0:BM${k}, 0:BN${k}]
  param_M = M${k}
  param_N = N${k}
  param_K = K${k}
  param_BM = BM${k}
  param_BN = BN${k}
  param_BK = BK${k}
  param_GM = 4
}
kernel nw${k} target cuda builtin nw_antidiag {
  block_size = W${k}
  expr = D${k}[i, j]
}
schedule s${k} for linalg.matmul(SK${k}, N${k}, K${k}) on sm_80 {
  mm = findOp("linalg.matmul")
  tileForGrids(mm, [SM${k}, BN${k}])
  tile(mm, [0, 0, BK${k}])
  promote(mm, [0, 1])
  parallelizeForThreads(mm, [W${k}, W${k}])
  vectorize()
  bufferize()
}
`;
}

/** The first `units` units of the sample, one after another (the first-stage warm-ups parse it). */
export function warmUpSample(units: number): string {
  return Array.from({ length: units }, (_, k) => warmUpUnit(k)).join('\n');
}

/** The units of the sample program the worker warms up on. */
export const WARM_UP_UNITS = [0, 1, 2, 3].map(warmUpUnit);

/**
 * A unit with a syntax error, parsed by the last step: a piece with an error is parsed by Chevrotain
 * (parser.ts), whose parser is built on first use (its grammar analysis takes some 30-60 ms cold),
 * so the last step builds it, after everything else, while the worker is still idle.
 */
export const BROKEN_UNIT = WARM_UP_UNITS[0].replace('const W0 = 16', 'const W0 = (16');

/** How many steps at most (each unit analysed several times). */
export const WARM_UP_RUNS = 72;
/** The first steps parse and resolve the names of `FIRST_STAGE_UNITS` units (`warmFirstStage`), and analyse nothing. */
export const FIRST_STAGE_STEPS = 24;
/**
 * Units the first steps parse and resolve (about 480 lines): what warms the parser and name
 * resolution is how much they have done, not how often they were called.
 */
const FIRST_STAGE_UNITS = 12;

/**
 * Starts warming up, one step per event-loop turn (`setImmediate`), up to `runs` steps (`onStep` is
 * told each one's number, for tests), until `busy()` says a request arrived. The first
 * `FIRST_STAGE_STEPS` parse `FIRST_STAGE_UNITS` units and resolve their names (the first stage of an
 * open: what its syntax and name diagnostics wait for), the others parse the sample and analyse one
 * unit, the last parses `BROKEN_UNIT`. Returns a function that stops it.
 *
 * The first steps parsed one unit each, without name resolution, until both were found to warm by
 * how much they have done (a scratch client, didOpen 200 ms after `initialize`, fresh servers, first
 * diagnostics p50): one unit parsed per step, 10,000 lines 64-67 ms, 20,000 lines 134-141; four
 * units, 60-63 (20,000: no change); twelve units, 47-52 and 117-120; twelve units parsed and
 * resolved, 34-38 and 92-100 (24 units: no better; 500 and 2,000 lines unchanged within noise). The
 * longer steps delay no job: `busy` is polled before each chunk.
 */
export function warmUp(busy: () => boolean, runs = WARM_UP_RUNS, onStep?: (step: number) => void): () => void {
  const sample = WARM_UP_UNITS.join('\n');
  return stepByStep(runs, (done) => {
    // (the first step builds the parser and the lexer)
    const unit = WARM_UP_UNITS[(runs - 1 - done) % WARM_UP_UNITS.length];
    onStep?.(done);
    // `busy` is polled inside a step too (before each chunk's parse and each declaration's
    // analysis): a job posted meanwhile (analysis-runner.ts sets a shared flag as it posts) waits
    // for one declaration, not for the whole step (the first analysis steps run cold code)
    if (done === runs - 1) new ChunkedParser().parse(BROKEN_UNIT, busy);
    else if (done < FIRST_STAGE_STEPS) warmFirstStage(busy);
    else if (new ChunkedParser().parse(sample, busy)) new IncrementalAnalysis().diagnose(unit, { shouldStop: busy });
  }, { stop: busy });
}

let firstStageSample: string | undefined;

/**
 * One of the first warm-up steps: parses `FIRST_STAGE_UNITS` units and resolves their names, unless
 * `busy` says stop (polled before each chunk). Also bench/open-cost.ts's model of the worker.
 */
export function warmFirstStage(busy: () => boolean = () => false): void {
  firstStageSample ??= warmUpSample(FIRST_STAGE_UNITS);
  const p = new ChunkedParser().parse(firstStageSample, busy);
  if (p && !busy()) resolve(p.file, p.lines);
}

/**
 * Runs `run(0)`, `run(1)`, ... up to `count` steps, one per event-loop turn, the warm-ups' schedule:
 * it ends when `stop()` says so or a step throws (warming is best effort); while `paused()` says so
 * it waits `pauseMs` and looks again. Returns a function that stops it.
 *
 * `afterIo` (the main thread's warm-up): each step is a timer, not an immediate, so that what
 * arrived during a step is handled before the next one. Node reads input after the timers and
 * before the immediates of a loop turn, and vscode-jsonrpc dispatches a message it read from an
 * immediate of its own: behind a step queued as an immediate before the input was read. A
 * didOpen that came during the main thread's warm-up (1 s after `initialize`) waited for two to
 * four steps, 10-19 ms in traces, instead of the rest of one (500 lines, fresh servers opened 1.2 s
 * after `initialize`, first diagnostics p50 of 6-8 servers: 29-32 ms -> 18-28).
 */
export function stepByStep(count: number, run: (step: number) => void, o: { stop?: () => boolean; paused?: () => boolean; pauseMs?: number; afterIo?: boolean } = {}): () => void {
  let next = 0;
  let timer: NodeJS.Immediate | NodeJS.Timeout | undefined;
  const later = (f: () => void): NodeJS.Immediate | NodeJS.Timeout => (o.afterIo ? setTimeout(f, 0) : setImmediate(f));
  let wait: NodeJS.Timeout | undefined;
  const step = () => {
    timer = undefined;
    wait = undefined;
    if (next >= count || o.stop?.()) return;
    if (o.paused?.()) {
      wait = setTimeout(step, o.pauseMs ?? 50);
      return;
    }
    try {
      run(next++);
    } catch {
      return;
    }
    timer = later(step);
  };
  timer = later(step);
  return () => {
    // (each by its own clear: clearImmediate given a timer corrupts Node's queue of immediates)
    if (timer && o.afterIo) clearTimeout(timer as NodeJS.Timeout);
    else if (timer) clearImmediate(timer as NodeJS.Immediate);
    clearTimeout(wait);
    timer = undefined;
    wait = undefined;
    next = count;
  };
}
