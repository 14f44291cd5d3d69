// The GenP check evaluates a row at a time (typed arrays); it must say exactly what the point by
// point evaluation says, on every kind of body: bijections, collisions, values out of range,
// inverse mismatches, divisions by zero (also in an untaken branch), values beyond 2^53.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { add, cmp, floorDiv, int, max, min, mod, mul, select, sub, sym, type Expr } from '../../server/src/expr/index.js';
import * as A from '../../server/src/algebra/index.js';
import { antidiag } from './support/layouts.js';

const i = sym('i'), j = sym('j'), n = sym('n'), x = sym('x');

const body: fc.Arbitrary<Expr> = fc.letrec<{ e: Expr }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(i, j, n, int(0), int(1), int(3), int(-2), int(2 ** 40)),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => add(a, b)),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => sub(a, b)),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => mul(a, b)),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => floorDiv(a, b)),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => mod(a, b)),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => min(a, b)),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => max(a, b)),
    fc.tuple(tie('e'), tie('e'), tie('e'), fc.integer({ min: -3, max: 12 })).map(([c, a, b, k]) => select(cmp('<=', c, int(k)), a, b)),
  ),
})).e;

test('row-at-a-time GenP checks equal point-by-point ones (property)', () => {
  fc.assert(fc.property(body, fc.integer({ min: 1, max: 4 }), fc.integer({ min: 8, max: 12 }), fc.boolean(), (e, rows, cols, withInverse) => {
    const g = A.GenP([rows, cols], { indexNames: ['i', 'j'], body: e },
      withInverse ? { argName: 'x', results: [floorDiv(x, int(cols)), mod(x, int(cols))] } : undefined, 'g');
    const env = new Map([['n', BigInt(cols)]]);
    assert.deepEqual(A.checkGenP(g, env, { rows: true }), A.checkGenP(g, env, { rows: false }));
  }), { numRuns: 600 });
  // found by the property (seed 548216273): -(x // 2) * (i % 1) is -0 in a row of doubles
  const g = A.GenP([1, 8], { indexNames: ['i', 'j'], body: mul(mod(i, min(int(1), n)), floorDiv(mul(int(-1), j), int(2))) }, undefined, 'g');
  const env = new Map([['n', 8n]]);
  assert.deepEqual(A.checkGenP(g, env, { rows: true }), A.checkGenP(g, env, { rows: false }));
});

test('row-at-a-time: the usual bodies, cancellation at row starts', () => {
  const env = new Map([['n', 16n]]);
  const cases: [string, Expr][] = [
    ['row-major', add(mul(i, n), j)],
    ['transpose', add(mul(j, int(16)), i)],
    ['swizzle', add(mul(i, n), mod(add(j, i), n))],
    ['collision', add(i, mod(j, int(4)))],
    ['out of range', add(mul(i, n), j, int(1))],
    ['division by zero in a branch not taken', select(cmp('<=', j, int(20)), add(mul(i, n), j), floorDiv(i, sub(j, j)))],
  ];
  for (const [what, e] of cases) {
    const g = A.GenP([16, 16], { indexNames: ['i', 'j'], body: e });
    assert.deepEqual(A.checkGenP(g, env, { rows: true }), A.checkGenP(g, env, { rows: false }), what);
  }
  assert.deepEqual(A.checkGenP(antidiag(64), env, { rows: true }), { kind: 'bijective', checked: 4096 });
  let polls = 0;
  assert.deepEqual(A.checkGenP(antidiag(64), env, { pollEvery: 1000, shouldStop: () => ++polls === 2 }), { kind: 'cancelled', checked: 2048 });
});

test('a GenP check stopped again and again and resumed from its progress says what one uninterrupted check says (property)', () => {
  fc.assert(fc.property(body, fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 12 }), fc.boolean(), fc.boolean(), fc.integer({ min: 1, max: 20 }), (e, rows, cols, withInverse, byRow, pollEvery) => {
    const g = A.GenP([rows, cols], { indexNames: ['i', 'j'], body: e },
      withInverse ? { argName: 'x', results: [floorDiv(x, int(cols)), mod(x, int(cols))] } : undefined, 'g');
    const env = new Map([['n', BigInt(cols)]]);
    const whole = A.checkGenP(g, env, { rows: byRow });
    const progress: A.GenPProgress = {};
    let r: A.GenPCheck;
    let calls = 0;
    const checked: number[] = [];
    // every poll stops it: each call enumerates at most pollEvery (or a row) more points
    do {
      r = A.checkGenP(g, env, { rows: byRow, pollEvery, shouldStop: () => true, progress });
      calls++;
      if (r.kind === 'cancelled') checked.push(r.checked);
    } while (r.kind === 'cancelled' && calls < 1000);
    assert.deepEqual(r, whole);
    assert.equal(progress.at, undefined, 'a finished check leaves no progress');
    // it went forward every time
    for (let k = 1; k < checked.length; k++) assert.ok(checked[k] > checked[k - 1]);
  }), { numRuns: 400 });
  // a progress of another shape (another GenP's) is not taken: the check starts over
  const env = new Map([['n', 16n]]);
  const progress: A.GenPProgress = {};
  assert.equal(A.checkGenP(antidiag(64), env, { pollEvery: 1000, shouldStop: () => true, progress }).kind, 'cancelled');
  assert.ok(progress.at);
  const small = A.GenP([4, 4], { indexNames: ['i', 'j'], body: add(mul(i, int(4)), j) });
  assert.deepEqual(A.checkGenP(small, env, { progress }), { kind: 'bijective', checked: 16 });
});
