// The long fuzz campaign: `npm run fuzz -- --minutes N [--seed S] [--out DIR]` (scripts/fuzz.mjs runs this
// with tsx). Writes one reproducer per failing input into DIR (default fuzz-out/, not tracked):
// KIND-NNNN.layout (the input) and KIND-NNNN.txt (what went wrong); prints a summary; exit status 1 when
// anything failed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { campaign } from './fuzz-lib.js';

const args = process.argv.slice(2);
const arg = (name: string, dflt: string) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
};
const minutes = Number(arg('--minutes', '1'));
const seed = Number(arg('--seed', String(Date.now() % 1_000_000)));
const out = arg('--out', 'fuzz-out');
if (!(minutes > 0) || !Number.isInteger(seed)) {
  console.error('usage: npm run fuzz -- --minutes N [--seed S] [--out DIR]');
  process.exit(2);
}
let n = 0;
console.log(`fuzzing for ${minutes} min, seed ${seed}; reproducers go to ${out}/`);
const s = campaign({
  seconds: minutes * 60,
  seed,
  onFailure: (f) => {
    mkdirSync(out, { recursive: true });
    const base = join(out, `${f.kind}-${String(++n).padStart(4, '0')}`);
    writeFileSync(base + '.layout', f.text);
    writeFileSync(base + '.txt', f.details.join('\n') + '\n');
    console.log(`${f.kind}: ${base}.layout: ${f.details[0]}`);
  },
  onProgress: (p) => console.log(`  ${p.inputs} inputs in ${p.seconds.toFixed(0)} s: ${p.exceptions} exceptions, ${p.internalErrors} internal errors, ${p.over1s} over 1 s`),
});
console.log(`${s.inputs} inputs in ${s.seconds.toFixed(1)} s (seed ${seed}): ${s.exceptions} with exceptions, ${s.internalErrors} with internal errors, ${s.over1s} analyses over 1 s (slowest ${Math.round(s.slowestMs)} ms)`);
process.exit(s.exceptions + s.internalErrors + s.over1s > 0 ? 1 : 0);
