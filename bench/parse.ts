// Parse + resolve speed on a generated, realistic 10,000-line .layout file.
// `node --import tsx bench/parse.ts` prints the numbers and writes bench/results/parse.json
// (and the line for this bench in bench/results/README.md). Target: < 100 ms for 10,000 lines.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parse, resolve } from '../grammar/src/index.js';
import { fill, layoutBlock } from './support/lsp-files.js';

const TARGET_LINES = 10_000;
const RUNS = 25;
const WARMUP = 5;

/** Exactly `lines` lines: whole blocks while they fit, then comment lines. Its only diagnostics are hints (each block's Skewed layout is unused). */
export function generate(lines: number): string {
  return fill(lines, (k) => layoutBlock(k, { skewKernel: false }), '#');
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
