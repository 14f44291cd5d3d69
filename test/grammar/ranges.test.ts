// Every AST node's range slices back to its own source text, over the examples, the benchmark's
// generated file and broken inputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '../../grammar/src/index.js';
import { generate } from '../../bench/parse.js';
import { examples, rangeProblems, walk } from './helpers.js';

for (const [name, text] of examples()) {
  test(`ranges of ${name}`, () => {
    const r = parse(text);
    assert.deepEqual(rangeProblems(text, r.file, true), []);
    assert.ok(walk(r.file).length > 20);
  });
}

test('ranges of the generated benchmark input (CRLF line ends too)', () => {
  const text = generate(400);
  for (const t of [text, text.replace(/\n/g, '\r\n')]) {
    const r = parse(t);
    assert.deepEqual(r.diagnostics, []);
    assert.deepEqual(rangeProblems(t, r.file, true), []);
  }
});

test('ranges of recovered (broken) inputs stay inside the text and nested', () => {
  const broken = [
    'let a = [1, 2\nlet b = min(1,\nlayout L = OrderBy(Row(4, 4).TileBy([2, 2]',
    'kernel k target cuda builtin b {\n x = L[1,\n y, z = P.inv(q\n',
    'perm p(n)[i, j] = if i < then 1 else\ninverse(x) = [x,',
    'schedule s for linalg.matmul(M, N { mm = findOp("x"\n tile(mm, [1, 2\n}',
    'let a = A.\nlet b = A.inv\nlet c = -not\nlet d = (1,\nlet e = [:, 1:, :2',
    'param M = 1 in [1, 2, N = 3 in, K',
  ];
  for (const text of broken) {
    const r = parse(text);
    assert.ok(r.diagnostics.length > 0, text);
    assert.deepEqual(rangeProblems(text, r.file, false), [], text);
  }
});

test('parenthesised operands: ranges include the parentheses of the operands they contain', () => {
  const text = 'let a = (b + c) * (d)\nlet e = (f).inv(g)[(h)]\nlet i = if j then k else (l)\nlet m = -(n)\nparam o = (1), p = [(2)]';
  const r = parse(text);
  assert.deepEqual(r.diagnostics, []);
  assert.deepEqual(rangeProblems(text, r.file, true), []);
  const slices = r.file.decls.map((d) => text.slice(d.range.start, d.range.end));
  assert.deepEqual(slices, ['let a = (b + c) * (d)', 'let e = (f).inv(g)[(h)]', 'let i = if j then k else (l)', 'let m = -(n)', 'param o = (1), p = [(2)]']);
  const a = r.file.decls[0];
  if (a.kind === 'Let' && a.value.kind === 'Binary') {
    assert.equal(text.slice(a.value.range.start, a.value.range.end), '(b + c) * (d)');
    assert.equal(text.slice(a.value.left.range.start, a.value.left.range.end), 'b + c');
  } else assert.fail('a is a product');
});

test('the range checker itself catches a wrong range', () => {
  const text = 'let a = b + c';
  const r = parse(text);
  const d = r.file.decls[0];
  assert.equal(d.kind, 'Let');
  if (d.kind !== 'Let' || d.value.kind !== 'Binary') return;
  d.value.right.range = { start: 9, end: 13 }; // ' + c' instead of 'c'
  assert.ok(rangeProblems(text, r.file, true).length >= 2);
});

test('a piece parsed with its offset and first line gives the whole file\'s nodes, diagnostics and quoted positions', () => {
  const head = 'param M = 4\r\nlet a = M * 2\n';
  const piece = 'layuot B = OrderBy(Row(M, 4)\n  .GroupBy([2, 2])\nlet c = (a + 1\n';
  const whole = parse(head + piece);
  const part = parse(piece, { offset: head.length, firstLine: 2 });
  const plain = (x: unknown) => JSON.parse(JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)));
  assert.deepEqual(plain(part.file.decls), plain(whole.file.decls.slice(2)));
  assert.deepEqual(part.diagnostics, whole.diagnostics);
  // the misspelled keyword (a line start inside the piece) and the unclosed '(' quoted at the file's line
  assert.deepEqual(part.diagnostics.map((d) => d.code), ['parse/unexpected-token', 'parse/unclosed', 'parse/unclosed']);
  assert.match(part.diagnostics[2].message, /opened at 5:9/);
});
