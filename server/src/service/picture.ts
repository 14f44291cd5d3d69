// The picture of a layout (`layout/picture` for the editor's view, `layout show` for the terminal): every
// cell's logical coordinates and physical position at the params' values (or at values the user sets),
// the tiling levels, and what is wrong with a broken permutation (positions taken twice, positions no
// cell takes). A big tiled layout is summarised: one entry per tile with the positions its cells take.
// The drawing itself (grid, colours, boundaries, SVG, text) is server/src/picture/, shared with the client.
import type * as ast from '../../../grammar/src/ast.js';
import * as A from '../algebra/index.js';
import type { Model } from '../check/elaborate.js';
import type { LayoutPicture, PictureParam, PictureTile } from '../lsp/protocol.js';
import type { LayoutDocument } from './document.js';
import { nodePath } from './document.js';
import { errorIn, modelWithOverrides } from './elaboration.js';
import { coordinateNames, layoutNamed, printOne, symContext } from './layout-info.js';
import { linearNamed } from './linear-hover.js';
import { linearPicture } from './linear-picture.js';

/** At most this many cells are sent; a bigger tiled layout is summarised per tile. */
export const MAX_CELLS = 4096;
/** At most this many tiles in a summary. */
export const MAX_TILES = 4096;
/** At most this many cells are enumerated to find collisions, missing positions and exact tile ranges. */
export const CHECK_CELLS = 1 << 18;
/** At most this many collisions / missing positions are listed. */
export const MAX_LISTED = 256;

export type PictureData = LayoutPicture;
export type PictureAnswer = PictureData | { error: string } | null;

/**
 * The layout named `name`, or else the one declared or used at `offset`; with `overrides`, drawn with
 * those params' values instead of the declared ones.
 */
export function picture(doc: LayoutDocument, offset: number, name?: string, overrides?: Readonly<Record<string, number>>): PictureAnswer {
  const lin = name && doc.symbols.global(name)?.kind === 'linear' ? name : name ? undefined : linearAt(doc, offset);
  if (lin) {
    const m = linearNamed(doc, lin);
    return m ? linearPicture(m) : { error: `linear layout ${lin} has errors: fix them first` };
  }
  const target = name && doc.symbols.global(name)?.kind === 'layout' ? name : layoutAt(doc, offset);
  if (!target) return null;
  const base = layoutNamed(doc, target);
  if (!base) return null;
  if (!base.ok) return { error: `layout ${target} cannot be evaluated: ${base.message}` };
  let r: { layout: A.Layout; model: Model } = base;
  const over = overridesOf(base.model, overrides);
  if (typeof over === 'string') return { error: over };
  if (over.size) {
    const decl = doc.symbols.global(target)!.container as ast.LayoutDecl;
    const dm = modelWithOverrides(doc, decl, over);
    const L = dm.model.layouts.get(target)?.layout;
    if (!L) {
      const why = errorIn(dm, decl.range) ?? dm.diagnostics.find((d) => d.severity === 'error');
      return { error: `layout ${target} cannot be evaluated with ${[...over].map(([k, v]) => `${k} = ${v}`).join(', ')}: ${why?.message ?? 'it cannot be built'}` };
    }
    r = { layout: L, model: dm.model };
  }
  return layoutPicture(target, r.layout, r.model, coordinateNames(doc, r.layout), paramsOf(base.model, r.model));
}

/** Checks overrides against the model's params: integers, declared params. */
export function overridesOf(model: Model, overrides: Readonly<Record<string, number>> | undefined): Map<string, bigint> | string {
  const out = new Map<string, bigint>();
  for (const [k, v] of Object.entries(overrides ?? {})) {
    if (!model.params.has(k)) return `there is no param ${k}`;
    if (!Number.isSafeInteger(v)) return `${k} must be an integer, got ${String(v)}`;
    if (model.params.get(k)!.value !== BigInt(v)) out.set(k, BigInt(v));
  }
  return out;
}

/** The params of `used` with their values, and the values `base` declares. */
export function paramsOf(base: Model, used: Model): PictureParam[] {
  const out: PictureParam[] = [];
  for (const [name, p] of used.params) {
    if (p.isConst || p.value === undefined) continue;
    const declared = base.params.get(name)?.value ?? p.value;
    const choices = p.candidates.map(Number);
    out.push({ name, value: Number(p.value), declared: Number(declared), ...(choices.length ? { choices } : {}) });
  }
  return out;
}

/** The tiling levels of `L` at `env` (a TileBy's levels, a nested GroupBy's groups); undefined when it has one. */
function levelsOf(L: A.Layout, env: A.Env, dims: number[]): number[][] | undefined {
  const lv = L.kind === 'TileBy' ? L.levels : L.kind === 'GroupBy' ? L.groupDims : undefined;
  if (!lv || lv.length < 2) return undefined;
  const levels = lv.map((l) => l.map((d) => A.evalDim(d, env)));
  const flat = levels.flat();
  return flat.length === dims.length && flat.every((d, k) => d === dims[k]) ? levels : undefined;
}

/** The picture of the layout value `L` (named `name`) in `model`. Never throws. */
export function layoutPicture(name: string, L: A.Layout, model: Model, vars: string[], params: PictureParam[] = []): PictureAnswer {
  const env = model.env;
  let prepared: A.Prepared;
  let dims: number[];
  let levels: number[][] | undefined;
  try {
    dims = A.dims(L).map((d) => A.evalDim(d, env));
    prepared = A.prepare(L, env);
    levels = levelsOf(L, env, dims);
  } catch (e) {
    return { error: `layout ${name} cannot be evaluated at the params' values: ${e instanceof Error ? e.message : String(e)}` };
  }
  const total = dims.reduce((a, b) => a * b, 1);
  const rank = dims.length;
  const inner = levels ? levels[levels.length - 1] : [];
  const innerRank = inner.length;
  const tileDims = levels ? levels.slice(0, -1).flat() : [];
  const nTiles = tileDims.reduce((a, b) => a * b, 1);
  const tileSize = inner.reduce((a, b) => a * b, 1);
  const summarise = total > MAX_CELLS && levels !== undefined && nTiles <= MAX_TILES;
  const cells: LayoutPicture['cells'] = [];
  const physicalSize = prepared.expand ? prepared.expand.originalSize : total;
  const checked = Math.min(total, CHECK_CELLS);
  const seen = new Uint8Array(Math.min(physicalSize, CHECK_CELLS * 4));
  const collisions: number[] = [];
  const tiles: PictureTile[] = [];
  const idx = new Array<number>(rank).fill(0);
  try {
    // one pass over the first `checked` cells, in row-major logical order: tiles are contiguous runs of it
    let tileMin = Infinity;
    let tileMax = -Infinity;
    const n = summarise ? checked : Math.min(total, Math.max(MAX_CELLS, checked));
    for (let f = 0; f < n; f++) {
      const x = A.applyPrepared(prepared, [...idx]);
      if (f < checked && x >= 0 && x < seen.length) {
        if (seen[x] === 1 && collisions.length < MAX_LISTED) collisions.push(x);
        if (seen[x] < 2) seen[x]++;
      }
      if (!summarise && f < MAX_CELLS) {
        let group = 0; // the tile (every level but the last); 0 for an untiled layout
        if (levels) for (let k = 0; k < rank - innerRank; k++) group = group * dims[k] + idx[k];
        cells.push({ logical: [...idx], physical: x, group });
      }
      if (summarise) {
        tileMin = Math.min(tileMin, x);
        tileMax = Math.max(tileMax, x);
        if ((f + 1) % tileSize === 0) {
          const t = Math.floor(f / tileSize);
          tiles.push({ tile: unflat(t, tileDims), first: -1, min: tileMin, max: tileMax });
          tileMin = Infinity;
          tileMax = -Infinity;
        }
      }
      for (let k = rank - 1; k >= 0; k--) {
        if (++idx[k] < dims[k]) break;
        idx[k] = 0;
      }
    }
    if (summarise) {
      const affine = A.classify(L) === 'affine';
      for (let t = 0; t < nTiles; t++) {
        const tc = unflat(t, tileDims);
        const first = A.applyPrepared(prepared, [...tc, ...inner.map(() => 0)]);
        if (t < tiles.length) tiles[t].first = first;
        else if (affine) {
          // an affine layout takes its least and greatest positions of a box at the box's corners
          let min = Infinity;
          let max = -Infinity;
          for (let c = 0; c < 1 << innerRank; c++) {
            const x = A.applyPrepared(prepared, [...tc, ...inner.map((d, k) => ((c >> k) & 1 ? d - 1 : 0))]);
            min = Math.min(min, x);
            max = Math.max(max, x);
          }
          tiles.push({ tile: tc, first, min, max });
        } else tiles.push({ tile: tc, first });
      }
    }
  } catch (e) {
    return { error: `layout ${name} cannot be evaluated: ${e instanceof Error ? e.message : String(e)}` };
  }
  let missing: number[] = [];
  if (checked === total && physicalSize <= seen.length) {
    for (let x = 0; x < physicalSize && missing.length < MAX_LISTED; x++) if (seen[x] === 0) missing.push(x);
  }
  if (prepared.expand) missing = []; // padding: the layout has fewer positions than cells by design
  let apply = '';
  let inv: string | undefined;
  try {
    apply = printOne(A.applySym(L, vars, symContext(model)), 'python');
  } catch { /* no symbolic form */ }
  try {
    const xs = A.invSym(L, 'x', symContext(model));
    inv = xs.map((e, k) => `${vars[k]} = ${printOne(e, 'python')}`).join('; ');
  } catch { /* no inverse */ }
  const out: PictureData = {
    name,
    logicalDims: dims,
    cells,
    totalCells: total,
    truncated: total > cells.length,
    exprs: { apply, ...(inv !== undefined ? { inv } : {}), vars },
  };
  if (levels) out.levels = levels;
  if (summarise) out.tiles = tiles;
  if (collisions.length) out.collisions = collisions.sort((a, b) => a - b);
  if (missing.length) out.missing = missing;
  out.checkedCells = checked;
  if (params.length) out.params = params;
  return out;
}

function unflat(f: number, dims: number[]): number[] {
  const out = new Array<number>(dims.length);
  for (let k = dims.length - 1; k >= 0; k--) {
    out[k] = f % dims[k];
    f = Math.floor(f / dims[k]);
  }
  return out;
}

function linearAt(doc: LayoutDocument, offset: number): string | undefined {
  const occ = doc.symbols.at(offset);
  if (occ) return occ.def.kind === 'linear' ? occ.def.name : undefined;
  const decl = nodePath(doc.file, offset)[0] as ast.Decl | undefined;
  return decl?.kind === 'Linear' ? decl.name.name : undefined;
}

function layoutAt(doc: LayoutDocument, offset: number): string | undefined {
  const occ = doc.symbols.at(offset);
  if (occ?.def.kind === 'layout') return occ.def.name;
  const decl = nodePath(doc.file, offset)[0] as ast.LayoutDecl | undefined;
  return decl?.kind === 'Layout' ? decl.name.name : undefined;
}
