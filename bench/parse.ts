// Parse + resolve speed on a generated, realistic 10,000-line .layout file.
// `node --import tsx bench/parse.ts` prints the numbers and writes bench/results/parse.json
// (and the line for this bench in bench/results/README.md). Target: < 100 ms for 10,000 lines.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parse, resolve } from '../grammar/src/index.js';

const TARGET_LINES = 10_000;
const RUNS = 25;
const WARMUP = 5;

/** One block of declarations in the style of the examples, with names made unique by `k`. */
function block(k: number): string {
  return `# ---- block ${k}: grouped-order matmul tile set
param M${k} = 4096 in [1024, 2048, 4096], N${k} = 4096, K${k} = 4096
param BM${k} = 128 in [64, 128], BN${k} = 128, BK${k} = 32, GM${k} = 8
const T${k} = 32
let num_pid_m${k} = M${k} / BM${k}       # tiles along M
let num_pid_n${k} = N${k} / BN${k}

layout Pid${k} = OrderBy(Col(max(num_pid_m${k} / GM${k}, 1), 1), Col(min(num_pid_m${k}, GM${k}), num_pid_n${k}))
                 .TileBy([num_pid_m${k}, num_pid_n${k}])
layout A${k} = OrderBy(Row(M${k}, K${k})).TileBy([M${k} / BM${k}, K${k} / BK${k}], [BM${k}, BK${k}])
layout B${k} = OrderBy(Row(K${k}, N${k})).TileBy([K${k} / BK${k}, N${k} / BN${k}], [BK${k}, BN${k}])
layout C${k} = OrderBy(Row(M${k}, N${k})).TileBy([M${k} / BM${k}, N${k} / BN${k}], [BM${k}, BN${k}])

perm antidiag${k}(n)[i, j] =
  if i + j < n then (i + j + 1) * (i + j) / 2 + i
  else n * n - n + i - (2 * n - i - j - 1) * (2 * n - i - j - 2) / 2
layout Skewed${k} = OrderBy(RegP([2, 2], [1, 0]), GenP([3, 3], antidiag${k}(3)))
                  .OrderBy(RegP([2, 3, 2, 3], [0, 2, 1, 3]))
                  .GroupBy([6, 6])

kernel matmul${k} target triton builtin matmul {
  pid_m, pid_n = Pid${k}.inv(pid)
  offset_aptrs = A${k}[pid_m, k, :, :]
  offset_bptrs = B${k}[k, pid_n, :, :]
  offset_cptrs = C${k}[pid_m, pid_n, 0:BM${k}, 0:BN${k}]
  param_M = M${k}
  param_N = N${k}
  param_K = K${k}
  param_BM = BM${k}
  param_BN = BN${k}
  param_BK = BK${k}
  param_GM = GM${k}
}

schedule gemm${k} for linalg.matmul(M${k}, N${k}, K${k}) on sm_90 {
  mm = findOp("linalg.matmul")
  tileForGrids(mm, [BM${k}, BN${k}])
  tile(mm, [0, 0, BK${k}])
  promote(mm, [0, 1])
  parallelizeForThreads(mm, [T${k} / 2, T${k} / 2])
  vectorize()
  bufferize()
}

`;
}

/** Exactly `lines` lines: whole blocks while they fit, then comment lines. Its only diagnostics are hints (each block's Skewed layout is unused). */
export function generate(lines: number): string {
  const parts: string[] = [];
  let n = 0;
  for (let k = 0; ; k++) {
    const b = block(k);
    const bl = b.split('\n').length - 1;
    if (n + bl > lines) break;
    parts.push(b);
    n += bl;
  }
  for (; n < lines; n++) parts.push(`# padding line ${n}\n`);
  return parts.join('');
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function main(): void {
  const text = generate(TARGET_LINES);
  const lineCount = text.split('\n').length - 1;
  const bytes = Buffer.byteLength(text);
  const first = parse(text);
  const firstResolve = resolve(first.file, first.lines);
  const diagnostics = first.diagnostics.length + firstResolve.diagnostics.length;
  for (let i = 0; i < WARMUP; i++) resolve(parse(text).file, text);
  const total: number[] = [];
  const parseOnly: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const p = parse(text);
    const t1 = performance.now();
    resolve(p.file, p.lines);
    const t2 = performance.now();
    const c = process.cpuUsage(c0);
    total.push(t2 - t0);
    parseOnly.push(t1 - t0);
    cpu.push((c.user + c.system) / 1000);
  }
  const ms = median(total);
  const result = {
    bench: 'parse',
    date: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    /** the machine's 1-minute load average when the bench ran: above the core count, timings are inflated */
    loadAverage1m: round(loadavg()[0]),
    lines: lineCount,
    bytes,
    declarations: first.file.decls.length,
    diagnostics,
    runs: RUNS,
    medianMs: round(ms),
    medianParseMs: round(median(parseOnly)),
    medianResolveMs: round(ms - median(parseOnly)),
    minMs: round(Math.min(...total)),
    /** CPU time of the process per run (GC threads included): less sensitive to other load than wall time */
    medianCpuMs: round(median(cpu)),
    maxMs: round(Math.max(...total)),
    linesPerSecond: Math.round(lineCount / (ms / 1000)),
    mbPerSecond: round(bytes / 1e6 / (ms / 1000)),
    targetMs: 100,
    withinTarget: ms < 100,
  };
  console.log(`parse + resolve of ${lineCount} lines (${(bytes / 1e6).toFixed(2)} MB, ${result.declarations} declarations, ${diagnostics} diagnostics)`);
  console.log(`  median ${result.medianMs} ms (parse ${result.medianParseMs} ms, resolve ${result.medianResolveMs} ms), min ${result.minMs} ms, max ${result.maxMs} ms over ${RUNS} warm runs; CPU time median ${result.medianCpuMs} ms`);
  console.log(`  ${result.linesPerSecond.toLocaleString('en-US')} lines/s, ${result.mbPerSecond} MB/s; target < 100 ms: ${result.withinTarget ? 'met' : 'MISSED'}`);
  if (result.loadAverage1m > result.cores) console.log(`  note: load average ${result.loadAverage1m} on ${result.cores} cores: other work inflated these timings`);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/parse.json', JSON.stringify(result, null, 2) + '\n');
  updateReadme(`| parse | ${result.date.slice(0, 10)} | ${lineCount} lines parse + resolve: median ${result.medianMs} ms, ${result.linesPerSecond.toLocaleString('en-US')} lines/s, ${result.mbPerSecond} MB/s (target < 100 ms) | parse.json |`);
  if (diagnostics !== 0) {
    console.error(`the generated file has ${diagnostics} diagnostics; it should have none`);
    process.exitCode = 1;
  }
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

/** Keeps one line per bench in bench/results/README.md (a markdown table). */
function updateReadme(row: string): void {
  const path = 'bench/results/README.md';
  const header = '# Benchmark results\n\nWritten by the `bench/*.ts` scripts (`npm run bench`).\n\n| bench | date | result | file |\n|---|---|---|---|\n';
  const old = existsSync(path) ? readFileSync(path, 'utf8') : header;
  const lines = old.split('\n').filter((l) => !l.startsWith('| parse |'));
  let text = lines.join('\n');
  if (!text.includes('| bench | date | result | file |')) text = header + text;
  text = text.replace(/\n*$/, '\n') + row + '\n';
  writeFileSync(path, text);
}

// run when executed (`node --import tsx bench/parse.ts`), not when imported for `generate`
if (/bench[\\/]parse\.ts$/.test(process.argv[1] ?? '')) main();
