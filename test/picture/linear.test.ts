// The picture of `linear` declarations (server/src/service/linear-picture.ts through the shared picture
// model): a shared layout coloured by bank and labelled with offsets, a distributed one labelled
// t<thread>:r<register> and coloured by thread, broadcast shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, resolve } from '../../grammar/src/index.js';
import { elaborate } from '../../server/src/check/elaborate.js';
import { checkLinear } from '../../server/src/check/linear.js';
import { buildModel, describeCell, groupColor, initialView, type DrawModel } from '../../server/src/picture/model.js';
import { checkPicture } from '../../server/src/picture/payload.js';
import type { LayoutPicture } from '../../server/src/lsp/protocol.js';
import { linearPicture } from '../../server/src/service/linear-picture.js';
import { LayoutDocument } from '../../server/src/service/document.js';
import { picture } from '../../server/src/service/picture.js';

function pictureOf(src: string, name: string): LayoutPicture | { error: string } {
  const p = parse(src);
  const r = resolve(p.file, p.lines);
  const { model } = elaborate(p.file, r);
  const m = checkLinear(p.file, r, model).linears.get(name);
  assert.ok(m, `no linear ${name}`);
  return linearPicture(m);
}

/** through JSON and the client's payload check, as the webview receives it */
function drawn(src: string, name: string, view = initialView): { p: LayoutPicture; m: DrawModel } {
  const raw = pictureOf(src, name);
  assert.ok(!('error' in raw), JSON.stringify(raw));
  const p = checkPicture(JSON.parse(JSON.stringify(raw)));
  if (typeof p === 'string') throw new Error(p);
  return { p, m: buildModel(p, view) };
}

const cellAt = (m: DrawModel, row: number, col: number) => {
  const c = m.cells.find((x) => x.row === row && x.col === col);
  assert.ok(c, `no cell at ${row},${col}`);
  return { label: c.label, key: c.key, color: c.color };
};

const SWIZZLED = 'linear S = swizzled(shape=[8, 16], vec=2, perPhase=1, maxPhase=4, order=[1, 0])\n';

test('swizzled shared layout: offsets in the logical grid, coloured by bank (4-byte elements assumed)', () => {
  const { p, m } = drawn(SWIZZLED, 'S');
  assert.equal(m.colorBy, 'bank');
  assert.equal(m.caption, '8 x 16 = 128 cells; logical order');
  assert.equal(m.legend, 'colour: shared-memory bank = (offset x 4 bytes / 4) mod 32; 4-byte elements (no elemBytes= in the declaration: 4 assumed); label: offset');
  assert.equal(m.cells.length, 128);
  // row 1 is XOR-swizzled by phase 1 in units of vec = 2: offsets 18 19 16 17 ...
  assert.deepEqual(cellAt(m, 1, 0), { label: '18', key: 18, color: groupColor(18) });
  assert.deepEqual(cellAt(m, 1, 2), { label: '16', key: 16, color: groupColor(16) });
  assert.deepEqual(cellAt(m, 3, 5), { label: '51', key: 19, color: groupColor(19) });
  assert.deepEqual(cellAt(m, 7, 15), { label: '121', key: 25, color: groupColor(25) });
  // the banks of column 0 down the 8 rows: the swizzle spreads them over 4 groups
  assert.deepEqual(m.cells.filter((c) => c.col === 0).map((c) => c.key), [0, 18, 4, 22, 0, 18, 4, 22]);
  assert.equal(describeCell(p, p.cells[16]), 'logical (i, j) = (1, 0)\nphysical 18\nbank 18');
});

test('shared bases with elemBytes=2: two elements per bank word, the legend says where the width comes from', () => {
  const { m } = drawn('linear H = bases(shape=[4, 8], offset=[[0, 1], [0, 2], [0, 4], [1, 1], [2, 2]], elemBytes=2)\n', 'H');
  assert.equal(m.legend, 'colour: shared-memory bank = (offset x 2 bytes / 4) mod 32; 2-byte elements (elemBytes=2); label: offset');
  assert.deepEqual(m.cells.filter((c) => c.row === 1).map((c) => [c.label, c.key]), [['9', 4], ['8', 4], ['11', 5], ['10', 5], ['13', 6], ['12', 6], ['15', 7], ['14', 7]]);
});

const BLOCKED = 'linear B = blocked(shape=[4, 8], sizePerThread=[1, 2], threadsPerWarp=[4, 8], warpsPerCTA=[1, 1], order=[1, 0])\n';

test('blocked distributed layout: t<thread>:r<register> labels, coloured by thread, broadcast as +n', () => {
  const { p, m } = drawn(BLOCKED, 'B');
  assert.equal(m.colorBy, 'thread');
  assert.equal(m.legend, 'colour: thread = lane + 32 x warp (32 threads, 2 registers each); label: t<thread>:r<register>; +n: n more threads hold the element (broadcast)');
  // 8 lanes along the columns cover 16 columns: every element of the 8 is held by two threads
  assert.deepEqual(m.cells.filter((c) => c.row === 0).map((c) => c.label), ['t0:r0+1', 't0:r1+1', 't1:r0+1', 't1:r1+1', 't2:r0+1', 't2:r1+1', 't3:r0+1', 't3:r1+1']);
  assert.deepEqual(cellAt(m, 2, 5), { label: 't18:r1+1', key: 18, color: groupColor(18) });
  assert.equal(describeCell(p, p.cells[2 * 8 + 5]), 'logical (i, j) = (2, 5)\nphysical 21\nthread 18\nheld by 2 threads (broadcast): t18:r1, t22:r1');
  // a view that deals positions to N threads itself keeps the default legend
  const v = buildModel(p, { ...initialView, colorBy: 'thread', threads: 4 });
  assert.equal(v.legend, 'colour: thread = position mod 4');
  assert.equal(v.cells[5].key, 1);
});

test('mma v2 accumulator 16 x 8: the Ampere fragment, four registers per thread, no broadcast', () => {
  const { m } = drawn('linear M = mma(version=2, shape=[16, 8], warpsPerCTA=[1, 1], operand=acc)\n', 'M');
  assert.equal(m.legend, 'colour: thread = lane + 32 x warp (32 threads, 4 registers each); label: t<thread>:r<register>');
  assert.deepEqual(cellAt(m, 0, 0), { label: 't0:r0', key: 0, color: groupColor(0) });
  assert.deepEqual(cellAt(m, 0, 3), { label: 't1:r1', key: 1, color: groupColor(1) });
  assert.deepEqual(cellAt(m, 7, 6), { label: 't31:r0', key: 31, color: groupColor(31) });
  assert.deepEqual(cellAt(m, 8, 1), { label: 't0:r3', key: 0, color: groupColor(0) });
  assert.deepEqual(cellAt(m, 15, 7), { label: 't31:r3', key: 31, color: groupColor(31) });
  assert.ok(m.cells.every((c) => !c.label.includes('+')));
});

test('warps: thread = lane + 32 x warp', () => {
  const { m } = drawn('linear W = blocked(shape=[8, 32], sizePerThread=[1, 4], threadsPerWarp=[4, 8], warpsPerCTA=[2, 1], order=[1, 0])\n', 'W');
  assert.deepEqual(cellAt(m, 4, 0), { label: 't32:r0', key: 32, color: groupColor(32) });
  assert.equal(m.legend, 'colour: thread = lane + 32 x warp (64 threads, 4 registers each); label: t<thread>:r<register>');
});

test('what cannot be drawn says why', () => {
  assert.deepEqual(pictureOf('linear N = bases(shape=[2, 4], offset=[[0, 1], [0, 1], [1, 0]])\n', 'N'),
    { error: 'shared layout N is not a bijection (rank 2 of 3 bits): some elements share an offset or are never stored, so it has no picture' });
  assert.deepEqual(pictureOf('linear Z = swizzled(shape=[128, 64], vec=8, perPhase=1, maxPhase=8, order=[1, 0])\n', 'Z'),
    { error: 'linear layout Z has 8192 elements; the picture draws at most 4096' });
});

test('layout/picture (service): by name and at a declaration or a use, and a broken one says so', () => {
  const text = `${SWIZZLED}${BLOCKED}linear X = swizzled(shape=[8, 16], vec=3, perPhase=1, maxPhase=4, order=[1, 0])\n`;
  const doc = new LayoutDocument('file:///l.layout', 1, text);
  const byName = picture(doc, 0, 'B');
  assert.ok(byName && !('error' in byName));
  assert.equal(byName.cells[0].label, 't0:r0+1');
  const at = picture(doc, text.indexOf('S ='));
  assert.ok(at && !('error' in at));
  assert.equal(at.name, 'S');
  assert.equal(at.colorBy, 'bank');
  assert.deepEqual(picture(doc, 0, 'X'), { error: 'linear layout X has errors: fix them first' });
});
