// GenP bijectivity check speed (server/src/algebra/genp-check.ts): one exhaustive enumeration of
// 4096 x 4096 = 2^24 points (the editor's and the CLI's shared budget, DEFAULT_BUDGET) for three
// bodies (a transpose, a swizzle, the NW anti-diagonal numbering with a branch), row at a time
// (typed arrays, a bitset) and point by point; then what happens at 2^26 and 2^28 points: over the
// budget nothing is enumerated (genp/partially-checked says so, at once); raised budgets take the
// times printed (2^28 only with LAYOUT_BENCH_BIG=1: about 16x the 2^24 time).
// `node --import tsx bench/genp.ts` prints the numbers and writes bench/results/genp.json.
import { mkdirSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { GenP, checkGenP } from '../server/src/algebra/index.js';
import { DEFAULT_BUDGET } from '../server/src/check/rules/index.js';
import { defaultSettings } from '../server/src/service/settings.js';
import { add, cmp, floorDiv, int, mod, mul, select, sub, sym, type Expr } from '../server/src/expr/index.js';

const i = sym('i'), j = sym('j');
function antidiag(n: number): Expr {
  const N = int(n);
  const a = add(i, j, int(1));
  const lower = add(floorDiv(mul(a, sub(a, int(1))), int(2)), i);
  const t = sub(mul(int(2), N), a);
  const upper = sub(add(sub(mul(N, N), N), i), floorDiv(mul(t, sub(t, int(1))), int(2)));
  return select(cmp('<=', a, N), lower, upper);
}
const bodies: Record<string, (n: number) => Expr> = {
  transpose: (n) => add(mul(j, int(n)), i),
  swizzle: (n) => add(mul(i, int(n)), mod(add(j, i), int(n))),
  antidiag,
};

function round(x: number): number {
  return Math.round(x * 10) / 10;
}

/** wall and CPU milliseconds of one check (best of `runs`) */
function time(name: string, side: number, rows: boolean, budget: number, runs = 3): { result: string; wallMs: number; cpuMs: number } {
  const g = GenP([side, side], { indexNames: ['i', 'j'], body: bodies[name](side) });
  let best = { result: '', wallMs: Infinity, cpuMs: Infinity };
  for (let r = 0; r < runs; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const res = checkGenP(g, new Map(), { maxPoints: budget, rows });
    const wallMs = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const cpuMs = (c.user + c.system) / 1000;
    if (cpuMs < best.cpuMs) best = { result: res.kind, wallMs: round(wallMs), cpuMs: round(cpuMs) };
  }
  return best;
}

const result: Record<string, unknown> = {
  bench: 'genp',
  date: new Date().toISOString(),
  node: process.version,
  cpu: cpus()[0]?.model ?? 'unknown',
  loadAverage1m: Math.round(loadavg()[0] * 100) / 100,
  budget: { cli: DEFAULT_BUDGET, editor: defaultSettings.genp.checkBudget, same: DEFAULT_BUDGET === defaultSettings.genp.checkBudget },
};
console.log(`GenP budget: CLI ${DEFAULT_BUDGET}, editor default ${defaultSettings.genp.checkBudget} (2^24 = ${2 ** 24})`);
const at24: Record<string, unknown> = {};
for (const name of Object.keys(bodies)) {
  const rows = time(name, 4096, true, DEFAULT_BUDGET);
  const points = time(name, 4096, false, DEFAULT_BUDGET, 1);
  at24[name] = { rows, pointByPoint: points };
  console.log(`  2^24 points, ${name.padEnd(9)}: ${rows.result}, row at a time ${rows.cpuMs} ms CPU (${rows.wallMs} ms wall); point by point ${points.cpuMs} ms CPU`);
}
result.at2pow24 = at24;
const over: Record<string, unknown> = {};
for (const lg of [26, 28]) {
  const side = 2 ** (lg / 2);
  const dflt = time('transpose', side, true, DEFAULT_BUDGET, 1);
  const raised = lg === 26 || process.env.LAYOUT_BENCH_BIG === '1' ? time('transpose', side, true, 2 ** lg, 1) : undefined;
  over[`2^${lg}`] = { withDefaultBudget: dflt, withBudgetRaised: raised ?? 'not run (LAYOUT_BENCH_BIG=1 runs it)' };
  console.log(`  2^${lg} points: with the default budget ${dflt.result} in ${dflt.wallMs} ms (genp/partially-checked); budget raised: ${raised ? `${raised.result} in ${raised.cpuMs} ms CPU (bitset ${2 ** lg / 8 / 2 ** 20} MB)` : 'not run (LAYOUT_BENCH_BIG=1)'}`);
}
result.beyondBudget = over;
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/genp.json', JSON.stringify(result, null, 2) + '\n');
const readme = 'bench/results/README.md';
if (existsSync(readme)) {
  const a = at24 as Record<string, { rows: { cpuMs: number } }>;
  const row = `| genp | ${String(result.date).slice(0, 10)} | 2^24 points (budget of CLI and editor): transpose ${a.transpose.rows.cpuMs} ms, swizzle ${a.swizzle.rows.cpuMs} ms, antidiag ${a.antidiag.rows.cpuMs} ms CPU; over the budget: not enumerated | genp.json |`;
  const lines = readFileSync(readme, 'utf8').split('\n').filter((l) => !l.startsWith('| genp |'));
  writeFileSync(readme, lines.join('\n').replace(/\n*$/, '\n') + row + '\n');
}
