import { LspClient } from './harness.js';
import { matmul } from './fixtures.js';
const c = await LspClient.start();
const uri = c.uri('a.layout');
await c.open(uri, matmul);
const td = { textDocument: { uri } };
const at = (line: number, ch: number) => ({ textDocument: { uri }, position: { line, character: ch } });
const st: any = await c.request('textDocument/semanticTokens/full', td);
const legend = (c.initializeResult.capabilities as any).semanticTokensProvider.legend;
let line = 0, ch = 0; const out: string[] = [];
const lines = matmul.split('\n');
for (let i = 0; i < st.data.length; i += 5) {
  const [dl, dc, len, ty, mods] = st.data.slice(i, i + 5);
  line += dl; ch = dl ? dc : ch + dc;
  const m = legend.tokenModifiers.filter((_: string, k: number) => mods & (1 << k));
  out.push(`${line}:${ch} ${lines[line].slice(ch, ch + len)} ${legend.tokenTypes[ty]}${m.length ? '.' + m.join('.') : ''}`);
}
console.log(out.join('\n'));
for (const p of [[4, 11], [4, 30], [7, 19], [11, 2], [11, 7]]) {
  const r: any = await c.request('textDocument/completion', at(p[0], p[1]));
  console.log(p, r.items.map((i: any) => i.label).join(' '));
}
const r: any = await c.request('textDocument/signatureHelp', at(4, 23));
console.log(JSON.stringify(r));
await c.stop();
