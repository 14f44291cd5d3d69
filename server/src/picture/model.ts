// The layout picture as data (a payload checked by payload.ts): places its cells (or, for a big tiled
// layout, its tiles) on a grid in logical or physical order, colours them (by tile, tiling level, physical
// order, thread or shared-memory bank), finds the tile boundaries, marks the cells of a broken permutation
// (collisions, positions outside, missing positions) and windows large grids. Pure functions, no VS Code,
// no DOM, no Node: shared by the picture webview (dist/webview.js), the extension (SVG export) and the CLI
// (`layout show`, through text.ts and svg.ts).
import type { LayoutPicture, PictureCell, PictureTile } from '../lsp/protocol.js';

/** At most this many cells per side are drawn at once (a window of WINDOW_MAX x WINDOW_MAX). */
export const WINDOW_MAX = 64;
/** Window sides the view may use. */
export const WINDOW_SIZES = [8, 16, 32, 64] as const;
/** Zoom factors the zoom buttons step through (the drawing's size, not the number of cells). */
export const SCALES = [0.5, 0.75, 1, 1.5, 2, 3] as const;
/** Cells are labelled only while the window shows at most this many. */
export const LABEL_LIMIT = 1024;
/** Cells of a payload beyond this are ignored (the server caps well below). */
export const MAX_PAYLOAD_CELLS = 65536;
/** Threads a 'thread' colouring deals positions out to, unless the view says otherwise (a warp). */
export const DEFAULT_THREADS = 32;
/** Shared-memory banks (4 bytes wide each) of the default bank colouring. */
export const BANKS = 32;

export type ViewMode = 'logical' | 'physical';
/**
 * What a cell's colour says: `tile` the innermost tile it lies in; `level` its tile at tiling level
 * `ViewState.level` (0: the outermost); `order` its physical position (blue first, red last); `thread`
 * the thread that owns it when consecutive positions are dealt out to `threads` threads (position mod
 * threads); `bank` the shared-memory bank of its position.
 */
export type ColorBy = 'tile' | 'level' | 'order' | 'thread' | 'bank';
export const COLOR_MODES: readonly ColorBy[] = ['tile', 'level', 'order', 'thread', 'bank'];

export interface ViewState {
  mode: ViewMode;
  /** first row and column of the window */
  row0: number;
  col0: number;
  /** window side, one of WINDOW_SIZES */
  size: number;
  /** absent: `tile` for a tiled layout, `order` otherwise */
  colorBy?: ColorBy;
  /** the tiling level of the `level` colouring (0: outermost) */
  level?: number;
  /** threads of the `thread` colouring (default DEFAULT_THREADS) */
  threads?: number;
  /** bytes per element of the `bank` colouring (default 4) */
  elementBytes?: number;
  /** zoom factor, one of SCALES (default 1) */
  scale?: number;
}

export const initialView: ViewState = { mode: 'logical', row0: 0, col0: 0, size: WINDOW_MAX };

/**
 * The bank of a physical position. The default assumes 32 banks of 4 bytes and `elementBytes`-byte
 * elements stored at their position (the F2 layer's model, server/src/f2/banks.ts, for an unswizzled
 * buffer); a bank analysis can pass its own function, or the server can send each cell's `bank`.
 */
export type BankFn = (physical: number) => number;

export interface BuildOptions {
  bankOf?: BankFn;
}

export type Problem = 'collision' | 'outside' | 'missing';

export interface DrawCell {
  /** index into the picture's `cells` (or `tiles` in a summary); -1 for a missing position */
  index: number;
  row: number;
  col: number;
  label: string;
  /** the colour key (a tile, level tile, thread or bank number; the position for `order`) */
  key: number;
  color: string;
  problem?: Problem;
}

/** A tile boundary before grid row/column `at`; `depth` 0 separates the outermost tiles (drawn heavier). */
export interface Boundary {
  at: number;
  depth: number;
}

export interface DrawModel {
  title: string;
  mode: ViewMode;
  /** `cells`: one grid cell per layout cell; `tiles`: the summarised view, one grid cell per tile */
  kind: 'cells' | 'tiles';
  /** size of the whole grid in this mode */
  rows: number;
  cols: number;
  /** the window: first row/col and how many rows/cols it shows */
  row0: number;
  col0: number;
  viewRows: number;
  viewCols: number;
  cells: DrawCell[];
  labels: boolean;
  /** tile boundaries inside the window (absolute grid indices, strictly inside the grid) */
  rowLines: Boundary[];
  colLines: Boundary[];
  colorBy: ColorBy;
  /** one line under the title: sizes, window, truncation */
  caption: string;
  /** what the colours mean */
  legend: string;
  /** lines about a broken permutation (collisions, missing positions), empty when there is none */
  problems: string[];
  scale: number;
}

/** a safe integer (what the payload's and the view's numbers must be) */
export const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
export const product = (xs: readonly number[]) => xs.reduce((a, b) => a * b, 1);

/** The tiling levels of a picture (one level, the whole shape, when it is not tiled). */
export function levelsOf(p: LayoutPicture): number[][] {
  return p.levels ?? [p.logicalDims];
}

/** Whether the picture has tiles (two or more levels). */
export const isTiled = (p: LayoutPicture): boolean => levelsOf(p).length > 1;

/**
 * Which logical dimensions form rows and columns: `grid` when given; else per level, its last dimension is a
 * column and the others rows; an unlevelled even rank 2k reads as k 2-D levels, an odd rank puts the last
 * dimension on columns and the rest on rows.
 */
export function gridAxes(p: LayoutPicture): { rows: number[]; cols: number[] } {
  if (p.grid) return p.grid;
  if (p.levels) return axesOfLevels(p.levels);
  const r = p.logicalDims.length;
  const idx = p.logicalDims.map((_, k) => k);
  if (r === 1) return { rows: [], cols: [0] };
  if (r % 2 === 0) return { rows: idx.filter((k) => k % 2 === 0), cols: idx.filter((k) => k % 2 === 1) };
  return { rows: idx.slice(0, r - 1), cols: [r - 1] };
}

function axesOfLevels(levels: number[][]): { rows: number[]; cols: number[] } {
  const rows: number[] = [];
  const cols: number[] = [];
  let k = 0;
  for (const l of levels) {
    l.forEach((_, j) => (j === l.length - 1 ? cols : rows).push(k + j));
    k += l.length;
  }
  return { rows, cols };
}

/** Mixed-radix number of `coords` over the dimensions `axes` (outermost first). */
function flatten(coords: readonly number[], dims: readonly number[], axes: readonly number[]): number {
  let v = 0;
  for (const a of axes) v = v * dims[a] + coords[a];
  return v;
}

const axesProduct = (dims: readonly number[], axes: readonly number[]) => axes.reduce((a, k) => a * dims[k], 1);

/** The grid size of a picture's cells in a mode. */
export function gridSize(p: LayoutPicture, mode: ViewMode): { rows: number; cols: number } {
  const ax = gridAxes(p);
  const cols = Math.max(1, axesProduct(p.logicalDims, ax.cols));
  const lrows = axesProduct(p.logicalDims, ax.rows);
  if (mode === 'logical') return { rows: lrows, cols };
  if (p.physicalShape) return { rows: p.physicalShape[0], cols: p.physicalShape[1] };
  const maxPhys = p.cells.reduce((m, c) => Math.max(m, c.physical), -1);
  const n = Math.max(p.totalCells, maxPhys + 1);
  return { rows: Math.ceil(n / cols), cols };
}

/** Where a cell sits in a mode (a padding cell, physical -1, has no physical place). */
export function place(p: LayoutPicture, cell: PictureCell, mode: ViewMode): { row: number; col: number } {
  if (mode === 'logical') {
    const ax = gridAxes(p);
    return { row: flatten(cell.logical, p.logicalDims, ax.rows), col: flatten(cell.logical, p.logicalDims, ax.cols) };
  }
  const { cols } = gridSize(p, 'physical');
  return { row: Math.floor(cell.physical / cols), col: cell.physical % cols };
}

/** The tile (row-major number) of `logical` at tiling depth `depth` (0: the outermost level's tiles). */
export function tileAt(levels: readonly (readonly number[])[], logical: readonly number[], depth: number): number {
  let v = 0;
  let k = 0;
  for (let l = 0; l <= depth && l < levels.length; l++) {
    for (const d of levels[l]) v = v * d + logical[k++];
  }
  return v;
}

/** A fill colour per group: hues spread by the golden angle, light enough for dark labels. */
export function groupColor(group: number): string {
  const hue = Math.round((((group * 137.508) % 360) + 360) % 360);
  const light = 78 - (Math.abs(group) % 3) * 8;
  return `hsl(${hue}, 60%, ${light}%)`;
}

/** The `order` colouring: position 0 blue, the last position red, through green and yellow. */
export function orderColor(physical: number, total: number): string {
  const t = total > 1 ? Math.min(1, Math.max(0, physical / (total - 1))) : 0;
  return `hsl(${Math.round(240 - 240 * t)}, 70%, 75%)`;
}

/** The fill of a padding cell (an ExpandBy's cells outside the original shape). */
export const PADDING_COLOR = '#e8e8e8';

export const PROBLEM_COLOR: Record<Problem, string> = { collision: '#ff6b6b', outside: '#ffb347', missing: '#ffffff' };

/** The colouring a view uses for a picture: the view's, else `tile` for a tiled layout and `order` otherwise. */
export function colorOf(p: LayoutPicture, v: Pick<ViewState, 'colorBy'>): ColorBy {
  const c = v.colorBy && COLOR_MODES.includes(v.colorBy) ? v.colorBy : undefined;
  if (c && (isTiled(p) || (c !== 'tile' && c !== 'level'))) return c;
  return isTiled(p) ? 'tile' : p.colorBy ?? 'order';
}

const threadsOf = (v: ViewState) => (isInt(v.threads) && v.threads > 0 ? v.threads : DEFAULT_THREADS);
const bytesOf = (v: ViewState) => (isInt(v.elementBytes) && v.elementBytes > 0 ? v.elementBytes : 4);
const levelOf = (p: LayoutPicture, v: ViewState) => Math.max(0, Math.min(isInt(v.level) ? v.level : 0, levelsOf(p).length - 2));

/** The default bank of a position: 32 banks of 4 bytes, elements of `bytes` bytes. */
export function defaultBank(bytes: number): BankFn {
  return (physical) => Math.floor((physical * bytes) / 4) % BANKS;
}

/** The colour key of a cell under a view. */
export function colorKey(p: LayoutPicture, cell: PictureCell, v: ViewState, o: BuildOptions = {}): number {
  const by = colorOf(p, v);
  const levels = levelsOf(p);
  switch (by) {
    case 'tile': return tileAt(levels, cell.logical, levels.length - 2);
    case 'level': return tileAt(levels, cell.logical, levelOf(p, v));
    case 'order': return cell.physical;
    case 'thread': return p.groupKind === 'thread' && v.threads === undefined ? cell.group : cell.physical % threadsOf(v);
    case 'bank': return cell.bank ?? (o.bankOf ?? defaultBank(bytesOf(v)))(cell.physical);
  }
}

function legendOf(p: LayoutPicture, v: ViewState, o: BuildOptions): string {
  const levels = levelsOf(p);
  const by = colorOf(p, v);
  if (p.legend && by === p.colorBy && !(by === 'thread' && v.threads !== undefined)) return p.legend;
  switch (by) {
    case 'tile': return `colour: tile (${product(levels.slice(0, -1).flat())} tiles of ${levels[levels.length - 1].join(' x ')})`;
    case 'level': {
      const k = levelOf(p, v);
      return `colour: level ${k} tile (${product(levels.slice(0, k + 1).flat())} tiles)`;
    }
    case 'order': return 'colour: physical position (blue first, red last)';
    case 'thread': return `colour: thread = position mod ${threadsOf(v)}`;
    case 'bank': return o.bankOf ? 'colour: shared-memory bank' : `colour: bank = (position x ${bytesOf(v)} bytes / 4) mod ${BANKS}`;
  }
}

/** Clamps a view to the grid (window inside, size one of WINDOW_SIZES, scale one of SCALES). */
export function clampView(p: LayoutPicture, v: ViewState): ViewState {
  const size = (WINDOW_SIZES as readonly number[]).includes(v.size) ? v.size : WINDOW_MAX;
  const mode: ViewMode = v.mode === 'physical' ? 'physical' : 'logical';
  const { rows, cols } = p.tiles && p.cells.length === 0 ? tileGridSize(p) : gridSize(p, mode);
  const clamp = (x: number, n: number) => Math.max(0, Math.min(Number.isFinite(x) ? Math.floor(x) : 0, Math.max(0, n - size)));
  const out: ViewState = { mode, size, row0: clamp(v.row0, rows), col0: clamp(v.col0, cols) };
  if (v.colorBy && COLOR_MODES.includes(v.colorBy)) out.colorBy = v.colorBy;
  if (isInt(v.level)) out.level = v.level;
  if (isInt(v.threads) && v.threads > 0) out.threads = v.threads;
  if (isInt(v.elementBytes) && v.elementBytes > 0) out.elementBytes = v.elementBytes;
  if (typeof v.scale === 'number' && (SCALES as readonly number[]).includes(v.scale) && v.scale !== 1) out.scale = v.scale;
  return out;
}

/** Steps the zoom factor: +1 in, -1 out. */
export function zoom(v: ViewState, step: 1 | -1): ViewState {
  const k = (SCALES as readonly number[]).indexOf(v.scale ?? 1);
  const next = SCALES[Math.max(0, Math.min(SCALES.length - 1, (k < 0 ? 2 : k) + step))];
  return { ...v, scale: next };
}

/** Boundaries between tiles along one grid axis: `axes` the dims on it, `levelOfDim` each dim's level. */
function boundaries(dims: readonly number[], axes: readonly number[], levelOfDim: readonly number[], nLevels: number, from: number, count: number, total: number): Boundary[] {
  // the extent along this axis of one tile at depth k: the product of the axis dims of levels k+1 and deeper
  const units: number[] = [];
  for (let k = 0; k < nLevels - 1; k++) units.push(axes.filter((a) => levelOfDim[a] > k).reduce((u, a) => u * dims[a], 1));
  const out: Boundary[] = [];
  for (let at = Math.max(1, from); at < Math.min(total, from + count); at++) {
    const depth = units.findIndex((u) => u > 0 && at % u === 0 && u < total);
    if (depth >= 0) out.push({ at, depth });
  }
  return out;
}

function levelIndex(levels: readonly (readonly number[])[]): number[] {
  return levels.flatMap((l, k) => l.map(() => k));
}

/** Problems of the payload's cells: positions taken twice, positions outside, positions nobody takes. */
function problemLines(p: LayoutPicture): string[] {
  const lines: string[] = [];
  const list = (xs: number[]) => (xs.length > 12 ? `${xs.slice(0, 12).join(', ')}, ... (${xs.length}${xs.length >= 256 ? '+' : ''})` : xs.join(', '));
  if (p.collisions?.length) lines.push(`not a bijection: ${p.collisions.length === 1 ? 'position' : 'positions'} ${list(p.collisions)} ${p.collisions.length === 1 ? 'is' : 'are'} taken by more than one cell`);
  const outside = [...new Set(p.cells.filter((c) => c.physical >= p.totalCells).map((c) => c.physical))].sort((a, b) => a - b);
  if (outside.length) lines.push(`${outside.length === 1 ? 'position' : 'positions'} ${list(outside)} ${outside.length === 1 ? 'lies' : 'lie'} outside 0..${p.totalCells - 1}`);
  if (p.missing?.length) lines.push(`no cell maps to ${p.missing.length === 1 ? 'position' : 'positions'} ${list(p.missing)}`);
  if (lines.length && p.checkedCells !== undefined && p.checkedCells < p.totalCells) lines.push(`(checked the first ${p.checkedCells} of ${p.totalCells} cells)`);
  return lines;
}

/** Whether the view shows the summarised tiles (the payload has tiles and no cells to draw). */
export const isSummary = (p: LayoutPicture): boolean => !!p.tiles && p.cells.length === 0;

function tilePicture(p: LayoutPicture): LayoutPicture {
  const levels = levelsOf(p).slice(0, -1);
  const dims = levels.flat();
  return {
    name: p.name, logicalDims: dims, levels, totalCells: product(dims), truncated: false, exprs: { apply: '' },
    cells: (p.tiles ?? []).map((t, k) => ({ logical: t.tile, physical: k, group: k })),
  };
}

function tileGridSize(p: LayoutPicture): { rows: number; cols: number } {
  return gridSize(tilePicture(p), 'logical');
}

/** The label of a summarised tile: the range of positions its cells take, or where its first cell lies. */
export function tileLabel(t: PictureTile): string {
  return t.min !== undefined && t.max !== undefined ? `${t.min}-${t.max}` : `${t.first}..`;
}

/** Builds what to draw for a view. Labels: physical positions in logical order, logical coordinates in physical order. */
export function buildModel(p: LayoutPicture, view: ViewState, o: BuildOptions = {}): DrawModel {
  if (isSummary(p)) return buildSummary(p, view);
  const v = clampView(p, view);
  const { rows, cols } = gridSize(p, v.mode);
  const viewRows = Math.min(v.size, rows - v.row0);
  const viewCols = Math.min(v.size, cols - v.col0);
  const labels = viewRows * viewCols <= LABEL_LIMIT;
  const by = colorOf(p, v);
  const collide = new Set(p.collisions ?? []);
  const cells: DrawCell[] = [];
  const taken = new Map<string, DrawCell>();
  const inWindow = (row: number, col: number) => row >= v.row0 && row < v.row0 + viewRows && col >= v.col0 && col < v.col0 + viewCols;
  p.cells.forEach((c, index) => {
    if (c.physical < 0) { // padding (ExpandBy): drawn in logical order only, grey, labelled with a dot
      if (v.mode === 'physical') return;
      const at = place(p, c, 'logical');
      if (inWindow(at.row, at.col)) cells.push({ index, row: at.row, col: at.col, label: '·', key: -1, color: PADDING_COLOR });
      return;
    }
    const { row, col } = place(p, c, v.mode);
    if (!inWindow(row, col)) return;
    const problem: Problem | undefined = c.physical >= p.totalCells ? 'outside' : collide.has(c.physical) ? 'collision' : undefined;
    const key = colorKey(p, c, v, o);
    if (v.mode === 'physical') {
      const seen = taken.get(`${row},${col}`);
      if (seen) { // a second cell at the same position (a collision): one cell that says how many
        const n = Number(/\+(\d+)$/.exec(seen.label)?.[1] ?? '0') + 1;
        seen.label = `${seen.label.replace(/\+\d+$/, '')}+${n}`;
        seen.problem = 'collision';
        seen.color = PROBLEM_COLOR.collision;
        return;
      }
    }
    const label = v.mode === 'logical' ? c.label ?? String(c.physical) : c.logical.join(',');
    const color = problem ? PROBLEM_COLOR[problem] : by === 'order' ? orderColor(c.physical, p.totalCells) : groupColor(key);
    const d: DrawCell = { index, row, col, label, key, color, ...(problem ? { problem } : {}) };
    cells.push(d);
    if (v.mode === 'physical') taken.set(`${row},${col}`, d);
  });
  if (v.mode === 'physical' && !p.truncated) {
    for (const m of p.missing ?? []) {
      const row = Math.floor(m / cols);
      const col = m % cols;
      if (inWindow(row, col)) cells.push({ index: -1, row, col, label: '-', key: m, color: PROBLEM_COLOR.missing, problem: 'missing' });
    }
    cells.sort((a, b) => a.row - b.row || a.col - b.col);
  }
  const levels = levelsOf(p);
  const ax = gridAxes(p);
  const li = levelIndex(levels);
  const tiled = v.mode === 'logical' && levels.length > 1 && !p.grid;
  const rowLines = tiled ? boundaries(p.logicalDims, ax.rows, li, levels.length, v.row0, viewRows, rows) : [];
  const colLines = tiled ? boundaries(p.logicalDims, ax.cols, li, levels.length, v.col0, viewCols, cols) : [];
  const parts = [`${p.logicalDims.join(' x ')} = ${p.totalCells} cells`, `${v.mode} order`];
  if (levels.length > 1) parts.push(`tiles of ${levels[levels.length - 1].join(' x ')}`);
  if (viewRows < rows || viewCols < cols) {
    parts.push(`rows ${v.row0}-${v.row0 + viewRows - 1} of ${rows}, columns ${v.col0}-${v.col0 + viewCols - 1} of ${cols}`);
  }
  if (p.truncated) parts.push(`the server sent ${p.cells.length} of ${p.totalCells} cells`);
  const over = (p.params ?? []).filter((q) => q.value !== q.declared);
  if (over.length) parts.push(`drawn with ${over.map((q) => `${q.name} = ${q.value}`).join(', ')}`);
  return {
    title: p.name, mode: v.mode, kind: 'cells', rows, cols, row0: v.row0, col0: v.col0, viewRows, viewCols, cells, labels,
    rowLines, colLines, colorBy: by, caption: parts.join('; '), legend: legendOf(p, v, o), problems: problemLines(p), scale: v.scale ?? 1,
  };
}

/** The summarised view: one grid cell per tile, labelled with the range of positions the tile's cells take. */
function buildSummary(p: LayoutPicture, view: ViewState): DrawModel {
  const tp = tilePicture(p);
  const v = clampView(p, { ...view, mode: 'logical' });
  const { rows, cols } = gridSize(tp, 'logical');
  const viewRows = Math.min(v.size, rows - v.row0);
  const viewCols = Math.min(v.size, cols - v.col0);
  const tiles = p.tiles!;
  const cells: DrawCell[] = [];
  tp.cells.forEach((c, index) => {
    const { row, col } = place(tp, c, 'logical');
    if (row < v.row0 || row >= v.row0 + viewRows || col < v.col0 || col >= v.col0 + viewCols) return;
    const t = tiles[index];
    cells.push({ index, row, col, label: tileLabel(t), key: t.first, color: orderColor(t.first, p.totalCells) });
  });
  const levels = levelsOf(tp);
  const ax = gridAxes(tp);
  const li = levelIndex(levels);
  const rowLines = levels.length > 1 ? boundaries(tp.logicalDims, ax.rows, li, levels.length, v.row0, viewRows, rows) : [];
  const colLines = levels.length > 1 ? boundaries(tp.logicalDims, ax.cols, li, levels.length, v.col0, viewCols, cols) : [];
  const inner = levelsOf(p)[levelsOf(p).length - 1];
  const parts = [`${p.logicalDims.join(' x ')} = ${p.totalCells} cells`, `summary: ${tiles.length} tiles of ${inner.join(' x ')}, each labelled with the positions it takes`];
  if (viewRows < rows || viewCols < cols) {
    parts.push(`tile rows ${v.row0}-${v.row0 + viewRows - 1} of ${rows}, tile columns ${v.col0}-${v.col0 + viewCols - 1} of ${cols}`);
  }
  const over = (p.params ?? []).filter((q) => q.value !== q.declared);
  if (over.length) parts.push(`drawn with ${over.map((q) => `${q.name} = ${q.value}`).join(', ')}`);
  return {
    title: p.name, mode: 'logical', kind: 'tiles', rows, cols, row0: v.row0, col0: v.col0, viewRows, viewCols, cells,
    labels: viewRows * viewCols <= LABEL_LIMIT, rowLines, colLines, colorBy: 'order', caption: parts.join('; '),
    legend: 'colour: position of the tile\'s first cell (blue first, red last)', problems: problemLines(p), scale: v.scale ?? 1,
  };
}

/** The hover text of a drawn cell: its coordinates, position, the apply expression with its value, its colour key. */
export function describe(p: LayoutPicture, m: DrawModel, d: DrawCell, view: ViewState = initialView): string {
  if (m.kind === 'tiles') {
    const t = p.tiles![d.index];
    const vars = (p.exprs.vars ?? []).slice(0, t.tile.length);
    const names = vars.length === t.tile.length ? vars : t.tile.map((_, k) => `t${k}`);
    const inner = levelsOf(p)[levelsOf(p).length - 1];
    const size = product(inner);
    const lines = [`tile (${names.join(', ')}) = (${t.tile.join(', ')})`, `first cell at ${t.first}`];
    if (t.min !== undefined && t.max !== undefined) {
      lines.push(`positions ${t.min}..${t.max}${t.max - t.min + 1 === size ? ' (contiguous)' : ` (${size} cells over ${t.max - t.min + 1} positions)`}`);
    }
    return lines.join('\n');
  }
  if (d.index < 0) return `position ${d.key}: no cell maps here`;
  return describeCell(p, p.cells[d.index], view);
}

/** The hover text of a cell (see `describe`). `others`: list the other cells at the same position. */
export function describeCell(p: LayoutPicture, cell: PictureCell, view: ViewState = initialView, others = true): string {
  const vars = p.exprs.vars ?? p.logicalDims.map((_, k) => `i${k}`);
  if (cell.physical < 0) return `logical (${vars.join(', ')}) = (${cell.logical.join(', ')})\npadding: outside the original shape`;
  const lines = [
    `logical (${vars.join(', ')}) = (${cell.logical.join(', ')})`,
    `physical ${cell.physical}`,
  ];
  if (p.exprs.apply) lines.push(`${p.exprs.apply} = ${cell.physical}`);
  const by = colorOf(p, view);
  if (by === 'tile' || (by === 'order' && !isTiled(p))) {
    if (isTiled(p)) lines.push(`tile ${colorKey(p, cell, view)}`);
    // an unlevelled payload (an older server) says its group; a plain untiled layout has none worth a line
    else if (!p.levels && ((p.groupKind ?? 'tile') !== 'tile' || cell.group !== 0)) lines.push(`${p.groupKind ?? 'tile'} ${cell.group}`);
  } else if (by === 'level') lines.push(`level ${levelOf(p, view)} tile ${colorKey(p, cell, view)}`);
  else if (by === 'thread') lines.push(`thread ${colorKey(p, cell, view)}`);
  else if (by === 'bank') lines.push(`bank ${colorKey(p, cell, view)}`);
  if (cell.note) lines.push(cell.note);
  if (others && p.collisions?.includes(cell.physical)) {
    const same = p.cells.filter((c) => c !== cell && c.physical === cell.physical).map((c) => `(${c.logical.join(', ')})`);
    lines.push(`collision: ${same.length ? `${same.join(', ')} ${same.length === 1 ? 'maps' : 'map'} here too` : 'another cell maps here too'}`);
  }
  return lines.join('\n');
}

/**
 * Where to put a tooltip of size `tip` for a pointer at `at` so that it stays inside a viewport of size
 * `viewport`: below and right of the pointer when it fits, else above / left, never past the top-left corner.
 */
export function tipPosition(at: { x: number; y: number }, tip: { width: number; height: number }, viewport: { width: number; height: number }, gap = 12): { left: number; top: number } {
  let left = at.x + gap;
  if (left + tip.width > viewport.width) left = at.x - gap - tip.width;
  let top = at.y + gap;
  if (top + tip.height > viewport.height) top = at.y - gap - tip.height;
  left = Math.max(0, Math.min(left, viewport.width - tip.width));
  top = Math.max(0, Math.min(top, viewport.height - tip.height));
  return { left, top };
}
