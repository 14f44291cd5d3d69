// A file over MAX_FULL_ANALYSIS_CHARS gets syntax and name diagnostics plus analysis/too-large, and the
// server keeps answering (issue 10, section 4: size bounds with a diagnostic that says what was skipped).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LspClient } from './harness.js';
import { MAX_FULL_ANALYSIS_CHARS } from '../../server/src/lsp/analysis-runner.js';

test('a file over 4,000,000 characters: syntax and names only, and a note that says so', async () => {
  const c = await LspClient.start();
  try {
    const line = '# ' + 'x'.repeat(98) + '\n';
    const text = 'param N = 4\nlet a = nope\n' + line.repeat(Math.ceil(MAX_FULL_ANALYSIS_CHARS / line.length) + 10) + 'layout L = OrderBy(Row(N, N)).GroupBy([N, 5])\n';
    const uri = c.uri('big.layout');
    const p = await c.open(uri, text).catch(() => c.diagnostics(uri, 1, 60_000));
    assert.deepEqual(p.diagnostics.map((d) => [d.code, d.severity, d.message]), [
      ['analysis/too-large', 3, `this file has ${text.length.toLocaleString('en-US')} characters, more than the 4,000,000 checked in full: only syntax and name errors are shown (layouts, queries, GenP, kernels and schedules are not checked); \`layout check\` checks it all`],
      ['name/undefined', 1, "unknown name 'nope'"],
    ]);
    const h = await c.request<unknown>('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 7 } });
    assert.ok(h);
  } finally {
    c.stop();
  }
});
