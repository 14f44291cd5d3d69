// The cost of one edit, in process (no protocol, no worker): for generated files of several sizes
// (bench/support/lsp-files.ts, the files of bench/lsp-vs-mlir.ts), CPU time per edit of
// - the incremental analysis (service/incremental.ts) after a same-length edit (one digit of a
//   constant, as lsp-vs-mlir.ts edits) and after a length-changing one (a space typed and deleted:
//   every later declaration moves);
// - the main thread's first hover on the new version (a new snapshot re-using the earlier
//   versions' work, then the hover of a layout in a kernel);
// - the main thread's snapshot (parse and name resolution) of a version 10 edits after the last
//   one it built, the edits at several places, half of them length-changing (a request after a
//   burst of typing that it did not see version by version).
// p50 / p95 in ms of CPU (process.cpuUsage: less sensitive to other processes than wall time). Each
// version's text is one flat string, as the worker gets it (postMessage), not a rope.
// `node --import tsx bench/edit-cost.ts [lines...]` (default 500 2000 10000 20000) prints the table
// and writes bench/results/edit-cost.md and .json (and its row in bench/results/README.md).
import { IncrementalAnalysis } from '../server/src/service/incremental.js';
import { ChunkedParser } from '../server/src/service/chunks.js';
import { DocumentHistory, LayoutDocument } from '../server/src/service/document.js';
import { hover } from '../server/src/service/hover.js';
import { defaultSettings } from '../server/src/service/settings.js';
import { layoutFile } from './support/lsp-files.js';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';

const SIZES = process.argv.slice(2).map(Number).filter((n) => n > 0);
const EDITS = 60;
const WARM = 5;

function spots(text: string, re: RegExp): number[] {
  const out: number[] = [];
  let off = 0;
  for (const l of text.split('\n')) {
    const m = re.exec(l);
    if (m) out.push(off + m.index + m[0].length - 1);
    off += l.length + 1;
  }
  return out;
}
function cpu<T>(f: () => T): { ms: number; value: T } {
  const c0 = process.cpuUsage();
  const value = f();
  const c = process.cpuUsage(c0);
  return { ms: (c.user + c.system) / 1000, value };
}
function pct(xs: number[], p: number): string {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))].toFixed(2);
}

const header = '| lines | analysis, same-length edit p50 / p95 | analysis, length-changing edit p50 / p95 | hover right after an edit p50 / p95 | snapshot 10 edits later p50 / p95 |\n|---|---|---|---|---|';
console.log(header);
const rows: string[] = [];
const json: { lines: number; sameLength: { p50: number; p95: number }; lengthChanging: { p50: number; p95: number }; hoverAfterEdit: { p50: number; p95: number }; catchUp: { p50: number; p95: number } }[] = [];
// Warm-up, not measured: 150 edits of a 300-line file. Five edits per size were not enough once the
// edits evaluate a kernel (symbolic apply/inv, emission's checks): the size measured first paid the
// JIT's first runs (500 lines measured first 4.0-6.0 ms p50, after 2,000 lines 2.1), which says
// nothing about the size. The server's worker warms up the same code before the first document.
{
  let text = layoutFile(300);
  const at = spots(text, /^const BM\d+ = 128, BN\d+ = 128, BK\d+ = 32, GM\d+ = 8/);
  const a = new IncrementalAnalysis();
  for (let i = 0; i < 150; i++) {
    text = text.slice(0, at[i % at.length]) + (text[at[i % at.length]] === '8' ? '4' : '8') + text.slice(at[i % at.length] + 1);
    a.diagnose(text);
  }
}

for (const lines of SIZES.length ? SIZES : [500, 2000, 10_000, 20_000]) {
  const original = layoutFile(lines);
  const edits = spots(original, /^const BM\d+ = 128, BN\d+ = 128, BK\d+ = 32, GM\d+ = 8/);
  const hovers = spots(original, /^\s+offset_aptrs = A\d+/);
  // each version's text as the server's threads get it: one new flat string (the worker's comes from
  // postMessage), not the rope that slicing and concatenating make (its flattening, about 0.4 ms at
  // 20,000 lines, is the transport's, not the analysis's); `join` builds it flat
  const splice = (t: string, at: number, del: number, ins: string) => [t.slice(0, at), ins, t.slice(at + del)].join('');
  const flip = (t: string, at: number) => splice(t, at, 1, t[at] === '8' ? '4' : '8');

  const a = new IncrementalAnalysis();
  let text = original;
  a.diagnose(text);
  const same: number[] = [];
  for (let i = 0; i < EDITS + WARM; i++) {
    text = flip(text, edits[(i * 7) % edits.length]);
    const r = cpu(() => a.diagnose(text));
    if (r.value.diagnostics.length) throw new Error(`unexpected diagnostic: ${r.value.diagnostics[0].message}`);
    if (i >= WARM) same.push(r.ms);
  }
  const moved: number[] = [];
  for (let i = 0; i < EDITS + WARM; i++) {
    // a space typed after the digit, then deleted: the text is the same every second edit
    const at = edits[(Math.floor(i / 2) * 7) % edits.length] + 1;
    text = i % 2 === 0 ? splice(text, at, 0, ' ') : splice(text, at, 1, '');
    const r = cpu(() => a.diagnose(text));
    if (r.value.diagnostics.length) throw new Error(`unexpected diagnostic: ${r.value.diagnostics[0].message}`);
    if (i >= WARM) moved.push(r.ms);
  }

  const parser = new ChunkedParser();
  const history = new DocumentHistory();
  text = original;
  let version = 1;
  hover(new LayoutDocument('file:///bench.layout', version, text, parser, history), hovers[0], defaultSettings);
  const after: number[] = [];
  for (let i = 0; i < EDITS + WARM; i++) {
    text = flip(text, edits[((i + 1) * 7) % edits.length]);
    const doc = new LayoutDocument('file:///bench.layout', ++version, text, parser, history);
    const r = cpu(() => hover(doc, hovers[i % hovers.length], defaultSettings));
    if (!r.value) throw new Error('no hover');
    if (i >= WARM) after.push(r.ms);
  }
  // a burst of 10 edits at several places (from the end: earlier offsets stay valid), every other one
  // a space typed after the digit (removed again in the next burst)
  const catchUp: number[] = [];
  for (let i = 0; i < EDITS + WARM; i++) {
    const at = [...new Set(Array.from({ length: 10 }, (_, k) => edits[(i * 11 + k * 37) % edits.length]))].sort((x, y) => y - x);
    const now = spots(text, /^const BM\d+ = 128, BN\d+ = 128, BK\d+ = 32, GM\d+ = [48] ?/);
    at.forEach((_, k) => {
      const o = now[edits.indexOf(at[k])];
      const spaced = text[o] === ' ';
      const digit = spaced ? o - 1 : o;
      text = flip(text, digit);
      if (k % 2) text = spaced ? splice(text, o, 1, '') : splice(text, o + 1, 0, ' ');
    });
    const doc = new LayoutDocument('file:///bench.layout', ++version, text, parser, history);
    const r = cpu(() => doc.symbols);
    if (doc.parseDiagnostics.length || r.value.resolution.diagnostics.length) throw new Error('unexpected diagnostics in the catch-up text');
    if (i >= WARM) catchUp.push(r.ms);
  }
  const row = `| ${lines} | ${pct(same, 50)} / ${pct(same, 95)} | ${pct(moved, 50)} / ${pct(moved, 95)} | ${pct(after, 50)} / ${pct(after, 95)} | ${pct(catchUp, 50)} / ${pct(catchUp, 95)} |`;
  console.log(row);
  rows.push(row);
  const d = (xs: number[]) => ({ p50: Number(pct(xs, 50)), p95: Number(pct(xs, 95)) });
  json.push({ lines, sameLength: d(same), lengthChanging: d(moved), hoverAfterEdit: d(after), catchUp: d(catchUp) });
}
const out = resolve(import.meta.dirname, 'results');
mkdirSync(out, { recursive: true });
const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, load ${loadavg()[0].toFixed(1)}`;
writeFileSync(join(out, 'edit-cost.json'), JSON.stringify({ date: new Date().toISOString(), machine, unit: 'ms of CPU per edit, in process', runs: json }, null, 2) + '\n');
writeFileSync(join(out, 'edit-cost.md'), `# CPU per edit, in process (bench/edit-cost.ts)\n\n${new Date().toISOString()}, ${machine}\n\n${header}\n${rows.join('\n')}\n`);
// its row in bench/results/README.md (the table of every benchmark's latest figures)
const readme = join(out, 'README.md');
if (existsSync(readme)) {
  const cells = json.map((r) => `${r.lines} lines ${r.sameLength.p50.toFixed(2)} / ${r.lengthChanging.p50.toFixed(2)} / ${r.hoverAfterEdit.p50.toFixed(2)} / ${r.catchUp.p50.toFixed(2)}`).join('; ');
  const row = `| edit-cost | ${new Date().toISOString().slice(0, 10)} | CPU per edit in process (p50 ms), same-length / length-changing / hover right after / snapshot 10 edits later: ${cells} | edit-cost.json, edit-cost.md |`;
  const kept = readFileSync(readme, 'utf8').split('\n').filter((l) => !l.startsWith('| edit-cost |'));
  writeFileSync(readme, kept.join('\n').replace(/\n*$/, '\n') + row + '\n');
}
