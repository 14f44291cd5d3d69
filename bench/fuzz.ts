// The fuzz benchmark (issue 10, section 5): runs the fuzzer (test/fuzz/fuzz-lib.ts: mutated examples and
// generated programs through analyze, hover, inlay hints, completion, signature help, navigation, rename
// (which must not change an error-free file's diagnostics), the layout picture, semantic tokens, the
// outline, folding, formatting, quick fixes and emit) for
// LAYOUT_FUZZ_SECONDS seconds (default 60) or LAYOUT_FUZZ_INPUTS inputs, and reports inputs, inputs with an
// exception, inputs with an internal-error diagnostic, and analyses over 1 s. The target is 1,000,000 inputs
// with 0 / 0 / 0. `node --import tsx bench/fuzz.ts` prints the numbers and writes bench/results/fuzz.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { campaign, FUZZ_GENP_BUDGET } from '../test/fuzz/fuzz-lib.js';

const seconds = Number(process.env.LAYOUT_FUZZ_SECONDS ?? 60);
const maxInputs = process.env.LAYOUT_FUZZ_INPUTS ? Number(process.env.LAYOUT_FUZZ_INPUTS) : undefined;
const seed = Number(process.env.LAYOUT_FUZZ_SEED ?? 1);
const failures: string[] = [];
const s = campaign({
  seconds, seed, maxInputs,
  onFailure: (f) => { if (failures.length < 20) failures.push(`${f.kind}: ${f.details[0]}\n${f.text}`); },
  onProgress: (p) => console.log(`  ${p.inputs} inputs in ${p.seconds.toFixed(0)} s`),
});
const result = {
  date: new Date().toISOString(),
  machine: `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores (shared)`,
  seed,
  genpBudget: FUZZ_GENP_BUDGET,
  seconds: Math.round(s.seconds * 10) / 10,
  inputs: s.inputs,
  inputsPerSecond: Math.round(s.inputs / s.seconds),
  exceptions: s.exceptions,
  internalErrors: s.internalErrors,
  analysesOver1s: s.over1s,
  slowestAnalysisMs: Math.round(s.slowestMs),
  target: { inputs: 1_000_000, exceptions: 0, internalErrors: 0, analysesOver1s: 0 },
  failures,
};
console.log(`fuzz: ${result.inputs} inputs in ${result.seconds} s (${result.inputsPerSecond}/s): ${result.exceptions} exceptions, ${result.internalErrors} internal errors, ${result.analysesOver1s} analyses over 1 s (slowest ${result.slowestAnalysisMs} ms)`);
for (const f of failures) console.log('---\n' + f);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/fuzz.json', JSON.stringify(result, null, 2) + '\n');
