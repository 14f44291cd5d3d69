import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  type Expr,
  type Facts,
  add,
  cmp,
  countOps,
  evaluate,
  floorDiv,
  int,
  max,
  min,
  mod,
  mul,
  printC,
  printPython,
  printTriton,
  proveNonNeg,
  select,
  simplify,
  sub,
  substitute,
  sym,
} from '../../server/src/expr/index.js';

import { goals } from './goals.js';
import { countTextOps, evalText } from './mini-eval.js';

const x = sym('x');
const y = sym('y');
const N = sym('N');
const D = sym('D');
const zero = int(0);

/** x, y in [0, N), N and D positive */
const F: Facts = {
  ranges: new Map([
    ['x', { lo: zero, hi: N }],
    ['y', { lo: zero, hi: D }],
  ]),
  positive: new Set(['N', 'D']),
};
const S = (e: Expr, f: Facts = F) => printPython(simplify(e, f));

test('A1/A2/A6: multiples of the divisor leave a remainder and a quotient', () => {
  assert.equal(S(mod(add(mul(N, y), x), N)), 'x'); // A1 then A5
  assert.equal(S(floorDiv(add(mul(N, y), x), N)), 'y'); // A2 short form
  assert.equal(S(floorDiv(add(mul(N, y), x, int(3)), N)), 'y + ((x + 3)//(N))'); // A2 long form, not provable
  assert.equal(S(floorDiv(add(x, int(7)), int(4))), '((x + 3)//(4)) + 1'); // A6
});

test('A3/A4/A5 need their range side conditions', () => {
  assert.equal(S(floorDiv(mod(sym('z'), D), D)), '0'); // A3
  assert.equal(S(floorDiv(x, N)), '0'); // A4: 0 <= x < N
  assert.equal(S(floorDiv(y, N)), '((y)//(N))'); // y < D says nothing about N
  assert.equal(S(mod(x, N)), 'x'); // A5
  assert.equal(S(mod(add(x, int(1)), N)), '(x + 1) % N'); // x + 1 may reach N
  assert.equal(S(floorDiv(sub(x, N), N)), '-1'); // -N <= x - N < 0
  assert.equal(S(mod(sub(x, N), N)), 'x'); // x - N + N
  assert.equal(S(floorDiv(sym('u'), N)), '((u)//(N))'); // u unbounded
});

test('B/C: a*(x // a) + x % a -> x, and a*(x // a) -> x when a divides x', () => {
  const u = sym('u');
  assert.equal(S(add(mul(N, floorDiv(u, N)), mod(u, N))), 'u');
  assert.equal(S(add(mul(int(3), N, floorDiv(add(u, y), N)), mul(int(3), mod(add(u, y), N)))), '3*(u + y)');
  assert.equal(S(sub(u, mul(N, floorDiv(u, N)))), 'u % N');
  const div: Facts = { ...F, relations: [cmp('==', mod(u, N), zero)] };
  assert.equal(S(mul(N, floorDiv(u, N), y), div), 'u*y');
  assert.equal(S(mod(u, N), div), '0');
});

test('symbolic bounds: BK*k + c < K from k < K/BK, c < BK, with or without divisibility', () => {
  const [K, BK, k, c] = ['K', 'BK', 'k', 'c'].map(sym);
  const base: Facts = {
    ranges: new Map([
      ['k', { lo: zero, hi: floorDiv(K, BK) }],
      ['c', { lo: zero, hi: BK }],
    ]),
    positive: new Set(['K', 'BK']),
  };
  const withDiv: Facts = { ...base, relations: [cmp('==', mod(K, BK), zero)] };
  assert.equal(printPython(simplify(floorDiv(add(mul(BK, k), c), K), base)), '0');
  assert.equal(printPython(simplify(mod(add(mul(BK, k), c), K), base)), 'BK*k + c');
  assert.equal(printPython(simplify(mul(BK, floorDiv(K, BK)), withDiv)), 'K');
  assert.equal(printPython(simplify(mul(BK, floorDiv(K, BK)), base)), 'BK*((K)//(BK))');
  assert.ok(proveNonNeg(sub(K, mul(BK, floorDiv(K, BK))), base));
  assert.ok(!proveNonNeg(sub(sub(K, mul(BK, k)), int(1)), { ...base, ranges: new Map([['k', { lo: zero, hi: K }]]) }));
});

test('min/max reasoning: dominated arguments dropped, case analysis on min/max', () => {
  assert.equal(S(min(x, N)), 'x');
  assert.equal(S(max(x, N)), 'N');
  assert.equal(S(min(x, y)), 'min(x, y)');
  const [GM, P] = [sym('GM'), sym('P')];
  const f: Facts = { ranges: new Map(), positive: new Set(['GM', 'P']) };
  // max(1, P // GM) * min(GM, P) <= P needs a case split on both
  assert.ok(proveNonNeg(sub(P, mul(max(int(1), floorDiv(P, GM)), min(GM, P))), f));
  assert.ok(!proveNonNeg(sub(P, mul(max(int(1), floorDiv(P, GM)), max(GM, P))), f));
});

test('comparisons and selects are decided when the facts allow', () => {
  assert.equal(S(cmp('<', x, N)), '1');
  assert.equal(S(cmp('>=', x, N)), '0');
  assert.equal(S(cmp('==', add(x, N), int(-1))), '0');
  assert.equal(S(cmp('<', x, y)), 'x - y <= -1');
  assert.equal(S(select(cmp('<', x, N), add(x, int(1)), y)), 'x + 1');
  assert.equal(S(select(cmp('<', x, int(0)), y, floorDiv(x, N))), '0');
});

test('relations: linear facts bound symbols and equalities replace atoms', () => {
  const [a, b] = [sym('a'), sym('b')];
  const f: Facts = { ranges: new Map(), positive: new Set(['a', 'b']), relations: [cmp('<', a, b)] };
  assert.equal(printPython(simplify(floorDiv(a, b), f)), '0');
  assert.equal(printPython(simplify(mod(a, b), f)), 'a');
  assert.equal(printPython(simplify(min(a, b), f)), 'a');
  const g: Facts = { ranges: new Map(), positive: new Set(), relations: [cmp('==', mod(a, int(4)), int(3))] };
  assert.equal(printPython(simplify(add(mod(a, int(4)), int(1)), g)), '4');
});

test('non-negativity hints: C prints `/` and `%` only where proven', () => {
  assert.equal(printC(simplify(floorDiv(add(x, y), int(3)), F)), '((x + y)/(3))');
  assert.equal(printC(simplify(floorDiv(sub(x, y), int(3)), F)), '(((x - y) - ((((x - y) % (3)) + (3)) % (3)))/(3))');
  assert.equal(printC(simplify(mod(add(x, y), N), F)), '(x + y) % N');
});

test('reference goals: equal functions with no more operations (§12.2, §12.3)', () => {
  for (const g of goals()) {
    const s = simplify(g.raw, g.facts);
    const placed = substitute(s, new Map([...g.aranges].map(([k, v]) => [k, v.expr])), { keepNonneg: true });
    const text = g.refLang === 'c' ? printC(placed) : printTriton(placed);
    const refOps = countTextOps(g.ref, g.refLang);
    assert.ok(countOps(placed) <= refOps, `${g.name}: ${countOps(placed)} ops > reference ${refOps}`);
    if (g.name !== 'nw.expr_c') assert.equal(text, g.ref, g.name);
    // numeric equality with the reference and the raw expression at in-range points
    let refText = g.ref;
    for (const [name, a] of g.aranges) refText = refText.split(a.text).join(name);
    for (const env of points(g.name, g.facts, 25)) {
      const want = evaluate(g.raw, env);
      assert.equal(evaluate(s, env), want, `${g.name} at ${[...env]}`);
      assert.equal(evalText(refText, g.refLang, { vars: env }), want, `${g.name}: reference at ${[...env]}`);
    }
  }
});

test('NW anti-diagonal: the expected piecewise, fewer operations than the reference', () => {
  const g = goals().find((x) => x.name === 'nw.expr_c')!;
  assert.equal(
    printC(simplify(g.raw, g.facts)),
    '((i + j - n <= -1) ? (i + i*j + ((i + i*i + j + j*j)/(2))) : (-i*j - j + n*(2*i + 2*j + 2 - n) - ((i + i*i + j + j*j)/(2)) - 1))',
  );
  assert.equal(countOps(simplify(g.raw, g.facts)), 30);
  assert.equal(countTextOps(g.ref, 'c'), 35);
  // the table of §12.1: antidiag(4, ·)
  const n4 = goals().find((x) => x.name === 'nw.expr_c')!.raw;
  const table = [0, 1, 2, 3].map((i) => [0, 1, 2, 3].map((j) => Number(evaluate(n4, new Map([['n', 4n], ['i', BigInt(i)], ['j', BigInt(j)]])))));
  assert.deepEqual(table, [
    [0, 1, 3, 6],
    [2, 4, 7, 10],
    [5, 8, 11, 13],
    [9, 12, 14, 15],
  ]);
});

test('simplify is deterministic and idempotent on the goals', () => {
  for (const g of goals()) {
    const a = simplify(g.raw, g.facts);
    const b = simplify(g.raw, g.facts);
    assert.equal(a.key, b.key, g.name);
    assert.equal(simplify(a, g.facts).key, a.key, g.name);
  }
});

/** deterministic in-range environments for a goal's facts (tile sizes divide their dims) */
function points(seed: string, facts: Facts, count: number): Map<string, bigint>[] {
  let h = 7;
  for (const ch of seed) h = (h * 31 + ch.charCodeAt(0)) % 1000003;
  const rnd = (n: number) => {
    h = (h * 1103515245 + 12345) % 2147483648;
    return h % n;
  };
  const out: Map<string, bigint>[] = [];
  while (out.length < count) {
    const env = new Map<string, bigint>();
    for (const p of [...facts.positive].sort()) env.set(p, BigInt(1 + rnd(6)));
    // dims are multiples of their tiles: set M = BM * m etc. where a relation demands it
    for (const r of facts.relations ?? []) {
      if (r.kind !== 'cmp' || r.lhs.kind !== 'mod' || r.lhs.a.kind !== 'sym' || r.lhs.b.kind !== 'sym') continue;
      env.set(r.lhs.a.name, env.get(r.lhs.b.name)! * BigInt(1 + rnd(5)));
    }
    let ok = true;
    for (const [name, rg] of [...facts.ranges].sort()) {
      const lo = evaluate(rg.lo, env);
      const hi = evaluate(rg.hi, env);
      if (hi <= lo) ok = false;
      else env.set(name, lo + BigInt(rnd(Number(hi - lo))));
    }
    if (ok && (facts.relations ?? []).every((r) => evaluate(r, env) === 1n)) out.push(env);
  }
  return out;
}

test('3-D tiled row-major: apply reduces to the natural offset, inv round-trips', async () => {
  const { tileBy, orderBy, row } = await import('./lego-mini.js');
  const [A, B, C, a, b, c] = ['A', 'B', 'C', 'a', 'b', 'c'].map(sym);
  const L = tileBy([orderBy(row(A, B, C))], [
    [floorDiv(A, a), floorDiv(B, b), floorDiv(C, c)],
    [a, b, c],
  ]);
  const idx = ['i0', 'i1', 'i2', 'j0', 'j1', 'j2'].map(sym);
  const ranges = new Map<string, { lo: Expr; hi: Expr }>([
    ['i0', { lo: zero, hi: floorDiv(A, a) }],
    ['i1', { lo: zero, hi: floorDiv(B, b) }],
    ['i2', { lo: zero, hi: floorDiv(C, c) }],
    ['j0', { lo: zero, hi: a }],
    ['j1', { lo: zero, hi: b }],
    ['j2', { lo: zero, hi: c }],
  ]);
  const facts: Facts = {
    ranges,
    positive: new Set(['A', 'B', 'C', 'a', 'b', 'c']),
    relations: [cmp('==', mod(A, a), zero), cmp('==', mod(B, b), zero), cmp('==', mod(C, c), zero)],
  };
  const s = simplify(L.apply(idx), facts);
  const natural = add(mul(add(mul(a, idx[0]), idx[3]), B, C), mul(add(mul(b, idx[1]), idx[4]), C), mul(c, idx[2]), idx[5]);
  assert.equal(s.key, natural.key, printPython(s));
  assert.equal(printPython(s), 'C*(B*(a*i0 + j0) + b*i1 + j1) + c*i2 + j2');
  assert.equal(countOps(s), 10);
  // inverse: flat f in [0, A*B*C) back to tile coordinates
  const f = sym('f');
  const invFacts: Facts = { ...facts, ranges: new Map([['f', { lo: zero, hi: mul(A, B, C) }]]) };
  const inv = L.inv(f).map((e) => simplify(e, invFacts));
  assert.deepEqual(inv.map(printPython), [
    '((f)//(B*C*a))',
    '((f % (B*C))//(C*b))',
    '((f % C)//(c))',
    '((f % (B*C*a))//(B*C))',
    '((f % (C*b))//(C))',
    'f % c',
  ]);
  const env = new Map<string, bigint>([['A', 6n], ['B', 4n], ['C', 6n], ['a', 3n], ['b', 2n], ['c', 3n]]);
  for (let v = 0n; v < 144n; v++) {
    const e2 = new Map([...env, ['f', v]]);
    const coords = inv.map((e) => evaluate(e, e2));
    const back = new Map([...env, ...idx.map((x, k) => [(x as Expr & { kind: 'sym' }).name, coords[k]] as [string, bigint])]);
    assert.equal(evaluate(s, back), v);
  }
});
