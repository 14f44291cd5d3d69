import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createToken, Lexer } from 'chevrotain';
import { children } from '../grammar/src/ast.js';
test('toolchain smoke', () => {
  const Int = createToken({ name: 'Int', pattern: /\d+/ });
  assert.equal(new Lexer([Int]).tokenize('42').tokens[0].image, '42');
  assert.deepEqual(children({ kind: 'Error', range: { start: 0, end: 0 } }), []);
});
