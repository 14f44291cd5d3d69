// Speed of the check rules (server/src/check/rules): the fast rules on a generated 10,000-line
// file (they run on every keystroke), and one exhaustive GenP check of 2^24 points (target about
// 1 s). `node --import tsx bench/check-rules.ts` prints the numbers and writes
// bench/results/check-rules.json (and this bench's line in bench/results/README.md).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { parse, resolve } from '../grammar/src/index.js';
import { analyze } from '../server/src/check/index.js';
import { runRules } from '../server/src/check/rules/index.js';
import { elaborate } from '../server/src/check/elaborate.js';
import { generate } from './parse.js';

const RUNS = 7;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
function round(x: number): number {
  return Math.round(x * 100) / 100;
}
function time(f: () => void, runs: number): number {
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    f();
    xs.push(performance.now() - t0);
  }
  return round(median(xs));
}

function main(): void {
  const text = generate(10_000);
  const p = parse(text);
  const r = resolve(p.file, p.lines);
  const input = { text, file: p.file, resolution: r, model: elaborate(p.file, r).model };
  const fastDiagnostics = runRules(input, { slow: false }).diagnostics;
  for (let i = 0; i < 2; i++) runRules(input, { slow: false });
  const fastMs = time(() => runRules(input, { slow: false }), RUNS);
  const allMs = time(() => runRules(input, { slow: true }), 3);

  const n = 4096;
  const bodies: Record<string, string> = {
    'row-major': 'i * n + j',
    antidiag: 'if i + j < n then (i + j) * (i + j + 1) / 2 + i else n * n - (2 * n - i - j - 1) * (2 * n - i - j) / 2 + (n - 1 - j)',
  };
  const genp: Record<string, { ms: number; points: number; diagnostics: number }> = {};
  for (const [name, body] of Object.entries(bodies)) {
    const t = `perm p(n)[i, j] = ${body}\nlayout A = OrderBy(GenP([${n}, ${n}], p(${n}))).GroupBy([${n * n}])\n`;
    const d = analyze(t, { slow: true }).diagnostics.length;
    genp[name] = { ms: time(() => analyze(t, { slow: true }), 3), points: n * n, diagnostics: d };
  }
  const result = {
    bench: 'check-rules',
    date: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    lines: text.split('\n').length - 1,
    declarations: p.file.decls.length,
    fastRules: { medianMs: fastMs, diagnostics: fastDiagnostics.length, codes: [...new Set(fastDiagnostics.map((d) => d.code))] },
    allRules: { medianMs: allMs },
    genp2pow24: genp,
    targetGenPMs: 1000,
  };
  console.log(`fast rules on ${result.lines} lines (${result.declarations} declarations): median ${fastMs} ms, ${fastDiagnostics.length} diagnostics (${result.fastRules.codes.join(', ') || 'none'})`);
  console.log(`all rules (slow too) on the same file: median ${allMs} ms`);
  for (const [name, g] of Object.entries(genp)) console.log(`GenP ${name} ${n}x${n} (2^24 points) exhaustive: median ${g.ms} ms (target ~1000 ms), ${g.diagnostics} diagnostics`);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/check-rules.json', JSON.stringify(result, null, 2) + '\n');
  updateReadme(`| check-rules | ${result.date.slice(0, 10)} | fast rules on ${result.lines} lines: median ${fastMs} ms; GenP 2^24 points exhaustive: row-major ${genp['row-major'].ms} ms, antidiag ${genp.antidiag.ms} ms (target ~1 s) | check-rules.json |`);
}

/** Keeps one line per bench in bench/results/README.md (a markdown table). */
function updateReadme(row: string): void {
  const path = 'bench/results/README.md';
  const header = '# Benchmark results\n\nWritten by the `bench/*.ts` scripts (`npm run bench`).\n\n| bench | date | result | file |\n|---|---|---|---|\n';
  const old = existsSync(path) ? readFileSync(path, 'utf8') : header;
  let t = old.split('\n').filter((l) => !l.startsWith('| check-rules |')).join('\n');
  if (!t.includes('| bench | date | result | file |')) t = header + t;
  writeFileSync(path, t.replace(/\n*$/, '\n') + row + '\n');
}

main();
