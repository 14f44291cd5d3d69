// The picture of a layout for the client's view (`layout/picture`): every cell's logical
// coordinates, physical position and colour group, at the params' values, capped.
import type * as ast from '../../../grammar/src/ast.js';
import * as A from '../algebra/index.js';
import type { LayoutDocument } from './document.js';
import { nodePath } from './document.js';
import { coordinateNames, gridOf, layoutNamed, printOne, symContext } from './layout-info.js';

export const MAX_CELLS = 4096;

export interface PictureData {
  name: string;
  logicalDims: number[];
  grid?: { rows: number[]; cols: number[] };
  cells: { logical: number[]; physical: number; group: number }[];
  totalCells: number;
  truncated: boolean;
  exprs: { apply: string; inv?: string; vars?: string[] };
}

export type PictureAnswer = PictureData | { error: string } | null;

/** The layout named `name`, or else the one declared or used at `offset`. */
export function picture(doc: LayoutDocument, offset: number, name?: string): PictureAnswer {
  const target = name && doc.symbols.global(name)?.kind === 'layout' ? name : layoutAt(doc, offset);
  if (!target) return null;
  const r = layoutNamed(doc, target);
  if (!r) return null;
  if (!r.ok) return { error: `layout ${target} cannot be evaluated: ${r.message}` };
  const L = r.layout;
  const env = r.model.env;
  let prepared: A.Prepared;
  let dims: number[];
  try {
    dims = A.dims(L).map((d) => A.evalDim(d, env));
    prepared = A.prepare(L, env);
  } catch (e) {
    return { error: `layout ${target} cannot be evaluated at the params' values: ${e instanceof Error ? e.message : String(e)}` };
  }
  const total = dims.reduce((a, b) => a * b, 1);
  const rank = dims.length;
  const d = L.kind === 'TileBy' ? (L.levels[0]?.length ?? rank) : 0;
  const groupRank = d > 0 && rank > d ? rank - d : 0; // TileBy: the tile is every level but the last
  const cells: PictureData['cells'] = [];
  const idx = new Array<number>(rank).fill(0);
  const n = Math.min(total, MAX_CELLS);
  try {
    for (let f = 0; f < n; f++) {
      let group = 0;
      for (let k = 0; k < groupRank; k++) group = group * dims[k] + idx[k];
      cells.push({ logical: [...idx], physical: A.applyPrepared(prepared, [...idx]), group });
      for (let k = rank - 1; k >= 0; k--) {
        if (++idx[k] < dims[k]) break;
        idx[k] = 0;
      }
    }
  } catch (e) {
    return { error: `layout ${target} cannot be evaluated: ${e instanceof Error ? e.message : String(e)}` };
  }
  const vars = coordinateNames(doc, L);
  let apply = '';
  let inv: string | undefined;
  try {
    apply = printOne(A.applySym(L, vars, symContext(r.model)), 'python');
  } catch { /* no symbolic form */ }
  try {
    const xs = A.invSym(L, 'x', symContext(r.model));
    inv = xs.map((e, k) => `${vars[k]} = ${printOne(e, 'python')}`).join('; ');
  } catch { /* no inverse */ }
  const out: PictureData = {
    name: target,
    logicalDims: dims,
    cells,
    totalCells: total,
    truncated: total > n,
    exprs: { apply, ...(inv !== undefined ? { inv } : {}), vars },
  };
  if (L.kind === 'TileBy' && d !== 2) out.grid = gridOf(L, rank);
  return out;
}

function layoutAt(doc: LayoutDocument, offset: number): string | undefined {
  const occ = doc.symbols.at(offset);
  if (occ?.def.kind === 'layout') return occ.def.name;
  const decl = nodePath(doc.file, offset)[0] as ast.Decl | undefined;
  return decl?.kind === 'Layout' ? decl.name.name : undefined;
}
