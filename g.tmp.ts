import { goals } from './test/expr/goals.js';
import { simplify, printTriton, printC, countOps, substitute } from './server/src/expr/index.js';
import { countTextOps } from './test/expr/mini-eval.js';
for (const g of goals()) {
  const t = performance.now();
  const s = simplify(g.raw, g.facts);
  const dt = performance.now() - t;
  const m = new Map([...g.aranges].map(([k, v]) => [k, v.expr]));
  const out = substitute(s, m, { keepNonneg: true });
  const txt = g.refLang === 'c' ? printC(out) : printTriton(out);
  console.log(g.name, dt.toFixed(1), 'ops', countOps(out), 'ref', countTextOps(g.ref, g.refLang), '\n   ', txt, txt === g.ref ? 'EXACT' : '');
}
