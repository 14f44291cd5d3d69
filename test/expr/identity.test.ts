// The `x % m + m*(x // m) = x` rule with a constant m, across a sum that shares terms with x
// (issue 14): exact results, and a property test against brute-force evaluation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { type Expr, type Facts, add, countOps, evaluate, floorDiv, int, mod, mul, printC, simplify, sym } from '../../server/src/expr/index.js';

const [i0, i1] = [sym('i0'), sym('i1')];
const ranged: Facts = {
  ranges: new Map([['i0', { lo: int(0), hi: int(8) }], ['i1', { lo: int(0), hi: int(2) }]]),
  positive: new Set(),
};
const none: Facts = { ranges: new Map(), positive: new Set() };

test('4*i0 + (2*i0 + i1) % 4 + 4*((2*i0 + i1) / 4) is 6*i0 + i1, with or without ranges', () => {
  const x = add(mul(int(2), i0), i1);
  const e = add(mul(int(4), i0), mod(x, int(4)), mul(int(4), floorDiv(x, int(4))));
  assert.equal(countOps(e), 10);
  for (const f of [ranged, none]) {
    const s = simplify(e, f);
    assert.equal(printC(s), '6*i0 + i1');
    assert.equal(countOps(s), 2);
  }
  // a multiple of the rule: 3*(x % 5) + 15*(x // 5) -> 3*x
  const y = add(i0, mul(int(3), i1), int(2));
  assert.equal(printC(simplify(add(mul(int(3), mod(y, int(5))), mul(int(15), floorDiv(y, int(5)))), none)), '3*i0 + 9*i1 + 6');
  // no rewrite when the remainder's multiple does not match: 2*(x // 4) + x % 4 stays
  const z = add(mul(int(2), floorDiv(y, int(4))), mod(y, int(4)));
  assert.equal(countOps(simplify(z, none)) <= countOps(z), true);
  assert.notEqual(printC(simplify(z, none)), printC(y));
});

const small = fc.integer({ min: -6, max: 6 });
test('property: sums with x % m and m*(x // m) (m constant) simplify to equal values with no more ops', () => {
  fc.assert(
    fc.property(
      fc.record({ a: small, b: small, c: small, k: small, m: fc.integer({ min: 1, max: 9 }), p: small, q: small, s: small }),
      fc.array(fc.tuple(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 1 })), { minLength: 8, maxLength: 8 }),
      ({ a, b, c, k, m, p, q, s }, pts) => {
        const x = add(mul(int(a), i0), mul(int(b), i1), int(k));
        const M = int(m);
        const e: Expr = add(mul(int(c), i0), mul(int(p), mod(x, M)), mul(int(q * m), floorDiv(x, M)), mul(int(s), i1));
        for (const f of [ranged, none]) {
          const r = simplify(e, f);
          assert.ok(countOps(r) <= countOps(e), `${printC(e)} -> ${printC(r)}`);
          for (const [v0, v1] of pts) {
            const env = new Map([['i0', BigInt(v0)], ['i1', BigInt(v1)]]);
            assert.equal(evaluate(r, env), evaluate(e, env), `${printC(e)} -> ${printC(r)} at ${v0},${v1}`);
          }
        }
        // p == q: the pair is q*x exactly
        if (p === q && p !== 0) {
          const e2 = add(mul(int(c), i0), mul(int(p), mod(x, M)), mul(int(p * m), floorDiv(x, M)));
          const r2 = simplify(e2, none);
          assert.equal(r2.key, add(mul(int(c), i0), mul(int(p), x)).key);
        }
      },
    ),
    { numRuns: 300, seed: 14 },
  );
});

test('D: c*(x // (c*d)) + (x % (c*d)) // d is x // d (constant and symbolic c, d), equal at random points', () => {
  const [R, T, x] = [sym('R'), sym('T'), sym('x')];
  const e = add(mul(R, floorDiv(x, mul(R, T))), floorDiv(mod(x, mul(R, T)), T));
  assert.equal(simplify(e, none).key, floorDiv(x, T).key);
  const N = sym('N');
  fc.assert(
    fc.property(
      fc.record({ c: fc.integer({ min: 1, max: 5 }), d: fc.integer({ min: -4, max: 5 }).filter((v) => v !== 0), k: small, a: small, b: small, sd: fc.boolean() }),
      fc.array(fc.tuple(fc.integer({ min: -20, max: 20 }), fc.integer({ min: -20, max: 20 }), fc.integer({ min: 1, max: 6 })), { minLength: 6, maxLength: 6 }),
      ({ c, d, k, a, b, sd }, pts) => {
        const D = sd ? mul(int(d), N) : int(d);
        const xx = add(mul(int(a), i0), mul(int(b), i1), int(3));
        const e2 = add(mul(int(k * c), floorDiv(xx, mul(int(c), D))), mul(int(k), floorDiv(mod(xx, mul(int(c), D)), D)), i1);
        const r = simplify(e2, none);
        assert.ok(countOps(r) <= countOps(e2));
        for (const [v0, v1, n] of pts) {
          const env = new Map([['i0', BigInt(v0)], ['i1', BigInt(v1)], ['N', BigInt(n)]]);
          assert.equal(evaluate(r, env), evaluate(e2, env), `${printC(e2)} -> ${printC(r)}`);
        }
      },
    ),
    { numRuns: 300, seed: 15 },
  );
});
