// `layout linear | banks | swizzle`: spawns the built CLI (dist/cli.js, made by
// `node scripts/build.mjs`, which `npm test` runs first) on examples/swizzle.layout and small files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const cli = join(root, 'dist/cli.js');
const ex = join(root, 'examples/swizzle.layout');

function run(...args: string[]) {
  assert.ok(existsSync(cli), 'dist/cli.js is missing: run `node scripts/build.mjs` first');
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
const json = (...args: string[]) => {
  const r = run(...args, '--json');
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out);
};

test('layout linear: distributed, shared (swizzled), LEGO layout; --json shape', () => {
  assert.deepEqual(json('linear', ex, 'Fig1'), {
    shape: [16, 16],
    bases: { register: [[0, 1], [1, 0]], lane: [[0, 2], [0, 4], [0, 8], [2, 0], [4, 0]], warp: [[8, 0]] },
    class: 'bit permutation', kind: 'distributed', checked: 'by construction',
    triton: '#ttg.linear<{register = [[0, 1], [1, 0]], lane = [[0, 2], [0, 4], [0, 8], [2, 0], [4, 0]], warp = [[8, 0]], block = []}>',
    broadcast: { register: [], lane: [], warp: [] },
  });
  assert.deepEqual(json('linear', ex, 'Swz'), {
    shape: [32, 32],
    bases: { offset: [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 1], [2, 2], [4, 4], [8, 8], [16, 16]] },
    class: 'F2-linear', kind: 'shared', checked: 'by construction',
    triton: '#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 32, order = [1, 0]}>',
    index: '32*i + (j ^ i)', cute: 'Swizzle<5, 0, 5>',
  });
  const tile = json('linear', ex, 'Tile');
  assert.deepEqual(tile.bases, { offset: [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0]] });
  assert.equal(tile.class, 'bit permutation');
  assert.equal(tile.index, '32*i + j');
  const text = run('linear', ex, 'Acc');
  assert.equal(text.code, 0);
  assert.equal(text.out.split('\n').slice(0, 4).join('\n'), [
    'Acc: distributed layout, shape [16, 64], bit permutation',
    '  register: [0, 1] [8, 0] [0, 8] [0, 16] [0, 32]',
    '  lane: [0, 2] [0, 4] [1, 0] [2, 0] [4, 0]',
    '  warp: (none)',
  ].join('\n'));
});

test('layout banks: row-major vs swizzled, closed form; brute force for a non-linear LEGO layout', () => {
  assert.deepEqual(json('banks', ex, '--threads', 'Ld', '--memory', 'Tile', '--elem-bytes', '4', '--vec', '1'), {
    wavefronts: 32, minimum: 1, degree: 32, lanes: Array.from({ length: 32 }, (_, k) => k), bank: 0, vec: 1, bytesPerLane: 4, method: 'closed form',
  });
  assert.deepEqual(json('banks', ex, '--threads', 'Ld', '--memory', 'Swz', '--elem-bytes', '4'), {
    wavefronts: 1, minimum: 1, degree: 1, lanes: [0], bank: 0, vec: 1, bytesPerLane: 4, method: 'closed form',
  });
  const r = run('banks', ex, '--threads', 'Ld', '--memory', 'Tile', '--elem-bytes', '4');
  assert.deepEqual(r, { code: 0, err: '', out: `Ld through Tile: 32 wavefronts per instruction, minimum 1 (32-way bank conflict: lanes ${Array.from({ length: 32 }, (_, k) => k).join(', ')} hit bank 0 at distinct words); 1 × 4 B per lane (closed form)\n` });
  // the padded tile of transpose.layout (33 columns): simulated
  assert.deepEqual(json('banks', ex, '--threads', 'Ld', '--memory', 'Padded', '--elem-bytes', '4'), {
    wavefronts: 1, minimum: 1, degree: 1, lanes: [0], bank: 0, vec: 1, bytesPerLane: 4, method: 'brute force',
  });
  const dir = mkdtempSync(join(tmpdir(), 'layout-linear-'));
  const f = join(dir, 'skew.layout');
  writeFileSync(f, [
    'perm skew()[i, j] = i * 8 + (i + j) % 8',
    'layout K = OrderBy(GenP([8, 8], skew())).GroupBy([8, 8])',
    'layout M = OrderBy(Row(8, 8)).GroupBy([8, 8])',
    'layout P = OrderBy(Row(6, 8)).GroupBy([6, 8])',
    'linear C = bases(shape=[8, 8], register=[[0, 1], [0, 2], [0, 4]], lane=[[1, 0], [2, 0], [4, 0]])',
    '',
  ].join('\n'));
  const k = run('linear', f, 'K');
  assert.equal(k.code, 1);
  assert.equal(k.out, 'K: not linear over F2: f(5 ^ 8) = f(13) = [1, 4] but f(5) ^ f(8) = [0, 5] ^ [1, 7] = [1, 2]\n');
  // lanes walk rows of 8 floats: row-major puts lanes i and i + 4 in one bank; the skew does not
  assert.deepEqual(json('banks', f, '--threads', 'C', '--memory', 'K', '--elem-bytes', '4', '--vec', '1'), {
    wavefronts: 1, minimum: 1, degree: 1, lanes: [0], bank: 0, vec: 1, bytesPerLane: 4, method: 'brute force',
  });
  assert.deepEqual(json('banks', f, '--threads', 'C', '--memory', 'M', '--elem-bytes', '4', '--vec', '1'), {
    wavefronts: 2, minimum: 1, degree: 2, lanes: [0, 4], bank: 0, vec: 1, bytesPerLane: 4, method: 'closed form',
  });
  assert.deepEqual(run('linear', f, 'P'), { code: 1, out: '', err: 'layout: P: dimension 0 has extent 6, not a power of two: a linear layout over F2 needs power-of-two extents; pad it to 8 and mask the extra elements\n' });
});

test('layout swizzle: the transpose and the mma -> blocked vectors of the notes', () => {
  const t = json('swizzle', ex, '--write', 'St', '--read', 'Ld', '--elem-bytes', '4');
  assert.deepEqual(t, {
    vec: 1,
    bases: { offset: [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 1], [2, 2], [4, 4], [8, 8], [16, 16]] },
    write: 1, read: 1, minimum: 1, unavoidable: false,
    index: '32*i + (j ^ i)',
    triton: '#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 32, order = [1, 0]}>',
    cute: 'Swizzle<5, 0, 5>',
    linear: 'linear S = swizzled(shape=[32, 32], vec=1, perPhase=1, maxPhase=32, order=[1, 0])',
    vecBases: [],
    rowMajor: { write: 1, read: 32 },
  });
  const m = json('swizzle', ex, '--write', 'Acc', '--read', 'Blk', '--elem-bytes', '2');
  assert.deepEqual([m.vec, m.write, m.read, m.minimum, m.unavoidable], [4, 2, 2, 2, false]);
  assert.deepEqual(m.bases.offset, [[0, 1], [8, 0], [0, 2], [0, 4], [0, 32], [1, 0], [4, 0], [0, 10], [0, 20], [2, 32]]);
});

test('errors: usage (2) and layout problems (1), one line on stderr', () => {
  assert.deepEqual(run('banks', ex, '--threads', 'Ld', '--elem-bytes', '4'), { code: 2, out: '', err: 'layout: --memory is required\n' });
  assert.deepEqual(run('banks', ex, '--threads', 'Ld', '--memory', 'Swz', '--elem-bytes', '3'), { code: 2, out: '', err: 'layout: --elem-bytes must be 1, 2, 4, 8 or 16, got 3\n' });
  assert.deepEqual(run('banks', ex, '--threads', 'Swz', '--memory', 'Swz', '--elem-bytes', '4'), { code: 1, out: '', err: 'layout: --threads Swz is a shared layout; expected a distributed (register/lane/warp) layout\n' });
  assert.deepEqual(run('banks', ex, '--threads', 'Ld', '--memory', 'Swz', '--elem-bytes', '4', '--vec', '4'), { code: 1, out: '', err: 'layout: a vector of 4 elements is not contiguous in both layouts: at most 1\n' });
  assert.deepEqual(run('linear', ex, 'Nope'), { code: 1, out: '', err: `layout: '${ex}' declares no layout Nope; its layouts are In, Tile, Padded, Smem, St, Ld, LdRow, LdPad, Swz, Blk, Acc, Sh, Fig1\n` });
  assert.deepEqual(run('swizzle', ex, '--write', 'St', '--read', 'Swz', '--elem-bytes', '4'), { code: 1, out: '', err: 'layout: --read Swz is a shared layout; expected a distributed (register/lane/warp) layout\n' });
});
