// Index width (docs/codegen.md, "Index width"): every emitted expression has known ranges; CUDA computes
// in 64 bits where an intermediate can leave `int`, Triton reports `emit/index-overflow`, and a param
// beyond 32 bits is `emit/value-too-large` for CUDA. The transpose at n = 65536 (n*n = 2^32) compiles with
// nvcc; bench/gpu/transpose64.sh ran it on a GPU (bench/results/gpu-transpose64.txt).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import * as X from '../../server/src/expr/index.js';
import type { Expr } from '../../server/src/expr/node.js';
import { buildEmitModel, emitBlock, emitFile } from '../../server/src/codegen/index.js';
import { magnitude } from '../../server/src/codegen/ranges.js';
import { findNvcc, nvccCompile } from './tools.js';

const root = resolve(import.meta.dirname, '../..');
const transpose = readFileSync(join(root, 'examples/transpose.layout'), 'utf8');
const withN = (n: string) => transpose.replace('param n = 8192 in [2048, 4096, 8192]', `param n = ${n}`);

function emitCuda(text: string) {
  return emitFile(buildEmitModel(text, '/ws/transpose.layout', { sourceLabel: 'transpose.layout' }), 'cuda');
}
const line = (content: string, needle: string) => content.split('\n').find((l) => l.includes(needle))!.trim();

test('the CUDA transpose at n = 65536 indexes in 64 bits; at 8192 in int', () => {
  const big = emitCuda(withN('65536'));
  assert.deepEqual(big.diagnostics, []);
  const naive = big.files.find((f) => f.relPath === 'transpose_naive.cu')!.content;
  assert.equal(line(naive, 'out['),
    'out[32*((long long)by) + ((long long)jj) + ((long long)n)*(32*((long long)bx) + ((long long)tx)) + ((long long)ty)] = ' +
    'in[32*((long long)bx) + ((long long)n)*(32*((long long)by) + ((long long)jj) + ((long long)ty)) + ((long long)tx)];');
  const smem = big.files.find((f) => f.relPath === 'transpose_smem.cu')!.content;
  // the shared-memory tile stays small: int
  assert.equal(line(smem, 'tile[jj'), 'out[32*((long long)by) + ((long long)n)*(32*((long long)bx) + ((long long)jj) + ((long long)ty)) + ((long long)tx)] = tile[jj + 33*tx + ty];');
  const small = emitCuda(withN('8192'));
  assert.equal(line(small.files[0].content, 'out['), 'out[32*by + jj + n*(32*bx + tx) + ty] = in[32*bx + n*(32*by + jj + ty) + tx];');
  // the largest tuning candidate counts: 8192 in [2048, 46341] reaches 46341^2 > 2^31 - 1
  const cand = emitCuda(transpose.replace('param n = 8192 in [2048, 4096, 8192]', 'param n = 8192 in [2048, 46368]'));
  assert.match(line(cand.files[0].content, 'out['), /long long/);
});

test('the 64-bit transpose compiles with nvcc (sm_90, sm_80)', (t) => {
  const nvcc = findNvcc();
  if (!nvcc) return t.skip('nvcc not found (PATH, /usr/local/cuda/bin): emitted CUDA not compiled');
  const dir = mkdtempSync(join(tmpdir(), 'layout-i64-'));
  try {
    for (const f of emitCuda(withN('65536')).files) {
      const p = join(dir, f.relPath);
      writeFileSync(p, f.content);
      for (const flags of [[], ['-DLAYOUT_HOST_MAIN']]) {
        const r = nvccCompile(nvcc, p, p + '.o', flags);
        assert.ok(r.ok, `${r.command}\n${r.output}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a param beyond 32 bits is not emitted into CUDA (no `const int n = 8589934592`)', () => {
  const r = emitCuda(withN('8589934592'));
  assert.deepEqual(r.files, []);
  const codes = r.diagnostics.filter((d) => d.code === 'emit/value-too-large').map((d) => d.message);
  assert.deepEqual(codes, [
    "param n = 8589934592 does not fit CUDA's 32-bit int (at most 2^31 - 1 = 2147483647), which the generated code declares it as ({{ param_n }}); use a smaller value",
    "param n = 8589934592 does not fit CUDA's 32-bit int (at most 2^31 - 1 = 2147483647), which the generated code declares it as ({{ param_n }}); use a smaller value",
  ]);
});

test('Triton: an offset beyond int32 is an error at the binding', () => {
  const src = readFileSync(join(root, 'examples/softmax.layout'), 'utf8').replace('param n_rows = 4096, n_cols = 1024', 'param n_rows = 4194304, n_cols = 1024');
  const m = buildEmitModel(src, '/ws/softmax.layout');
  const r = emitBlock(m, 'softmax', 'triton');
  assert.deepEqual(r.files, []);
  const d = r.diagnostics.find((x) => x.code === 'emit/index-overflow')!;
  assert.equal(d.message, "`input_offset` computes values up to 4294970367 (a 34-bit signed value), beyond Triton's 32-bit program ids and tl.arange (2^31 - 1 = 2147483647): it would wrap around; use smaller sizes or split the tensor");
  assert.equal(src.slice(d.range.start, d.range.end), 'X[row_idx, 0:BLOCK_SIZE]');
});

// magnitude() is sound: no intermediate of any point of the box exceeds it (brute force over small boxes)
const atom = fc.oneof(fc.constantFrom('a', 'b').map((s) => X.sym(s)), fc.integer({ min: -9, max: 9 }).map((v) => X.int(BigInt(v))));
const exprArb: fc.Arbitrary<Expr> = fc.letrec<{ e: Expr }>((tie) => ({
  e: fc.oneof({ depthSize: 'small', withCrossShrink: true },
    atom,
    fc.tuple(tie('e'), tie('e')).map(([x, y]) => X.add(x, y)),
    fc.tuple(tie('e'), tie('e')).map(([x, y]) => X.mul(x, y)),
    fc.tuple(tie('e'), fc.integer({ min: 1, max: 7 })).map(([x, d]) => X.floorDiv(x, X.int(BigInt(d)))),
    fc.tuple(tie('e'), fc.integer({ min: 1, max: 7 })).map(([x, d]) => X.mod(x, X.int(BigInt(d)))),
    fc.tuple(tie('e'), tie('e')).map(([x, y]) => X.min(x, y))),
})).e;

function worstAt(e: Expr, env: Map<string, bigint>): bigint {
  let worst = 0n;
  const abs = (v: bigint) => (v < 0n ? -v : v);
  const visit = (x: Expr): void => {
    const v = abs(X.evaluate(x, env));
    if (v > worst) worst = v;
    if (x.kind === 'add') {
      let acc = x.constant;
      for (const t of x.terms) { acc += X.evaluate(t, env); if (abs(acc) > worst) worst = abs(acc); visit(t); }
    } else if (x.kind === 'mul') {
      let acc = x.coef;
      for (const f of x.factors) { acc *= X.evaluate(f, env); if (abs(acc) > worst) worst = abs(acc); visit(f); }
    } else if (x.kind === 'floordiv' || x.kind === 'mod') { visit(x.a); visit(x.b); }
    else if (x.kind === 'min' || x.kind === 'max') x.args.forEach(visit);
  };
  visit(e);
  return worst;
}

test('magnitude bounds every intermediate (property, brute force)', () => {
  fc.assert(fc.property(exprArb, fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 }), (e, ha, hb) => {
    const bound = magnitude(e, new Map([['a', { lo: 0n, hi: BigInt(ha) }], ['b', { lo: 0n, hi: BigInt(hb) }]]), new Map());
    assert.ok(bound !== undefined);
    for (let a = 0; a <= ha; a++) for (let b = 0; b <= hb; b++) {
      const w = worstAt(e, new Map([['a', BigInt(a)], ['b', BigInt(b)]]));
      assert.ok(w <= bound!, `${X.printPython(e)} at a=${a}, b=${b}: ${w} > ${bound}`);
    }
  }), { seed: 10, numRuns: 300 });
  // an unbounded symbol: unknown
  assert.equal(magnitude(X.add(X.sym('a'), X.sym('z')), new Map([['a', { lo: 0n, hi: 3n }]]), new Map()), undefined);
});
