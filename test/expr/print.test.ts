import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  type Facts,
  add,
  and,
  arange,
  cmp,
  countOps,
  floorDiv,
  int,
  min,
  mod,
  mul,
  neg,
  not,
  printC,
  printMlir,
  printPython,
  printTriton,
  select,
  simplify,
  sub,
  sym,
} from '../../server/src/expr/index.js';

const x = sym('x');
const y = sym('y');
const N = sym('N');
const BM = sym('BM');
const rowR = arange(int(0), BM, { axis: 0, rank: 2 });
const colR = arange(int(0), sym('BN'), { axis: 1, rank: 2 });
const nonneg: Facts = {
  ranges: new Map([
    ['x', { lo: int(0), hi: N }],
    ['y', { lo: int(0), hi: N }],
  ]),
  positive: new Set(['N']),
};

test('floor division and modulo: direct where proven non-negative, floor-correct otherwise', () => {
  const d = floorDiv(add(x, y), N);
  const m = mod(add(x, y), N);
  assert.equal(printPython(d), '((x + y)//(N))');
  assert.equal(printC(d), '(((x + y) - ((((x + y) % (N)) + (N)) % (N)))/(N))');
  assert.equal(printTriton(d), '(((x + y) - ((((x + y) % (N)) + (N)) % (N)))//(N))');
  assert.equal(printPython(m), '(x + y) % N');
  assert.equal(printC(m), '((((x + y) % (N)) + (N)) % (N))');
  const s = simplify(add(d, m), nonneg);
  assert.equal(printC(s), '(x + y) % N + ((x + y)/(N))');
  assert.equal(printTriton(s), '(x + y) % N + ((x + y)//(N))');
  assert.equal(printPython(neg(mod(x, N))), '-(x % N)');
  assert.equal(printPython(mul(mod(x, N), y)), 'y*(x % N)');
  assert.equal(printPython(mod(mod(x, int(4)), int(12))), '(x % 4) % 12');
});

test('min/max: Python builtins, Triton tl.minimum on tensors, C ternaries', () => {
  const e = min(x, y, N);
  assert.equal(printPython(e), 'min(N, x, y)');
  assert.equal(printTriton(e), 'min(N, x, y)');
  assert.equal(printC(e), '((((((N) < (x)) ? (N) : (x))) < (y)) ? ((((N) < (x)) ? (N) : (x))) : (y))');
  const t = min(add(rowR, x), N);
  assert.equal(printTriton(t), 'tl.minimum(N, x + ((tl.arange(0, BM))[:, None]))');
  assert.equal(printPython(t), 'min(N, x + tl.arange(0, BM))');
});

test('select, comparisons and logic in each language', () => {
  const s = select(cmp('<', x, y), add(x, int(1)), mul(int(2), y));
  assert.equal(printPython(s), '((x + 1) if (x - y <= -1) else (2*y))');
  assert.equal(printC(s), '((x - y <= -1) ? (x + 1) : (2*y))');
  assert.equal(printTriton(s), 'tl.where(x - y <= -1, x + 1, 2*y)');
  const a = and(cmp('<', x, y), cmp('>', x, int(0)));
  assert.equal(printPython(a), '(x >= 1) & (x - y <= -1)');
  assert.equal(printC(a), '(x >= 1) && (x - y <= -1)');
  assert.equal(printC(not(a)), '!((x >= 1) && (x - y <= -1))');
  assert.equal(printPython(not(a)), '((x >= 1) & (x - y <= -1)) == 0');
  assert.equal(printC(add(cmp('<', x, y), int(1))), '(x - y <= -1) + 1');
});

test('aranges: broadcast in Triton, bare in Python, rejected in C and MLIR', () => {
  const ofs = add(mul(N, add(mul(BM, sym('pid_m')), rowR)), colR);
  assert.equal(printTriton(ofs), 'N*(BM*pid_m + ((tl.arange(0, BM))[:, None])) + ((tl.arange(0, BN))[None, :])');
  assert.equal(printPython(ofs), 'N*(BM*pid_m + tl.arange(0, BM)) + tl.arange(0, BN)');
  assert.equal(printTriton(arange(int(0), N, { axis: 1, rank: 3 })), '((tl.arange(0, N))[None, :, None])');
  assert.equal(printTriton(arange(int(0), N)), 'tl.arange(0, N)');
  assert.throws(() => printC(ofs), /no C form/);
  const all = new Map(['N', 'BM', 'BN', 'pid_m'].map((n) => [n, `%${n}`]));
  assert.throws(() => printMlir([ofs], { symbols: all }), /no MLIR arith form/);
});

test('factored versus expanded: the form with fewer operations is printed', () => {
  const e = add(mul(int(-3), x, y), mul(int(2), x), int(-7));
  assert.equal(printPython(e), 'x*(2 - 3*y) - 7');
  assert.equal(countOps(e), 4);
  assert.equal(printPython(add(mul(N, x), y)), 'N*x + y');
  assert.equal(printPython(add(mul(int(2), x), mul(int(2), y))), '2*(x + y)');
  assert.equal(printPython(add(mul(N, x), N)), 'N + N*x'); // tie: the expanded form is kept
  assert.equal(printPython(add(mul(int(2), x), mul(int(2), y), int(2))), '2*(x + y + 1)');
});

test('countOps follows the documented rule', () => {
  assert.equal(countOps(x), 0);
  assert.equal(countOps(neg(x)), 0); // a -1 coefficient is free
  assert.equal(countOps(mul(int(-2), x)), 1);
  assert.equal(countOps(mul(x, x)), 1);
  assert.equal(countOps(add(x, y, int(1))), 2);
  assert.equal(countOps(sub(x, y)), 1);
  assert.equal(countOps(floorDiv(x, N)), 1);
  assert.equal(countOps(mod(add(x, int(1)), N)), 2);
  assert.equal(countOps(min(x, y, N)), 2);
  assert.equal(countOps(cmp('<', x, y)), 2); // x - y <= -1
  assert.equal(countOps(select(cmp('<=', x, int(3)), x, y)), 2);
  assert.equal(countOps(and(cmp('<=', x, int(3)), cmp('<=', y, int(3)))), 3);
  assert.equal(countOps(not(and(cmp('<=', x, int(3)), cmp('<=', y, int(3))))), 4);
  assert.equal(countOps(arange(int(0), BM, { axis: 0, rank: 2 })), 0);
  assert.equal(countOps(arange(int(0), mul(int(2), BM))), 1);
});

test('printMlir: arith ops, unsigned division where proven, CSE within a call', () => {
  const s = simplify(add(floorDiv(add(x, y), N), mod(add(x, mul(int(3), y)), N)), nonneg);
  const m = printMlir([s, add(mod(add(x, mul(int(3), y)), N), int(1)), select(cmp('<', x, y), x, y), floorDiv(sub(x, y), N)], {
    symbols: new Map([
      ['x', '%x'],
      ['y', '%y'],
      ['N', '%n'],
    ]),
    type: 'i32',
    prefix: 't',
  });
  assert.deepEqual(m.lines, [
    '%t0 = arith.constant 3 : i32',
    '%t1 = arith.muli %t0, %y : i32',
    '%t2 = arith.addi %x, %t1 : i32',
    '%t3 = arith.remui %t2, %n : i32',
    '%t4 = arith.addi %x, %y : i32',
    '%t5 = arith.divui %t4, %n : i32',
    '%t6 = arith.addi %t3, %t5 : i32',
    '%t7 = arith.remsi %t2, %n : i32',
    '%t8 = arith.addi %t7, %n : i32',
    '%t9 = arith.remsi %t8, %n : i32',
    '%t10 = arith.constant 1 : i32',
    '%t11 = arith.addi %t9, %t10 : i32',
    '%t12 = arith.subi %x, %y : i32',
    '%t13 = arith.constant -1 : i32',
    '%t14 = arith.cmpi sle, %t12, %t13 : i32',
    '%t15 = arith.select %t14, %x, %y : i32',
    '%t16 = arith.floordivsi %t12, %n : i32',
  ]);
  assert.deepEqual(m.results, ['%t6', '%t11', '%t15', '%t16']);
});

test('printMlir: booleans as values, symbols only, default index type', () => {
  const m = printMlir([add(cmp('<=', x, int(3)), not(and(cmp('<=', x, int(3)), cmp('>=', y, int(1)))))], {
    symbols: new Map([
      ['x', '%a'],
      ['y', '%b'],
    ]),
  });
  assert.deepEqual(m.lines, [
    '%e0 = arith.constant 3 : index',
    '%e1 = arith.cmpi sle, %a, %e0 : index',
    '%e2 = arith.constant 1 : index',
    '%e3 = arith.cmpi sge, %b, %e2 : index',
    '%e4 = arith.andi %e1, %e3 : i1',
    '%e5 = arith.constant true',
    '%e6 = arith.xori %e4, %e5 : i1',
    '%e7 = arith.constant 0 : index',
    '%e8 = arith.select %e6, %e2, %e7 : index',
    '%e9 = arith.select %e1, %e2, %e7 : index',
    '%e10 = arith.addi %e8, %e9 : index',
  ]);
  assert.deepEqual(m.results, ['%e10']);
  assert.throws(() => printMlir([x], { symbols: new Map() }), /no SSA value given for symbol 'x'/);
  assert.deepEqual(printMlir([x], { symbols: new Map([['x', '%x']]) }), { lines: [], results: ['%x'] });
});
