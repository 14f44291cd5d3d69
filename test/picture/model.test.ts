// The layout picture model (server/src/picture/model.ts, shared by the webview and `layout show`) and its payload checks (payload.ts): placement, windows, SVG.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  buildModel, clampView, describeCell, gridAxes, gridSize, groupColor, initialView, LABEL_LIMIT, place,
} from '../../server/src/picture/model.js';
import { checkPicture } from '../../server/src/picture/payload.js';
import type { LayoutPicture } from '../../server/src/lsp/protocol.js';
import { rowMajor, tiled } from '../client/fixtures.js';
import { toSvg } from '../../server/src/picture/svg.js';

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
  // not tiled: coloured by physical order (61540 of 65536: near the red end)
  assert.deepEqual(moved.cells[0], { index: 240 * 256 + 100, row: 240, col: 100, label: String(240 * 256 + 100), key: 61540, color: 'hsl(15, 70%, 75%)' });
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
  assert.ok(svg.includes('<title>logical (i, j) = (1, 1)\nphysical 3\ni * 2 + j = 3</title>'));
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

// ------------------------------------------------------------- levels, colours, boundaries, problems

import { colorKey, colorOf, describe, orderColor, tileAt, tipPosition, zoom, type DrawModel } from '../../server/src/picture/model.js';
import { rgbOf } from '../../server/src/picture/text.js';
import { toText } from '../../server/src/picture/text.js';

/** A 3-level tiling of an 8 x 8 row-major matrix: 2 x 2 blocks of 2 x 2 tiles of 2 x 2 (ti, tj, ui, uj, i, j). */
function threeLevels(): LayoutPicture {
  const cells = [];
  for (let f = 0; f < 64; f++) {
    const c = [32, 16, 8, 4, 2, 1].map((d) => Math.floor(f / d) % 2);
    const [ti, tj, ui, uj, i, j] = c;
    cells.push({ logical: c, physical: (ti * 4 + ui * 2 + i) * 8 + tj * 4 + uj * 2 + j, group: 0 });
  }
  return ok({ name: 'L3', logicalDims: [2, 2, 2, 2, 2, 2], levels: [[2, 2], [2, 2], [2, 2]], cells, totalCells: 64, exprs: { apply: '' } });
}

test('levels: rows and columns per level; tileAt per depth; boundaries heavier between outer tiles', () => {
  const p = threeLevels();
  assert.deepEqual(gridAxes(p), { rows: [0, 2, 4], cols: [1, 3, 5] });
  assert.equal(tileAt(p.levels!, [1, 0, 1, 1, 0, 1], 0), 2);
  assert.equal(tileAt(p.levels!, [1, 0, 1, 1, 0, 1], 1), 11);
  const m = buildModel(p, initialView);
  assert.deepEqual(m.rowLines, [{ at: 2, depth: 1 }, { at: 4, depth: 0 }, { at: 6, depth: 1 }]);
  assert.deepEqual(m.colLines, m.rowLines);
  assert.equal(m.legend, 'colour: tile (16 tiles of 2 x 2)');
  // the cell at row 5, column 3 is (ti, tj, ui, uj, i, j) = (1, 0, 0, 1, 1, 1): position 43, tile 9, level-0 tile 2
  const c = m.cells.find((x) => x.row === 5 && x.col === 3)!;
  assert.deepEqual([c.label, c.key], ['43', 9]);
  const lv = buildModel(p, { ...initialView, colorBy: 'level', level: 0 });
  assert.equal(lv.cells.find((x) => x.row === 5 && x.col === 3)!.key, 2);
  assert.equal(lv.legend, 'colour: level 0 tile (4 tiles)');
  // a window starting inside: only the boundaries inside it
  assert.deepEqual(buildModel(p, { ...initialView, size: 8, row0: 0 }).rowLines.map((b) => b.at), [2, 4, 6]);
  // the physical order has no tile lines
  assert.deepEqual(buildModel(p, { ...initialView, mode: 'physical' }).rowLines, []);
});

test('colorKey: tile, level, order, thread, bank (default and a bank analysis\'s own)', () => {
  const p = ok({ ...tiled(), levels: [[2, 2], [2, 2]] });
  const c = p.cells.find((x) => x.logical.join() === '1,0,1,1')!; // physical 13
  assert.equal(colorKey(p, c, { ...initialView, colorBy: 'tile' }), 2);
  assert.equal(colorKey(p, c, { ...initialView, colorBy: 'order' }), 13);
  assert.equal(colorKey(p, c, { ...initialView, colorBy: 'thread', threads: 4 }), 1);
  assert.equal(colorKey(p, c, { ...initialView, colorBy: 'thread' }), 13);
  assert.equal(colorKey(p, { ...c, physical: 77 }, { ...initialView, colorBy: 'bank' }), 13);
  assert.equal(colorKey(p, { ...c, physical: 77 }, { ...initialView, colorBy: 'bank', elementBytes: 2 }), 6);
  assert.equal(colorKey(p, c, { ...initialView, colorBy: 'bank' }, { bankOf: (x) => x ^ 1 }), 12);
  // a bank the server sent for the cell wins
  assert.equal(colorKey(p, { ...c, bank: 5 }, { ...initialView, colorBy: 'bank' }, { bankOf: (x) => x ^ 1 }), 5);
  assert.deepEqual(ok({ ...rowMajor(1, 2), cells: [{ logical: [0, 0], physical: 0, group: 0, bank: 7 }, { logical: [0, 1], physical: 1, group: 0, bank: -1 }] }).cells,
    [{ logical: [0, 0], physical: 0, group: 0, bank: 7 }, { logical: [0, 1], physical: 1, group: 0 }]);
  // unlevelled payloads (old servers) read an even rank as 2-D levels for the picture, but are coloured by order
  assert.equal(colorOf(ok(tiled()), initialView), 'order');
  assert.equal(colorOf(threeLevels(), initialView), 'tile');
  assert.equal(colorOf(ok(rowMajor(2, 2)), { colorBy: 'tile' }), 'order');
  assert.equal(orderColor(0, 10), 'hsl(240, 70%, 75%)');
  assert.equal(orderColor(9, 10), 'hsl(0, 70%, 75%)');
  assert.deepEqual(rgbOf('hsl(0, 60%, 78%)'), [233, 165, 165]);
  assert.deepEqual(rgbOf('#ff6b6b'), [255, 107, 107]);
});

/** The 3 x 3 GenP (i, j) -> i + j: positions 1, 2, 3 taken twice or more, 5..8 taken by none. */
function broken(): LayoutPicture {
  const cells = [];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) cells.push({ logical: [i, j], physical: i + j, group: 0 });
  return ok({ name: 'B', logicalDims: [3, 3], cells, totalCells: 9, exprs: { apply: 'i + j', vars: ['i', 'j'] }, collisions: [1, 2, 3], missing: [5, 6, 7, 8], checkedCells: 9 });
}

test('a broken GenP: collisions marked in logical order, stacked and missing cells in physical order', () => {
  const p = broken();
  const m = buildModel(p, initialView);
  assert.deepEqual(m.cells.map((c) => `${c.label}${c.problem ? `:${c.problem}` : ''}`), ['0', '1:collision', '2:collision', '1:collision', '2:collision', '3:collision', '2:collision', '3:collision', '4']);
  assert.deepEqual(m.problems, ['not a bijection: positions 1, 2, 3 are taken by more than one cell', 'no cell maps to positions 5, 6, 7, 8']);
  const ph = buildModel(p, { ...initialView, mode: 'physical' });
  assert.deepEqual(ph.cells.map((c) => `${c.row},${c.col}:${c.label}:${c.problem ?? ''}`), [
    '0,0:0,0:', '0,1:0,1+1:collision', '0,2:0,2+2:collision', '1,0:1,2+1:collision', '1,1:2,2:', '1,2:-:missing', '2,0:-:missing', '2,1:-:missing', '2,2:-:missing',
  ]);
  assert.equal(describeCell(p, p.cells[1]), 'logical (i, j) = (0, 1)\nphysical 1\ni + j = 1\ncollision: (1, 0) maps here too');
  assert.equal(describe(p, ph, ph.cells[5]), 'position 5: no cell maps here');
  assert.equal(checkPicture({ ...p, collisions: [1, -2] }) && (ok({ ...p, collisions: [1, -2] }).collisions), undefined);
});

test('the summarised view: one cell per tile labelled with its range, the tile\'s hover', () => {
  const p = ok({
    name: 'A', logicalDims: [2, 2, 64, 64], levels: [[2, 2], [64, 64]], cells: [], totalCells: 16384,
    exprs: { apply: '', vars: ['ti', 'tj', 'i', 'j'] },
    tiles: [
      { tile: [0, 0], first: 0, min: 0, max: 8127 }, { tile: [0, 1], first: 64, min: 64, max: 8191 },
      { tile: [1, 0], first: 8192, min: 8192, max: 16319 }, { tile: [1, 1], first: 8256 },
    ],
  });
  const m = buildModel(p, initialView);
  assert.equal(m.kind, 'tiles');
  assert.deepEqual([m.rows, m.cols], [2, 2]);
  assert.deepEqual(m.cells.map((c) => `${c.row},${c.col}:${c.label}`), ['0,0:0-8127', '0,1:64-8191', '1,0:8192-16319', '1,1:8256..']);
  assert.equal(m.caption, '2 x 2 x 64 x 64 = 16384 cells; summary: 4 tiles of 64 x 64, each labelled with the positions it takes');
  assert.equal(describe(p, m, m.cells[0]), 'tile (ti, tj) = (0, 0)\nfirst cell at 0\npositions 0..8127 (4096 cells over 8128 positions)');
  assert.equal(describe(p, m, m.cells[3]), 'tile (ti, tj) = (1, 1)\nfirst cell at 8256');
  // a tile list of the wrong length is dropped (the picture is then an empty field, not a wrong one)
  assert.equal(ok({ ...p, tiles: p.tiles!.slice(1) }).tiles, undefined);
  assert.equal(toText(m), [
    'A: 2 x 2 x 64 x 64 = 16384 cells; summary: 4 tiles of 64 x 64, each labelled with the positions it takes',
    "colour: position of the tile's first cell (blue first, red last)",
    '            0          1',
    '0      0-8127    64-8191',
    '1  8192-16319     8256..',
    '',
  ].join('\n'));
});

test('toText: box lines at the tile boundaries, `!` on a shared position', () => {
  const t = toText(buildModel(threeLevels(), { ...initialView, colorBy: 'level' }));
  assert.equal(t.split('\n').slice(2, 8).join('\n'), [
    '     0  1    2  3    4  5    6  7',
    '  ┌───────┬───────┬───────┬───────┐',
    '0 │  0  1 │  2  3 │  4  5 │  6  7 │',
    '1 │  8  9 │ 10 11 │ 12 13 │ 14 15 │',
    '  ├───────┼───────┼───────┼───────┤',
    '2 │ 16 17 │ 18 19 │ 20 21 │ 22 23 │',
  ].join('\n'));
  assert.equal(toText(buildModel(broken(), initialView)).split('\n')[3], '0   0 1! 2!');
});

test('zoom steps through the scales and the SVG grows with it; tooltips stay inside the panel', () => {
  const p = ok(rowMajor(2, 2));
  const size = (m: DrawModel) => /width="(\d+)" height="(\d+)"/.exec(toSvg(m, p))!.slice(1).map(Number);
  const base = size(buildModel(p, initialView));
  const v2 = zoom(zoom(initialView, 1), 1);
  assert.equal(v2.scale, 2);
  assert.deepEqual(size(buildModel(p, v2)), base.map((x) => x * 2));
  assert.equal(zoom({ ...initialView, scale: 3 }, 1).scale, 3);
  assert.equal(zoom({ ...initialView, scale: 0.5 }, -1).scale, 0.5);
  assert.equal(clampView(p, { ...initialView, scale: 7 }).scale, undefined);
  const vp = { width: 400, height: 300 };
  assert.deepEqual(tipPosition({ x: 10, y: 10 }, { width: 100, height: 50 }, vp), { left: 22, top: 22 });
  assert.deepEqual(tipPosition({ x: 390, y: 290 }, { width: 100, height: 50 }, vp), { left: 278, top: 228 });
  assert.deepEqual(tipPosition({ x: 50, y: 20 }, { width: 500, height: 400 }, vp), { left: 0, top: 0 });
  fc.assert(fc.property(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 300 }), (x, y, w, h) => {
    const t = tipPosition({ x, y }, { width: w, height: h }, vp);
    return t.left >= 0 && t.top >= 0 && t.left + w <= vp.width && t.top + h <= vp.height;
  }));
});

test('padding (an ExpandBy\'s -1): a grey dot in logical order, nothing in physical order', () => {
  const cells = [[0, 0, 0], [0, 1, 1], [1, 0, -1], [1, 1, -1]].map(([i, j, x]) => ({ logical: [i, j], physical: x, group: 0 }));
  const p = ok({ name: 'E', logicalDims: [2, 2], cells, totalCells: 4, exprs: { apply: '', vars: ['i', 'j'] } });
  assert.equal(p.cells.length, 4);
  const m = buildModel(p, initialView);
  assert.deepEqual(m.cells.map((c) => [c.label, c.color]), [['0', 'hsl(240, 70%, 75%)'], ['1', 'hsl(160, 70%, 75%)'], ['·', '#e8e8e8'], ['·', '#e8e8e8']]);
  assert.equal(describeCell(p, p.cells[2]), 'logical (i, j) = (1, 0)\npadding: outside the original shape');
  assert.deepEqual(buildModel(p, { ...initialView, mode: 'physical' }).cells.map((c) => c.label), ['0,0', '0,1']);
});
