// The heap settings (server/src/lsp/heap.ts) as the server applies them, in a child process with a
// worker like the analysis worker: the main thread's young generation stays at its first size, also
// after the worker started (setting up an isolate resets V8's semi-space growth factor, so the worker
// applies the settings again), and the worker's young generation has its full size from the start.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { root } from './harness.js';

let dir = '';
let heapJs = '';
before(() => {
  // heap.ts as CommonJS, which a worker loads without a TypeScript loader
  dir = mkdtempSync(join(tmpdir(), 'layout-heap-'));
  heapJs = join(dir, 'heap.cjs');
  buildSync({ entryPoints: [join(root, 'server/src/lsp/heap.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: heapJs, logLevel: 'silent' });
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** new-space sizes (MB, both semi-spaces) of the main thread and a worker after both allocated much */
function newSpaces(configured: boolean): { main: number; worker: number } {
  const common = `
    const heap = require(${JSON.stringify(heapJs)});
    const newSpace = () => require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 2 ** 20;
    const churn = () => { const keep = []; for (let r = 0; r < 60; r++) { const a = []; for (let i = 0; i < 40000; i++) a.push({ i, s: 'x' + i }); keep.push(a.slice(0, 3000)); } return keep.length; };
    if (${configured}) heap.configureHeap();`;
  const worker = `${common}
    churn();
    require('node:worker_threads').parentPort.postMessage(newSpace());`;
  const main = `${common}
    const w = new (require('node:worker_threads').Worker)(${JSON.stringify(worker)}, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: heap.WORKER_YOUNG_GENERATION_MB } });
    w.on('message', (workerMb) => { churn(); console.log(JSON.stringify({ main: newSpace(), worker: workerMb })); void w.terminate(); });`;
  const r = spawnSync(process.execPath, ['-e', main], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as { main: number; worker: number };
}

test("the main thread's young generation stays small after the worker starts; the worker's has its full size", () => {
  const configured = newSpaces(true);
  // two semi-spaces of 1 MB (2 MB where a collection fell while the worker's isolate was set up)
  assert.ok(configured.main <= 4, `main thread new space ${configured.main} MB`);
  assert.equal(configured.worker, 16);
  // V8's own sizing, for comparison: the main thread's grows to 2 x 16 MB
  assert.equal(newSpaces(false).main, 32);
});
