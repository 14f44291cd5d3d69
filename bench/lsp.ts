// Language-server latency on a generated 2,000-line .layout file (the parse bench's generator),
// measured over the protocol against the bundled server (`node dist/server.js --stdio`):
// - didChange -> publishDiagnostics of that version (debounce set to 0 so that the number is the
//   server's own work: parse, resolve, every check, in the worker, and the publish);
// - hover and completion at spots spread over the file;
// - the server's memory (RSS, worker thread included) after the runs;
// - in process, where the time goes: the whole-file stages (parse, resolve, every check) and one
//   edit through the incremental analysis the worker runs (server/src/service/incremental.ts).
// `node --import tsx bench/lsp.ts` prints the numbers and writes bench/results/lsp.json.
// Targets: p95 < 30 ms for diagnostics after an edit, p95 < 5 ms for hover.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { LspClient, pos } from '../test/lsp/harness.js';
import { parse, resolve } from '../grammar/src/index.js';
import { analyze } from '../server/src/check/index.js';
import { IncrementalAnalysis } from '../server/src/service/incremental.js';
import { generate } from './parse.js';

const LINES = 2000;
const EDITS = 60;
const HOVERS = 200;
const COMPLETIONS = 100;
const WARMUP = 10;

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

function stats(xs: number[]): { n: number; p50: number; p95: number; max: number } {
  return { n: xs.length, p50: round(percentile(xs, 50)), p95: round(percentile(xs, 95)), max: round(Math.max(...xs)) };
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

function rssMb(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? round(Number(m[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const text = generate(LINES);
  const lines = text.split('\n');
  const c = await LspClient.start({ settings: { diagnostics: { debounceMs: 0 } } });
  try {
    const uri = c.uri('bench.layout');
    const tOpen = performance.now();
    const opened = await c.open(uri, text, 1);
    const openMs = performance.now() - tOpen;

    // spots: every `param M<k> = 4096` value (edits), every layout name use (hover), line starts in layouts (completion)
    const editSpots: number[] = [];
    const hoverSpots: number[] = [];
    const completionSpots: number[] = [];
    let off = 0;
    for (const l of lines) {
      const m = /^param (M\d+) = (4096)/.exec(l);
      if (m) editSpots.push(off + l.indexOf('4096'));
      const a = /^\s+offset_aptrs = (A\d+)\[/.exec(l);
      if (a) hoverSpots.push(off + l.indexOf(a[1]), off + l.indexOf('pid_m'));
      const lay = /^layout (A\d+) = OrderBy\(/.exec(l);
      if (lay) completionSpots.push(off + l.indexOf('OrderBy(') + 'OrderBy('.length);
      off += l.length + 1;
    }

    // diagnostics after an edit: flip one digit of a param value (4096 <-> 4095 keeps the file valid enough)
    let version = 1;
    let cur = text;
    const diag: number[] = [];
    let count = opened.diagnostics.length;
    for (let i = 0; i < EDITS + WARMUP; i++) {
      const at = editSpots[(i * 7) % editSpots.length] + 3;
      const digit = cur[at] === '6' ? '4' : '6';
      version++;
      const wait = c.diagnostics(uri, version, 30_000);
      const t0 = performance.now();
      c.change(uri, version, [{ range: { start: pos(cur, at), end: pos(cur, at + 1) }, text: digit }]);
      const p = await wait;
      const ms = performance.now() - t0;
      cur = cur.slice(0, at) + digit + cur.slice(at + 1);
      count = p.diagnostics.length;
      if (i >= WARMUP) diag.push(ms);
    }

    // the first hover at a spot computes it (elaboration of what it needs, symbolic apply/inv);
    // later ones at the same spot are answered from the snapshot's cache
    const hover: number[] = [];
    const hoverFirst: number[] = [];
    const hoverRepeat: number[] = [];
    const hovered = new Set<number>();
    for (let i = 0; i < HOVERS + WARMUP; i++) {
      const o = hoverSpots[(i * 13) % hoverSpots.length];
      const t0 = performance.now();
      const h = await c.request<unknown>('textDocument/hover', { textDocument: { uri }, position: pos(cur, o) });
      const ms = performance.now() - t0;
      if (!h) throw new Error(`no hover at offset ${o}`);
      if (i >= WARMUP) {
        hover.push(ms);
        (hovered.has(o) ? hoverRepeat : hoverFirst).push(ms);
      }
      hovered.add(o);
    }

    const completion: number[] = [];
    for (let i = 0; i < COMPLETIONS + WARMUP; i++) {
      const o = completionSpots[(i * 11) % completionSpots.length];
      const t0 = performance.now();
      const r = await c.request<{ items: unknown[] }>('textDocument/completion', { textDocument: { uri }, position: pos(cur, o) });
      const ms = performance.now() - t0;
      if (!r.items.length) throw new Error(`no completion at offset ${o}`);
      if (i >= WARMUP) completion.push(ms);
    }

    const rss = rssMb(c.proc.pid!);

    // where the diagnostics time goes: the same stages in process (median of 5 warm runs)
    const stage = (f: () => unknown) => {
      f();
      const xs: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        f();
        xs.push(performance.now() - t0);
      }
      return round(percentile(xs, 50));
    };
    const parsed = parse(cur);
    // the same digit flips as above, each analysed incrementally after the previous version
    const inc = new IncrementalAnalysis();
    let incText = cur;
    const incOptions = { budget: 1 << 24, gpuTarget: 'sm_90' }; // the server's defaults
    inc.diagnose(incText, incOptions);
    let incStats = inc.diagnose(incText, incOptions).stats;
    let flip = 0;
    const incrementalEdit = () => {
      const at = editSpots[(flip++ * 7) % editSpots.length] + 3;
      incText = incText.slice(0, at) + (incText[at] === '6' ? '4' : '6') + incText.slice(at + 1);
      incStats = inc.diagnose(incText, incOptions).stats;
    };
    const breakdown = {
      parseMs: stage(() => parse(cur)),
      resolveMs: stage(() => resolve(parsed.file, parsed.lines)),
      analyzeFastRulesMs: stage(() => analyze(cur, { slow: false })),
      analyzeAllRulesMs: stage(() => analyze(cur, { slow: true, budget: 1 << 24 })),
      incrementalEditMs: (() => {
        for (let i = 0; i < 20; i++) incrementalEdit(); // warm the incremental path
        return stage(incrementalEdit);
      })(),
      incrementalEdit: { declarations: incStats.decls, chunksParsed: incStats.chunksParsed, rechecked: incStats.rechecked, elaborated: incStats.elaborated },
    };
    const result = {
      bench: 'lsp',
      date: new Date().toISOString(),
      node: process.version,
      cpu: cpus()[0]?.model ?? 'unknown',
      lines: text.split('\n').length - 1,
      bytes: Buffer.byteLength(text),
      diagnosticsInFile: count,
      openToFirstDiagnosticsMs: round(openMs),
      diagnosticsAfterEditMs: stats(diag),
      hoverMs: stats(hover),
      hoverFirstAtSpotMs: stats(hoverFirst),
      hoverRepeatedMs: stats(hoverRepeat),
      completionMs: stats(completion),
      serverRssMb: rss ?? null,
      inProcessBreakdown: breakdown,
      targets: { diagnosticsP95Ms: 30, hoverP95Ms: 5 },
      withinTargets: { diagnostics: percentile(diag, 95) < 30, hover: percentile(hover, 95) < 5 },
    };
    console.log(`language server on ${result.lines} lines (${(result.bytes / 1e3).toFixed(0)} kB, ${count} diagnostics)`);
    console.log(`  open -> first diagnostics ${result.openToFirstDiagnosticsMs} ms`);
    console.log(`  didChange -> publishDiagnostics: p50 ${result.diagnosticsAfterEditMs.p50} ms, p95 ${result.diagnosticsAfterEditMs.p95} ms, max ${result.diagnosticsAfterEditMs.max} ms (${EDITS} edits; target p95 < 30 ms: ${result.withinTargets.diagnostics ? 'met' : 'MISSED'})`);
    console.log(`  hover: p50 ${result.hoverMs.p50} ms, p95 ${result.hoverMs.p95} ms (${HOVERS} requests; target p95 < 5 ms: ${result.withinTargets.hover ? 'met' : 'MISSED'})`);
    console.log(`    first at a spot: p50 ${result.hoverFirstAtSpotMs.p50} ms, p95 ${result.hoverFirstAtSpotMs.p95} ms, max ${result.hoverFirstAtSpotMs.max} ms (${hoverFirst.length}); repeated: p50 ${result.hoverRepeatedMs.p50} ms, p95 ${result.hoverRepeatedMs.p95} ms (${hoverRepeat.length})`);
    console.log(`  completion: p50 ${result.completionMs.p50} ms, p95 ${result.completionMs.p95} ms (${COMPLETIONS} requests)`);
    console.log(`  server RSS ${rss ?? '?'} MB`);
    console.log(`  in process, whole file: parse ${breakdown.parseMs} ms, resolve ${breakdown.resolveMs} ms, analyze (fast rules) ${breakdown.analyzeFastRulesMs} ms, analyze (all rules) ${breakdown.analyzeAllRulesMs} ms`);
    console.log(`  in process, one edit analysed incrementally: ${breakdown.incrementalEditMs} ms (${incStats.chunksParsed} chunk parsed, ${incStats.rechecked} of ${incStats.decls} declarations re-checked, ${incStats.elaborated} elaborated)`);
    mkdirSync('bench/results', { recursive: true });
    writeFileSync('bench/results/lsp.json', JSON.stringify(result, null, 2) + '\n');
    updateReadme(`| lsp | ${result.date.slice(0, 10)} | ${result.lines} lines: diagnostics after edit p50 ${result.diagnosticsAfterEditMs.p50} / p95 ${result.diagnosticsAfterEditMs.p95} ms (target < 30), hover p95 ${result.hoverMs.p95} ms (target < 5), completion p95 ${result.completionMs.p95} ms, RSS ${rss ?? '?'} MB | lsp.json |`);
  } finally {
    await c.stop();
  }
}

/** Keeps one line per bench in bench/results/README.md (a markdown table). */
function updateReadme(row: string): void {
  const path = 'bench/results/README.md';
  const header = '# Benchmark results\n\nWritten by the `bench/*.ts` scripts (`npm run bench`).\n\n| bench | date | result | file |\n|---|---|---|---|\n';
  const old = existsSync(path) ? readFileSync(path, 'utf8') : header;
  let body = old.split('\n').filter((l) => !l.startsWith('| lsp |')).join('\n');
  if (!body.includes('| bench | date | result | file |')) body = header + body;
  writeFileSync(path, body.replace(/\n*$/, '\n') + row + '\n');
}

await main();
