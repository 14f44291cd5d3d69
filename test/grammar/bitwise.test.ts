// The integer operators ^ & | << >> with C's precedence (docs/language.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '../../grammar/src/index.js';
import { sexpr, show } from './helpers.js';
import type { ast } from '../../grammar/src/index.js';

function expr(src: string): string {
  const text = `let x = ${src}`;
  const r = parse(text);
  assert.deepEqual(show(text, r.diagnostics), [], src);
  return sexpr((r.file.decls[0] as ast.LetDecl).value);
}

test("C precedence: | < ^ < & < comparisons < << >> < + - < * / %", () => {
  const cases: [string, string][] = [
    ['a ^ b & c', '(^ a (& b c))'],
    ['a | b ^ c', '(| a (^ b c))'],
    ['a & b | c ^ d', '(| (& a b) (^ c d))'],
    ['a << 1 + 2', '(<< a (+ 1 2))'],
    ['a >> b * 2', '(>> a (* b 2))'],
    ['a << b < c', '(< (<< a b) c)'],
    ['a & b == c', '(& a (== b c))'],
    ['a ^ b ^ c', '(^ (^ a b) c)'],
    ['32 * i + (j ^ i)', '(+ (* 32 i) (^ j i))'],
    ['a ^ b and c', '(and (^ a b) c)'],
    ['-a << 2', '(<< (- a) 2)'],
    ['a <= b >> 1', '(<= a (>> b 1))'],
  ];
  for (const [src, want] of cases) assert.equal(expr(src), want, src);
});

test('a lone ^ is an operator, not an unexpected character; a missing operand is reported', () => {
  const r = parse('let x = a ^\nlet y = 1\n');
  assert.equal(r.diagnostics.length, 1);
  assert.equal(r.diagnostics[0].code, 'parse/expected-expression');
});
