// Expression syntax: precedence, associativity, literals, LEGO's Python spelling.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '../../grammar/src/index.js';
import { sexpr, show } from './helpers.js';
import type { ast } from '../../grammar/src/index.js';

/** the value of `let x = SRC`, which must parse without diagnostics */
function expr(src: string): string {
  const text = `let x = ${src}`;
  const r = parse(text);
  assert.deepEqual(show(text, r.diagnostics), [], src);
  const d = r.file.decls[0] as ast.LetDecl;
  return sexpr(d.value);
}

test('precedence: or < and < not < comparison < + - < * / % < unary', () => {
  const cases: [string, string][] = [
    ['a or b and c', '(or a (and b c))'],
    ['a and b or c', '(or (and a b) c)'],
    ['not a and b', '(and (not a) b)'],
    ['not a < b', '(not (< a b))'],
    ['a < b + c * d', '(< a (+ b (* c d)))'],
    ['a + b * c - d', '(- (+ a (* b c)) d)'],
    ['-a * b', '(* (- a) b)'],
    ['- -a', '(- (- a))'],
    ['+a % b', '(% (+ a) b)'],
    ['a - b - c', '(- (- a b) c)'],
    ['a / b / c', '(/ (/ a b) c)'],
    ['a // b', '(// a b)'],
    ['(a + b) * c', '(* (+ a b) c)'],
    ['a == b and c != d', '(and (== a b) (!= c d))'],
    ['a <= b or a >= b', '(or (<= a b) (>= a b))'],
    ['not not a', '(not (not a))'],
    ['a and not b < c or d', '(or (and a (not (< b c))) d)'],
  ];
  for (const [src, want] of cases) assert.equal(expr(src), want, src);
});

test('if/then/else is lowest and nests to the right', () => {
  assert.equal(expr('if a then b else c + 1'), '(if a b (+ c 1))');
  assert.equal(expr('if a then b else if c then d else e'), '(if a b (if c d e))');
  assert.equal(expr('if a < b and c then 1 else 2'), '(if (and (< a b) c) 1 2)');
  assert.equal(expr('1 + if a then 2 else 3'), '(+ 1 (if a 2 3))');
  assert.equal(expr('(if a then 2 else 3) + 1'), '(+ (if a 2 3) 1)');
});

test('postfix: calls, method chains, indexing and slices', () => {
  assert.equal(expr('OrderBy(Row(M, K)).TileBy([M/BM, K/BK], [BM, BK])'), '(.TileBy (OrderBy (Row M K)) [(/ M BM) (/ K BK)] [BM BK])');
  assert.equal(expr('A[pid_m, k, :, :]'), '(index A pid_m k (: _ _) (: _ _))');
  assert.equal(expr('A[0:BK, 1:, :2, i + 1]'), '(index A (: 0 BK) (: 1 _) (: _ 2) (+ i 1))');
  assert.equal(expr('Pid.inv(pid)'), '(.inv Pid pid)');
  assert.equal(expr('L.apply(i, j)[0]'), '(index (.apply L i j) 0)');
  assert.equal(expr('-L[i]'), '(- (index L i))');
  assert.equal(expr('f()'), '(f)');
});

test('LEGO Python pastes as is', () => {
  assert.equal(
    expr('OrderBy(RegP([2,2],[1,0]), GenP([3,3], antidiag(3))).OrderBy(RegP([2,3,2,3],[0,2,1,3])).GroupBy([6, 6])'),
    '(.GroupBy (.OrderBy (OrderBy (RegP [2 2] [1 0]) (GenP [3 3] (antidiag 3))) (RegP [2 3 2 3] [0 2 1 3])) [6 6])',
  );
  assert.equal(expr('GroupBy([(6,6)])'), '(GroupBy [(tuple 6 6)])');
  assert.equal(expr('Col(max(num_pid_m // GM, 1), 1)'), '(Col (max (// num_pid_m GM) 1) 1)');
  assert.equal(expr('x.TileBy((n, n))'), '(.TileBy x (tuple n n))');
});

test('tuples: (a) is a, (a,) and (a, b) are tuples; trailing commas are accepted', () => {
  assert.equal(expr('(a)'), 'a');
  assert.equal(expr('((a))'), 'a');
  assert.equal(expr('(a,)'), '(tuple a)');
  assert.equal(expr('(a, b,)'), '(tuple a b)');
  assert.equal(expr('[1, 2,]'), '[1 2]');
  assert.equal(expr('[]'), '[]');
  assert.equal(expr('min(a, b,)'), '(min a b)');
  assert.equal(expr('A[i, j,]'), '(index A i j)');
});

test('integers: underscores, exact bigints; strings: escapes', () => {
  const text = 'let x = 1_000_000\nlet y = 123456789012345678901234567890\nlet z = "a\\"b\\\\c\\n\\td"\nlet w = 007';
  const r = parse(text);
  assert.deepEqual(r.diagnostics, []);
  const [x, y, z, w] = r.file.decls.map((d) => (d as ast.LetDecl).value);
  assert.deepEqual([x.kind === 'Int' && x.value, x.kind === 'Int' && x.text], [1000000n, '1_000_000']);
  assert.equal(y.kind === 'Int' && y.value, 123456789012345678901234567890n);
  assert.equal(z.kind === 'String' && z.value, 'a"b\\c\n\td');
  assert.equal(w.kind === 'Int' && w.value, 7n);
  for (const bad of ['1__0', '10_', '0x10', '1e3']) {
    const t = `let x = ${bad}`;
    assert.deepEqual(show(t, parse(t).diagnostics), [`1:9-1:${9 + bad.length} lex/malformed-integer: integer literal '${bad}' is malformed`]);
    assert.equal((parse(t).file.decls[0] as ast.LetDecl).value.kind, 'Error');
  }
});

test('newline-insensitive, with comments anywhere between tokens', () => {
  const text = 'layout A =   # the operand\n  OrderBy(Row(M,   # rows\n K))\n  .TileBy([M / BM,\n K / BK],\n [BM, BK])  # tiles\n';
  const r = parse(text);
  assert.deepEqual(r.diagnostics, []);
  assert.equal(sexpr((r.file.decls[0] as ast.LayoutDecl).value), '(.TileBy (OrderBy (Row M K)) [(/ M BM) (/ K BK)] [BM BK])');
  assert.deepEqual(r.file.comments.map((c) => c.text), [' the operand', ' rows', ' tiles']);
});

test('keywords are reserved but a longer identifier is not a keyword', () => {
  assert.equal(expr('layouts + iff + notx + in_range'), '(+ (+ (+ layouts iff) notx) in_range)');
  const t = 'let x = if';
  assert.deepEqual(show(t, parse(t).diagnostics), ["1:11-1:11 parse/expected-expression: expected an expression after 'if'"]);
});

test('declarations: params with candidates, const, perm with params and inverse, kernel template file', () => {
  const text = [
    'param M = 4096 in [1024, 4096], BM = 128',
    'const T = 32',
    'perm swap(n)[i, j] = j * n + i inverse(x) = [x % n, x / n]',
    'kernel k target cuda template "kernels/k.cu" { a, b = L.inv(t) }',
    'schedule s for scf.for(1) { vectorize() }',
  ].join('\n');
  const r = parse(text);
  assert.deepEqual(r.diagnostics, []);
  const [p, c, perm, k, s] = r.file.decls as [ast.ParamDecl, ast.ParamDecl, ast.PermDecl, ast.KernelDecl, ast.ScheduleDecl];
  assert.deepEqual(p.items.map((i) => [i.name.name, sexpr(i.value), i.candidates ? sexpr(i.candidates) : null]), [['M', '4096', '[1024 4096]'], ['BM', '128', null]]);
  assert.equal(p.isConst, false);
  assert.equal(c.isConst, true);
  assert.deepEqual(perm.params.map((x) => x.name), ['n']);
  assert.equal(sexpr(perm.body), '(+ (* j n) i)');
  assert.deepEqual(perm.inverse?.results.map(sexpr), ['(% x n)', '(/ x n)']);
  assert.deepEqual(k.template?.kind === 'file' && k.template.path.value, 'kernels/k.cu');
  assert.deepEqual(k.bindings[0].names.map((n) => n.name), ['a', 'b']);
  assert.equal(text.slice(k.bodyRange.start, k.bodyRange.end), '{ a, b = L.inv(t) }');
  assert.equal(s.op?.name, 'scf.for'); // a keyword may follow the dot of an op name
});
