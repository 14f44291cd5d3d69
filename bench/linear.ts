// Speed of the F2 layer (server/src/f2, check/linear.ts): converting a LEGO layout of 2^20
// elements to its F2 matrix, the bank-conflict analysis (closed form; brute force beside it)
// and the optimal swizzle synthesis, each median of repeated runs after a warm-up. Targets:
// each under 5 ms, so they can run on every keystroke. `node --import tsx bench/linear.ts`
// prints the numbers and writes bench/results/linear.json (and its line in bench/results/README.md).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { parse, resolve } from '../grammar/src/index.js';
import { elaborate } from '../server/src/check/elaborate.js';
import { legoAsLinear } from '../server/src/check/linear.js';
import * as F from '../server/src/f2/index.js';

const RUNS = 51;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];
const round = (x: number) => Math.round(x * 1000) / 1000;
function time(f: () => unknown): number {
  for (let i = 0; i < 5; i++) f();
  const ts: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    f();
    ts.push(performance.now() - t0);
  }
  return round(median(ts));
}

function main(): void {
  // 1. a 1024 x 1024 LEGO layout (2^20 elements): 32 x 32 tiles, column-major inside
  const text = [
    'layout Big = OrderBy(Row(32, 32), Col(32, 32)).GroupBy([1024, 1024])',
    'perm same()[i, j] = i * 1024 + j',
    'layout G = OrderBy(GenP([1024, 1024], same())).GroupBy([1024, 1024])',
    '',
  ].join('\n');
  const p = parse(text);
  const r = resolve(p.file, p.lines);
  const model = elaborate(p.file, r).model;
  const big = model.layouts.get('Big')!;
  const conv = legoAsLinear('Big', big.decl, big.layout!, model.env);
  if (conv.class !== 'bit permutation' || conv.layout!.inBits !== 20) throw new Error(`unexpected conversion: ${conv.class}`);
  const convertMs = time(() => legoAsLinear('Big', big.decl, big.layout!, model.env));
  // a GenP of the same size is checked exhaustively (2^20 evaluations): reported, not targeted
  const g = model.layouts.get('G')!;
  const t0 = performance.now();
  const gc = legoAsLinear('G', g.decl, g.layout!, model.env);
  const genpMs = round(performance.now() - t0);

  // 2. bank conflicts: mma v2 accumulator 128 x 128 (2 x 2 warps) into a 128 x 128 f16 tile
  const acc = F.mma({ version: 2, shape: [128, 128], warpsPerCTA: [2, 2], operand: 'acc' });
  const rowMajor = F.swizzled({ shape: [128, 128], vec: 1, perPhase: 1, maxPhase: 1, order: [1, 0] });
  const sw = F.swizzled({ shape: [128, 128], vec: 8, perPhase: 1, maxPhase: 8, order: [1, 0] });
  const c1 = F.bankConflicts(acc, rowMajor, 2);
  const c2 = F.bankConflicts(acc, sw, 2);
  const conflictMs = time(() => F.bankConflicts(acc, rowMajor, 2));
  const plan = F.vectorPlan(acc, rowMajor, 2);
  const bruteMs = time(() => F.wavefrontsBrute(F.accessOf(plan, 2)));
  if (F.wavefrontsBrute(F.accessOf(plan, 2)).wavefronts !== c1.wavefronts) throw new Error('closed form != brute force');

  // 3. swizzle synthesis: that accumulator -> blocked [128, 128] (8 x f16 per lane), f16
  const blk = F.blocked({ shape: [128, 128], sizePerThread: [1, 8], threadsPerWarp: [2, 16], warpsPerCTA: [4, 1], order: [1, 0] });
  const s = F.optimalSwizzle(acc, blk, 2);
  const swizzleMs = time(() => F.optimalSwizzle(acc, blk, 2));

  const result = {
    date: new Date().toISOString(),
    machine: { cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, node: process.version },
    runs: RUNS,
    conversion: { layout: 'OrderBy(Row(32, 32), Col(32, 32)).GroupBy([1024, 1024])', elements: 2 ** 20, class: conv.class, medianMs: convertMs, targetMs: 5 },
    genpExhaustive: { elements: 2 ** 20, class: gc.class, ms: genpMs },
    conflicts: {
      access: 'mma v2 acc [128, 128], warps [2, 2] -> f16 tile',
      rowMajor: { wavefronts: c1.wavefronts, minimum: c1.minimum, vec: c1.vec },
      swizzled_8_1_8: { wavefronts: c2.wavefronts, minimum: c2.minimum, vec: c2.vec },
      closedFormMedianMs: conflictMs, bruteForceMedianMs: bruteMs, targetMs: 5,
    },
    swizzle: { write: 'mma v2 acc [128, 128]', read: 'blocked spt [1, 8], tpw [2, 16], wpc [4, 1]', vec: s.vec, writeWavefronts: s.write.wavefronts, readWavefronts: s.read.wavefronts, medianMs: swizzleMs, targetMs: 5 },
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/linear.json', JSON.stringify(result, null, 2) + '\n');
  console.log(`F2 conversion of a 2^20-element LEGO layout: ${convertMs} ms (target < 5); GenP 2^20 exhaustive check: ${genpMs} ms`);
  console.log(`bank conflicts (mma acc 128x128 -> f16 tile): closed form ${conflictMs} ms (target < 5), brute force ${bruteMs} ms; row-major ${c1.wavefronts}/${c1.minimum}, swizzled(8,1,8) ${c2.wavefronts}/${c2.minimum} wavefronts`);
  console.log(`swizzle synthesis (mma acc -> blocked, f16): ${swizzleMs} ms (target < 5); vec ${s.vec}, write ${s.write.wavefronts}, read ${s.read.wavefronts}`);
  updateReadme(`| linear | ${result.date.slice(0, 10)} | 2^20-element LEGO layout -> F2: ${convertMs} ms; bank conflicts (closed form): ${conflictMs} ms; swizzle synthesis: ${swizzleMs} ms (targets < 5 each); GenP 2^20 exhaustive ${genpMs} ms | linear.json |`);
}

/** Keeps one line per bench in bench/results/README.md (a markdown table). */
function updateReadme(row: string): void {
  const path = 'bench/results/README.md';
  const header = '# Benchmark results\n\nWritten by the `bench/*.ts` scripts (`npm run bench`).\n\n| bench | date | result | file |\n|---|---|---|---|\n';
  const old = existsSync(path) ? readFileSync(path, 'utf8') : header;
  let t = old.split('\n').filter((l) => !l.startsWith('| linear |')).join('\n');
  if (!t.includes('| bench | date | result | file |')) t = header + t;
  writeFileSync(path, t.replace(/\n*$/, '\n') + row + '\n');
}

main();
