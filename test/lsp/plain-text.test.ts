// Hovers for clients without Markdown: the markers are removed, the words and code kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markdownToPlain } from '../../server/src/service/plain-text.js';

test('markdown to plain text: bold, code spans, fences, escapes', () => {
  assert.equal(markdownToPlain('**param** `M` = `4`\n\nstays symbolic'), 'param M = 4\n\nstays symbolic');
  assert.equal(markdownToPlain('**layout** `A`\n```c\nBK*k + K*(BM*i)\n```\n4 \\* 2'), 'layout A\nBK*k + K*(BM*i)\n4 * 2');
  assert.equal(markdownToPlain('a * b and i ^ j'), 'a * b and i ^ j');
});
