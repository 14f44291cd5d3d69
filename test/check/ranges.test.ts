// LEGO's index arithmetic with ranges: `(a:b)`, `(a:b:s)` inside index expressions and step
// slices `a:b:s`, parsed, elaborated to broadcast tl.aranges, and equal lane by lane to the
// numeric apply at the indices they stand for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, resolve } from '../../grammar/src/index.js';
import type * as ast from '../../grammar/src/ast.js';
import { elaborate, queryExpr, queryText } from '../../server/src/check/elaborate.js';
import * as A from '../../server/src/algebra/index.js';
import { evaluate } from '../../server/src/expr/index.js';
import { arangesToSyms } from '../algebra/support/layouts.js';
import { sexpr } from '../grammar/helpers.js';

function elab(text: string) {
  const p = parse(text);
  const r = resolve(p.file, p.lines);
  const { model, diagnostics } = elaborate(p.file, r);
  const all = [...p.diagnostics, ...r.diagnostics, ...diagnostics];
  return { model, shown: all.map((d) => `${d.code} ${JSON.stringify(text.slice(d.range.start, d.range.end))}: ${d.message}`) };
}

test('parse: ranges in parentheses and step slices', () => {
  const p = parse('let y = A[2 * (0:8), (1:B) + 1, 0:16:2, ::3, (0:n:s)]\n');
  assert.deepEqual(p.diagnostics, []);
  const idx = (p.file.decls[0] as ast.LetDecl).value as ast.IndexExpr;
  assert.deepEqual(idx.indices.map(sexpr), ['(* 2 (range 0 8))', '(+ (range 1 B) 1)', '(: 0 16 2)', '(: _ _ 3)', '(range 0 n s)']);
});

const FILE = 'param M = 64, K = 48, BM = 16, BK = 12\nlayout L = OrderBy(Row(M, K)).TileBy([M / BM, K / BK], [BM, BK])\n';

test('L[p, k, 2 * (0:8), 1:12:3] equals the numeric apply at every lane', () => {
  const { model, shown } = elab(FILE + 'kernel t target triton builtin none {\n  o = L[p, k, 2 * (0:8), 1:12:3]\n}\n');
  assert.deepEqual(shown, []);
  const node = model.kernels.get('t')!.bindings[0].binding.value;
  const t = queryText(model, node, 'triton');
  assert.ok(t.ok);
  assert.deepEqual(t.texts, ['BK*k + K*(BM*p + 2*((tl.arange(0, 8))[:, None])) + 3*((tl.arange(0, 4))[None, :]) + 1']);
  const q = queryExpr(model, node);
  assert.ok(q.ok);
  const { e, names } = arangesToSyms(q.exprs[0]);
  const [rowLane, colLane] = [...names.keys()].sort((a, b) => (a.endsWith('_0') ? -1 : 1) - (b.endsWith('_0') ? -1 : 1));
  const L = model.layouts.get('L')!.layout!;
  for (const [p, k] of [[0, 0], [3, 2], [1, 3]]) {
    for (let a = 0; a < 8; a++) {
      for (let b = 0; b < 4; b++) {
        const env = new Map([...model.env, ['p', BigInt(p)], ['k', BigInt(k)], [rowLane, BigInt(a)], [colLane, BigInt(b)]]);
        assert.equal(evaluate(e, env), A.applyNum(L, [BigInt(p), BigInt(k), BigInt(2 * a), BigInt(1 + 3 * b)], model.env));
      }
    }
  }
});

test('(0:BM) + 1 and (0:BM:4): shifted and strided ranges, broadcast like slices', () => {
  const { model, shown } = elab(FILE + 'kernel t target triton builtin none {\n  o = L[p, k, (0:BM:4), (0:BK - 1) + 1]\n}\n');
  assert.deepEqual(shown, []);
  const t = queryText(model, model.kernels.get('t')!.bindings[0].binding.value, 'triton');
  assert.ok(t.ok);
  assert.deepEqual(t.texts, ['BK*k + K*(BM*p + 4*((tl.arange(0, ((BM + 3)//(4))))[:, None])) + ((tl.arange(0, BK - 1))[None, :]) + 1']);
});

test('errors: a range outside an index list, a step that is not a positive constant', () => {
  const { shown } = elab(FILE + 'let x = (0:M)\nkernel t target triton builtin none {\n  a = L[p, k, 0:BM:0, :]\n  b = L[p, k, (0:BM:q), :]\n}\n');
  assert.deepEqual(shown, [
    'elab/range-outside-index "(0:M)": a range (a:b) has a meaning only inside an index list, e.g. A[2 * (0:8), k]',
    'elab/bad-step "0": the step of a range must be positive; this is 0 at the param values',
    'elab/bad-step "q": the step of a range must be a constant (params and lets only)',
  ]);
});
