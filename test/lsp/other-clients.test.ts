// A plain LSP client (as Neovim, Emacs or Helix are) over stdio: it declares no client-side commands, so
// the server sends no "Show layout" code lenses (whose command only the VS Code extension has); the
// emit lenses, which run the server's own `layout.emit`, stay. Odd initializationOptions change nothing.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { LspClient } from './harness.js';
import { matmul } from './fixtures.js';

const clients: LspClient[] = [];
after(() => Promise.all(clients.map((c) => c.stop())));

async function lenses(initializationOptions?: unknown) {
  const c = await LspClient.start(initializationOptions === undefined ? {} : { initializationOptions });
  clients.push(c);
  const uri = c.uri('matmul.layout');
  await c.open(uri, matmul);
  const got = await c.request<{ command?: { title: string; command: string } }[]>('textDocument/codeLens', { textDocument: { uri } });
  return got.map((l) => `${l.command?.title} -> ${l.command?.command}`);
}

const emitOnly = ['Emit Triton -> layout.emit', 'Emit MLIR -> layout.emit'];

test('a client that declares no commands gets the emit lenses only', async () => {
  assert.deepEqual(await lenses(), emitOnly);
});

test('declaring other commands, or malformed options, changes nothing', async () => {
  assert.deepEqual(await lenses({ clientCommands: ['something.else'] }), emitOnly);
  assert.deepEqual(await lenses({ clientCommands: 'layout.showLayout' }), emitOnly);
  assert.deepEqual(await lenses('layout.showLayout'), emitOnly);
  assert.deepEqual(await lenses(null), emitOnly);
});

test('a client that declares layout.showLayout (as the VS Code extension does) gets the Show layout lens', async () => {
  assert.deepEqual(await lenses({ clientCommands: ['layout.showLayout'] }), ['Show layout -> layout.showLayout', ...emitOnly]);
});
