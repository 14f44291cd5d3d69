// A hover on a file of 150,000 one-line params answers, with the same markdown as on a small file,
// the first and a second one on the same version (issue 10, section 4). That the second re-uses the
// version's snapshot (no whole-file work again) is held in snapshot-history.test.ts; the timings are
// bench/hover-huge.ts's (a test asserts behaviour, not speed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LspClient } from './harness.js';

const N = 150_000;

test('hover on a file of 150,000 params: the right markdown, the first hover and a second one on the same version', async () => {
  const c = await LspClient.start();
  try {
    let text = '';
    for (let i = 0; i < N; i++) text += `param p${i} = 1\n`;
    const uri = c.uri('huge.layout');
    await c.open(uri, text).catch(() => c.diagnostics(uri, 1, 120_000));
    type H = { contents: { kind: string; value: string }; range: unknown };
    const md = (k: number) => `**param** \`p${k}\` = \`1\`\n\nstays symbolic in generated expressions\n\n0 uses in this file`;
    const first = await c.request<H>('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 7 } });
    assert.deepEqual(first, {
      contents: { kind: 'markdown', value: md(0) },
      range: { start: { line: 0, character: 6 }, end: { line: 0, character: 8 } },
    });
    const second = await c.request<H>('textDocument/hover', { textDocument: { uri }, position: { line: 123_456, character: 8 } });
    assert.deepEqual(second, {
      contents: { kind: 'markdown', value: md(123_456) },
      range: { start: { line: 123_456, character: 6 }, end: { line: 123_456, character: 13 } },
    });
  } finally {
    await c.stop();
  }
});
