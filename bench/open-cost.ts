// The cost of opening a file, in process: what the analysis worker does when a document is opened,
// in a fresh process each time (the worker's situation: its code is cold; the first open of a session
// runs it for the first time), with the worker's heap settings (lsp/heap.ts: a whole-file analysis
// grows freely) and the worker's first warm-up steps first (lsp/warm-up.ts `warmFirstStage`: parse
// and names, what it has time for before a document arrives).
// For generated files of several sizes (bench/support/lsp-files.ts, the files of bench/lsp-vs-mlir.ts),
// CPU time (process.cpuUsage: less sensitive to other processes than the wall-clock times of
// lsp-vs-mlir.ts's didOpen rows) of
// - the first stage: parse and name resolution (what the syntax and name diagnostics wait for);
// - the whole analysis (the complete diagnostics);
// - the same whole analysis warm (a fresh IncrementalAnalysis after two others in the same process).
// p50 over `RUNS` processes, in ms. `node --import tsx bench/open-cost.ts [lines...]` (default 2000
// 10000) prints the table and writes bench/results/open-cost.md and .json (and its row in
// bench/results/README.md).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { growingFreely, HEAP_GROWING_PERCENT, WORKER_YOUNG_GENERATION_MB } from '../server/src/lsp/heap.js';

const RUNS = 7;

interface Sample { first: number; complete: number; warm: number }

async function child(lines: number): Promise<void> {
  const { layoutFile } = await import('./support/lsp-files.js');
  const { IncrementalAnalysis } = await import('../server/src/service/incremental.js');
  const { warmFirstStage, FIRST_STAGE_STEPS } = await import('../server/src/lsp/warm-up.js');
  const text = layoutFile(lines);
  for (let i = 0; i < FIRST_STAGE_STEPS; i++) warmFirstStage();
  const ms = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;
  const c0 = process.cpuUsage();
  let first = NaN;
  // a whole-file analysis, as the worker runs it (heap.ts growingFreely)
  const r = growingFreely(() => new IncrementalAnalysis().diagnose(text, { onSyntax: () => { first = ms(process.cpuUsage(c0)); } }));
  const complete = ms(process.cpuUsage(c0));
  if (r.diagnostics.some((d) => d.severity === 'error')) throw new Error('the generated file has errors');
  growingFreely(() => new IncrementalAnalysis().diagnose(text));
  const c1 = process.cpuUsage();
  growingFreely(() => new IncrementalAnalysis().diagnose(text));
  const warm = ms(process.cpuUsage(c1));
  process.stdout.write(JSON.stringify({ first, complete, warm } satisfies Sample));
}

function p50(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
}

function main(): void {
  const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
  const header = '| lines | first stage: parse + names (ms CPU, cold) | whole analysis (cold) | whole analysis (warm) |\n|---|---|---|---|';
  console.log(header);
  const rows: string[] = [];
  const json: { lines: number; first: number; complete: number; warm: number }[] = [];
  for (const lines of sizes.length ? sizes : [2000, 10_000]) {
    const samples: Sample[] = [];
    for (let i = 0; i < RUNS; i++) {
      const r = spawnSync(process.execPath, [
        `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
        `--min-semi-space-size=${WORKER_YOUNG_GENERATION_MB / 3}`,
        `--max-semi-space-size=${WORKER_YOUNG_GENERATION_MB / 3}`,
        '--import', 'tsx', import.meta.filename, '--child', String(lines),
      ], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
      samples.push(JSON.parse(r.stdout) as Sample);
    }
    const s = { lines, first: p50(samples.map((x) => x.first)), complete: p50(samples.map((x) => x.complete)), warm: p50(samples.map((x) => x.warm)) };
    const row = `| ${lines} | ${s.first.toFixed(0)} | ${s.complete.toFixed(0)} | ${s.warm.toFixed(0)} |`;
    console.log(row);
    rows.push(row);
    json.push(s);
  }
  const out = resolve(import.meta.dirname, 'results');
  mkdirSync(out, { recursive: true });
  const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, load ${loadavg()[0].toFixed(1)}`;
  writeFileSync(join(out, 'open-cost.json'), JSON.stringify({ date: new Date().toISOString(), machine, unit: `ms of CPU, p50 of ${RUNS} fresh processes`, runs: json }, null, 2) + '\n');
  writeFileSync(join(out, 'open-cost.md'), `# The cost of opening a file, in process (bench/open-cost.ts)\n\n${new Date().toISOString()}, ${machine}\n\n${header}\n${rows.join('\n')}\n`);
  // its row in bench/results/README.md (the table of every benchmark's latest figures)
  const readme = join(out, 'README.md');
  if (existsSync(readme)) {
    const cells = json.map((r) => `${r.lines} lines ${r.first.toFixed(0)} / ${r.complete.toFixed(0)} / ${r.warm.toFixed(0)}`).join('; ');
    const row = `| open-cost | ${new Date().toISOString().slice(0, 10)} | CPU of an open in a fresh process (p50 ms), parse + names / whole analysis / whole analysis warm: ${cells} | open-cost.json, open-cost.md |`;
    const kept = readFileSync(readme, 'utf8').split('\n').filter((l) => !l.startsWith('| open-cost |'));
    writeFileSync(readme, kept.join('\n').replace(/\n*$/, '\n') + row + '\n');
  }
}

if (process.argv[2] === '--child') await child(Number(process.argv[3]));
else main();
