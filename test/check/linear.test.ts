// `linear` declarations: elaboration to F2 layouts, diagnostics with codes and ranges, the bank
// conflict warning with its swizzle quick fix, and LEGO layouts as linear layouts (their F2
// matrix equals numeric apply on random power-of-two layouts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { analyze } from '../../server/src/check/index.js';
import { parse, resolve } from '../../grammar/src/index.js';
import { elaborate } from '../../server/src/check/elaborate.js';
import { checkLinear, legoAsLinear } from '../../server/src/check/linear.js';
import * as A from '../../server/src/algebra/index.js';
import { randomLayout } from '../algebra/support/random-layouts.js';

function diags(text: string) {
  return analyze(text).diagnostics.filter((d) => d.code.startsWith('linear/')).map((d) => ({ code: d.code, at: text.slice(d.range.start, d.range.end), message: d.message }));
}
function linears(text: string) {
  const p = parse(text);
  const r = resolve(p.file, p.lines);
  return checkLinear(p.file, r, elaborate(p.file, r).model).linears;
}

test('the four constructors of the issue elaborate to Triton bases', () => {
  const text = [
    'param K = 64',
    'linear T = blocked(shape=[16, K], sizePerThread=[1, 8], threadsPerWarp=[4, 8], warpsPerCTA=[1, 1], order=[1, 0])',
    'linear S = swizzled(shape=[16, 64], vec=8, perPhase=1, maxPhase=8, order=[1, 0])',
    'linear M = mma(version=2, shape=[16, 64], warpsPerCTA=[1, 1], operand=acc)',
    'linear L = bases(shape=[16, 16], register=[[0, 1], [1, 0]], lane=[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp=[[8, 0]])',
    '',
  ].join('\n');
  assert.deepEqual(analyze(text).diagnostics, []);
  const l = linears(text);
  assert.deepEqual(l.get('T')!.layout!.toBases(), { register: [[0, 1], [0, 2], [0, 4], [4, 0], [8, 0]], lane: [[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]], warp: [] });
  assert.deepEqual(l.get('S')!.layout!.basesOf('offset').slice(6), [[1, 8], [2, 16], [4, 32], [8, 0]]);
  assert.equal(l.get('S')!.kind, 'shared');
  assert.equal(l.get('S')!.class, 'F2-linear');
  assert.deepEqual(l.get('M')!.layout!.basesOf('register'), [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32]]);
  assert.equal(l.get('L')!.kind, 'distributed');
  assert.equal(l.get('L')!.class, 'F2-linear'); // lane (1,0) and register (1,0) repeat: not a permutation
});

test('diagnostics: codes, ranges and messages', () => {
  assert.deepEqual(diags('linear A = blocky(shape=[4])\n'), [{ code: 'linear/unknown-constructor', at: 'blocky', message: "unknown layout 'blocky': expected blocked, swizzled, mma, sliced or bases" }]);
  assert.deepEqual(diags('linear A = swizzled(shape=[4, 4], vec=1, perPhase=1, maxPhase=1)\n'), [{ code: 'linear/missing-attribute', at: 'swizzled', message: "swizzled(...) needs 'order='" }]);
  assert.deepEqual(diags('linear A = swizzled(shape=[4, 4], vec=1, perPhase=1, maxPhase=1, order=[1, 0], colour=3)\n'), [{ code: 'linear/unknown-attribute', at: 'colour', message: "swizzled has no attribute 'colour': expected shape, vec, perPhase, maxPhase, order" }]);
  assert.deepEqual(diags('linear A = swizzled(shape=[4, 6], vec=1, perPhase=1, maxPhase=1, order=[1, 0])\n'), [{ code: 'linear/invalid', at: 'shape=[4, 6]', message: 'shape entry 6 is not a power of two' }]);
  assert.deepEqual(diags('linear A = mma(version=4, shape=[16, 8], warpsPerCTA=[1, 1], operand=acc)\n'), [{ code: 'linear/bad-attribute', at: '4', message: 'version = 4: expected 2 (mma.sync, Ampere) or 3 (wgmma, Hopper)' }]);
  assert.deepEqual(diags('linear A = bases(shape=[4], offset=[[1], [1]])\n'), [{ code: 'linear/not-bijective', at: 'A', message: "shared layout 'A' is not a bijection: rank 1 of 2 bits, so some elements share an offset or are never stored" }]);
  assert.deepEqual(diags('linear A = bases(shape=[4], offset=[[1], [4]])\n'), [{ code: 'linear/invalid', at: 'offset=[[1], [4]]', message: 'basis [4] of offset: coordinate 4 is outside [0, 4)' }]);
  assert.deepEqual(diags('linear A = bases(shape=[4], register=[[1]], lane=[[2]], load=B, elemBytes=4)\n'), [{ code: 'linear/not-memory', at: 'B', message: "'B' is not a layout of this file" }]);
  assert.deepEqual(diags('linear A = bases(shape=[4], register=[[1]], lane=[[2]], elemBytes=4)\n'), [{ code: 'linear/bad-attribute', at: 'elemBytes', message: 'elemBytes= describes an access: add store=M or load=M' }]);
});

test('sliced(parent=T, dim=d): Triton\'s slice layout of an earlier distributed layout', () => {
  const text = [
    'linear M = mma(version=2, shape=[128, 1], warpsPerCTA=[2, 2], operand=acc)',
    'linear S = sliced(parent=M, dim=1)',
    'linear R = sliced(parent=M, dim=0)',
    '',
  ].join('\n');
  assert.deepEqual(analyze(text).diagnostics, []);
  const l = linears(text);
  assert.equal(l.get('S')!.kind, 'distributed');
  assert.deepEqual(l.get('S')!.layout!.toBases(), { register: [[8], [32], [64]], lane: [[0], [0], [1], [2], [4]], warp: [[0], [16]] });
  assert.deepEqual(l.get('S')!.layout!.shape, [128]);
  // along dim 1 (size 1) nothing moves: every register basis is zero and dropped
  assert.deepEqual(l.get('R')!.layout!.toBases(), { register: [], lane: [[0], [0], [0], [0], [0]], warp: [[0], [0]] });
  const T = 'linear T = blocked(shape=[4, 4], sizePerThread=[1, 1], threadsPerWarp=[4, 4], warpsPerCTA=[1, 1], order=[1, 0])\n';
  assert.deepEqual(diags(T + 'linear S = sliced(parent=T, dim=2)\n'), [{ code: 'linear/invalid', at: 'dim=2', message: 'slice dim 2 is outside [0, 2)' }]);
  assert.deepEqual(diags(T + 'linear S = sliced(parent=T)\n'), [{ code: 'linear/missing-attribute', at: 'sliced', message: "sliced(...) needs 'dim='" }]);
  assert.deepEqual(diags('linear S = sliced(parent=T, dim=0)\n' + T), [{ code: 'linear/bad-attribute', at: 'T', message: "'T' has errors or is declared after this layout: fix it or declare it first" }]);
  assert.deepEqual(diags('linear S = sliced(parent=Q, dim=0)\n'), [{ code: 'linear/bad-attribute', at: 'Q', message: "'Q' is not a linear layout of this file" }]);
  assert.deepEqual(diags('linear S = sliced(parent=[1], dim=0)\n'), [{ code: 'linear/bad-attribute', at: '[1]', message: 'parent= names a distributed linear layout declared above' }]);
  assert.deepEqual(diags('linear W = swizzled(shape=[4, 4], vec=1, perPhase=1, maxPhase=1, order=[1, 0])\nlinear S = sliced(parent=W, dim=0)\n'), [{ code: 'linear/bad-attribute', at: 'W', message: "'W' is a shared layout (offset): a slice needs a distributed parent (register/lane/warp)" }]);
  assert.deepEqual(diags(T + 'linear U = sliced(parent=T, dim=0)\nlinear V = sliced(parent=U, dim=0)\n'), [{ code: 'linear/invalid', at: 'dim=0', message: 'cannot slice a 1-D layout: no dims would remain' }]);
});

test('bank conflict warning on load=, with the swizzle quick fix replacing the memory layout', () => {
  const text = [
    'layout S = OrderBy(Row(32, 32)).GroupBy([32, 32])',
    'linear W = bases(shape=[32, 32], register=[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], lane=[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], store=S, elemBytes=4)',
    'linear R = bases(shape=[32, 32], register=[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], lane=[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], load=S, elemBytes=4, vec=1)',
    '',
  ].join('\n');
  const ds = analyze(text).diagnostics;
  assert.equal(ds.length, 1);
  const d = ds[0];
  assert.equal(d.code, 'linear/bank-conflict');
  assert.equal(d.severity, 'warning');
  assert.equal(text.slice(d.range.start, d.range.end), 'load=S');
  assert.equal(d.message, "load through 'S': 32 wavefronts per instruction, minimum 1 (32-way bank conflict); lanes 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31 hit bank 0 at distinct words (1 × 4 B per lane)");
  assert.deepEqual(d.fixes, [{
    title: "Replace 'S' with the synthesized swizzle (write 1, read 1 wavefronts)",
    edits: [{ range: { start: 0, end: text.indexOf('\n') }, newText: 'linear S = swizzled(shape=[32, 32], vec=1, perPhase=1, maxPhase=32, order=[1, 0])' }],
  }]);
  // after the fix: no conflict
  const fixed = d.fixes![0].edits[0].newText + text.slice(text.indexOf('\n'));
  assert.deepEqual(analyze(fixed).diagnostics, []);
});

test('a memory layout whose GenP fails at some point: linear/access at the access, not an internal error (a fuzz campaign found one)', () => {
  const text = 'const T = 32\nperm bad(m)[i, j] = m * i + (j ^ i) inverse(x) = [x / (m - 32), x % m]\n' +
    'layout Smem = OrderBy(GenP([T, T], bad(T))).GroupBy([T, T])\n' +
    'linear Ld = bases(shape=[32, 32], register=[[0, 8], [0, 16]], lane=[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp=[[0, 1], [0, 2], [0, 4]], load=Smem, elemBytes=4)\n';
  const a = analyze(text);
  assert.deepEqual(a.diagnostics.map((d) => [d.code, text.slice(d.range.start, d.range.end), d.message]), [
    ['genp/eval-error', 'bad(T)', 'bad(T): evaluating at [0, 0] failed: division by zero'],
    ['linear/access', 'load=Smem', "'Smem' cannot be evaluated: division by zero"],
  ]);
});

test('LEGO layouts with power-of-two extents: the F2 matrix equals numeric apply', () => {
  let tried = 0;
  fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
    const t = randomLayout(seed);
    if (t.layout.kind === 'ExpandBy') return;
    const dims = A.dims(t.layout).map((d) => A.evalDim(d, t.env));
    if (!dims.every((d) => (d & (d - 1)) === 0)) return;
    tried++;
    const m = legoAsLinear('L', undefined as never, t.layout, t.env);
    const tab = A.applyTable(t.layout, t.env);
    if (m.class === 'not linear') {
      const c = m.counterexample!;
      const p = A.prepare(t.layout, t.env);
      const f = (x: number) => A.invPrepared(p, x);
      assert.notDeepEqual(f(c.x ^ c.y), f(c.x).map((v, k) => v ^ f(c.y)[k]));
      return;
    }
    const L = m.layout!;
    // apply maps logical (row-major flat f) -> offset; the layout maps offset -> logical
    tab.forEach((off, f) => {
      const coord: number[] = [];
      let r = f;
      for (let k = dims.length - 1; k >= 0; k--) {
        coord[k] = r % dims[k];
        r = Math.floor(r / dims[k]);
      }
      const got = L.apply({ offset: off });
      assert.deepEqual(m.offset ? got.map((v, k) => v ^ m.offset![k]) : got, coord, t.describe);
    });
  }), { numRuns: 300 });
  assert.ok(tried > 20, `only ${tried} power-of-two layouts`);
});

test('the incremental analysis reports the same linear diagnostics as analyze, also after an edit', async () => {
  const { IncrementalAnalysis } = await import('../../server/src/service/incremental.js');
  const { readFileSync } = await import('node:fs');
  const text = readFileSync(new URL('../../examples/swizzle.layout', import.meta.url), 'utf8');
  const inc = new IncrementalAnalysis();
  const key = (ds: { code: string; range: { start: number; end: number }; message: string }[]) => ds.map((d) => `${d.code}@${d.range.start}-${d.range.end}: ${d.message}`).sort();
  assert.deepEqual(key(inc.diagnose(text).diagnostics), key(analyze(text).diagnostics));
  assert.ok(key(analyze(text).diagnostics).some((k) => k.startsWith('linear/bank-conflict')));
  // the edit removes the conflict: Tile becomes the swizzle
  const edited = text.replace('layout Tile = OrderBy(Row(T, T)).GroupBy([T, T])', 'linear Tile = swizzled(shape=[32, 32], vec=1, perPhase=1, maxPhase=32, order=[1, 0])');
  assert.notEqual(edited, text);
  assert.deepEqual(key(inc.diagnose(edited).diagnostics), key(analyze(edited).diagnostics));
  assert.ok(!key(analyze(edited).diagnostics).some((k) => k.startsWith('linear/bank-conflict')));
});
