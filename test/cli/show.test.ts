// `layout show`: spawns the built CLI (dist/cli.js, made by `node scripts/build.mjs`, which `npm test`
// runs first) and compares its whole output: the tile-aware Unicode grid, the summary of a big tiled
// layout, a broken GenP's collisions, ANSI colours only when asked (standard output is a pipe here),
// the SVG file, and usage errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const cli = join(root, 'dist/cli.js');
const dir = mkdtempSync(join(tmpdir(), 'layout-show-'));
writeFileSync(join(dir, 'c.layout'), 'param M = 8, N = 8\nlayout C = OrderBy(Row(M, N)).TileBy([M / 4, N / 4], [4, 4])\n');
writeFileSync(join(dir, 'pad.layout'), 'layout E = OrderBy(Row(4, 4)).ExpandBy([3, 3], [4, 4])\n');
writeFileSync(join(dir, 'bad.layout'), 'perm bad()[i, j] = i + j\nlayout B = OrderBy(GenP([3, 3], bad())).GroupBy([3, 3])\n');

function show(...args: string[]) {
  assert.ok(existsSync(cli), 'dist/cli.js is missing: run `node scripts/build.mjs` first');
  const r = spawnSync(process.execPath, [cli, 'show', ...args], { cwd: dir, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('an 8 x 8 matrix in 4 x 4 tiles: positions in logical order, tile boundaries as box lines, no colour on a pipe', () => {
  assert.deepEqual(show('c.layout', 'C'), {
    code: 0,
    err: '',
    out: [
      'C: 2 x 2 x 4 x 4 = 64 cells; logical order; tiles of 4 x 4',
      'colour: tile (4 tiles of 4 x 4)',
      '     0  1  2  3    4  5  6  7',
      '  ┌─────────────┬─────────────┐',
      '0 │  0  1  2  3 │  4  5  6  7 │',
      '1 │  8  9 10 11 │ 12 13 14 15 │',
      '2 │ 16 17 18 19 │ 20 21 22 23 │',
      '3 │ 24 25 26 27 │ 28 29 30 31 │',
      '  ├─────────────┼─────────────┤',
      '4 │ 32 33 34 35 │ 36 37 38 39 │',
      '5 │ 40 41 42 43 │ 44 45 46 47 │',
      '6 │ 48 49 50 51 │ 52 53 54 55 │',
      '7 │ 56 57 58 59 │ 60 61 62 63 │',
      '  └─────────────┴─────────────┘',
      '',
    ].join('\n'),
  });
});

test('--set draws at other sizes; --physical labels positions with logical coordinates', () => {
  const r = show('c.layout', 'C', '--set', 'M=4', '--set', 'N=8', '--physical', '--color-by', 'thread', '--threads', '4');
  assert.equal(r.code, 0);
  assert.equal(r.out, [
    'C: 1 x 2 x 4 x 4 = 32 cells; physical order; tiles of 4 x 4; drawn with M = 4',
    'colour: thread = position mod 4',
    '         0       1       2       3       4       5       6       7',
    '0  0,0,0,0 0,0,0,1 0,0,0,2 0,0,0,3 0,1,0,0 0,1,0,1 0,1,0,2 0,1,0,3',
    '1  0,0,1,0 0,0,1,1 0,0,1,2 0,0,1,3 0,1,1,0 0,1,1,1 0,1,1,2 0,1,1,3',
    '2  0,0,2,0 0,0,2,1 0,0,2,2 0,0,2,3 0,1,2,0 0,1,2,1 0,1,2,2 0,1,2,3',
    '3  0,0,3,0 0,0,3,1 0,0,3,2 0,0,3,3 0,1,3,0 0,1,3,1 0,1,3,2 0,1,3,3',
    '',
  ].join('\n'));
});

test('a big tiled layout is summarised: one cell per tile with the positions it takes', () => {
  const r = show(join(root, 'examples/matmul.layout'), 'C', '--set', 'M=512', '--set', 'N=1024');
  assert.equal(r.code, 0);
  assert.equal(r.out, [
    'C: 4 x 4 x 128 x 256 = 524288 cells; summary: 16 tiles of 128 x 256, each labelled with the positions it takes; drawn with M = 512, N = 1024',
    "colour: position of the tile's first cell (blue first, red last)",
    '               0             1             2             3',
    '0       0-130303    256-130559    512-130815    768-131071',
    '1  131072-261375 131328-261631 131584-261887 131840-262143',
    '2  262144-392447 262400-392703 262656-392959 262912-393215',
    '3  393216-523519 393472-523775 393728-524031 393984-524287',
    '',
  ].join('\n'));
});

test('a GenP that is not a bijection: shared positions marked, missing ones listed, exit 1', () => {
  const r = show('bad.layout', 'B');
  assert.equal(r.code, 1);
  assert.equal(r.out, [
    'B: 3 x 3 = 9 cells; logical order',
    'colour: physical position (blue first, red last)',
    '    0  1  2',
    '0   0 1! 2!',
    '1  1! 2! 3!',
    '2  2! 3!  4',
    'not a bijection: positions 1, 2, 3 are taken by more than one cell',
    'no cell maps to positions 5, 6, 7, 8',
    '',
  ].join('\n'));
});

test('padding (ExpandBy): the cells outside the original shape are dots', () => {
  assert.deepEqual(show('pad.layout', 'E'), {
    code: 0,
    err: '',
    out: [
      'E: 4 x 4 = 16 cells; logical order',
      'colour: physical position (blue first, red last)',
      '   0 1 2 3',
      '0  0 1 2 ·',
      '1  3 4 5 ·',
      '2  6 7 8 ·',
      '3  · · · ·',
      '',
    ].join('\n'),
  });
});

test('--color: ANSI 24-bit backgrounds; --svg writes the same picture as SVG', () => {
  const r = show('c.layout', 'C', '--set', 'M=4', '--set', 'N=4', '--color', '--svg', 'c.svg');
  assert.equal(r.code, 0);
  // one tile (1 x 1 x 4 x 4): every cell tile 0, hsl(0, 60%, 78%) = rgb(233, 165, 165)
  const row0 = r.out.split('\n')[3];
  assert.equal(row0, `0 ${[0, 1, 2, 3].map((v) => `\x1b[48;2;233;165;165m\x1b[38;2;26;26;26m  ${v}\x1b[0m`).join('')}`);
  const svg = readFileSync(join(dir, 'c.svg'), 'utf8');
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="\d+"/);
  assert.equal((svg.match(/<rect [^>]*data-i=/g) ?? []).length, 16);
  assert.ok(svg.includes('>C: 1 x 1 x 4 x 4 = 16 cells; logical order; tiles of 4 x 4; drawn with M = 4, N = 4</text>'));
  assert.ok(svg.includes('<title>logical (ti, tj, i, j) = (0, 0, 3, 3)\nphysical 15\n'));
});

test('--window and --at draw part of a big grid, and say so', () => {
  const r = show(join(root, 'examples/matmul.layout'), 'C', '--set', 'M=512', '--set', 'N=1024', '--window', '8', '--at', '2,3');
  assert.equal(r.code, 0);
  assert.equal(r.out, [
    'C: 4 x 4 x 128 x 256 = 524288 cells; summary: 16 tiles of 128 x 256, each labelled with the positions it takes; drawn with M = 512, N = 1024',
    "colour: position of the tile's first cell (blue first, red last)",
    '               0             1             2             3',
    '0       0-130303    256-130559    512-130815    768-131071',
    '1  131072-261375 131328-261631 131584-261887 131840-262143',
    '2  262144-392447 262400-392703 262656-392959 262912-393215',
    '3  393216-523519 393472-523775 393728-524031 393984-524287',
    '',
  ].join('\n'), 'a 4 x 4 tile grid fits a window of 8: --at is clamped to 0,0');
  const w = show('c.layout', 'C', '--set', 'M=32', '--set', 'N=32', '--window', '8', '--at', '4,20');
  assert.equal(w.code, 0);
  assert.deepEqual(w.out.split('\n').slice(0, 5), [
    'C: 8 x 8 x 4 x 4 = 1024 cells; logical order; tiles of 4 x 4; rows 4-11 of 32, columns 20-27 of 32; drawn with M = 32, N = 32',
    'colour: tile (64 tiles of 4 x 4)',
    '      20  21  22  23    24  25  26  27',
    '   ┌─────────────────┬─────────────────┐',
    ' 4 │ 148 149 150 151 │ 152 153 154 155 │',
  ]);
  assert.ok(w.out.endsWith('(a window of the grid: --window and --at ROW,COLUMN move it; --set NAME=VALUE draws it smaller)\n'));
});

test('usage errors and unknown names: one line on stderr', () => {
  assert.deepEqual(show('c.layout', 'C', '--color-by', 'rainbow'), { code: 2, out: '', err: "layout: --color-by expects one of tile, level, order, thread, bank, got 'rainbow'\n" });
  assert.deepEqual(show('c.layout', 'C', '--set', 'Q=3'), { code: 2, out: '', err: "layout: --set Q: 'c.layout' declares no param Q\n" });
  assert.deepEqual(show('c.layout', 'D'), { code: 1, out: '', err: "layout: 'c.layout' declares no layout D; its layouts are C\n" });
  assert.deepEqual(show('c.layout', 'C', '--threads', '0'), { code: 2, out: '', err: "layout: --threads expects an integer >= 1, got '0'\n" });
  assert.deepEqual(show('c.layout', 'C', '--window', '10'), { code: 2, out: '', err: "layout: --window expects one of 8, 16, 32, 64, got '10'\n" });
  assert.deepEqual(show('c.layout', 'C', '--at', '1'), { code: 2, out: '', err: "layout: --at expects ROW,COLUMN, got '1'\n" });
});

test('a linear layout: offsets coloured by bank (shared), t<thread>:r<register> coloured by thread (distributed)', () => {
  writeFileSync(join(dir, 'lin.layout'), [
    'linear S = swizzled(shape=[4, 8], vec=2, perPhase=1, maxPhase=4, order=[1, 0])',
    'linear B = blocked(shape=[2, 4], sizePerThread=[1, 2], threadsPerWarp=[8, 4], warpsPerCTA=[1, 1], order=[1, 0])',
    '',
  ].join('\n'));
  assert.deepEqual(show('lin.layout', 'S'), {
    code: 0,
    err: '',
    out: [
      'S: 4 x 8 = 32 cells; logical order',
      'colour: shared-memory bank = (offset x 4 bytes / 4) mod 32; 4-byte elements (no elemBytes= in the declaration: 4 assumed); label: offset',
      '    0  1  2  3  4  5  6  7',
      '0   0  1  2  3  4  5  6  7',
      '1  10 11  8  9 14 15 12 13',
      '2  20 21 22 23 16 17 18 19',
      '3  30 31 28 29 26 27 24 25',
      '',
    ].join('\n'),
  });
  const b = show('lin.layout', 'B');
  assert.equal(b.code, 0);
  assert.equal(b.out, [
    'B: 2 x 4 = 8 cells; logical order',
    'colour: thread = lane + 32 x warp (32 threads, 2 registers each); label: t<thread>:r<register>; +n: n more threads hold the element (broadcast)',
    '         0       1       2       3',
    '0  t0:r0+7 t0:r1+7 t1:r0+7 t1:r1+7',
    '1  t4:r0+7 t4:r1+7 t5:r0+7 t5:r1+7',
    '',
  ].join('\n'));
  assert.deepEqual(show('lin.layout', 'Q'), { code: 1, out: '', err: "layout: 'lin.layout' declares no layout Q; its layouts are S, B\n" });
});
