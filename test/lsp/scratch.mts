import { LspClient } from './harness.js';
import { matmul } from './fixtures.js';
const c = await LspClient.start();
const uri = c.uri('a.layout');
await c.open(uri, matmul);
const at = (line: number, ch: number) => ({ textDocument: { uri }, position: { line, character: ch } });
for (const [l, ch] of [[2,7],[3,5],[4,13],[4,20],[4,33],[5,6],[5,14],[6,8],[7,20],[7,4],[9,10],[9,22],[9,46],[10,8],[11,3],[10,3]]) {
  const h: any = await c.request('textDocument/hover', at(l, ch));
  console.log(JSON.stringify([l, ch, h?.contents?.value, h?.range]));
}
await c.stop();
