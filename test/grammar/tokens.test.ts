// Token categories for semantic tokens, and the keyword list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenInfos, KEYWORDS } from '../../grammar/src/index.js';

test('the reserved words', () => {
  assert.deepEqual([...KEYWORDS].sort(), [
    'and', 'assume', 'builtin', 'const', 'else', 'for', 'if', 'in', 'inverse', 'kernel', 'layout', 'let', 'linear', 'not', 'on', 'or',
    'param', 'perm', 'schedule', 'target', 'template', 'then', 'where',
  ]);
});

test('every token of a text with its category, comments included, in order', () => {
  const text = 'layout A = OrderBy(Row(M, 4)) # c\nlet b = min(1, "s") // 2 and not x\n#end';
  const got = tokenInfos(text).map((t) => `${t.category}:${t.text}`);
  assert.deepEqual(got, [
    'keyword:layout', 'identifier:A', 'operator:=', 'constructor:OrderBy', 'punctuation:(', 'constructor:Row', 'punctuation:(',
    'identifier:M', 'punctuation:,', 'number:4', 'punctuation:)', 'punctuation:)', 'comment:# c',
    'keyword:let', 'identifier:b', 'operator:=', 'function:min', 'punctuation:(', 'number:1', 'punctuation:,', 'string:"s"',
    'punctuation:)', 'operator://', 'number:2', 'keyword:and', 'keyword:not', 'identifier:x', 'comment:#end',
  ]);
  for (const t of tokenInfos(text)) assert.equal(text.slice(t.range.start, t.range.end), t.text);
});

test('broken text still gives tokens (unterminated strings, dropped characters)', () => {
  assert.deepEqual(tokenInfos('let a = "open\n@ b').map((t) => `${t.category}:${t.text}`), [
    'keyword:let', 'identifier:a', 'operator:=', 'string:"open', 'identifier:b',
  ]);
});
