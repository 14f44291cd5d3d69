// Every kernel the examples emit compiles with the real tools: nvcc (sm_90 and sm_80, with and
// without the self-checking host main) for .cu, `python3 -m py_compile` for Triton. Each test
// skips with a visible reason when its tool is missing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildEmitModel, emitFile, type EmittedFile } from '../../server/src/codegen/index.js';
import { findNvcc, findPython, nvccCompile, pyCompile } from './tools.js';

const root = resolve(import.meta.dirname, '../..');

function emitted(target: 'cuda' | 'triton'): EmittedFile[] {
  const out: EmittedFile[] = [];
  for (const name of readdirSync(join(root, 'examples')).filter((n) => n.endsWith('.layout')).sort()) {
    const path = join(root, 'examples', name);
    const r = emitFile(buildEmitModel(readFileSync(path, 'utf8'), path, { sourceLabel: `examples/${name}` }), target, {
      templateRoot: root,
      readTemplate: (p) => readFileSync(p, 'utf8'),
    });
    assert.deepEqual(r.diagnostics.filter((d) => d.severity === 'error'), [], name);
    out.push(...r.files);
  }
  return out;
}

test('every emitted .cu compiles with nvcc for sm_90 and sm_80', (t) => {
  const files = emitted('cuda');
  assert.deepEqual(files.map((f) => f.relPath).sort(), ['nw.cu', 'transpose_naive.cu', 'transpose_smem.cu', 'transpose_swizzle.cu']);
  const nw = files.find((f) => f.relPath === 'nw.cu')!.content;
  assert.match(nw, /int antiDiagPermLEGO\(int n, int i, int j\) \{\n(  const auto lx0_\d+ = [^\n]+;\n)*  return \(\(i \+ j - n <= -1\) \? /);
  for (const f of files.filter((x) => x.relPath.startsWith('transpose'))) {
    assert.match(f.content, f.relPath === 'transpose_naive.cu' ? /\n    out\[[^\]\n]+\] = in\[[^\]\n]+\];\n/ : /\n    out\[[^\]\n]+\] = tile\[[^\]\n]+\];\n/, f.relPath);
    assert.ok(!/\{\{|\}\}/.test(f.content), `${f.relPath} has no leftover tags`);
  }
  const nvcc = findNvcc();
  if (!nvcc) return t.skip('nvcc not found (PATH, /usr/local/cuda/bin): emitted CUDA not compiled');
  const dir = mkdtempSync(join(tmpdir(), 'layout-cu-'));
  try {
    for (const f of files) {
      const p = join(dir, f.relPath);
      writeFileSync(p, f.content);
      for (const flags of [[], ['-DLAYOUT_HOST_MAIN']]) {
        const r = nvccCompile(nvcc, p, `${p}.o`, flags);
        assert.ok(r.ok, `${r.command}\n${r.output}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every emitted Triton file passes python3 -m py_compile', (t) => {
  const files = emitted('triton');
  assert.deepEqual(files.map((f) => f.relPath).sort(), ['matmul.py', 'softmax.py']);
  for (const f of files) {
    assert.ok(f.content.includes('\nif __name__ == "__main__":\n    sys.exit(_main(sys.argv[1:]))\n'), f.relPath);
    assert.ok(f.content.includes('@triton.jit\n'), f.relPath);
    assert.ok(!/\{\{|\}\}/.test(f.content), `${f.relPath} has no leftover tags`);
  }
  const python = findPython();
  if (!python) return t.skip('python3 not found: emitted Triton not compiled');
  const dir = mkdtempSync(join(tmpdir(), 'layout-py-'));
  try {
    for (const f of files) {
      const p = join(dir, f.relPath);
      writeFileSync(p, f.content);
      const r = pyCompile(python, p);
      assert.ok(r.ok, `${r.command}\n${r.output}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
