// The fixture format itself: caret columns, messages, suffixes, and that mismatches are reported
// (a runner that cannot fail would make every fixture meaningless).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compare, parseAnnotations } from './annotations.js';
import type { Diagnostic } from '../../../grammar/src/diagnostic.js';

const text = [
  'param M = 100',
  'layout A = OrderBy(Row(M, 64)).TileBy([M/32, 2], [32, 32])',
  '#                                      ^^^^ error: 32 does not divide M = 100 [tile/not-divisible] {fixes: 2}',
  '#      ^ hint: a [x/y] {tags: unnecessary}',
  '',
].join('\n');
const line2 = text.indexOf('layout');

test('carets mark columns of the nearest non-annotation line above', () => {
  const [a, b] = parseAnnotations(text);
  assert.equal(text.slice(a.start, a.end), 'M/32');
  assert.deepEqual(
    { code: a.code, severity: a.severity, message: a.message, fixes: a.fixes, line: a.annotationLine },
    { code: 'tile/not-divisible', severity: 'error', message: '32 does not divide M = 100', fixes: 2, line: 3 },
  );
  assert.equal(b.start, line2 + 7);
  assert.equal(text.slice(b.start, b.end), 'A');
  assert.deepEqual(b.tags, ['unnecessary']);
  assert.equal(b.message, 'a');
});

test('malformed annotations are fixture bugs and throw', () => {
  assert.throws(() => parseAnnotations('x\n# ^ nonsense'), /malformed annotation/);
  assert.throws(() => parseAnnotations('x\n# ^ fatal: m [c/d]'), /unknown severity/);
  assert.throws(() => parseAnnotations('ab\n#    ^^^ error: m [c/d]'), /past the end/);
  assert.throws(() => parseAnnotations('# ^ error: m [c/d]'), /no line above/);
});

const d = (start: number, end: number, message = '32 does not divide M = 100', extra: Partial<Diagnostic> = {}): Diagnostic => ({
  code: 'tile/not-divisible', severity: 'error', message, range: { start, end }, fixes: [{ title: 'a', edits: [] }, { title: 'b', edits: [] }], ...extra,
});

test('compare accepts exactly the annotated set and names every difference', () => {
  const [a] = parseAnnotations(text);
  const exp = [a];
  assert.deepEqual(compare(text, exp, [d(a.start, a.end)]), []);
  assert.deepEqual(compare(text, exp, []), ['missing (annotation line 3): 2:39-2:43 error: 32 does not divide M = 100 [tile/not-divisible]']);
  assert.deepEqual(compare(text, exp, [d(a.start, a.end + 1)]), [
    'missing (annotation line 3): 2:39-2:43 error: 32 does not divide M = 100 [tile/not-divisible]',
    'unexpected: 2:39-2:44 error: 32 does not divide M = 100 [tile/not-divisible]',
  ]);
  assert.deepEqual(compare(text, exp, [d(a.start, a.end), d(0, 1, 'other')]), ['unexpected: 1:0-1:1 error: other [tile/not-divisible]']);
  assert.deepEqual(compare(text, exp, [d(a.start, a.end, undefined, { fixes: [] })]), [
    'fix count differs for 2:39-2:43 error: 32 does not divide M = 100 [tile/not-divisible]: got 0',
  ]);
});
