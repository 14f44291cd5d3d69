// Speed of the expression layer (server/src/expr): simplifying the LEGO reference goals
// (LEGO's reference expressions, test/expr/goals.ts: matmul A/B/C offsets, grouped pid_m/pid_n, softmax, NW)
// from their raw apply/inv expressions, cold (first run in this process, JIT included) and warm
// (median of repeated runs), plus a 3-D two-level tiling and the printers. Target: the whole
// reference set well under 50 ms. `node --import tsx bench/expr-core.ts` prints the numbers and
// writes bench/results/expr-core.json (and this bench's line in bench/results/README.md).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { type Expr, cmp, countOps, floorDiv, int, mod, printC, printMlir, printTriton, simplify, sym } from '../server/src/expr/index.js';
import { goals } from '../test/expr/goals.js';
import { orderBy, row, tileBy } from '../test/expr/lego-mini.js';
import { countTextOps } from '../test/expr/mini-eval.js';

const RUNS = 21;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[(s.length - 1) >> 1];
}
const round = (x: number) => Math.round(x * 100) / 100;

function main(): void {
  const gs = goals();
  // cold: every goal once, in a fresh process
  const cold: Record<string, number> = {};
  let coldTotal = 0;
  for (const g of gs) {
    const t0 = performance.now();
    simplify(g.raw, g.facts);
    cold[g.name] = round(performance.now() - t0);
    coldTotal += performance.now() - t0;
  }
  const warm: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    for (const g of gs) simplify(g.raw, g.facts);
    warm.push(performance.now() - t0);
  }
  const ops = gs.map((g) => ({ name: g.name, ops: countOps(simplify(g.raw, g.facts)), reference: countTextOps(g.ref, g.refLang) }));

  // a 3-D two-level tiling: apply and all six inverse components
  const [A, B, C, a, b, c] = ['A', 'B', 'C', 'a', 'b', 'c'].map(sym);
  const L = tileBy([orderBy(row(A, B, C))], [
    [floorDiv(A, a), floorDiv(B, b), floorDiv(C, c)],
    [a, b, c],
  ]);
  const idx = ['i0', 'i1', 'i2', 'j0', 'j1', 'j2'].map(sym);
  const dims = [floorDiv(A, a), floorDiv(B, b), floorDiv(C, c), a, b, c];
  const facts = {
    ranges: new Map<string, { lo: Expr; hi: Expr }>([...idx.map((x, k) => [(x as { name: string }).name, { lo: int(0), hi: dims[k] }] as const), ['f', { lo: int(0), hi: A }]]),
    positive: new Set(['A', 'B', 'C', 'a', 'b', 'c']),
    relations: [cmp('==', mod(A, a), int(0)), cmp('==', mod(B, b), int(0)), cmp('==', mod(C, c), int(0))],
  };
  const raw3 = [L.apply(idx), ...L.inv(sym('f'))];
  const t3: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    for (const e of raw3) simplify(e, facts);
    t3.push(performance.now() - t0);
  }

  // printers on the simplified goals
  const simplified = gs.map((g) => simplify(g.raw, g.facts));
  const tp: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    for (const s of simplified) {
      printTriton(s);
      try {
        printC(s);
      } catch {
        // aranges have no C form
      }
    }
    printMlir([simplified[5], simplified[6]], { symbols: new Map(['pid', 'GM', 'num_pid_m', 'num_pid_n'].map((n) => [n, `%${n}`])) });
    tp.push(performance.now() - t0);
  }

  const result = {
    bench: 'expr-core',
    date: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    referenceSet: { goals: gs.length, coldMs: round(coldTotal), coldPerGoalMs: cold, warmMedianMs: round(median(warm)), targetMs: 50 },
    opCounts: ops,
    tiling3d: { expressions: raw3.length, medianMs: round(median(t3)) },
    printersMedianMs: round(median(tp)),
  };
  console.log(`reference set (${gs.length} goals): cold ${result.referenceSet.coldMs} ms, warm median ${result.referenceSet.warmMedianMs} ms (target < 50 ms)`);
  for (const o of ops) console.log(`  ${o.name}: ${o.ops} ops (reference ${o.reference}), cold ${cold[o.name]} ms`);
  console.log(`3-D two-level tiling, apply + 6 inverse components: median ${result.tiling3d.medianMs} ms`);
  console.log(`printers (Triton + C for every goal, MLIR for pid_m/pid_n): median ${result.printersMedianMs} ms`);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/expr-core.json', JSON.stringify(result, null, 2) + '\n');
  const worse = ops.filter((o) => o.ops > o.reference).length;
  updateReadme(
    `| expr-core | ${result.date.slice(0, 10)} | ${gs.length} reference goals simplified: cold ${result.referenceSet.coldMs} ms, warm median ${result.referenceSet.warmMedianMs} ms (target < 50); op counts above the reference: ${worse}; 3-D tiling ${result.tiling3d.medianMs} ms | expr-core.json |`,
  );
}

/** Keeps one line per bench in bench/results/README.md (a markdown table). */
function updateReadme(row: string): void {
  const path = 'bench/results/README.md';
  const header = '# Benchmark results\n\nWritten by the `bench/*.ts` scripts (`npm run bench`).\n\n| bench | date | result | file |\n|---|---|---|---|\n';
  const old = existsSync(path) ? readFileSync(path, 'utf8') : header;
  let t = old.split('\n').filter((l) => !l.startsWith('| expr-core |')).join('\n');
  if (!t.includes('| bench | date | result | file |')) t = header + t;
  writeFileSync(path, t.replace(/\n*$/, '\n') + row + '\n');
}

main();
