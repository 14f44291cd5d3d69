// A `layout/picture` payload, as the webview and the extension receive it from the server, checked before
// anything is drawn (picture/model.ts draws only what passed): malformed cells are dropped, a payload
// that cannot be drawn at all gets the reason. Pure functions, no VS Code, no DOM, no Node.
import type { LayoutPicture, PictureCell, PictureParam, PictureTile } from '../lsp/protocol.js';
import { isInt, MAX_PAYLOAD_CELLS, product } from './model.js';

const isNat = (v: unknown): v is number => isInt(v) && v >= 0;
const natList = (v: unknown, max = 4096): number[] | undefined =>
  Array.isArray(v) && v.length <= max && v.every(isNat) ? (v as number[]) : undefined;

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
    const { logical, physical, group, bank, label, note } = c as Record<string, unknown>;
    if (!Array.isArray(logical) || logical.length !== rank) continue;
    if (!logical.every((v, k) => isNat(v) && v < dims[k])) continue;
    if (!isNat(physical) && physical !== -1) continue; // -1: padding of an ExpandBy
    cells.push({
      logical: logical as number[], physical, group: isInt(group) ? group : 0, ...(isNat(bank) ? { bank } : {}),
      ...(typeof label === 'string' && label.length <= 32 ? { label } : {}), ...(typeof note === 'string' && note.length <= 512 ? { note } : {}),
    });
  }
  const exprs = (typeof p.exprs === 'object' && p.exprs !== null ? p.exprs : {}) as Record<string, unknown>;
  const vars = Array.isArray(exprs.vars) && exprs.vars.length === rank && exprs.vars.every((v) => typeof v === 'string')
    ? (exprs.vars as string[]) : undefined;
  const grid = checkGrid(p.grid, rank);
  const ps = p.physicalShape;
  const physicalShape = Array.isArray(ps) && ps.length === 2 && ps.every(isNat) && ps[1] > 0
    ? [ps[0], ps[1]] as [number, number] : undefined;
  const groupKind = p.groupKind === 'thread' || p.groupKind === 'warp' ? p.groupKind : 'tile';
  const total = product(dims as number[]);
  const levels = checkLevels(p.levels, dims as number[]);
  const out: LayoutPicture = {
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
  if (levels) out.levels = levels;
  const tiles = levels && levels.length > 1 ? checkTiles(p.tiles, levels.slice(0, -1).flat()) : undefined;
  if (tiles) out.tiles = tiles;
  const collisions = natList(p.collisions);
  if (collisions?.length) out.collisions = collisions;
  const missing = natList(p.missing);
  if (missing?.length) out.missing = missing;
  if (isNat(p.checkedCells)) out.checkedCells = p.checkedCells;
  const params = checkParams(p.params);
  if (params) out.params = params;
  if (p.colorBy === 'bank' || p.colorBy === 'thread') out.colorBy = p.colorBy;
  if (typeof p.legend === 'string' && p.legend.length <= 512) out.legend = p.legend;
  return out;
}

function checkGrid(g: unknown, rank: number): { rows: number[]; cols: number[] } | undefined {
  if (typeof g !== 'object' || g === null) return undefined;
  const { rows, cols } = g as Record<string, unknown>;
  if (!Array.isArray(rows) || !Array.isArray(cols)) return undefined;
  const all = [...rows, ...cols];
  if (all.length !== rank || !all.every((d) => isNat(d) && d < rank) || new Set(all).size !== rank) return undefined;
  return { rows: rows as number[], cols: cols as number[] };
}

function checkLevels(v: unknown, dims: number[]): number[][] | undefined {
  if (!Array.isArray(v) || v.length === 0 || !v.every((l) => Array.isArray(l) && l.length > 0 && l.every(isNat))) return undefined;
  const flat = (v as number[][]).flat();
  if (flat.length !== dims.length || flat.some((d, k) => d !== dims[k])) return undefined;
  return v as number[][];
}

function checkTiles(v: unknown, tileDims: number[]): PictureTile[] | undefined {
  if (!Array.isArray(v) || v.length !== product(tileDims) || v.length > MAX_PAYLOAD_CELLS) return undefined;
  const out: PictureTile[] = [];
  for (const t of v as unknown[]) {
    if (typeof t !== 'object' || t === null) return undefined;
    const { tile, first, min, max } = t as Record<string, unknown>;
    if (!Array.isArray(tile) || tile.length !== tileDims.length || !tile.every((c, k) => isNat(c) && c < tileDims[k]) || !isNat(first)) return undefined;
    out.push({ tile: tile as number[], first, ...(isNat(min) && isNat(max) && min <= max ? { min, max } : {}) });
  }
  return out;
}

function checkParams(v: unknown): PictureParam[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: PictureParam[] = [];
  for (const q of v as unknown[]) {
    const r = q as Record<string, unknown> | null;
    if (r && typeof r.name === 'string' && isInt(r.value) && isInt(r.declared)) out.push({ name: r.name, value: r.value, declared: r.declared });
  }
  return out;
}
