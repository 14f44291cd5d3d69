import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  EvalError,
  add,
  and,
  arange,
  cmp,
  evaluate,
  floorDiv,
  freeSymbols,
  int,
  max,
  min,
  mod,
  mul,
  not,
  or,
  printPython,
  select,
  substitute,
  sym,
} from '../../server/src/expr/index.js';

const x = sym('x');
const y = sym('y');
const env = (o: Record<string, number | bigint>) => new Map(Object.entries(o).map(([k, v]) => [k, BigInt(v)]));

test('evaluate: Python floor division and modulo on negative operands', () => {
  const cases: [number, number, number, number][] = [
    [7, 2, 3, 1],
    [-7, 2, -4, 1],
    [7, -2, -4, -1],
    [-7, -2, 3, -1],
    [6, 3, 2, 0],
    [-6, 3, -2, 0],
    [0, -5, 0, 0],
  ];
  for (const [a, b, q, r] of cases) {
    const e = env({ x: a, y: b });
    assert.equal(evaluate(floorDiv(x, y), e), BigInt(q), `${a} // ${b}`);
    assert.equal(evaluate(mod(x, y), e), BigInt(r), `${a} % ${b}`);
  }
});

test('evaluate: every node kind', () => {
  const e = env({ x: -3, y: 5 });
  assert.equal(evaluate(add(mul(int(2), x), y, int(1)), e), 0n);
  assert.equal(evaluate(mul(x, x, y), e), 45n);
  assert.equal(evaluate(min(x, y, int(-7)), e), -7n);
  assert.equal(evaluate(max(x, y, int(-7)), e), 5n);
  assert.equal(evaluate(cmp('<', x, y), e), 1n);
  assert.equal(evaluate(cmp('>=', x, y), e), 0n);
  assert.equal(evaluate(cmp('==', add(x, int(3)), int(0)), e), 1n);
  assert.equal(evaluate(and(cmp('<', x, y), cmp('>', x, int(0))), e), 0n);
  assert.equal(evaluate(or(cmp('<', x, y), cmp('>', x, int(0))), e), 1n);
  assert.equal(evaluate(not(x), e), 0n);
  assert.equal(evaluate(select(cmp('<', x, int(0)), mul(int(10), y), y), e), 50n);
  assert.equal(evaluate(int(2n ** 53n), e), 2n ** 53n);
});

test('evaluate: magnitudes beyond 2^53 are an error, never a wrong number', () => {
  const big = env({ x: 2n ** 52n, y: 3 });
  assert.equal(evaluate(mul(int(2), x), big), 2n ** 53n);
  assert.throws(
    () => evaluate(mul(x, y), big),
    (err: unknown) => err instanceof EvalError && /exceeds 2\^53/.test(err.message) && /13510798882111488/.test(err.message),
  );
  assert.throws(() => evaluate(add(x, int(1)), env({ x: 2n ** 53n })), EvalError);
  assert.throws(() => evaluate(x, env({ x: -(2n ** 53n) - 1n })), /symbol 'x'.*exceeds 2\^53/);
  // an intermediate beyond the limit is an error even when the final value is small
  assert.throws(() => evaluate(floorDiv(mul(x, y), int(8)), env({ x: 2n ** 53n, y: 4 })), EvalError);
});

test('evaluate: unbound symbols, division by zero and aranges raise EvalError', () => {
  assert.throws(() => evaluate(add(x, y), env({ x: 1 })), (e: unknown) => e instanceof EvalError && e.message === "unbound symbol 'y'");
  assert.throws(() => evaluate(floorDiv(x, y), env({ x: 1, y: 0 })), /division by zero/);
  assert.throws(() => evaluate(mod(x, int(0)), env({ x: 1 })), /division by zero/);
  assert.throws(() => evaluate(arange(int(0), int(4)), env({})), /tl.arange/);
});

test('evaluate: atoms give values of whole sub-expressions (an arange lane)', () => {
  const r = arange(int(0), sym('BM'), { axis: 0, rank: 2 });
  const e = add(mul(sym('K'), r), int(1));
  assert.equal(evaluate(e, env({ K: 10, BM: 4 }), { atoms: new Map([[r.key, 3n]]) }), 31n);
});

test('freeSymbols includes arange bounds but not the arange itself', () => {
  const e = add(mul(sym('K'), arange(int(0), sym('BM'))), floorDiv(x, y));
  assert.deepEqual([...freeSymbols(e)].sort(), ['BM', 'K', 'x', 'y']);
  assert.deepEqual([...freeSymbols(int(3))], []);
});

test('substitute replaces simultaneously and re-canonicalises', () => {
  const e = add(mul(int(2), x), y);
  const s = substitute(e, new Map([['x', y], ['y', x]]));
  assert.equal(printPython(s), 'x + 2*y');
  const m = substitute(mod(add(mul(sym('N'), x), y), sym('N')), new Map([['y', int(3)]]));
  assert.equal(printPython(m), '3 % N');
  assert.equal(printPython(substitute(floorDiv(x, y), new Map([['y', int(1)]]))), 'x');
  assert.equal(substitute(e, new Map()), e);
});

test('very deep expressions: clear errors, never a stack overflow', async () => {
  const { printC, simplify, countOps, PrintError } = await import('../../server/src/expr/index.js');
  let e = x;
  for (let i = 0; i < 3000; i++) e = floorDiv(add(e, y), i % 2 ? sym('N') : int(3));
  assert.deepEqual([...freeSymbols(e)].sort(), ['N', 'x', 'y']);
  assert.equal(simplify(e, { ranges: new Map(), positive: new Set(['N']) }), e);
  assert.throws(() => printC(e), (err: unknown) => err instanceof PrintError && /nested too deeply to print \(depth 6001 > 500\)/.test(err.message));
  assert.throws(() => countOps(e), PrintError);
  assert.throws(() => evaluate(e, env({ x: 1, y: 2, N: 3 })), /nested too deeply to evaluate/);
  assert.throws(() => substitute(e, new Map([['x', y]])), /nested too deeply to substitute/);
});
