// The VS Code-free parts of the client: webview HTML/CSP, the restart policy, block lookup, emit results,
// command arguments and the messages after an emit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contentSecurityPolicy, pictureHtml } from '../../client/src/picture/html.js';
import { RestartPolicy } from '../../client/src/restart-policy.js';
import { blockAt, checkEmitResult } from '../../client/src/blocks.js';
import { serverEnvironment } from '../../client/src/server-env.js';
import { checkEmitArgs, emitSummary, emitTargetsOfSymbols, parseShowLayoutArg, visibleLenses, wrongTargetMessage } from '../../client/src/command-args.js';

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

test('checkEmitArgs: the EmitArgs of a layout.emit lens or action, or undefined', () => {
  assert.deepEqual(checkEmitArgs({ uri: 'file:///w/k.layout', target: 'triton', block: 'copy', version: 4 }), { uri: 'file:///w/k.layout', target: 'triton', version: 4, block: 'copy' });
  assert.deepEqual(checkEmitArgs({ uri: 'file:///w/k.layout', target: 'mlir', version: 1 }), { uri: 'file:///w/k.layout', target: 'mlir', version: 1 });
  // no version: -1 (the client uses these only to word its message; the server gets the arguments as sent)
  assert.deepEqual(checkEmitArgs({ uri: 'file:///w/k.layout', target: 'cuda' }), { uri: 'file:///w/k.layout', target: 'cuda', version: -1 });
  for (const bad of [undefined, null, 'file:///w/k.layout', {}, { uri: 'file:///w/k.layout', target: 'rust', version: 1 }, { uri: 3, target: 'cuda' }, { uri: 'u', target: 'cuda', block: 7 }]) {
    assert.equal(checkEmitArgs(bad), undefined, JSON.stringify(bad));
  }
});

test('emitSummary: names what was written (at most 5 files), or says why nothing was', () => {
  const rel = (u: string) => u.replace('file:///w/', '');
  assert.deepEqual(emitSummary({ written: ['file:///w/generated/copy.py'], messages: [] }, 'copy (Triton)', rel), { level: 'info', text: 'Layout: wrote generated/copy.py for copy (Triton).' });
  assert.deepEqual(emitSummary({ written: ['file:///w/a.cu', 'file:///w/b.cu'], messages: ['refused c.cu: it is open with unsaved changes'] }, 'k.layout (CUDA)', rel), {
    level: 'info', text: 'Layout: wrote a.cu, b.cu for k.layout (CUDA). refused c.cu: it is open with unsaved changes.',
  });
  const seven = Array.from({ length: 7 }, (_, k) => `file:///w/f${k}.mlir`);
  assert.equal(emitSummary({ written: seven, messages: [] }, 'k.layout (MLIR)', rel).text, 'Layout: wrote f0.mlir, f1.mlir, f2.mlir, f3.mlir, f4.mlir and 2 more for k.layout (MLIR).');
  assert.deepEqual(emitSummary({ written: [], messages: ['the document changed (version 3, the request was for 2); nothing was written'] }, 'copy (Triton)', rel), {
    level: 'warning', text: 'Layout: nothing written for copy (Triton): the document changed (version 3, the request was for 2)',
  });
  assert.deepEqual(emitSummary({ written: [], messages: ['error tile/not-divisible (line 3): 32 does not divide M = 100', 'nothing was written'] }, 'k.layout (Triton)', rel), {
    level: 'warning', text: 'Layout: nothing written for k.layout (Triton): an error at line 3: 32 does not divide M = 100',
  });
  // many errors: the first one whole and how many; warnings counted; every message goes to the output
  const many = ['error tile/not-divisible (line 3): 32 does not divide M = 100', 'error name/undefined (line 7): unknown name \'Bm\' (did you mean \'BM\'?)',
    'warning schedule/smem (line 9): uses 200 KB of shared memory', 'nothing was written'];
  assert.deepEqual(emitSummary({ written: [], messages: many }, 'k.layout (Triton)', rel), {
    level: 'warning', text: 'Layout: nothing written for k.layout (Triton): 2 errors, the first at line 3: 32 does not divide M = 100; 1 warning (see the Layout output)',
  });
  assert.deepEqual(emitSummary({ written: ['file:///w/g/k.py'], messages: ['warning schedule/smem (line 9): uses 200 KB', 'warning x/y (line 2): z'] }, 'k (Triton)', rel), {
    level: 'info', text: 'Layout: wrote g/k.py for k (Triton). 2 warnings (see the Layout output).',
  });
  assert.deepEqual(emitSummary({ written: [], messages: [] }, 'copy (Triton)', rel), { level: 'warning', text: 'Layout: nothing written for copy (Triton).' });
});

test('parseShowLayoutArg: a payload, a lens\'s layout, or the cursor', () => {
  const picture = { name: 'C' };
  assert.deepEqual(parseShowLayoutArg({ picture }), { kind: 'payload', picture });
  assert.deepEqual(parseShowLayoutArg({ uri: 'file:///w/p.layout', name: 'C', position: { line: 2, character: 7 } }), {
    kind: 'layout', uri: 'file:///w/p.layout', name: 'C', position: { line: 2, character: 7 },
  });
  assert.deepEqual(parseShowLayoutArg({ uri: 'file:///w/p.layout', name: 'C' }), { kind: 'layout', uri: 'file:///w/p.layout', name: 'C' });
  assert.deepEqual(parseShowLayoutArg({ uri: 'file:///w/p.layout', position: { line: 0, character: 0 }, name: '' }), { kind: 'layout', uri: 'file:///w/p.layout', position: { line: 0, character: 0 } });
  // a bad position is dropped; with no name left, the cursor is used
  assert.deepEqual(parseShowLayoutArg({ uri: 'file:///w/p.layout', name: 'C', position: { line: -1, character: 0 } }), { kind: 'layout', uri: 'file:///w/p.layout', name: 'C' });
  assert.deepEqual(parseShowLayoutArg({ uri: 'file:///w/p.layout', position: { line: 1.5, character: 0 } }), { kind: 'cursor' });
  // the palette passes nothing; the editor title menu passes the file's URI (an object without `uri`)
  for (const arg of [undefined, null, 'C', 42, { scheme: 'file', path: '/w/p.layout' }, { uri: 7, name: 'C' }]) {
    assert.deepEqual(parseShowLayoutArg(arg), { kind: 'cursor' }, JSON.stringify(arg));
  }
});

test('emit targets from the server\'s document symbols; code lenses off, or without emit lenses when untrusted', () => {
  assert.deepEqual(emitTargetsOfSymbols([
    { name: 'M', detail: 'param = 8' }, { name: 'k', detail: 'target cuda template "t.cu"' },
    { name: 's', detail: 'for linalg.matmul(M, N, K) on sm_90' }, { name: 'k2', detail: 'target cuda builtin matmul' },
  ]), ['cuda', 'mlir']);
  assert.deepEqual(emitTargetsOfSymbols([{ name: 'L', detail: 'layout' }]), []);
  assert.deepEqual(emitTargetsOfSymbols(undefined), []);
  // the cursor in a block of another target: one short message naming the command that works
  const syms = [{ name: 'k', detail: 'target cuda builtin matmul' }, { name: 's', detail: 'for linalg.matmul(M, N, K)' }];
  assert.equal(wrongTargetMessage(syms, 'k', 'triton'), 'Layout: k emits CUDA, not Triton; run "Layout: Emit CUDA".');
  assert.equal(wrongTargetMessage(syms, 's', 'cuda'), 'Layout: s emits MLIR, not CUDA; run "Layout: Emit MLIR".');
  assert.equal(wrongTargetMessage(syms, 'k', 'cuda'), undefined);
  assert.equal(wrongTargetMessage(syms, 'x', 'cuda'), undefined);
  const lenses = [{ command: { command: 'layout.showLayout' } }, { command: { command: 'layout.emit' } }];
  assert.deepEqual(visibleLenses(lenses, true, true), lenses);
  assert.deepEqual(visibleLenses(lenses, true, false), [lenses[0]]);
  assert.deepEqual(visibleLenses(lenses, false, true), []);
  assert.deepEqual(visibleLenses(null, true, true), []);
});

test('the server\'s environment: the caller\'s, with glibc\'s mmap threshold fixed at 128 KiB unless the user set one', () => {
  assert.deepEqual(serverEnvironment({ PATH: '/usr/bin', HOME: '/h' }), { PATH: '/usr/bin', HOME: '/h', MALLOC_MMAP_THRESHOLD_: '131072' });
  assert.deepEqual(serverEnvironment({ MALLOC_MMAP_THRESHOLD_: '65536' }), { MALLOC_MMAP_THRESHOLD_: '65536' });
});
