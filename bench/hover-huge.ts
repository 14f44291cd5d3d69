// Hover latency on a file of 150,000 one-line params (`param p0 = 1` ...), over the protocol against the
// bundled server (`node dist/server.js --stdio`), issue 10 section 4 (the main thread is never blocked for
// long): open -> first diagnostics; the first hover (it parses and resolves the file on the main thread);
// hovers on the same version; hovers right after an edit (a new version: re-parse of the edited chunk,
// shift of the later ones, whole-file name resolution). In process, the stages of one new version.
// `node --import tsx bench/hover-huge.ts` prints the numbers and writes bench/results/hover-huge.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { LspClient } from '../test/lsp/harness.js';
import { LayoutDocument } from '../server/src/service/document.js';
import { ChunkedParser } from '../server/src/service/chunks.js';
import { hover } from '../server/src/service/hover.js';
import { defaultSettings } from '../server/src/service/settings.js';

const N = 150_000;
const SAME = 20;
const EDITS = 4;

function round(x: number): number {
  return Math.round(x * 10) / 10;
}

async function main(): Promise<void> {
  let text = '';
  for (let i = 0; i < N; i++) text += `param p${i} = 1\n`;
  const c = await LspClient.start();
  const out: Record<string, unknown> = { params: N };
  try {
    const uri = c.uri('huge.layout');
    let t = performance.now();
    await c.open(uri, text).catch(() => c.diagnostics(uri, 1, 120_000));
    out.openToDiagnosticsMs = round(performance.now() - t);
    const at = (line: number) => ({ textDocument: { uri }, position: { line, character: 7 } });
    t = performance.now();
    await c.request('textDocument/hover', at(0));
    out.firstHoverMs = round(performance.now() - t);
    const same: number[] = [];
    for (let k = 0; k < SAME; k++) {
      t = performance.now();
      await c.request('textDocument/hover', at((k * 7919) % N));
      same.push(round(performance.now() - t));
    }
    out.sameVersionHoverMs = { max: Math.max(...same), median: [...same].sort((a, b) => a - b)[SAME >> 1] };
    const afterEdit: number[] = [];
    for (let v = 2; v < 2 + EDITS; v++) {
      c.change(uri, v, [{ range: { start: { line: 5, character: 11 }, end: { line: 5, character: 12 } }, text: v % 2 ? '1' : '22' }]);
      t = performance.now();
      await c.request('textDocument/hover', at(100));
      afterEdit.push(round(performance.now() - t));
    }
    out.hoverAfterEditMs = afterEdit;
  } finally {
    await c.stop();
  }
  // in process: one new version's stages
  const parser = new ChunkedParser();
  let doc = new LayoutDocument('file:///huge.layout', 1, text, parser);
  hover(doc, 7, defaultSettings);
  const edited = text.replace('param p5 = 1', 'param p5 = 22');
  doc = new LayoutDocument('file:///huge.layout', 2, edited, parser);
  let t = performance.now();
  void doc.file;
  const parseMs = round(performance.now() - t);
  t = performance.now();
  void doc.symbols;
  const resolveMs = round(performance.now() - t);
  t = performance.now();
  hover(doc, edited.indexOf('param p100 ') + 7, defaultSettings);
  const hoverMs = round(performance.now() - t);
  out.inProcessNewVersion = { parseMs, resolveMs, hoverMs };
  console.log(JSON.stringify(out, null, 2));
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/hover-huge.json', JSON.stringify(out, null, 2) + '\n');
}

await main();
