// The analysis worker runs below the main thread (server/src/lsp/thread-priority.ts): on Linux,
// exactly one thread of the server process (the worker) has its nice value raised by WORKER_NICE,
// the main thread keeps the process's; LAYOUT_WORKER_NICE=0 leaves every thread as it is. (The
// analysis runs in a worker only with LAYOUT_ANALYSIS_THREAD=worker; by default no thread is lowered.)
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { buildServer, LspClient } from './harness.js';
import { WORKER_NICE } from '../../server/src/lsp/thread-priority.js';

before(() => buildServer());

/** nice value of every thread of process `pid`, by thread id (field 19 of /proc/PID/task/TID/stat) */
function niceValues(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8');
    // the command name (field 2) is in parentheses and may hold spaces: count fields after it
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(Number(t), Number(rest[16]));
  }
  return out;
}

async function nicesAfterAnAnalysis(env: Record<string, string>): Promise<{ pid: number; nices: Map<number, number> }> {
  const c = await LspClient.start({ env });
  try {
    // the worker starts after initialize; an analysis makes sure it runs
    await c.open(c.uri('a.layout'), 'param M = 4\nlayout L = Row(M, M)\n');
    const pid = c.proc.pid!;
    return { pid, nices: niceValues(pid) };
  } finally {
    await c.stop();
  }
}

test('the analysis worker runs WORKER_NICE below the main thread; LAYOUT_WORKER_NICE=0 leaves it', { skip: process.platform !== 'linux' }, async () => {
  const { pid, nices } = await nicesAfterAnAnalysis({ LAYOUT_ANALYSIS_THREAD: 'worker' });
  const base = nices.get(pid)!;
  const lowered = [...nices].filter(([, n]) => n !== base);
  assert.equal(lowered.length, 1, `nice values by thread: ${JSON.stringify([...nices])}`);
  assert.equal(lowered[0][1], Math.min(19, base + WORKER_NICE));
  const off = await nicesAfterAnAnalysis({ LAYOUT_ANALYSIS_THREAD: 'worker', LAYOUT_WORKER_NICE: '0' });
  assert.deepEqual(new Set(off.nices.values()), new Set([off.nices.get(off.pid)]));
  // the analysis on the main thread (the default): no thread lowered
  const main = await nicesAfterAnAnalysis({});
  assert.deepEqual(new Set(main.nices.values()), new Set([main.nices.get(main.pid)]));
});
