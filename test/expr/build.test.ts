import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  type Expr,
  add,
  and,
  arange,
  cmp,
  equals,
  floorDiv,
  int,
  max,
  min,
  mod,
  mul,
  neg,
  not,
  or,
  printPython as P,
  select,
  sub,
  sym,
} from '../../server/src/expr/index.js';

const x = sym('x');
const y = sym('y');
const z = sym('z');
const N = sym('N');

function same(e: Expr, text: string, key?: string) {
  assert.equal(P(e), text);
  if (key !== undefined) assert.equal(e.key, key);
}

test('sums: like terms collected, constants folded, terms in key order', () => {
  same(add(x, y, x, int(3), int(-1)), '2*x + y + 2', '~+(~*(2;x),y;2)');
  same(add(y, x), 'x + y');
  assert.ok(equals(add(y, x), add(x, y)));
  same(sub(add(x, y), add(y, x)), '0', '0');
  same(neg(add(x, int(2))), '-x - 2');
  same(add(), '0');
  same(mul(), '1');
});

test('products: expanded into sums of monomials, powers as repeated factors', () => {
  same(mul(add(x, int(1)), add(x, int(-1))), 'x*x - 1', '~+(~*(1;x*x);-1)');
  same(mul(x, x, int(3)), '3*x*x', '~*(3;x*x)');
  same(mul(int(0), x), '0');
  same(mul(add(x, y), N), 'N*(x + y)', '~+(~*(1;N*x),~*(1;N*y);0)'); // printed factored: fewer ops
  assert.ok(equals(mul(x, y), mul(y, x)));
});

test('floor division: Python semantics on constants', () => {
  assert.equal(floorDiv(int(7), int(2)).key, '3');
  assert.equal(floorDiv(int(-7), int(2)).key, '-4');
  assert.equal(floorDiv(int(7), int(-2)).key, '-4');
  assert.equal(floorDiv(int(-7), int(-2)).key, '3');
  assert.equal(mod(int(-7), int(2)).key, '1');
  assert.equal(mod(int(7), int(-2)).key, '-1');
  assert.equal(mod(int(-7), int(-2)).key, '-1');
});

test('floor division normal forms', () => {
  same(floorDiv(x, int(1)), 'x');
  same(floorDiv(x, int(-1)), '-x');
  same(floorDiv(add(mul(int(4), x), int(6)), int(2)), '2*x + 3'); // content cancelled
  same(floorDiv(add(mul(int(4), x), y, int(5)), int(4)), 'x + ((y + 1)//(4)) + 1'); // A2, A6
  same(floorDiv(add(mul(N, x), y), N), 'x + ((y)//(N))'); // A2, symbolic divisor
  same(floorDiv(x, int(-3)), '((-x)//(3))');
  same(floorDiv(floorDiv(x, int(2)), int(3)), '((x)//(6))');
  same(floorDiv(mod(x, N), N), '0'); // A3
  same(floorDiv(mul(N, x), N), 'x');
  same(floorDiv(x, x), '1');
  same(floorDiv(x, int(0)), '((x)//(0))'); // kept: evaluate reports it
});

test('modulo normal forms', () => {
  same(mod(x, int(1)), '0');
  same(mod(add(mul(N, x), y), N), 'y % N'); // A1
  same(mod(add(mul(int(6), x), y, int(7)), int(3)), '(y + 1) % 3');
  same(mod(mul(int(2), x), int(6)), '2*(x % 3)');
  same(mod(x, int(-3)), '-((-x) % 3)');
  same(mod(mod(x, mul(N, y)), N), 'x % N');
  same(mod(mod(x, int(12)), int(4)), 'x % 4');
  same(mod(mod(x, int(4)), int(12)), '(x % 4) % 12');
});

test('min and max: flattened, constants folded, constant-distance arguments dropped', () => {
  same(min(x, int(3), y, int(1), x), 'min(1, x, y)', '~m(1,x,y)');
  same(min(x, add(x, int(3))), 'x');
  same(max(add(x, int(3)), x, int(-2)), 'max(-2, x + 3)');
  same(min(min(x, y), z), 'min(x, y, z)');
  same(max(int(2), int(5)), '5');
  assert.throws(() => min(), /at least one argument/);
});

test('comparisons: `lhs op c` with integer content divided out and a positive leading term', () => {
  same(cmp('>=', N, add(x, y, int(1))), 'N - x - y >= 1');
  same(cmp('>=', add(x, y, int(1)), N), 'N - x - y <= 1');
  same(cmp('<=', add(sym('i'), sym('j'), int(1)), sym('n')), 'i + j - n <= -1');
  same(cmp('<', mul(int(2), x), int(5)), 'x <= 2');
  same(cmp('>=', mul(int(2), x), int(5)), 'x >= 3');
  same(cmp('==', mul(int(2), x), int(5)), '0');
  same(cmp('!=', mul(int(2), x), int(5)), '1');
  same(cmp('<', int(3), int(5)), '1');
  same(cmp('>', x, y), 'x - y >= 1');
  same(cmp('==', cmp('<', x, int(3)), int(0)), 'x >= 3');
});

test('logic and select', () => {
  same(not(cmp('<', x, int(3))), 'x >= 3');
  same(not(not(cmp('<', x, int(3)))), 'x <= 2');
  same(and(cmp('<', x, int(3)), and(int(1), cmp('<', y, int(3)))), '(x <= 2) & (y <= 2)');
  same(and(cmp('<', x, int(3)), not(cmp('<', x, int(3)))), '0');
  same(or(cmp('<', x, int(3)), int(1)), '1');
  same(or(x, int(0)), 'x != 0');
  same(select(cmp('>=', x, int(3)), y, z), '((z) if (x <= 2) else (y))');
  same(select(x, y, y), 'y');
  same(select(int(0), y, z), 'z');
  same(select(cmp('<', x, y), int(1), int(0)), 'x - y <= -1');
  same(select(cmp('<', x, y), int(0), int(1)), 'x - y >= 0');
  same(select(cmp('<', x, y), select(cmp('<', x, y), N, z), y), '((N) if (x - y <= -1) else (y))');
});

test('arange: broadcast kept in the key, rank 1 is bare, bad axes rejected', () => {
  assert.equal(arange(int(0), N, { axis: 1, rank: 2 }).key, '~a(0,N,1,2)');
  assert.equal(arange(int(0), N, { axis: 0, rank: 1 }).key, '~a(0,N)');
  assert.throws(() => arange(int(0), N, { axis: 2, rank: 2 }), /0 <= axis < rank/);
  assert.ok(!equals(arange(int(0), N, { axis: 0, rank: 2 }), arange(int(0), N, { axis: 1, rank: 2 })));
});

test('constructor argument checks', () => {
  assert.throws(() => int(1.5), /safe integer/);
  assert.throws(() => int(2 ** 60), /safe integer/);
  assert.equal(int(2n ** 60n).key, (2n ** 60n).toString());
  assert.throws(() => sym('a+b'), /identifier/);
  assert.throws(() => sym(''), /identifier/);
});

test('construction is independent of argument order and grouping', () => {
  const a = add(mul(add(x, y), z), floorDiv(x, int(3)), min(y, x));
  const b = add(min(x, y), floorDiv(x, int(3)), mul(z, y), mul(x, z));
  assert.equal(a.key, b.key);
});
