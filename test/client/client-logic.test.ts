// The VS Code-free parts of the client: webview HTML/CSP, the restart policy, block lookup, emit results.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contentSecurityPolicy, pictureHtml } from '../../client/src/picture/html.js';
import { RestartPolicy } from '../../client/src/restart-policy.js';
import { blockAt, checkEmitResult } from '../../client/src/blocks.js';

const nonce = 'AbCdEfGhIjKlMnOpQrStUvWx';

test('webview CSP: nothing by default, scripts and styles only with the nonce', () => {
  assert.equal(
    contentSecurityPolicy('vscode-resource:', nonce),
    `default-src 'none'; img-src vscode-resource: data:; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; font-src vscode-resource:`,
  );
});

test('webview HTML: one nonce\'d script from the given URI, no remote resources, no inline handlers', () => {
  const html = pictureHtml({ cspSource: 'https://x.vscode-cdn.net', nonce, scriptUri: 'https://x.vscode-cdn.net/dist/webview.js?a=1&b=2' });
  assert.ok(html.includes(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src https://x.vscode-cdn.net data:;`));
  const scripts = html.match(/<script[^>]*>/g) ?? [];
  assert.deepEqual(scripts, [`<script nonce="${nonce}" src="https://x.vscode-cdn.net/dist/webview.js?a=1&amp;b=2">`]);
  assert.equal((html.match(/<style nonce="AbCdEfGhIjKlMnOpQrStUvWx">/g) ?? []).length, 1);
  assert.ok(!/\son[a-z]+=/.test(html), 'no inline event handlers');
  assert.ok(!/ style="/.test(html), 'no style attributes');
  assert.ok(!/(src|href)="(http:|\/\/)/.test(html), 'no remote resources');
  for (const id of ['title', 'status', 'mode', 'zoomIn', 'zoomOut', 'left', 'right', 'up', 'down', 'export', 'caption', 'expr', 'grid', 'tip']) {
    assert.ok(html.includes(`id="${id}"`), id);
  }
  assert.throws(() => pictureHtml({ cspSource: 'x', nonce: "a' 'unsafe-inline", scriptUri: 'x' }), /nonce must be/);
});

test('restart policy: restarts 5 times within 3 minutes, then stops; old crashes expire', () => {
  let now = 0;
  const p = new RestartPolicy(5, 180_000, () => now);
  for (let k = 1; k <= 5; k++) {
    now += 1000;
    assert.deepEqual(p.onCrash(), { restart: true, message: `The Layout language server stopped unexpectedly and is being restarted (${k} of 5 restarts in 3 minutes).` });
  }
  now += 1000;
  const d = p.onCrash();
  assert.equal(d.restart, false);
  assert.equal(d.message, 'The Layout language server stopped 6 times in 3 minutes and will not be restarted. See the "Layout" output; run "Layout: Restart Language Server" to try again.');
  now += 180_000; // all six are older than the window now
  assert.equal(p.onCrash().restart, true);
  p.reset();
  assert.match(p.onCrash().message, /\(1 of 5 restarts/);
});

test('blockAt: the kernel or schedule whose range holds the cursor line', () => {
  const lines = ['param M = 8', 'layout A = Row(M, M)', 'kernel mm target triton builtin t {', '  x = A[0, 0]', '}', 'schedule gemm for linalg.matmul(M, M, M) {', '  tile(mm, [0])', '}'];
  const sym = (name: string, a: number, b: number) => ({ name, range: { start: { line: a }, end: { line: b } } });
  const symbols = [sym('M', 0, 0), sym('A', 1, 1), sym('mm', 2, 4), sym('gemm', 5, 7)];
  const text = (n: number) => lines[n];
  assert.equal(blockAt(symbols, 3, text), 'mm');
  assert.equal(blockAt(symbols, 2, text), 'mm');
  assert.equal(blockAt(symbols, 6, text), 'gemm');
  assert.equal(blockAt(symbols, 1, text), undefined, 'a layout is not a block: emit the whole file');
  assert.equal(blockAt(symbols, 0, text), undefined);
  assert.equal(blockAt(undefined, 3, text), undefined);
  // SymbolInformation (location.range) works too
  assert.equal(blockAt([{ name: 'gemm', location: { range: { start: { line: 5 }, end: { line: 7 } } } }], 7, text), 'gemm');
  // a name with regex characters cannot break the lookup
  assert.equal(blockAt([sym('a(b', 2, 4)], 3, text), undefined);
});

test('checkEmitResult: keeps strings, turns anything malformed into a message', () => {
  assert.deepEqual(checkEmitResult({ written: ['file:///w/a.py', 3], messages: ['ok'] }), { written: ['file:///w/a.py'], messages: ['ok'] });
  assert.deepEqual(checkEmitResult(null), { written: [], messages: ['The language server returned no result for layout.emit.'] });
  assert.deepEqual(checkEmitResult({}), { written: [], messages: [] });
});
