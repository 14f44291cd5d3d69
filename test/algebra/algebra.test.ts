// Unit tests of the algebra: ExpandBy and TileOrderBy (the project's definitions,
// docs/algebra.md), GenP checks, size problems, classification, errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { add, cmp, floorDiv, int, mod, mul, select, sub, sym, printPython, evaluate } from '../../server/src/expr/index.js';
import * as A from '../../server/src/algebra/index.js';
import { antidiag, matmulA, pid } from './support/layouts.js';

const E = new Map<string, bigint>();
const env = (o: Record<string, number>) => new Map(Object.entries(o).map(([k, v]) => [k, BigInt(v)]));

test('ExpandBy: a 5x3 array in 2x2 tiles (expanded 6x4); padding maps to -1, inv lifts into the expanded space', () => {
  const t = A.TileBy([A.OrderBy(A.Row(6, 4))], [[3, 2], [2, 2]]);
  const L = A.ExpandBy(t, [5, 3]);
  assert.deepEqual(L.expanded.map((e) => evaluate(e, E)), [6n, 4n]);
  // logical [tile_r, tile_c, r, c]; element (row 2*tile_r + r, col 2*tile_c + c) of the 5x3 array
  assert.equal(A.applyNum(L, [1n, 1n, 0n, 0n], E), 8n); // (2, 2) -> 2*3 + 2
  assert.equal(A.applyNum(L, [0n, 1n, 0n, 1n], E), -1n); // (0, 3): column 3 is padding
  assert.equal(A.applyNum(L, [2n, 0n, 1n, 0n], E), -1n); // (5, 0): row 5 is padding
  assert.deepEqual(A.invNum(L, 8n, E), [1n, 1n, 0n, 0n]);
  assert.deepEqual(A.invNum(L, 14n, E), [2n, 1n, 0n, 0n]); // (4, 2)
  assert.throws(() => A.invNum(L, 15n, E), /outside \[0, 15\)/);
  const e = A.applySym(L, ['a', 'b', 'c', 'd']);
  assert.deepEqual(A.applyTable(L, E), [0, 1, 3, 4, 2, -1, 5, -1, 6, 7, 9, 10, 8, -1, 11, -1, 12, 13, -1, -1, 14, -1, -1, -1]);
  for (const [i, v] of A.applyTable(L, E).entries()) {
    const idx = [Math.floor(i / 8), Math.floor(i / 4) % 2, Math.floor(i / 2) % 2, i % 2];
    assert.equal(evaluate(e, env({ a: idx[0], b: idx[1], c: idx[2], d: idx[3] })), BigInt(v));
  }
  assert.equal(A.classify(L), 'piecewise');
  assert.deepEqual(A.sizeMismatches(A.ExpandBy(t, [7, 3]), E).map((p) => p.message), ['the original extent 7 exceeds the expanded extent 6']);
});

test('TileOrderBy: natural row-major order to tiles stored contiguously', () => {
  const L = A.GroupBy([4, 4], [A.TileOrderBy([2, 2], [2, 2])]);
  assert.deepEqual(A.applyTable(L, E), [0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15]);
  assert.deepEqual(A.TileOrderBy([2, 2], [3, 3]).blocks[0], A.RegP([2, 3, 2, 3], [0, 2, 1, 3]));
});

test('checkGenP: bijective, collision, out-of-range, inverse mismatch, budget, cancel, eval error', () => {
  const i = sym('i'), j = sym('j'), x = sym('x');
  const g = (body: ReturnType<typeof int>, inv?: ReturnType<typeof int>[]) =>
    A.GenP([3, 3], { indexNames: ['i', 'j'], body }, inv ? { argName: 'x', results: inv } : undefined, 'g');
  assert.deepEqual(A.checkGenP(antidiag(5), E), { kind: 'bijective', checked: 25 });
  assert.deepEqual(A.checkGenP(g(add(i, j)), E), { kind: 'collision', a: [0, 1], b: [1, 0], value: 1 });
  assert.deepEqual(A.checkGenP(g(add(mul(int(3), i), j, int(1))), E), { kind: 'out-of-range', idx: [2, 2], value: 9, size: 9 });
  assert.deepEqual(A.checkGenP(g(add(mul(int(3), j), i), [floorDiv(x, int(3)), mod(x, int(3))]), E),
    { kind: 'inverse-mismatch', x: 3, got: [1, 0], expected: [0, 1] });
  assert.deepEqual(A.checkGenP(g(add(mul(int(3), j), i), [mod(x, int(3)), floorDiv(x, int(3))]), E), { kind: 'bijective', checked: 9 });
  assert.deepEqual(A.checkGenP(antidiag(5), E, 24), { kind: 'budget-exceeded', checked: 24, size: 25 });
  let polls = 0;
  assert.deepEqual(A.checkGenP(antidiag(5), E, { pollEvery: 10, shouldStop: () => ++polls === 2 }), { kind: 'cancelled', checked: 20 });
  const r = A.checkGenP(g(floorDiv(i, sub(j, int(1)))), E);
  assert.deepEqual(r.kind === 'eval-error' && r.idx, [0, 1]);
  assert.equal(A.checkGenP(A.GenP([sym('n'), 2], { indexNames: ['i', 'j'], body: i }), E).kind, 'eval-error');
});

test('sizeMismatches: chain size, ranks, tile extents, permutations, inexact division', () => {
  const L = A.GroupBy([6, 6], [A.OrderBy(A.Row(5, 7))]);
  assert.deepEqual(A.sizeMismatches(L, E), [{ kind: 'chain-size', where: { chain: 0 }, chainSize: 35n, viewSize: 36n, message: 'this OrderBy has 35 elements but the logical view has 36' }]);
  const T = A.TileBy([A.OrderBy(A.Row(8, 8))], [[2, 4], [4]]);
  assert.deepEqual(A.sizeMismatches(T, E).map((p) => p.kind), ['rank', 'chain-size']);
  const T2 = A.TileBy([A.OrderBy(A.Row(4, 16))], [[2, 2], [4, 4]]);
  assert.deepEqual(A.sizeMismatches(T2, E).map((p) => p.message), [
    "dimension 0 is tiled to 8 elements but this OrderBy's dimension 0 has 4",
    "dimension 1 is tiled to 8 elements but this OrderBy's dimension 1 has 16",
  ]);
  assert.deepEqual(A.sizeMismatches(A.RegP([2, 3], [1, 1]), E).map((p) => p.kind), ['perm']);
  const m = matmulA(false);
  assert.deepEqual(A.sizeMismatches(m, env({ M: 100, K: 64, BM: 32, BK: 32 })).filter((p) => p.kind === 'inexact-division').map((p) => p.message), ['32 does not divide 100']);
  assert.deepEqual(A.sizeMismatches(m, env({ M: 128, K: 64, BM: 32, BK: 32 })), []);
  assert.deepEqual(A.sizeMismatches(pid, env({ num_pid_m: 32, num_pid_n: 16, GM: 8 })), []);
});

test('classify: affine, piecewise, user-genp', () => {
  assert.equal(A.classify(matmulA(true)), 'affine');
  // a row-major reshape of 6x6 into 4x9 composes to 6*i + j (the x % m + m*(x // m) rule)
  assert.equal(A.classify(A.GroupBy([6, 6], [A.OrderBy(A.Row(4, 9))])), 'affine');
  assert.equal(A.classify(A.GroupBy([6, 6], [A.OrderBy(A.Col(4, 9))])), 'piecewise');
  assert.equal(A.classify(A.GroupBy([[6, 6]], [A.OrderBy(antidiag(6))])), 'user-genp');
});

test('classify is kept by the layout\'s structure: layouts that differ in one part only are told apart, in any order', () => {
  // the same chain under two views (4x9: the identity, affine; 6x6: piecewise), a permutation, a symbolic dim
  const view = (g: number[], b: A.Block = A.Col(4, 9)) => A.GroupBy(g, [A.OrderBy(b)]);
  const sym4 = (n: number) => A.GroupBy([sym('N'), 9], [A.OrderBy(A.Col(sym('N'), n))]);
  for (let round = 0; round < 2; round++) {
    assert.equal(A.classify(view([4, 9])), 'affine');
    assert.equal(A.classify(view([6, 6])), 'piecewise');
    assert.equal(A.classify(view([6, 6], A.Row(4, 9))), 'affine');
    assert.equal(A.classify(view([6, 6], A.RegP([4, 9], [1, 0]))), 'piecewise');
    assert.equal(A.classify(sym4(9)), 'affine');
  }
});

test('numeric errors: index out of range, arity, beyond 2^53, non-positive dims, GenP without inverse in invSym', () => {
  const L = A.GroupBy([3, 4], [A.OrderBy(A.Row(3, 4))]);
  assert.throws(() => A.applyNum(L, [3n, 0n], E), /index 3 is outside \[0, 3\) in dimension 0/);
  assert.throws(() => A.applyNum(L, [1n], E), /expected 2 indices, got 1/);
  assert.throws(() => A.applyNum(A.Row(2 ** 30, 2 ** 30), [0n, 0n], E), /exceeds 2\^53/);
  assert.throws(() => A.applyNum(A.Row(sym('n'), 2), [0n, 0n], env({ n: 0 })), /evaluates to 0; dimensions must be positive/);
  assert.throws(() => A.invSym(A.GroupBy([[3, 3]], [A.OrderBy(antidiag(3))]), 'x'), /antidiag has no inverse/);
  assert.throws(() => A.applySym(L, ['i']), /the layout has 2 dimensions, the key 1 items/);
  const bad = A.GenP([2, 2], { indexNames: ['i', 'j'], body: select(cmp('<', sym('i'), int(1)), int(0), int(7)) });
  assert.throws(() => A.applyNum(bad, [1n, 0n], E), /GenP\(1, 0\) = 7, outside \[0, 4\)/);
});

test('symbolic slices: a:b bounds, broadcasting by position when two ranges combine, bare for one', () => {
  const S = A.slice;
  const e = A.applySym(matmulA(false), ['pid_m', 'k', S(), S(int(0), sym('BK'))]);
  assert.match(printPython(e), /tl\.arange\(0, BM\)/);
  const one = A.applySym(matmulA(false), ['pid_m', 'k', 'r', S()]);
  assert.equal(printPython(one).includes('None'), false);
});
