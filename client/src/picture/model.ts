// The layout picture as data: checks a `layout/picture` payload, places its cells on a grid (logical or
// physical order), windows large layouts, and prints the picture as SVG. Pure functions, no VS Code and no
// DOM, shared by the webview script (dist/webview.js), the extension (SVG export) and the unit tests.
import type { LayoutPicture, PictureCell } from '../../../server/src/lsp/protocol.js';

/** At most this many cells are drawn at once (a window of WINDOW_MAX x WINDOW_MAX). */
export const WINDOW_MAX = 64;
/** Window sides the zoom steps through. */
export const WINDOW_SIZES = [8, 16, 32, 64] as const;
/** Cells are labelled only while the window shows at most this many. */
export const LABEL_LIMIT = 1024;
/** Cells of a payload beyond this are ignored (the server should cap well below). */
export const MAX_PAYLOAD_CELLS = 65536;

export type ViewMode = 'logical' | 'physical';

export interface ViewState {
  mode: ViewMode;
  /** first row and column of the window */
  row0: number;
  col0: number;
  /** window side, one of WINDOW_SIZES */
  size: number;
}

export const initialView: ViewState = { mode: 'logical', row0: 0, col0: 0, size: WINDOW_MAX };

export interface DrawCell {
  /** index into the picture's `cells` */
  index: number;
  row: number;
  col: number;
  label: string;
  color: string;
}

export interface DrawModel {
  title: string;
  mode: ViewMode;
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
  /** one line under the title: sizes, window, truncation */
  caption: string;
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const isNat = (v: unknown): v is number => isInt(v) && v >= 0;

/**
 * Checks a payload received from the server. Returns the picture with malformed cells dropped, or a message
 * saying why it cannot be drawn at all. Never throws.
 */
export function checkPicture(x: unknown): LayoutPicture | string {
  if (typeof x !== 'object' || x === null) return 'the server sent no picture';
  const p = x as Record<string, unknown>;
  if (typeof p.error === 'string') return p.error;
  if (typeof p.name !== 'string') return 'picture without a name';
  const dims = p.logicalDims;
  if (!Array.isArray(dims) || dims.length === 0 || !dims.every(isNat)) return 'picture without valid logical dimensions';
  if (!Array.isArray(p.cells)) return 'picture without cells';
  const rank = dims.length;
  const cells: PictureCell[] = [];
  for (const c of p.cells.slice(0, MAX_PAYLOAD_CELLS) as unknown[]) {
    if (typeof c !== 'object' || c === null) continue;
    const { logical, physical, group } = c as Record<string, unknown>;
    if (!Array.isArray(logical) || logical.length !== rank) continue;
    if (!logical.every((v, k) => isNat(v) && v < dims[k])) continue;
    if (!isNat(physical)) continue;
    cells.push({ logical: logical as number[], physical, group: isInt(group) ? group : 0 });
  }
  const exprs = (typeof p.exprs === 'object' && p.exprs !== null ? p.exprs : {}) as Record<string, unknown>;
  const vars = Array.isArray(exprs.vars) && exprs.vars.length === rank && exprs.vars.every((v) => typeof v === 'string')
    ? (exprs.vars as string[]) : undefined;
  const grid = checkGrid(p.grid, rank);
  const ps = p.physicalShape;
  const physicalShape = Array.isArray(ps) && ps.length === 2 && ps.every(isNat) && ps[1] > 0
    ? [ps[0], ps[1]] as [number, number] : undefined;
  const groupKind = p.groupKind === 'thread' || p.groupKind === 'warp' ? p.groupKind : 'tile';
  const total = dims.reduce((a, b) => a * b, 1);
  return {
    name: p.name,
    logicalDims: dims as number[],
    grid,
    physicalShape,
    groupKind,
    cells,
    totalCells: isNat(p.totalCells) ? p.totalCells : total,
    truncated: p.truncated === true || cells.length < total,
    exprs: {
      apply: typeof exprs.apply === 'string' ? exprs.apply : '',
      inv: typeof exprs.inv === 'string' ? exprs.inv : undefined,
      vars,
    },
  };
}

function checkGrid(g: unknown, rank: number): { rows: number[]; cols: number[] } | undefined {
  if (typeof g !== 'object' || g === null) return undefined;
  const { rows, cols } = g as Record<string, unknown>;
  if (!Array.isArray(rows) || !Array.isArray(cols)) return undefined;
  const all = [...rows, ...cols];
  if (all.length !== rank || !all.every((d) => isNat(d) && d < rank) || new Set(all).size !== rank) return undefined;
  return { rows: rows as number[], cols: cols as number[] };
}

/** Which logical dimensions form rows and columns (see `LayoutPicture.grid`). */
export function gridAxes(p: LayoutPicture): { rows: number[]; cols: number[] } {
  if (p.grid) return p.grid;
  const r = p.logicalDims.length;
  const idx = p.logicalDims.map((_, k) => k);
  if (r === 1) return { rows: [], cols: [0] };
  if (r % 2 === 0) return { rows: idx.filter((k) => k % 2 === 0), cols: idx.filter((k) => k % 2 === 1) };
  return { rows: idx.slice(0, r - 1), cols: [r - 1] };
}

/** Mixed-radix number of `coords` over the dimensions `axes` (outermost first). */
function flatten(coords: number[], dims: number[], axes: number[]): number {
  let v = 0;
  for (const a of axes) v = v * dims[a] + coords[a];
  return v;
}

const product = (dims: number[], axes: number[]) => axes.reduce((a, k) => a * dims[k], 1);

/** The grid size of a picture in a mode. */
export function gridSize(p: LayoutPicture, mode: ViewMode): { rows: number; cols: number } {
  const ax = gridAxes(p);
  const cols = Math.max(1, product(p.logicalDims, ax.cols));
  const lrows = product(p.logicalDims, ax.rows);
  if (mode === 'logical') return { rows: lrows, cols };
  if (p.physicalShape) return { rows: p.physicalShape[0], cols: p.physicalShape[1] };
  const maxPhys = p.cells.reduce((m, c) => Math.max(m, c.physical), -1);
  const n = Math.max(p.totalCells, maxPhys + 1);
  return { rows: Math.ceil(n / cols), cols };
}

/** Where a cell sits in a mode. */
export function place(p: LayoutPicture, cell: PictureCell, mode: ViewMode): { row: number; col: number } {
  if (mode === 'logical') {
    const ax = gridAxes(p);
    return { row: flatten(cell.logical, p.logicalDims, ax.rows), col: flatten(cell.logical, p.logicalDims, ax.cols) };
  }
  const { cols } = gridSize(p, 'physical');
  return { row: Math.floor(cell.physical / cols), col: cell.physical % cols };
}

/** A fill colour per group: hues spread by the golden angle, light enough for dark labels. */
export function groupColor(group: number): string {
  const hue = Math.round((((group * 137.508) % 360) + 360) % 360);
  const light = 78 - (Math.abs(group) % 3) * 8;
  return `hsl(${hue}, 60%, ${light}%)`;
}

/** Clamps a view to the grid (window inside, size one of WINDOW_SIZES). */
export function clampView(p: LayoutPicture, v: ViewState): ViewState {
  const size = (WINDOW_SIZES as readonly number[]).includes(v.size) ? v.size : WINDOW_MAX;
  const { rows, cols } = gridSize(p, v.mode);
  const clamp = (x: number, n: number) => Math.max(0, Math.min(Number.isFinite(x) ? Math.floor(x) : 0, Math.max(0, n - size)));
  return { mode: v.mode === 'physical' ? 'physical' : 'logical', size, row0: clamp(v.row0, rows), col0: clamp(v.col0, cols) };
}

/** Builds what to draw for a view. Labels: physical positions in logical order, logical coordinates in physical order. */
export function buildModel(p: LayoutPicture, view: ViewState): DrawModel {
  const v = clampView(p, view);
  const { rows, cols } = gridSize(p, v.mode);
  const viewRows = Math.min(v.size, rows - v.row0);
  const viewCols = Math.min(v.size, cols - v.col0);
  const labels = viewRows * viewCols <= LABEL_LIMIT;
  const cells: DrawCell[] = [];
  p.cells.forEach((c, index) => {
    const { row, col } = place(p, c, v.mode);
    if (row < v.row0 || row >= v.row0 + viewRows || col < v.col0 || col >= v.col0 + viewCols) return;
    const label = v.mode === 'logical' ? String(c.physical) : c.logical.join(',');
    cells.push({ index, row, col, label, color: groupColor(c.group) });
  });
  const parts = [`${p.logicalDims.join(' x ')} = ${p.totalCells} cells`, `${v.mode} order`];
  if (viewRows < rows || viewCols < cols) {
    parts.push(`rows ${v.row0}-${v.row0 + viewRows - 1} of ${rows}, columns ${v.col0}-${v.col0 + viewCols - 1} of ${cols}`);
  }
  if (p.truncated) parts.push(`the server sent ${p.cells.length} of ${p.totalCells} cells`);
  return { title: p.name, mode: v.mode, rows, cols, row0: v.row0, col0: v.col0, viewRows, viewCols, cells, labels, caption: parts.join('; ') };
}

/** The hover text of a cell: its coordinates, position, and the apply expression with its value. */
export function describeCell(p: LayoutPicture, cell: PictureCell): string {
  const vars = p.exprs.vars ?? p.logicalDims.map((_, k) => `i${k}`);
  const lines = [
    `logical (${vars.join(', ')}) = (${cell.logical.join(', ')})`,
    `physical ${cell.physical}`,
  ];
  if (p.exprs.apply) lines.push(`${p.exprs.apply} = ${cell.physical}`);
  lines.push(`${p.groupKind ?? 'tile'} ${cell.group}`);
  return lines.join('\n');
}

export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch]!);
}

/** Geometry of the SVG drawing. */
export function cellSize(m: DrawModel): number {
  if (!m.labels) return 12;
  const longest = m.cells.reduce((n, c) => Math.max(n, c.label.length), 1);
  return Math.max(24, longest * 7 + 8);
}
export const MARGIN = 28;

/**
 * The picture as a standalone SVG document (the webview shows the same markup). Only presentation
 * attributes, no `style` attributes, so it renders under the webview's strict CSP.
 */
export function toSvg(m: DrawModel, p: LayoutPicture, opts: { cellTitles?: boolean } = {}): string {
  const titles = opts.cellTitles ?? true;
  const s = cellSize(m);
  const width = MARGIN + m.viewCols * s + 2;
  const height = MARGIN + m.viewRows * s + 2;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="monospace" font-size="11">`);
  out.push(`<title>${escapeXml(`${m.title} (${m.mode} order)`)}</title>`);
  out.push(`<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`);
  const step = Math.max(1, Math.ceil(16 / s));
  for (let c = 0; c < m.viewCols; c += step) {
    out.push(`<text x="${MARGIN + c * s + s / 2}" y="${MARGIN - 8}" text-anchor="middle" fill="#666666">${m.col0 + c}</text>`);
  }
  for (let r = 0; r < m.viewRows; r += step) {
    out.push(`<text x="${MARGIN - 4}" y="${MARGIN + r * s + s / 2 + 4}" text-anchor="end" fill="#666666">${m.row0 + r}</text>`);
  }
  for (const c of m.cells) {
    const x = MARGIN + (c.col - m.col0) * s;
    const y = MARGIN + (c.row - m.row0) * s;
    out.push(`<rect x="${x}" y="${y}" width="${s}" height="${s}" fill="${c.color}" stroke="#ffffff" stroke-width="1" data-i="${c.index}">${titles ? `<title>${escapeXml(describeCell(p, p.cells[c.index]))}</title>` : ''}</rect>`);
    if (m.labels) {
      out.push(`<text x="${x + s / 2}" y="${y + s / 2 + 4}" text-anchor="middle" fill="#1a1a1a" pointer-events="none">${escapeXml(c.label)}</text>`);
    }
  }
  out.push('</svg>');
  return out.join('\n');
}
