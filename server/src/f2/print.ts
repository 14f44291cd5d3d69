// Printing linear layouts: Triton attributes (#ttg.swizzled_shared when the matrix has the
// Prop. 4.12 shape, #ttg.shared_linear / #ttg.linear otherwise), CuTe Swizzle<B,M,S> when the
// XOR is one bit-field shift, and C index expressions built from runs of bits
// (`32*i + (j ^ i)` form).
import { LinearLayout, log2 } from './layout.js';
import { swizzled } from './triton.js';
import { OFFSET, REGISTER, LANE, WARP } from './triton.js';

const fmtBases = (bs: readonly (readonly number[])[]) => `[${bs.map((b) => `[${b.join(', ')}]`).join(', ')}]`;

/** Triton's swizzle parameters that produce exactly this shared layout, if any. */
export function swizzleParams(S: LinearLayout): { vec: number; perPhase: number; maxPhase: number; order: number[] } | undefined {
  const rank = S.outs.length;
  if (rank < 1 || S.ins.length !== 1 || S.ins[0].name !== OFFSET) return undefined;
  const orders: number[][] = [];
  const perms = (xs: number[]): number[][] => (xs.length <= 1 ? [xs] : xs.flatMap((x) => perms(xs.filter((y) => y !== x)).map((p) => [x, ...p])));
  if (rank <= 4) orders.push(...perms(Array.from({ length: rank }, (_, k) => rank - 1 - k)));
  const want = JSON.stringify(S.toBases());
  for (const order of orders) {
    const ncols = S.shape[order[0]];
    const nrows = rank >= 2 ? S.shape[order[1]] : 1;
    for (let vec = 1; vec <= ncols; vec *= 2) {
      for (let perPhase = 1; perPhase <= Math.max(1, nrows); perPhase *= 2) {
        for (let maxPhase = 1; maxPhase <= Math.max(1, ncols / vec); maxPhase *= 2) {
          const T = swizzled({ shape: S.shape, vec, perPhase, maxPhase, order });
          if (JSON.stringify(T.toBases()) === want) return { vec, perPhase, maxPhase, order };
        }
      }
    }
  }
  return undefined;
}

/** The Triton attribute of a layout. */
export function tritonAttribute(L: LinearLayout): string {
  if (L.ins.length === 1 && L.ins[0].name === OFFSET) {
    const p = swizzleParams(L);
    if (p) return `#ttg.swizzled_shared<{vec = ${p.vec}, perPhase = ${p.perPhase}, maxPhase = ${p.maxPhase}, order = [${p.order.join(', ')}]}>`;
    return `#ttg.shared_linear<{offset = ${fmtBases(L.basesOf(OFFSET))}}, alignment = 16>`;
  }
  return `#ttg.linear<{register = ${fmtBases(L.basesOf(REGISTER))}, lane = ${fmtBases(L.basesOf(LANE))}, warp = ${fmtBases(L.basesOf(WARP))}, block = []}>`;
}

/**
 * CuTe's Swizzle<B, M, S> (o ^ ((o >> S) & (2^B - 1) << M) applied to the row-major offset o)
 * equal to this shared layout, if any.
 */
export function cuteSwizzle(S: LinearLayout): { B: number; M: number; S: number } | undefined {
  if (S.ins.length !== 1 || S.ins[0].name !== OFFSET || !S.isInvertible() || S.outBits > 30) return undefined;
  // logical (row-major flat o) -> swizzled offset
  const inv = S.invert();
  const d = S.outBits;
  const map: number[] = [];
  for (let k = 0; k < d; k++) {
    const coord = S.unflatten(1 << k);
    const off = inv.apply(Object.fromEntries(S.outs.map((o, i) => [o.name, coord[i]])))[0];
    map.push(off);
  }
  const xorPart = map.map((m, k) => m ^ (1 << k));
  if (xorPart.every((x) => x === 0)) return { B: 0, M: 0, S: 0 };
  for (let B = 1; B <= d; B++) {
    for (let M = 0; M + B <= d; M++) {
      for (let Sh = B; M + Sh + B <= d; Sh++) {
        const ok = xorPart.every((x, k) => x === (k >= M + Sh && k < M + Sh + B ? 1 << (k - Sh) : 0));
        if (ok) return { B, M, S: Sh };
      }
    }
  }
  return undefined;
}

interface Term {
  v: number; // variable index
  from: number; // first source bit
  to: number; // first target bit
  len: number;
}

/**
 * A C expression for a linear map from named variables (each with a bit count) to one integer:
 * `cols[v][k]` is the image of bit k of variable v. Runs of consecutive bits become
 * `((x >> a) & m) << b` terms; terms whose target bits overlap are XORed, disjoint groups added.
 */
export function linearExpr(names: readonly string[], bits: readonly number[], cols: readonly (readonly number[])[]): string {
  const terms: Term[] = [];
  names.forEach((_, v) => {
    const pairs: [number, number][] = [];
    for (let k = 0; k < bits[v]; k++) for (let t = 0; t < 31; t++) if ((cols[v][k] >>> t) & 1) pairs.push([k, t]);
    pairs.sort((a, b) => a[1] - a[0] - (b[1] - b[0]) || a[0] - b[0]);
    for (const [k, t] of pairs) {
      const last = terms[terms.length - 1];
      if (last && last.v === v && last.from + last.len === k && last.to + last.len === t) last.len++;
      else terms.push({ v, from: k, to: t, len: 1 });
    }
  });
  if (terms.length === 0) return '0';
  // group by overlapping target ranges
  terms.sort((a, b) => a.to - b.to || a.v - b.v);
  const groups: Term[][] = [];
  for (const t of terms) {
    const g = groups.find((gr) => gr.some((u) => u.to < t.to + t.len && t.to < u.to + u.len));
    if (g) g.push(t);
    else groups.push([t]);
  }
  const show = (t: Term, alone: boolean) => {
    let s = names[t.v];
    if (t.from > 0) s = `(${s} >> ${t.from})`;
    if (t.from + t.len < bits[t.v]) s = `(${s} & ${2 ** t.len - 1})`;
    const sh = t.to;
    if (sh > 0) s = alone ? `${2 ** sh}*${s}` : `(${s} << ${sh})`;
    return s;
  };
  groups.sort((a, b) => Math.max(...b.map((t) => t.to)) - Math.max(...a.map((t) => t.to)));
  const strip = (s: string) => (s.startsWith('(') && s.endsWith(')') && balanced(s.slice(1, -1)) ? s.slice(1, -1) : s);
  const parts = groups
    .map((g) => {
      if (g.length === 1) return show(g[0], true);
      // a group shifted as a whole: (a ^ b) << s when all share the shift
      return `(${g.sort((a, b) => b.v - a.v).map((t) => strip(show(t, false))).join(' ^ ')})`;
    });
  return parts.length === 1 ? strip(parts[0]) : parts.join(' + ');
}

function balanced(s: string): boolean {
  let depth = 0;
  for (const c of s) {
    if (c === '(') depth++;
    if (c === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

/** Default names of logical dims: i, j, k for up to 3 dims, else x0, x1, ... */
export function coordNames(rank: number): string[] {
  return rank <= 3 ? ['i', 'j', 'k'].slice(0, rank) : Array.from({ length: rank }, (_, d) => `x${d}`);
}

/** The CUDA index expression of a shared layout: logical coordinate -> offset. */
export function offsetExpression(S: LinearLayout, names = coordNames(S.outs.length)): string {
  const inv = S.invert();
  return linearExpr(names, S.outs.map((o) => log2(o.size)), inv.ins.map((i) => i.bases.map((b) => b[0])));
}

/** Per output dim, the expression of a layout over its input labels (forward map). */
export function forwardExpressions(L: LinearLayout): string[] {
  const names = L.ins.map((i) => i.name);
  const bits = L.ins.map((i) => i.bases.length);
  return L.outs.map((_, d) => linearExpr(names, bits, L.ins.map((i) => i.bases.map((b) => b[d]))));
}
