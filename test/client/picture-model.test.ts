// The layout picture model (client/src/picture/model.ts): payload checks, placement, windows, SVG.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  buildModel, checkPicture, clampView, describeCell, gridAxes, gridSize, groupColor, initialView, LABEL_LIMIT, place, toSvg,
} from '../../client/src/picture/model.js';
import type { LayoutPicture } from '../../server/src/lsp/protocol.js';
import { rowMajor, tiled } from './fixtures.js';

const ok = (x: unknown): LayoutPicture => {
  const p = checkPicture(x);
  if (typeof p === 'string') throw new Error(p);
  return p;
};

test('checkPicture: a row-major 4 x 8 layout passes unchanged', () => {
  const p = ok(rowMajor(4, 8));
  assert.equal(p.name, 'A');
  assert.deepEqual(p.logicalDims, [4, 8]);
  assert.equal(p.cells.length, 32);
  assert.equal(p.totalCells, 32);
  assert.equal(p.truncated, false);
  assert.equal(p.groupKind, 'tile');
  assert.deepEqual(p.exprs, { apply: 'i * 8 + j', inv: undefined, vars: ['i', 'j'] });
});

test('checkPicture: bad payloads give a reason, never throw', () => {
  assert.equal(checkPicture(null), 'the server sent no picture');
  assert.equal(checkPicture('x'), 'the server sent no picture');
  assert.equal(checkPicture({ error: 'GenP(3) is not a bijection' }), 'GenP(3) is not a bijection');
  assert.equal(checkPicture({ logicalDims: [2], cells: [] }), 'picture without a name');
  assert.equal(checkPicture({ name: 'A', logicalDims: [], cells: [] }), 'picture without valid logical dimensions');
  assert.equal(checkPicture({ name: 'A', logicalDims: [2, -1], cells: [] }), 'picture without valid logical dimensions');
  assert.equal(checkPicture({ name: 'A', logicalDims: [2, 1.5], cells: [] }), 'picture without valid logical dimensions');
  assert.equal(checkPicture({ name: 'A', logicalDims: [2], cells: 'no' }), 'picture without cells');
});

test('checkPicture: malformed cells are dropped and the picture is marked truncated', () => {
  const p = ok({
    name: 'B', logicalDims: [2, 2], exprs: { apply: 'x' },
    cells: [
      { logical: [0, 0], physical: 0, group: 0 },
      { logical: [0, 2], physical: 1, group: 0 }, // out of range
      { logical: [1], physical: 2, group: 0 }, // wrong rank
      { logical: [1, 0], physical: -3, group: 0 }, // negative position
      { logical: [1, 1], physical: 3, group: 'x' }, // group defaults to 0
      null,
    ],
  });
  assert.deepEqual(p.cells, [{ logical: [0, 0], physical: 0, group: 0 }, { logical: [1, 1], physical: 3, group: 0 }]);
  assert.equal(p.totalCells, 4);
  assert.equal(p.truncated, true);
});

test('gridAxes: rank 1, even ranks as tiling levels, odd ranks, explicit grid', () => {
  assert.deepEqual(gridAxes(ok({ ...rowMajor(1, 8), logicalDims: [8], cells: [] })), { rows: [], cols: [0] });
  assert.deepEqual(gridAxes(ok(tiled())), { rows: [0, 2], cols: [1, 3] });
  assert.deepEqual(gridAxes(ok({ name: 'C', logicalDims: [2, 3, 4], cells: [], exprs: { apply: '' } })), { rows: [0, 1], cols: [2] });
  const g = ok({ name: 'D', logicalDims: [2, 3], grid: { rows: [1], cols: [0] }, cells: [], exprs: { apply: '' } });
  assert.deepEqual(gridAxes(g), { rows: [1], cols: [0] });
  // an invalid grid (a dimension twice) is ignored
  assert.equal(ok({ name: 'D', logicalDims: [2, 3], grid: { rows: [0], cols: [0] }, cells: [], exprs: { apply: '' } }).grid, undefined);
});

test('place: a 2 x 2 tiling of 2 x 2 tiles puts (ti, tj, i, j) at row ti*2+i, column tj*2+j', () => {
  const p = ok(tiled());
  assert.deepEqual(gridSize(p, 'logical'), { rows: 4, cols: 4 });
  const c = p.cells.find((x) => x.logical.join() === '1,0,1,1')!;
  assert.deepEqual(place(p, c, 'logical'), { row: 3, col: 1 });
  // physical order: position 13 in a 4-wide grid is row 3, column 1
  assert.equal(c.physical, 13);
  assert.deepEqual(place(p, c, 'physical'), { row: 3, col: 1 });
  const d = p.cells.find((x) => x.logical.join() === '0,1,1,0')!;
  assert.deepEqual(place(p, d, 'logical'), { row: 1, col: 2 });
  assert.equal(d.physical, 6);
  assert.deepEqual(place(p, d, 'physical'), { row: 1, col: 2 });
});

test('buildModel: labels show physical positions in logical order and coordinates in physical order', () => {
  const p = ok(rowMajor(2, 3, (i, j) => j * 2 + i)); // column-major 2 x 3
  const m = buildModel(p, initialView);
  assert.equal(m.rows, 2);
  assert.equal(m.cols, 3);
  assert.deepEqual(m.cells.map((c) => `${c.row},${c.col}:${c.label}`), ['0,0:0', '0,1:2', '0,2:4', '1,0:1', '1,1:3', '1,2:5']);
  const ph = buildModel(p, { ...initialView, mode: 'physical' });
  assert.deepEqual(ph.cells.map((c) => `${c.row},${c.col}:${c.label}`).sort(), ['0,0:0,0', '0,1:1,0', '0,2:0,1', '1,0:1,1', '1,1:0,2', '1,2:1,2']);
  assert.equal(m.caption, '2 x 3 = 6 cells; logical order');
});

test('buildModel: a 256 x 256 layout draws a 64 x 64 window without labels, and pans', () => {
  const p = ok(rowMajor(256, 256));
  const m = buildModel(p, initialView);
  assert.equal(m.cells.length, 64 * 64);
  assert.equal(m.labels, false);
  assert.equal(m.caption, '256 x 256 = 65536 cells; logical order; rows 0-63 of 256, columns 0-63 of 256');
  const moved = buildModel(p, { mode: 'logical', row0: 250, col0: 100, size: 16 });
  // clamped so that the window stays inside the grid
  assert.equal(moved.row0, 240);
  assert.equal(moved.col0, 100);
  assert.equal(moved.cells.length, 256);
  assert.equal(moved.labels, true);
  assert.deepEqual(moved.cells[0], { index: 240 * 256 + 100, row: 240, col: 100, label: String(240 * 256 + 100), color: groupColor(0) });
});

test('buildModel: a truncated payload says how much the server sent', () => {
  const full = rowMajor(4, 4);
  const p = ok({ ...full, cells: full.cells.slice(0, 5), truncated: true, totalCells: 16 });
  assert.equal(buildModel(p, initialView).caption, '4 x 4 = 16 cells; logical order; the server sent 5 of 16 cells');
});

test('clampView: never leaves the grid, whatever the input', () => {
  const p = ok(rowMajor(100, 3));
  fc.assert(fc.property(fc.double(), fc.double(), fc.constantFrom(8, 16, 32, 64, 5, NaN), fc.constantFrom('logical', 'physical', 'x'), (r, c, size, mode) => {
    const v = clampView(p, { row0: r, col0: c, size, mode: mode as 'logical' });
    const { rows, cols } = gridSize(p, v.mode);
    return v.row0 >= 0 && v.col0 >= 0 && Number.isInteger(v.row0) && (v.row0 === 0 || v.row0 + v.size <= rows) && (v.col0 === 0 || v.col0 + v.size <= cols);
  }));
});

test('every drawn cell lies in the window, and at most LABEL_LIMIT cells carry labels', () => {
  fc.assert(fc.property(fc.integer({ min: 1, max: 70 }), fc.integer({ min: 1, max: 70 }), fc.integer({ min: 0, max: 80 }), fc.integer({ min: 0, max: 80 }), fc.constantFrom(8, 16, 32, 64), (R, C, r0, c0, size) => {
    const m = buildModel(ok(rowMajor(R, C)), { mode: 'logical', row0: r0, col0: c0, size });
    const inside = m.cells.every((x) => x.row >= m.row0 && x.row < m.row0 + m.viewRows && x.col >= m.col0 && x.col < m.col0 + m.viewCols);
    return inside && m.cells.length === m.viewRows * m.viewCols && (!m.labels || m.cells.length <= LABEL_LIMIT);
  }), { numRuns: 60 });
});

test('describeCell: coordinates, position, the expression and its value, the group', () => {
  const p = ok(tiled());
  const c = p.cells.find((x) => x.logical.join() === '1,0,1,1')!;
  assert.equal(describeCell(p, c), 'logical (ti, tj, i, j) = (1, 0, 1, 1)\nphysical 13\n(ti*2 + i)*4 + tj*2 + j = 13\ntile 2');
  const q = ok({ ...rowMajor(1, 2), exprs: { apply: '' }, groupKind: 'warp' });
  assert.equal(describeCell(q, q.cells[1]), 'logical (i0, i1) = (0, 1)\nphysical 1\nwarp 0');
});

test('toSvg: a standalone document, escaped text, no style attributes', () => {
  const p = ok({ ...rowMajor(2, 2), name: 'A<&>' });
  const svg = toSvg(buildModel(p, initialView), p);
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="\d+"/);
  assert.ok(svg.endsWith('</svg>'));
  assert.ok(svg.includes('<title>A&lt;&amp;&gt; (logical order)</title>'));
  assert.equal((svg.match(/<rect [^>]*data-i=/g) ?? []).length, 4);
  assert.ok(!/ style=/.test(svg));
  assert.ok(svg.includes('<title>logical (i, j) = (1, 1)\nphysical 3\ni * 2 + j = 3\ntile 0</title>'));
  assert.ok(!toSvg(buildModel(p, initialView), p, { cellTitles: false }).includes('physical 3'));
});

test('groupColor: distinct neighbours, valid hsl', () => {
  const cs = Array.from({ length: 16 }, (_, g) => groupColor(g));
  assert.equal(new Set(cs).size, 16);
  for (const c of cs) assert.match(c, /^hsl\(\d{1,3}, 60%, (78|70|62)%\)$/);
  assert.equal(groupColor(0), 'hsl(0, 60%, 78%)');
  assert.equal(groupColor(1), 'hsl(138, 60%, 70%)');
  assert.match(groupColor(-1), /^hsl\(222, 60%, 70%\)$/);
});
