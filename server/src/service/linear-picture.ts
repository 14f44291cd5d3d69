// The picture of a `linear` declaration (docs/linear-layouts.md), in the payload the LEGO picture uses
// (service/picture.ts, drawn by server/src/picture/): the logical grid of the layout's shape.
// - a shared (memory) layout, offset -> logical: each cell is labelled with the offset that stores it and
//   coloured by its shared-memory bank (32 banks of 4 bytes; the element width from the declaration's
//   `elemBytes=` when it has one, else 4), so a swizzle's spread over the banks shows;
// - a distributed layout, (register, lane, warp) -> logical: each cell is labelled `t<thread>:r<register>`
//   (thread = lane + 32 x warp, the lanes per warp of the layout) and coloured by that thread; an element
//   several threads hold (broadcast) says how many more with `+n`, and its hover lists them.
import type * as ast from '../../../grammar/src/ast.js';
import type { LinearModel } from '../check/linear.js';
import * as F from '../f2/index.js';
import type { LayoutPicture, PictureCell } from '../lsp/protocol.js';

/** At most this many elements are drawn (as the LEGO picture's cap). */
export const MAX_CELLS = 4096;
/** At most 2^this inputs (register x lane x warp) are enumerated for a distributed layout. */
export const MAX_INPUT_BITS = 20;

/** The element width of a shared layout's bank colouring: `elemBytes=` (an integer literal) or the access's, else 4. */
export function elemBytesOf(m: LinearModel): { bytes: number; from: 'declaration' | 'default' } {
  if (m.access) return { bytes: m.access.elemBytes, from: 'declaration' };
  const d = m.decl.kind === 'Linear' ? (m.decl as ast.LinearDecl) : undefined;
  const arg = d?.args.find((a) => a.name.name === 'elemBytes');
  if (arg && arg.value.kind === 'Int' && arg.value.value > 0n && arg.value.value <= 16n) return { bytes: Number(arg.value.value), from: 'declaration' };
  return { bytes: 4, from: 'default' };
}

const vars = (rank: number) => (rank === 1 ? ['i'] : rank === 2 ? ['i', 'j'] : Array.from({ length: rank }, (_, k) => `i${k}`));

function flatOf(coord: readonly number[], shape: readonly number[]): number {
  let v = 0;
  coord.forEach((c, d) => (v = v * shape[d] + c));
  return v;
}

function unflat(f: number, shape: readonly number[]): number[] {
  const out = new Array<number>(shape.length);
  for (let k = shape.length - 1; k >= 0; k--) {
    out[k] = f % shape[k];
    f = Math.floor(f / shape[k]);
  }
  return out;
}

/** The picture of a `linear` layout. Never throws. */
export function linearPicture(m: LinearModel): LayoutPicture | { error: string } {
  const L = m.layout;
  if (!L) return { error: `linear layout ${m.name} cannot be drawn: ${m.problem ?? 'it has errors'}` };
  const shape = L.shape;
  const total = shape.reduce((a, b) => a * b, 1);
  if (total > MAX_CELLS) return { error: `linear layout ${m.name} has ${total} elements; the picture draws at most ${MAX_CELLS}` };
  if (L.inBits > MAX_INPUT_BITS) return { error: `linear layout ${m.name} has 2^${L.inBits} inputs; the picture enumerates at most 2^${MAX_INPUT_BITS}` };
  const base = { name: m.name, logicalDims: shape, totalCells: total, truncated: false, exprs: { apply: '', vars: vars(shape.length) } };
  return F.isShared(L) ? sharedPicture(m, L, base) : distributedPicture(L, base);
}

type Base = Pick<LayoutPicture, 'name' | 'logicalDims' | 'totalCells' | 'truncated' | 'exprs'>;

function sharedPicture(m: LinearModel, L: F.LinearLayout, base: Base): LayoutPicture | { error: string } {
  if (!L.isInvertible()) return { error: `shared layout ${m.name} is not a bijection (rank ${L.rank()} of ${L.outBits} bits): some elements share an offset or are never stored, so it has no picture` };
  const shape = L.shape;
  const { bytes, from } = elemBytesOf(m);
  const offsetOf = new Array<number>(base.totalCells).fill(-1);
  for (let o = 0; o < base.totalCells; o++) offsetOf[flatOf(L.apply({ [F.OFFSET]: o }), shape)] = o;
  const cells: PictureCell[] = offsetOf.map((o, f) => ({ logical: unflat(f, shape), physical: o, group: 0, bank: Math.floor((o * bytes) / 4) % F.BANKS }));
  const width = from === 'declaration' ? `${bytes}-byte elements (elemBytes=${bytes})` : `${bytes}-byte elements (no elemBytes= in the declaration: 4 assumed)`;
  return {
    ...base, cells, colorBy: 'bank',
    legend: `colour: shared-memory bank = (offset x ${bytes} bytes / 4) mod ${F.BANKS}; ${width}; label: offset`,
  };
}

function distributedPicture(L: F.LinearLayout, base: Base): LayoutPicture {
  const shape = L.shape;
  const regs = L.inSize(F.REGISTER);
  const lanes = L.inSize(F.LANE);
  const warps = L.inSize(F.WARP);
  // other input dims (a block, ...) are drawn at 0
  const owners: { t: number; r: number }[][] = Array.from({ length: base.totalCells }, () => []);
  for (let w = 0; w < warps; w++) {
    for (let l = 0; l < lanes; l++) {
      for (let r = 0; r < regs; r++) {
        const f = flatOf(L.apply({ [F.REGISTER]: r, [F.LANE]: l, [F.WARP]: w }), shape);
        owners[f].push({ t: l + lanes * w, r });
      }
    }
  }
  const cells: PictureCell[] = owners.map((os, f) => {
    const first = os[0] ?? { t: 0, r: 0 };
    const label = os.length ? `t${first.t}:r${first.r}${os.length > 1 ? `+${os.length - 1}` : ''}` : '-';
    const note = os.length > 1 ? `held by ${os.length} threads (broadcast): ${os.slice(0, 8).map((o) => `t${o.t}:r${o.r}`).join(', ')}${os.length > 8 ? ', ...' : ''}`
      : os.length ? `held by thread ${first.t}, register ${first.r}` : 'held by no thread';
    return { logical: unflat(f, shape), physical: f, group: first.t, label, note };
  });
  const broadcast = owners.some((os) => os.length > 1);
  return {
    ...base, cells, groupKind: 'thread', colorBy: 'thread',
    legend: `colour: thread = lane + ${lanes} x warp (${lanes * warps} threads, ${regs} registers each); label: t<thread>:r<register>${broadcast ? '; +n: n more threads hold the element (broadcast)' : ''}`,
  };
}
