// Bounded analysis (issue 10, section 4): inputs whose size used to reach the call stack give
// diagnostics instead of "Maximum call stack size exceeded".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/check/index.js';
import { ChunkedParser } from '../../server/src/service/chunks.js';
import { parse, MAX_CALL_CHAIN } from '../../grammar/src/index.js';

test('4,000 chained .OrderBy(...) calls: parse/too-complex at the first call past the limit, nothing else', () => {
  const text = 'layout L = OrderBy(Row(4, 4))' + '.OrderBy(Row(4, 4))'.repeat(4000) + '.GroupBy([4, 4])\n';
  const a = analyze(text);
  const at = 'layout L = OrderBy(Row(4, 4))'.length + '.OrderBy(Row(4, 4))'.length * (MAX_CALL_CHAIN);
  assert.deepEqual(a.diagnostics.map((d) => [d.code, d.message, d.range.start]), [
    ['parse/too-complex', "more than 256 method calls ('.') in one declaration or statement; it is not analysed", at],
  ]);
  // the same through the editor's chunked parser
  assert.deepEqual(new ChunkedParser().parse(text).diagnostics, parse(text).diagnostics);
});

test('a chain at the limit is analysed', () => {
  const text = 'layout L = OrderBy(Row(4, 4))' + '.OrderBy(Row(4, 4))'.repeat(MAX_CALL_CHAIN - 1) + '.GroupBy([4, 4])\n';
  const a = analyze(text);
  assert.ok(!a.diagnostics.some((d) => d.code === 'parse/too-complex' || d.code.endsWith('internal-error')), a.diagnostics.map((d) => d.message).join('\n'));
});

test('150,000 param lines: one diagnostic each (unused), no internal error', () => {
  const n = 150_000;
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(`param p${i} = ${i}`);
  const a = analyze(lines.join('\n') + '\n');
  assert.equal(a.diagnostics.length, n);
  assert.ok(a.diagnostics.every((d) => d.code === 'unused/param'));
  assert.equal(a.diagnostics[n - 1].message, `param p${n - 1} is never used`);
});

test('chunks report positions of the whole file in their messages', () => {
  const text = 'param a = 1\nparam b = 2\nlayout L = OrderBy(Row(4, 4).GroupBy([4, 4]\n';
  const chunked = new ChunkedParser().parse(text);
  assert.deepEqual(chunked.diagnostics, parse(text).diagnostics);
  assert.match(chunked.diagnostics[0].message, /opened at 3:37/);
});
