// Bitwise operators in the expression layer: constructors fold soundly (property test against
// bigint evaluation), the simplifier keeps values, every printer's text evaluates to the same
// value (C, Python, Triton through the test evaluator), MLIR uses arith.xori/andi/ori/shli/shrsi.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as X from '../../server/src/expr/index.js';
import { evalText } from './mini-eval.js';

const ops = ['xor', 'and', 'or', 'shl', 'shr'] as const;
const direct = (op: (typeof ops)[number], a: bigint, b: bigint) =>
  op === 'xor' ? a ^ b : op === 'and' ? a & b : op === 'or' ? a | b : op === 'shl' ? a << b : a >> b;

/** a random expression over i, j with + * // % and bitwise operators */
const exprArb: fc.Arbitrary<X.Expr> = fc.letrec<{ e: X.Expr }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(X.sym('i'), X.sym('j')),
    fc.integer({ min: -8, max: 40 }).map((n) => X.int(n)),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => X.add(a, b)),
    fc.tuple(tie('e'), fc.integer({ min: -3, max: 9 })).map(([a, c]) => X.mul(a, X.int(c))),
    fc.tuple(tie('e'), fc.integer({ min: 1, max: 9 })).map(([a, c]) => X.floorDiv(a, X.int(c))),
    fc.tuple(tie('e'), fc.integer({ min: 1, max: 9 })).map(([a, c]) => X.mod(a, X.int(c))),
    fc.tuple(fc.constantFrom('xor', 'and', 'or') as fc.Arbitrary<'xor' | 'and' | 'or'>, tie('e'), tie('e')).map(([op, a, b]) => X.bit(op, a, b)),
    fc.tuple(fc.constantFrom('shl', 'shr') as fc.Arbitrary<'shl' | 'shr'>, tie('e'), fc.integer({ min: 0, max: 5 })).map(([op, a, c]) => X.bit(op, a, X.int(c))),
    fc.tuple(fc.constantFrom('shl', 'shr') as fc.Arbitrary<'shl' | 'shr'>, tie('e')).map(([op, a]) => X.bit(op, a, X.sym('k'))),
  ),
})).e;

test('constructors fold exactly: bit(op, a, b) evaluates to the bigint operation', () => {
  fc.assert(fc.property(fc.constantFrom(...ops), fc.bigInt({ min: -300n, max: 300n }), fc.bigInt({ min: 0n, max: 12n }), fc.boolean(), (op, a, b, symbolic) => {
    const env = new Map([['a', a], ['b', b]]);
    const e = symbolic ? X.bit(op, X.sym('a'), X.sym('b')) : X.bit(op, X.int(a), X.int(b));
    assert.equal(X.evaluate(e, env), direct(op, a, b));
    // the identities used by the constructor
    assert.equal(X.evaluate(X.bit(op, X.sym('a'), X.int(b)), env), direct(op, a, b));
  }), { numRuns: 500 });
  assert.equal(X.printC(X.bit('and', X.sym('x'), X.int(31))), '((((x) % (32)) + (32)) % (32))'); // exact for negative x too
  assert.equal(X.printC(X.bit('shl', X.sym('x'), X.int(5))), '32*x');
  assert.equal(X.printC(X.bit('xor', X.sym('x'), X.sym('x'))), '0');
  assert.equal(X.printC(X.bit('or', X.sym('x'), X.int(0))), 'x');
  assert.equal(X.printC(X.add(X.mul(X.int(32), X.sym('i')), X.bit('xor', X.sym('j'), X.sym('i')))), '32*i + (i ^ j)');
});

test('simplify keeps values and every printer agrees with evaluation', () => {
  fc.assert(fc.property(exprArb, fc.integer({ min: 0, max: 63 }), fc.integer({ min: 0, max: 63 }), fc.integer({ min: 0, max: 4 }), (e, i, j, k) => {
    const env = new Map([['i', BigInt(i)], ['j', BigInt(j)], ['k', BigInt(k)]]);
    let v: bigint;
    try {
      v = X.evaluate(e, env);
    } catch (err) {
      if (err instanceof X.EvalError) return;
      throw err;
    }
    const facts: X.Facts = { ranges: new Map([['i', { lo: X.int(0), hi: X.int(64) }], ['j', { lo: X.int(0), hi: X.int(64) }], ['k', { lo: X.int(0), hi: X.int(5) }]]), positive: new Set() };
    const s = X.simplify(e, facts);
    assert.equal(X.evaluate(s, env), v, `${X.printPython(e)} -> ${X.printPython(s)}`);
    const menv = { vars: new Map([['i', BigInt(i)], ['j', BigInt(j)], ['k', BigInt(k)]]) };
    for (const lang of ['c', 'python', 'triton'] as const) {
      const text = lang === 'c' ? X.printC(s) : lang === 'python' ? X.printPython(s) : X.printTriton(s);
      assert.equal(evalText(text, lang, menv), v, `${lang}: ${text}`);
    }
  }), { numRuns: 400 });
});

test('MLIR: arith.xori / andi / ori / shli / shrsi', () => {
  const i = X.sym('i'), j = X.sym('j'), k = X.sym('k');
  const e = X.add(X.bit('xor', i, j), X.bit('and', i, j), X.bit('or', i, j), X.bit('shl', i, k), X.bit('shr', j, k));
  const { lines } = X.printMlir([e], { symbols: new Map([['i', '%i'], ['j', '%j'], ['k', '%k']]) });
  const ops = lines.map((l) => /= (arith\.\w+)/.exec(l)![1]);
  for (const op of ['arith.xori', 'arith.andi', 'arith.ori', 'arith.shli', 'arith.shrsi']) assert.ok(ops.includes(op), `${op} in ${lines.join('\n')}`);
});

test('simplify: disjoint bits turn ^ and | into + and & into 0 (under range facts)', () => {
  const i = X.sym('i'), j = X.sym('j');
  const facts: X.Facts = { ranges: new Map([['j', { lo: X.int(0), hi: X.int(32) }]]), positive: new Set() };
  assert.equal(X.printC(X.simplify(X.bit('xor', X.mul(X.int(32), i), j), facts)), '32*i + j');
  assert.equal(X.printC(X.simplify(X.bit('or', X.bit('shl', i, X.int(5)), j), facts)), '32*i + j');
  assert.equal(X.printC(X.simplify(X.bit('and', X.mul(X.int(64), i), j), facts)), '0');
  // not disjoint: 16*i and j < 32 share bit 4, so it stays
  assert.equal(X.printC(X.simplify(X.bit('xor', X.mul(X.int(16), i), j), facts)), '(j ^ (16*i))');
  // no facts about j: stays
  assert.equal(X.printC(X.simplify(X.bit('xor', X.mul(X.int(32), i), j), { ranges: new Map(), positive: new Set() })), '(j ^ (32*i))');
});
