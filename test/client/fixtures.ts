// Layout picture payloads (the `layout/picture` result shape of server/src/lsp/protocol.ts) for the client's
// unit tests and the real-VS-Code suite, until and besides the server's own answers.
import type { LayoutPicture } from '../../server/src/lsp/protocol.js';

/** An R x C layout; `f` maps (i, j) to the physical position (default row-major). */
export function rowMajor(R: number, C: number, f: (i: number, j: number) => number = (i, j) => i * C + j, apply = `i * ${C} + j`): LayoutPicture {
  const cells = [];
  for (let i = 0; i < R; i++) for (let j = 0; j < C; j++) cells.push({ logical: [i, j], physical: f(i, j), group: 0 });
  return { name: 'A', logicalDims: [R, C], cells, totalCells: R * C, truncated: false, exprs: { apply, vars: ['i', 'j'] } };
}

/** A 4 x 4 row-major matrix tiled by 2 x 2 tiles: logical (ti, tj, i, j), coloured by tile ti*2 + tj. */
export function tiled(): LayoutPicture {
  const cells = [];
  for (let ti = 0; ti < 2; ti++) for (let tj = 0; tj < 2; tj++) for (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) {
    cells.push({ logical: [ti, tj, i, j], physical: (ti * 2 + i) * 4 + tj * 2 + j, group: ti * 2 + tj });
  }
  return {
    name: 'T', logicalDims: [2, 2, 2, 2], cells, totalCells: 16, truncated: false,
    exprs: { apply: '(ti*2 + i)*4 + tj*2 + j', vars: ['ti', 'tj', 'i', 'j'] },
  };
}

/** An 8 x 8 matrix in 4 x 4 tiles whose tiles are stored in column-major order (a picture worth looking at). */
export function tilesColumnMajor(): LayoutPicture {
  const cells = [];
  for (let ti = 0; ti < 2; ti++) for (let tj = 0; tj < 2; tj++) for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) {
    cells.push({ logical: [ti, tj, i, j], physical: (tj * 2 + ti) * 16 + i * 4 + j, group: tj * 2 + ti });
  }
  return {
    name: 'C', logicalDims: [2, 2, 4, 4], levels: [[2, 2], [4, 4]], cells, totalCells: 64, truncated: false,
    exprs: { apply: '(tj*2 + ti)*16 + i*4 + j', inv: '', vars: ['ti', 'tj', 'i', 'j'] },
  };
}
