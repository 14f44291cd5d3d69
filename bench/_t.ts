import { PerformanceObserver } from 'node:perf_hooks';
import { LayoutDocument } from '../server/src/service/document.js';
import { hover } from '../server/src/service/hover.js';
import { defaultSettings } from '../server/src/service/settings.js';
import { generate } from './parse.js';
const gcs: { start: number; dur: number; kind: number }[] = [];
new PerformanceObserver((l) => { for (const e of l.getEntries()) gcs.push({ start: e.startTime, dur: e.duration, kind: (e as any).detail?.kind }); }).observe({ entryTypes: ['gc'] });
const text = generate(2000);
const small = generate(50);
const W = Number(process.env.W ?? 0);
const tw = performance.now();
for (let w = 0; w < W; w++) {
  const d = new LayoutDocument('file:///w.layout', w, small);
  hover(d, small.indexOf('pid_m', small.indexOf('offset_aptrs')), defaultSettings);
  hover(d, small.indexOf('offset_aptrs = A') + 15, defaultSettings);
}
console.log('warm', W, (performance.now() - tw).toFixed(0), 'ms');
const doc = new LayoutDocument('file:///b.layout', 1, text);
doc.symbols; doc.tokens;
const rec: { k: string; t0: number; d: number }[] = [];
for (let k = 0; k < 44; k++) {
  const la = text.indexOf(`offset_aptrs = A${k}[`) + 15;
  const pm = text.indexOf('pid_m', la);
  let t0 = performance.now(); hover(doc, la, defaultSettings); rec.push({ k: 'A' + k, t0, d: performance.now() - t0 });
  t0 = performance.now(); hover(doc, pm, defaultSettings); rec.push({ k: 'P' + k, t0, d: performance.now() - t0 });
}
await new Promise((r) => setTimeout(r, 50));
const s = rec.map((r) => r.d).sort((a, b) => a - b); console.log(`p50 ${s[44].toFixed(2)} p86 ${s[75].toFixed(2)} p95 ${s[83].toFixed(2)} sum ${s.reduce((a, b) => a + b).toFixed(0)}`);
if (process.env.V) for (const r of rec) if (r.d > 4) {
  const g = gcs.filter((x) => x.start >= r.t0 && x.start <= r.t0 + r.d).map((x) => `gc${x.kind}:${x.dur.toFixed(1)}`);
  console.log(r.k, r.d.toFixed(1), g.join(' '));
}
