// `layout emit --out -` (standard output) and `--gpu-target` validation, through the built CLI
// (dist/cli.js): the printed text is exactly what `--out DIR` writes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');
const cli = join(root, 'dist/cli.js');
let dir = '';

function layout(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

before(() => {
  assert.ok(existsSync(cli), 'dist/cli.js is missing: run `node scripts/build.mjs` first');
  dir = mkdtempSync(join(tmpdir(), 'layout-emit-out-'));
  for (const f of ['matmul.layout', 'gemm-schedule.layout']) writeFileSync(join(dir, f), readFileSync(join(root, 'examples', f)));
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('--out - prints the one file to stdout, byte for byte what --out DIR writes, and writes nothing', () => {
  const printed = layout('emit', 'matmul.layout', '--kernel', 'matmul', '--out', '-');
  assert.equal(printed.code, 0);
  assert.equal(printed.err, '');
  assert.deepEqual(readdirSync(dir).sort(), ['gemm-schedule.layout', 'matmul.layout']);
  const written = layout('emit', 'matmul.layout', '--kernel', 'matmul', '--out', 'gen');
  assert.equal(written.code, 0);
  assert.equal(printed.out, readFileSync(join(dir, 'gen/matmul.py'), 'utf8'));
});

test('--out - with several files: each after a `==> NAME <==` line', () => {
  const printed = layout('emit', 'gemm-schedule.layout', '--target', 'mlir', '--out', '-');
  assert.equal(printed.code, 0, printed.err);
  const written = layout('emit', 'gemm-schedule.layout', '--target', 'mlir', '--out', 'mlir');
  assert.equal(written.code, 0, written.err);
  const names = readdirSync(join(dir, 'mlir')).sort();
  assert.deepEqual(names, ['gemm.payload.mlir', 'gemm.transform.mlir']);
  assert.equal(printed.out, names.map((n, i) => `${i > 0 ? '\n' : ''}==> ${n} <==\n${readFileSync(join(dir, 'mlir', n), 'utf8')}`).join(''));
});

test('unknown --gpu-target values are usage errors naming the valid ones, in emit and check', () => {
  for (const bad of ['foo', 'sm_100', 'SM_90', '']) {
    const line = `layout: unknown --gpu-target '${bad}' (use sm_80, sm_86, sm_89, sm_90 or cpu)\n`;
    assert.deepEqual(layout('emit', 'gemm-schedule.layout', '--target', 'mlir', '--out', '-', '--gpu-target', bad), { code: 2, out: '', err: line }, bad);
    assert.deepEqual(layout('check', 'gemm-schedule.layout', '--gpu-target', bad), { code: 2, out: '', err: line }, bad);
  }
  assert.equal(layout('emit', 'gemm-schedule.layout', '--target', 'mlir', '--out', '-', '--gpu-target', 'sm_86').code, 0);
  assert.deepEqual(layout('emit', 'matmul.layout', '--kernel', 'matmul'), { code: 2, out: '', err: 'layout: give --out DIR\n' });
});
