// Common-subexpression sharing (printShared / countOpsShared): on LEGO-style random layouts the
// temporaries plus results evaluate, as printed text, to the same values as the expressions,
// and the op count is exactly the count of the printed Python texts (each temporary once).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as A from '../../server/src/algebra/index.js';
import { add, countOps, countOpsShared, evaluate, floorDiv, int, mod, mul, printC, printPython, printShared, sym, type Expr } from '../../server/src/expr/index.js';
import { randomLayout } from '../algebra/support/random-layouts.js';
import { rng } from '../algebra/support/layouts.js';
import { countTextOps, evalText } from './mini-eval.js';

function evalShared(s: ReturnType<typeof printShared>, lang: 'c' | 'python', env: Map<string, bigint>): bigint[] {
  const e = new Map(env);
  for (const t of s.temps) e.set(t.name, evalText(t.text, lang, { vars: e }));
  return s.results.map((r) => evalText(r, lang, { vars: e }));
}

test('no repeated subexpression: no temporaries, the plain printer text', () => {
  const [x, N] = [sym('x'), sym('N')];
  const es = [floorDiv(x, N), mod(x, int(7))];
  const s = printShared(es, 'c');
  assert.deepEqual(s.temps, []);
  assert.deepEqual(s.results, es.map((e) => printC(e)));
  assert.equal(s.ops, 2);
  assert.equal(countOpsShared(es), 2);
});

test('a repeated sub-sum becomes one temporary, counted once; names avoid the symbols', () => {
  const [a, b, t0] = [sym('a'), sym('b'), sym('t0')];
  const y = add(mul(int(3), a), b);
  const es = [floorDiv(y, int(4)), mod(y, int(4)), mul(y, t0)];
  const s = printShared(es, 'python');
  assert.deepEqual(s.temps.map((t) => `${t.name} = ${t.text}`), ['t_0 = 3*a + b']);
  assert.deepEqual(s.results, ['((t_0)//(4))', 't_0 % 4', 't0*t_0']);
  assert.equal(s.unsharedOps, 3 + 3 + 3);
  assert.equal(s.ops, 2 + 1 + 1 + 1);
});

test('random layouts: shared inverse texts equal the expressions at random points; ops = the printed texts', () => {
  let before = 0;
  let after = 0;
  for (let seed = 1; seed <= 45; seed++) {
    const { layout, env } = randomLayout(seed);
    let inv: Expr[];
    try {
      inv = A.invSym(layout, 'x');
    } catch {
      continue;
    }
    const size = A.evalDim(A.extent(layout), env);
    for (const lang of ['c', 'python'] as const) {
      const s = printShared(inv, lang);
      const textOps = s.temps.reduce((n, t) => n + countTextOps(t.text, lang), 0) + s.results.reduce((n, r) => n + countTextOps(r, lang), 0);
      // Python prints floor division and remainder as single operators: its text counts exactly
      if (lang === 'python') assert.equal(s.ops, textOps, `seed ${seed} ${lang}`);
      assert.equal(s.ops, countOpsShared(inv));
      assert.equal(s.unsharedOps, inv.reduce((n, e) => n + countOps(e), 0));
      assert.ok(s.ops <= s.unsharedOps);
      const r = rng(seed);
      for (let k = 0; k < 12; k++) {
        const x = BigInt(r(0, size));
        const full = new Map(env).set('x', x);
        assert.deepEqual(evalShared(s, lang, full), inv.map((e) => evaluate(e, full)), `seed ${seed} ${lang} x=${x}`);
      }
      if (lang === 'c') {
        before += s.unsharedOps;
        after += s.ops;
      }
    }
  }
  // the set's total shrinks a lot (the permutation bodies are computed once)
  assert.ok(after * 3 < before, `${after} vs ${before}`);
  assert.equal(printPython(int(1)), '1');
});
