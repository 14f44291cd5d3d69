// The built-in templates on their own: embedded up to date, exactly the documented placeholders,
// and, filled with the LEGO reference strings (test/expr/goals.ts; the transpose
// expressions written out by hand), they compile with nvcc / py_compile.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinKernels, builtinSource, findBuiltin } from '../../server/src/codegen/builtins.js';
import { renderTemplate, scanTemplate } from '../../server/src/codegen/template.js';
import { findNvcc, findPython, nvccCompile, pyCompile } from './tools.js';

const NW_C = '((i + j - n <= -1) ? (\n   i*j + i + ((i*i + i + j*j + j)/(2))\n)\n: (\n   -i*j + 2*i*n + i + 2*j*n - n*n + 2*n - ((i*i + 3*i + j*j + 3*j)/(2)) - 1\n))';

/** LEGO's shipped strings (§12.2, §12.3) and hand-derived transpose indices. */
export const REFERENCE_BINDINGS: Record<string, Record<string, string>> = {
  matmul: {
    pid_m: 'pid % min(GM, num_pid_m) + (((pid)//(num_pid_n*min(GM, num_pid_m))) % max(1, ((num_pid_m)//(GM))))*min(GM, num_pid_m)',
    pid_n: '((pid % (num_pid_n*min(GM, num_pid_m)))//(min(GM, num_pid_m)))',
    offset_aptrs: 'BK*k + K*(BM*pid_m + ((tl.arange(0, BM))[:, None])) + ((tl.arange(0, BK))[None, :])',
    offset_bptrs: 'BN*pid_n + N*(BK*k + ((tl.arange(0, BK))[:, None])) + ((tl.arange(0, BN))[None, :])',
    offset_cptrs: 'BN*pid_n + N*(BM*pid_m + ((tl.arange(0, BM))[:, None])) + ((tl.arange(0, BN))[None, :])',
    param_M: '4096', param_N: '4096', param_K: '4096', param_BM: '128', param_BN: '256', param_BK: '64', param_GM: '8',
  },
  softmax: {
    input_offset: 'n_cols*row_idx + tl.arange(0, BLOCK_SIZE)',
    output_offset: 'n_cols*row_idx + tl.arange(0, BLOCK_SIZE)',
    param_n_rows: '4096', param_n_cols: '1000',
  },
  transpose_naive: {
    tile: '32', rows: '8', param_n: '4096',
    in_index: 'n*(32*by + jj + ty) + 32*bx + tx',
    out_index: 'n*(32*bx + tx) + 32*by + jj + ty',
  },
  transpose_smem: {
    tile: '32', rows: '8', smem_size: '1056', param_n: '4096',
    in_index: 'n*(32*by + jj + ty) + 32*bx + tx',
    smem_store: '33*(jj + ty) + tx',
    smem_load: '33*tx + jj + ty',
    out_index: 'n*(32*bx + jj + ty) + 32*by + tx',
  },
  transpose_swizzle: {
    tile: '32', rows: '8', smem_size: '1024', param_n: '8192',
    in_index: '32*bx + n*(32*by + jj + ty) + tx',
    smem_store: '32*jj + 32*ty + (tx ^ (jj + ty))',
    smem_load: '32*tx + (tx ^ (jj + ty))',
    out_index: '32*by + n*(32*bx + jj + ty) + tx',
  },
  nw_antidiag: { block_size: '16', expr: NW_C },
};

test('builtin-sources.ts is up to date with the .tmpl files', () => {
  const r = spawnSync(process.execPath, ['server/src/codegen/templates/embed.mjs', '--check'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});

test('each built-in has exactly its documented placeholders and no template problems', () => {
  const names = builtinKernels().map((b) => b.name);
  assert.deepEqual(names, ['matmul', 'softmax', 'transpose_naive', 'transpose_smem', 'transpose_swizzle', 'nw_antidiag']);
  for (const b of builtinKernels()) {
    const t = scanTemplate(builtinSource(b));
    assert.deepEqual(t.problems, [], b.name);
    assert.deepEqual([...new Set(t.placeholders.map((p) => p.name))].sort(), Object.keys(REFERENCE_BINDINGS[b.name]).sort(), b.name);
  }
  assert.equal(findBuiltin('nope'), undefined);
  assert.equal(findBuiltin('matmul')?.target, 'triton');
  assert.equal(findBuiltin('nw_antidiag')?.target, 'cuda');
});

test('the NW template wraps the generated expression in antiDiagPermLEGO', () => {
  const r = renderTemplate(scanTemplate(builtinSource(findBuiltin('nw_antidiag')!)), REFERENCE_BINDINGS.nw_antidiag);
  assert.ok(r.ok);
  assert.ok(r.text.includes(`__host__ __device__ int antiDiagPermLEGO(int n, int i, int j) {\n  return ${NW_C};\n}`));
  assert.ok(r.text.includes('return buff[antiDiagPermLEGO(TILE_N, i, j)];'));
});

test('filled with the reference strings, every built-in compiles (nvcc sm_90 + sm_80, py_compile)', (t) => {
  const nvcc = findNvcc();
  const python = findPython();
  const dir = mkdtempSync(join(tmpdir(), 'layout-builtins-'));
  try {
    let ran = 0;
    for (const b of builtinKernels()) {
      const r = renderTemplate(scanTemplate(builtinSource(b)), REFERENCE_BINDINGS[b.name]);
      assert.ok(r.ok, b.name);
      const file = join(dir, b.name + b.ext);
      writeFileSync(file, r.text);
      if (b.ext === '.cu') {
        if (!nvcc) continue;
        for (const flags of [[], ['-DLAYOUT_HOST_MAIN']]) {
          const c = nvccCompile(nvcc, file, join(dir, `${b.name}.o`), flags);
          assert.ok(c.ok, `${c.command}\n${c.output}`);
        }
        ran++;
      } else {
        if (!python) continue;
        const c = pyCompile(python, file);
        assert.ok(c.ok, `${c.command}\n${c.output}`);
        ran++;
      }
    }
    const missing = [!nvcc && 'nvcc', !python && 'python3'].filter(Boolean);
    if (missing.length) t.skip(`${missing.join(' and ')} not found: ${ran} of ${builtinKernels().length} templates compiled`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
