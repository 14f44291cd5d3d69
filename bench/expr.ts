// Speed of the layout algebra's symbolic path: build each reference layout (algebra values) and
// compute + simplify its query expression(s), per layout and for the whole set (median of
// runs, after a warm-up). Targets: < 5 ms per layout, < 50 ms for the set.
// `node --import tsx bench/expr.ts` prints a table and writes bench/results/expr.json (and this
// bench's line in bench/results/README.md).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import * as A from '../server/src/algebra/index.js';
import { add, cmp, countOps, floorDiv, int, max, min, mul, select, sub, sym, type Expr } from '../server/src/expr/index.js';

const RUNS = 21;
const s = sym;
const S = A.slice();

function antidiagBody(n: Expr): Expr {
  const [i, j] = [s('i'), s('j')];
  const a = add(i, j, int(1));
  const t = sub(mul(int(2), n), a);
  return select(cmp('<=', a, n), add(floorDiv(mul(a, sub(a, int(1))), int(2)), i),
    sub(add(sub(mul(n, n), n), i), floorDiv(mul(t, sub(t, int(1))), int(2))));
}

/** name -> a function that builds the layout and computes its expression(s). */
const cases: Record<string, () => Expr[]> = {
  'matmul A row': () => [A.applySym(A.TileBy([A.OrderBy(A.Row(s('M'), s('K')))], [[floorDiv(s('M'), s('BM')), floorDiv(s('K'), s('BK'))], [s('BM'), s('BK')]]), ['pid_m', 'k', S, S])],
  'matmul A col': () => [A.applySym(A.TileBy([A.OrderBy(A.Col(s('M'), s('K')))], [[floorDiv(s('M'), s('BM')), floorDiv(s('K'), s('BK'))], [s('BM'), s('BK')]]), ['pid_m', 'k', S, S])],
  'matmul B row': () => [A.applySym(A.TileBy([A.OrderBy(A.Row(s('K'), s('N')))], [[floorDiv(s('K'), s('BK')), floorDiv(s('N'), s('BN'))], [s('BK'), s('BN')]]), ['k', 'pid_n', S, S])],
  'matmul B col': () => [A.applySym(A.TileBy([A.OrderBy(A.Col(s('K'), s('N')))], [[floorDiv(s('K'), s('BK')), floorDiv(s('N'), s('BN'))], [s('BK'), s('BN')]]), ['k', 'pid_n', S, S])],
  'matmul C': () => [A.applySym(A.TileBy([A.OrderBy(A.Row(s('M'), s('N')))], [[floorDiv(s('M'), s('BM')), floorDiv(s('N'), s('BN'))], [s('BM'), s('BN')]]), ['pid_m', 'pid_n', S, S])],
  'matmul pid (inv)': () => {
    const [npm, npn, GM] = [s('num_pid_m'), s('num_pid_n'), s('GM')];
    return A.invSym(A.TileBy([A.OrderBy(A.Col(max(floorDiv(npm, GM), int(1)), 1), A.Col(min(npm, GM), npn))], [[npm, npn]]), 'pid');
  },
  softmax: () => [A.applySym(A.TileBy([A.OrderBy(A.Row(s('n_rows'), s('n_cols')))], [[s('n_rows'), s('n_cols')]]), ['row_idx', A.slice(0, s('BLOCK_SIZE'))])],
  'NW anti-diagonal': () => [A.applySym(A.TileBy([A.OrderBy(A.GenP([s('n'), s('n')], { indexNames: ['i', 'j'], body: antidiagBody(s('n')) }))], [[s('n'), s('n')]]), ['i', 'j'])],
  'Figure 6': () => {
    const C = A.OrderBy(A.RegP([2, 2], [1, 0]), A.GenP([3, 3], { indexNames: ['i', 'j'], body: antidiagBody(int(3)) }));
    return [A.applySym(A.GroupBy([[6, 6]], [C, A.OrderBy(A.RegP([2, 3, 2, 3], [0, 2, 1, 3]))]), ['x', 'y'])];
  },
  '6-D tiled stencil': () => {
    // a 3-D grid tiled in (X/TX, Y/TY, Z/TZ) blocks of TX x TY x TZ, stored z-major inside a tile
    // order, queried at a neighbour (tx + 1, ty - 1, tz + dz) of a thread's point
    const [X, Y, Z, TX, TY, TZ] = ['X', 'Y', 'Z', 'TX', 'TY', 'TZ'].map(s);
    const L = A.TileBy([A.OrderBy(A.Col(X, Y, Z))], [[floorDiv(X, TX), floorDiv(Y, TY), floorDiv(Z, TZ)], [TX, TY, TZ]]);
    return [A.applySym(L, ['bx', 'by', 'bz', add(s('tx'), int(1)), sub(s('ty'), int(1)), add(s('tz'), s('dz'))])];
  },
};

function median(xs: number[]): number {
  const t = [...xs].sort((a, b) => a - b);
  return t.length % 2 ? t[(t.length - 1) / 2] : (t[t.length / 2 - 1] + t[t.length / 2]) / 2;
}
const round = (x: number) => Math.round(x * 1000) / 1000;

function main(): void {
  const rows: { layout: string; coldMs: number; medianMs: number; ops: number[] }[] = [];
  for (const [name, f] of Object.entries(cases)) {
    const t0 = performance.now();
    const es = f();
    const cold = performance.now() - t0;
    const xs: number[] = [];
    for (let k = 0; k < RUNS; k++) {
      const t = performance.now();
      f();
      xs.push(performance.now() - t);
    }
    rows.push({ layout: name, coldMs: round(cold), medianMs: round(median(xs)), ops: es.map(countOps) });
  }
  const totals: number[] = [];
  for (let k = 0; k < RUNS; k++) {
    const t = performance.now();
    for (const f of Object.values(cases)) f();
    totals.push(performance.now() - t);
  }
  const total = round(median(totals));
  const worst = Math.max(...rows.map((r) => r.medianMs));
  const pad = (x: string, n: number) => x.padEnd(n);
  console.log(`${pad('layout', 20)} ${pad('cold ms', 9)} ${pad('median ms', 10)} ops`);
  for (const r of rows) console.log(`${pad(r.layout, 20)} ${pad(String(r.coldMs), 9)} ${pad(String(r.medianMs), 10)} ${r.ops.join(', ')}`);
  console.log(`set: median ${total} ms (target < 50); slowest layout ${worst} ms (target < 5)`);
  const result = {
    bench: 'expr',
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version },
    runs: RUNS,
    targets: { perLayoutMs: 5, setMs: 50 },
    layouts: rows,
    setMedianMs: total,
    slowestLayoutMs: worst,
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/expr.json', JSON.stringify(result, null, 2) + '\n');
  updateReadme(`| expr | ${result.date.slice(0, 10)} | ${rows.length} reference layouts built + simplified: set median ${total} ms (target < 50), slowest ${worst} ms (target < 5) | expr.json |`);
}

/** Keeps one line per bench in bench/results/README.md. */
function updateReadme(row: string): void {
  const path = 'bench/results/README.md';
  const header = '# Benchmark results\n\nWritten by the `bench/*.ts` scripts (`npm run bench`).\n\n| bench | date | result | file |\n|---|---|---|---|\n';
  const old = existsSync(path) ? readFileSync(path, 'utf8') : header;
  let t = old.split('\n').filter((l) => !l.startsWith('| expr |')).join('\n');
  if (!t.includes('| bench | date | result | file |')) t = header + t;
  writeFileSync(path, t.replace(/\n*$/, '\n') + row + '\n');
}

main();
