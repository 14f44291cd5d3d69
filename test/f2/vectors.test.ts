// Every test vector of the linear-layouts notes (reproduced there by a Python script, from the
// paper's definitions) as exact assertions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  LinearLayout, blocked, swizzled, mma, fromBases, bankConflicts, optimalSwizzle, vectorPlan, wavefrontsBrute, accessOf,
  offsetExpression, tritonAttribute, cuteSwizzle, forwardExpressions, solve, complement, NUM, BitMatrix,
  sliced, product,
} from '../../server/src/f2/index.js';

const A = blocked({ shape: [16, 16], sizePerThread: [2, 2], threadsPerWarp: [4, 8], warpsPerCTA: [2, 1], order: [1, 0] });

test('§2.1 Figure 1 layout A: bases, matrix, point checks, index expressions', () => {
  assert.deepEqual(A.toBases(), {
    register: [[0, 1], [1, 0]],
    lane: [[0, 2], [0, 4], [0, 8], [2, 0], [4, 0]],
    warp: [[8, 0]],
  });
  // rows j0..j3, i0..i3 (flattened bits 0..7), columns r0 r1 t0..t4 w0
  assert.deepEqual(A.matrix().toRows(), [
    [1, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 1, 0, 0, 0, 0, 0],
    [0, 0, 0, 1, 0, 0, 0, 0],
    [0, 0, 0, 0, 1, 0, 0, 0],
    [0, 1, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 1, 0, 0],
    [0, 0, 0, 0, 0, 0, 1, 0],
    [0, 0, 0, 0, 0, 0, 0, 1],
  ]);
  assert.deepEqual(A.apply({ lane: 1, register: 0 }), [0, 2]);
  assert.deepEqual(A.apply({ lane: 9, register: 1 }), [2, 3]);
  assert.deepEqual(A.apply({ lane: 10, register: 0 }), [2, 4]);
  assert.ok(A.isDistributed() && A.isInvertible() && A.isPermutation());
  assert.deepEqual(forwardExpressions(A), [
    '8*warp + 2*(lane >> 3) + (register >> 1)',
    '2*(lane & 7) + (register & 1)',
  ]);
});

test('§2.2 duplicate registers: a zero register column', () => {
  const A0 = A.withBases('register', [...A.basesOf('register'), [0, 0]]);
  assert.equal(A0.isInjective(), false);
  assert.deepEqual(A0.freeBits(), { register: [2], lane: [], warp: [] });
  for (let r = 0; r < 4; r++) for (let t = 0; t < 32; t++) assert.deepEqual(A0.apply({ register: r + 4, lane: t }), A0.apply({ register: r, lane: t }));
});

test('§2.3 swizzled shared layouts: row-bit bases, memory family, Def. 4.11 formula', () => {
  const cases: [number, number, number, number, number, number[][]][] = [
    [1, 1, 4, 32, 32, [[1, 1], [2, 2], [4, 0], [8, 0], [16, 0]]],
    [1, 2, 4, 32, 32, [[1, 0], [2, 1], [4, 2], [8, 0], [16, 0]]],
    [2, 1, 4, 4, 8, [[1, 2], [2, 4]]],
    [2, 2, 4, 32, 32, [[1, 0], [2, 2], [4, 4], [8, 0], [16, 0]]],
    [8, 4, 2, 8, 16, [[1, 0], [2, 0], [4, 8]]],
    [8, 2, 4, 8, 32, [[1, 0], [2, 8], [4, 16]]],
    [8, 1, 8, 8, 64, [[1, 8], [2, 16], [4, 32]]],
  ];
  const formula = (vec: number, pp: number, mp: number, i: number, j: number) => ((((Math.floor(i / pp) % mp) ^ Math.floor(j / vec)) * vec) ^ (j % vec));
  for (const [vec, perPhase, maxPhase, R, C, rows] of cases) {
    const S = swizzled({ shape: [R, C], vec, perPhase, maxPhase, order: [1, 0] });
    const jb = Math.log2(C);
    assert.deepEqual(S.basesOf('offset').slice(jb), rows, `${vec},${perPhase},${maxPhase}`);
    assert.ok(S.isMemory());
    const inv = S.invert();
    for (let i = 0; i < R; i++) for (let j = 0; j < C; j++) {
      const off = inv.apply({ dim0: i, dim1: j })[0];
      assert.equal(off, i * C + formula(vec, perPhase, maxPhase, i, j));
      // the matrix is an involution: the same bases map (i, j) -> offset
      assert.deepEqual(S.apply({ offset: i * C + j }), [i, formula(vec, perPhase, maxPhase, i, j)]);
    }
    assert.equal(tritonAttribute(S), `#ttg.swizzled_shared<{vec = ${vec}, perPhase = ${perPhase}, maxPhase = ${maxPhase === 1 ? 1 : maxPhase}, order = [1, 0]}>`.replace(/maxPhase = \d+/, `maxPhase = ${maxPhase}`));
  }
  assert.equal(formula(8, 1, 8, 3, 10), 18);
  assert.equal(formula(8, 1, 8, 5, 3), 43);
  assert.equal(formula(1, 1, 4, 3, 2), 1);
  assert.deepEqual(swizzled({ shape: [4, 8], vec: 1, perPhase: 1, maxPhase: 4, order: [0, 1] }).basesOf('offset'), [[1, 0], [2, 0], [1, 1], [2, 2], [0, 4]]);
  const S4 = swizzled({ shape: [2, 4, 32, 32], vec: 2, perPhase: 2, maxPhase: 4, order: [3, 2, 1, 0] });
  assert.deepEqual(S4.basesOf('offset').slice(5, 10).map((b) => [b[2], b[3]]), [[1, 0], [2, 2], [4, 4], [8, 0], [16, 0]]);
  assert.deepEqual(S4.basesOf('offset').slice(10), [[0, 1, 0, 0], [0, 2, 0, 0], [1, 0, 0, 0]]);
});

test('§2.4 MMA tiles', () => {
  const acc = mma({ version: 2, shape: [16, 8], warpsPerCTA: [1, 1], operand: 'acc' });
  assert.deepEqual(acc.toBases(), { register: [[0, 1], [8, 0]], lane: [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp: [] });
  for (let lane = 0; lane < 32; lane++) for (let i = 0; i < 4; i++) {
    assert.deepEqual(acc.apply({ register: i, lane }), [(lane >> 2) + 8 * (i >> 1), (lane % 4) * 2 + (i & 1)]);
  }
  assert.deepEqual(mma({ version: 2, shape: [16, 16], warpsPerCTA: [1, 1], operand: 'a' }).basesOf('register'), [[0, 1], [8, 0], [0, 8]]);
  assert.deepEqual(mma({ version: 2, shape: [32, 32], warpsPerCTA: [1, 1], operand: 'acc' }).toBases(), {
    register: [[0, 1], [8, 0], [0, 8], [0, 16], [16, 0]], lane: [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp: [],
  });
  assert.deepEqual(mma({ version: 2, shape: [16, 128], warpsPerCTA: [1, 1], operand: 'acc' }).basesOf('register'), [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [0, 64]]);
  const a8 = mma({ version: 2, shape: [16, 64], warpsPerCTA: [1, 1], operand: 'a', kWidth: 8 });
  assert.deepEqual(a8.toBases(), { register: [[0, 1], [0, 2], [0, 4], [8, 0], [0, 32]], lane: [[0, 8], [0, 16], [1, 0], [2, 0], [4, 0]], warp: [] });
  const b8 = mma({ version: 2, shape: [64, 8], warpsPerCTA: [1, 1], operand: 'b', kWidth: 8 });
  assert.deepEqual(b8.toBases(), { register: [[1, 0], [2, 0], [4, 0], [32, 0]], lane: [[8, 0], [16, 0], [0, 1], [0, 2], [0, 4]], warp: [] });
  const v3 = (shape: number[], warps: number[]) => mma({ version: 3, shape, warpsPerCTA: warps, operand: 'acc', instrShape: [16, 16, 8] });
  assert.deepEqual(v3([64, 16], [4, 1]).toBases(), {
    register: [[0, 1], [8, 0], [0, 8]], lane: [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp: [[16, 0], [32, 0]],
  });
  assert.deepEqual(v3([128, 16], [4, 1]).basesOf('register'), [[0, 1], [8, 0], [0, 8], [64, 0]]);
  assert.deepEqual(v3([16, 16], [4, 4]).basesOf('warp'), [[0, 0], [0, 0], [0, 0], [0, 0]]);
  assert.deepEqual(v3([32, 32], [4, 4]).basesOf('warp'), [[16, 0], [0, 0], [0, 16], [0, 0]]);
  // mma v2 warps go along N first (the slice vectors of §2.5 rest on it)
  assert.deepEqual(mma({ version: 2, shape: [32, 16], warpsPerCTA: [2, 2], operand: 'acc' }).basesOf('warp'), [[0, 8], [16, 0]]);
  assert.throws(() => mma({ version: 3, shape: [64, 16], warpsPerCTA: [4, 1], operand: 'b' }), /shared memory/);
});

test('§2.5 blocked layouts (1-D and 2-D Triton tests)', () => {
  const b1 = (shape: number, spt: number, tpw: number, wpc: number) => blocked({ shape: [shape], sizePerThread: [spt], threadsPerWarp: [tpw], warpsPerCTA: [wpc], order: [0] }).toBases();
  assert.deepEqual(b1(16, 1, 4, 4), { register: [], lane: [[1], [2]], warp: [[4], [8]] });
  assert.deepEqual(b1(128, 1, 4, 4).register, [[16], [32], [64]]);
  assert.deepEqual(b1(8, 4, 4, 4), { register: [[1], [2]], lane: [[4], [0]], warp: [[0], [0]] });
  assert.deepEqual(b1(32, 2, 4, 1), { register: [[1], [8], [16]], lane: [[2], [4]], warp: [] });
  assert.deepEqual(blocked({ shape: [128, 1], sizePerThread: [1, 1], threadsPerWarp: [4, 1], warpsPerCTA: [4, 1], order: [0, 1] }).toBases(), {
    register: [[16, 0], [32, 0], [64, 0]], lane: [[1, 0], [2, 0]], warp: [[4, 0], [8, 0]],
  });
  assert.deepEqual(blocked({ shape: [1, 64], sizePerThread: [1, 1], threadsPerWarp: [32, 1], warpsPerCTA: [1, 8], order: [0, 1] }).toBases(), {
    register: [[0, 8], [0, 16], [0, 32]], lane: [[0, 0], [0, 0], [0, 0], [0, 0], [0, 0]], warp: [[0, 1], [0, 2], [0, 4]],
  });
  const skinny = blocked({ shape: [64, 1], sizePerThread: [8, 1], threadsPerWarp: [8, 4], warpsPerCTA: [1, 4], order: [0, 1] });
  assert.deepEqual(skinny.basesOf('lane'), [[8, 0], [16, 0], [32, 0], [0, 0], [0, 0]]);
  assert.deepEqual(skinny.basesOf('warp'), [[0, 0], [0, 0]]);
  assert.deepEqual(skinny.freeBits(), { register: [], lane: [3, 4], warp: [0, 1] });
});

test('§2.5 sliced layouts (the Linear Layouts paper, Prop 4.8): slice of mma v2, 2x2 warps', () => {
  // Triton builds the parent on the slice's shape with a 1 inserted at the removed dim
  const acc = (shape: number[]) => mma({ version: 2, shape, warpsPerCTA: [2, 2], operand: 'acc' });
  const s0 = sliced(acc([1, 16]), 0);
  assert.deepEqual(s0.shape, [16]);
  assert.deepEqual(s0.toBases(), { register: [[1]], lane: [[2], [4], [0], [0], [0]], warp: [[8], [0]] });
  assert.deepEqual(sliced(acc([1, 128]), 0).toBases(), { register: [[1], [16], [32], [64]], lane: [[2], [4], [0], [0], [0]], warp: [[8], [0]] });
  // dim 1 removed on [8]: both parent registers are (0,0) (the 16x8 tile is larger than 8x1), so
  // both are dropped, as current Triton's SliceOfMmaV2 test expects; an older Triton kept one
  // duplicate register, which is the `reg {0}` some write-ups list for this vector.
  assert.deepEqual(sliced(acc([8, 1]), 1).toBases(), { register: [], lane: [[0], [0], [1], [2], [4]], warp: [[0], [0]] });
  const s128 = sliced(acc([128, 1]), 1);
  assert.deepEqual(s128.toBases(), { register: [[8], [32], [64]], lane: [[0], [0], [1], [2], [4]], warp: [[0], [16]] });
  assert.ok(s128.isSurjective());
  assert.deepEqual(s128.freeBits(), { register: [], lane: [0, 1], warp: [0] });
  // brute force: every (lane, warp) of the slice lands where the parent's does, minus dim 1
  const parent = acc([128, 1]);
  for (let lane = 0; lane < 32; lane++) for (let warp = 0; warp < 4; warp++) {
    assert.deepEqual(s128.apply({ lane, warp }), [parent.apply({ lane, warp })[0]]);
  }
  // a parent that is larger than 1 along the removed dim: bases only along it become zero
  const Ab = sliced(A, 1);
  assert.deepEqual(Ab.toBases(), { register: [[1]], lane: [[0], [0], [0], [2], [4]], warp: [[8]] });
  assert.deepEqual(sliced(A, 0).toBases(), { register: [[1]], lane: [[2], [4], [8], [0], [0]], warp: [[0]] });
  // 3-D: the remaining dims are renumbered dim0, dim1
  const b3 = blocked({ shape: [2, 4, 8], sizePerThread: [1, 1, 2], threadsPerWarp: [2, 4, 4], warpsPerCTA: [1, 1, 1], order: [2, 1, 0] });
  const s3 = sliced(b3, 1);
  assert.deepEqual(s3.outs, [{ name: 'dim0', size: 2 }, { name: 'dim1', size: 8 }]);
  assert.deepEqual(s3.toBases(), { register: [[0, 1]], lane: [[0, 2], [0, 4], [0, 0], [0, 0], [1, 0]], warp: [] });
  assert.throws(() => sliced(swizzled({ shape: [8, 8], vec: 1, perPhase: 1, maxPhase: 1, order: [1, 0] }), 0), /distributed \(register\/lane\/warp\) parent/);
  assert.throws(() => sliced(A, 2), /slice dim 2 is outside \[0, 2\)/);
  assert.throws(() => sliced(A, -1), /slice dim -1 is outside \[0, 2\)/);
  assert.throws(() => sliced(s0, 0), /cannot slice a 1-D layout/);
});

test('§2.3 8x64 32-bit 128-byte swizzle (Triton nvmma_shared): a swizzled 8x32 core tile, repeated', () => {
  // This is #ttg.nvmma_shared (128-byte swizzle, 32-bit elements), not #ttg.swizzled_shared: the
  // column bit 32 comes AFTER the row bits, so swizzled({shape: [8, 64], vec: 4, ...}) differs.
  // It is the product of the swizzled_shared(4, 1, 8) 8x32 core tile with a 2-fold repetition.
  const core = swizzled({ shape: [8, 32], vec: 4, perPhase: 1, maxPhase: 8, order: [1, 0] });
  const rep = fromBases([1, 2], { offset: [[0, 1]] });
  const S = product(core, rep);
  assert.deepEqual(S.shape, [8, 64]);
  assert.deepEqual(S.basesOf('offset'), [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 4], [2, 8], [4, 16], [0, 32]]);
  assert.ok(S.isMemory());
  assert.equal(S.equals(swizzled({ shape: [8, 64], vec: 4, perPhase: 1, maxPhase: 8, order: [1, 0] })), false);
});

test('§2.6 needs shared memory: B⁻¹A by solve', () => {
  const Bt = blocked({ shape: [16, 16], sizePerThread: [2, 2], threadsPerWarp: [8, 4], warpsPerCTA: [2, 1], order: [1, 0] });
  assert.deepEqual(Bt.toBases(), { register: [[0, 1], [1, 0], [0, 8]], lane: [[0, 2], [0, 4], [2, 0], [4, 0], [8, 0]], warp: [[0, 0]] });
  const names = Bt.ins.flatMap((i) => i.bases.map((_, k) => `${i.name}${k}`));
  const m = Bt.matrix();
  const conv: Record<string, string[]> = {};
  for (const i of A.ins) i.bases.forEach((b, k) => {
    const x = solve(m, A.flatten(b)) as number;
    conv[`${i.name}${k}`] = names.filter((_, n) => (x >> n) & 1);
  });
  assert.deepEqual(conv, {
    register0: ['register0'], register1: ['register1'], lane0: ['lane0'], lane1: ['lane1'],
    lane2: ['register2'], lane3: ['lane2'], lane4: ['lane3'], warp0: ['lane4'],
  });
  // the 4-lane toy's rounds: complement of V ∪ I ∪ G in F2^3 is {1}
  assert.deepEqual(complement([2, 5], 3, NUM), [1]);
});

test('§2.7 contiguity: [512,2] f8 registers map to flattened offsets 1,2,4,8 (16 elements = 128 bits)', () => {
  const L = fromBases([512, 2], { register: [[0, 1], [1, 0], [2, 0], [4, 0]], lane: [[8, 0], [16, 0], [32, 0], [64, 0], [128, 0]], warp: [[256, 0]] });
  const row = swizzled({ shape: [512, 2], vec: 1, perPhase: 1, maxPhase: 1, order: [1, 0] });
  assert.equal(vectorPlan(L, row, 1).vec, 16);
  assert.deepEqual(vectorPlan(L, row, 1).vecRegs, [0, 1, 2, 3]);
});

const rowMajor = (R: number, C: number) => swizzled({ shape: [R, C], vec: 1, perPhase: 1, maxPhase: 1, order: [1, 0] });

test('§2.8 bank conflicts: closed form and brute force, exact', () => {
  const rd = fromBases([16, 64], { register: [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32]], lane: [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]] });
  const check = (D: LinearLayout, S: LinearLayout, eb: number, vec: number, want: number, degree: number) => {
    const r = bankConflicts(D, S, eb, vec);
    assert.equal(r.vec, vec);
    assert.equal(r.wavefronts, want);
    assert.equal(r.degree, degree);
    assert.equal(wavefrontsBrute(accessOf(vectorPlan(D, S, eb, vec), eb)).wavefronts, want);
    return r;
  };
  const r = check(rd, rowMajor(16, 64), 2, 2, 8, 8);
  assert.deepEqual(r.lanes, [0, 4, 8, 12, 16, 20, 24, 28]);
  check(rd, swizzled({ shape: [16, 64], vec: 8, perPhase: 1, maxPhase: 8, order: [1, 0] }), 2, 2, 1, 1);
  const rowread = fromBases([4, 64], { register: [[0, 1], [0, 2], [0, 4]], lane: [[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]] });
  const rr = check(rowread, rowMajor(4, 64), 2, 8, 4, 1);
  assert.equal(rr.minimum, 4);
  const colread = fromBases([32, 8], { register: [[0, 1], [0, 2], [0, 4]], lane: [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]] });
  check(colread, rowMajor(32, 8), 2, 8, 4, 1);
  const r64 = fromBases([8, 64], { register: [[0, 1], [0, 2]], lane: [[1, 0], [2, 0], [4, 0], [0, 4], [0, 8]] });
  check(r64, rowMajor(8, 64), 2, 4, 16, 8);
  check(r64, swizzled({ shape: [8, 64], vec: 4, perPhase: 1, maxPhase: 8, order: [1, 0] }), 2, 4, 4, 2);
  const cols5 = [1, 2, 4, 8, 16].map((c) => [0, c]);
  const rows5 = [1, 2, 4, 8, 16].map((r) => [r, 0]);
  const TA = fromBases([32, 32], { register: rows5, lane: cols5 });
  const TB = fromBases([32, 32], { register: cols5, lane: rows5 });
  check(TA, rowMajor(32, 32), 4, 1, 1, 1);
  check(TB, rowMajor(32, 32), 4, 1, 32, 32);
});

test('§2.9 optimal swizzles: transpose and mma accumulator -> blocked (refined)', () => {
  const cols5 = [1, 2, 4, 8, 16].map((c) => [0, c]);
  const rows5 = [1, 2, 4, 8, 16].map((r) => [r, 0]);
  const TA = fromBases([32, 32], { register: rows5, lane: cols5 });
  const TB = fromBases([32, 32], { register: cols5, lane: rows5 });
  const t = optimalSwizzle(TA, TB, 4);
  assert.deepEqual(t.layout.basesOf('offset'), [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 1], [2, 2], [4, 4], [8, 8], [16, 16]]);
  assert.equal(t.vec, 1);
  assert.equal(t.write.wavefronts, 1);
  assert.equal(t.read.wavefronts, 1);
  assert.equal(t.unavoidable, false);
  assert.equal(offsetExpression(t.layout), '32*i + (j ^ i)');
  assert.deepEqual(cuteSwizzle(t.layout), { B: 5, M: 0, S: 5 });
  assert.equal(tritonAttribute(t.layout), '#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 32, order = [1, 0]}>');
  const inv = t.layout.invert();
  for (let i = 0; i < 32; i++) for (let j = 0; j < 32; j++) assert.equal(inv.apply({ dim0: i, dim1: j })[0], i * 32 + (j ^ i));

  const A2 = fromBases([16, 64], { register: [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32]], lane: [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]] });
  const B2 = blocked({ shape: [16, 64], sizePerThread: [1, 8], threadsPerWarp: [4, 8], warpsPerCTA: [1, 1], order: [1, 0] });
  assert.deepEqual(B2.toBases(), { register: [[0, 1], [0, 2], [0, 4], [4, 0], [8, 0]], lane: [[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]], warp: [] });
  const s = optimalSwizzle(A2, B2, 2);
  assert.deepEqual(s.vecBases, [[0, 1], [8, 0]]);
  assert.equal(s.vec, 4);
  assert.deepEqual(s.layout.basesOf('offset'), [[0, 1], [8, 0], [0, 2], [0, 4], [0, 32], [1, 0], [4, 0], [0, 10], [0, 20], [2, 32]]);
  assert.equal(s.write.wavefronts, 2);
  assert.equal(s.read.wavefronts, 2);
  assert.equal(s.minimum, 2);
  assert.equal(wavefrontsBrute(accessOf(vectorPlan(s.writer, s.layout, 2, 4), 2)).wavefronts, 2);
  assert.equal(wavefrontsBrute(accessOf(vectorPlan(s.reader, s.layout, 2, 4), 2)).wavefronts, 2);
  assert.match(tritonAttribute(s.layout), /^#ttg\.shared_linear<\{offset = \[\[0, 1\], \[8, 0\], /);
  assert.equal(cuteSwizzle(s.layout), undefined);
  // unswizzled at natural widths: write 8 (4 B/lane mma), read 4 (16 B/lane)
  assert.equal(bankConflicts(A2, rowMajor(16, 64), 2).wavefronts, 8);
  assert.equal(bankConflicts(B2, rowMajor(16, 64), 2).wavefronts, 4);
});

test('BitMatrix basics', () => {
  assert.deepEqual(BitMatrix.identity(3).toRows(), [[1, 0, 0], [0, 1, 0], [0, 0, 1]]);
});
