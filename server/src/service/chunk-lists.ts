// The chunked parse's file-wide lists (service/chunks.ts): each version's declarations, comments
// and diagnostics, and the indices of its rare declarations, joined from the last version's kept
// leading and trailing parts and the re-parsed chunks between them, without walking the kept parts.
import type * as ast from '../../../grammar/src/ast.js';
import type { Chunk, ChunkedParse } from './chunks.js';

/**
 * One of the file's lists (declarations, comments or diagnostics) and where each chunk's part starts
 * in it (one more entry: its length): the middle chunks' parts (`of` each) between the last parse's
 * (`old`, with its offsets `oldAt`) kept leading chunks (the first `head`) and kept trailing ones
 * (from its chunk `oldTail`), whose offsets shift by what the middle changed in length.
 */
export function joined<T>(chunks: readonly Chunk[], of: (c: Chunk) => readonly T[], head: number, oldTail: number, old?: readonly T[], oldAt?: readonly number[]): { list: T[]; at: number[] } {
  const base = oldAt ? oldAt[head] : 0;
  const mid: T[] = [];
  const midAt: number[] = [];
  for (let k = 0; k < chunks.length; k++) {
    const part = of(chunks[k]);
    midAt.push(base + mid.length);
    for (let i = 0; i < part.length; i++) mid.push(part[i]);
  }
  if (!old || !oldAt) {
    midAt.push(mid.length);
    return { list: mid, at: midAt };
  }
  const list = spliced(old, base, mid, oldAt[oldTail]);
  return { list, at: spliced(oldAt, head, midAt, oldTail, list.length - old.length, oldAt.length - 1, list.length) };
}

/** the declaration kinds `ChunkedParse.rareDecls` lists */
const RARE_DECL_KINDS: ReadonlySet<string> = new Set(['Assume', 'Linear']);

/** The indices of the `assume` and `linear` declarations of `decls`, by a scan (a first parse, a whole-file one). */
export function rareDeclsOf(decls: readonly ast.Decl[]): number[] {
  const out: number[] = [];
  for (let j = 0; j < decls.length; j++) if (RARE_DECL_KINDS.has(decls[j].kind)) out.push(j);
  return out;
}

/**
 * `ChunkedParse.rareDecls` of a version: the last parse's below the middle chunks and above them
 * (shifted by what the middle changed in length), the middle chunks' own in between; on a first
 * parse, a scan of the list.
 */
export function rareJoined(chunks: readonly Chunk[], head: number, oldTail: number, decls: { list: readonly ast.Decl[]; at: readonly number[] }, last?: Pick<ChunkedParse, 'rareDecls' | 'file'> & { at: { decls: readonly number[] } }): number[] {
  if (!last?.rareDecls) return rareDeclsOf(decls.list);
  const out: number[] = [];
  const base = last.at.decls[head];
  const oldEnd = last.at.decls[oldTail];
  const shift = decls.list.length - last.file.decls.length;
  for (const j of last.rareDecls) if (j < base) out.push(j);
  for (let k = 0; k < chunks.length; k++) {
    const ds = chunks[k].decls;
    for (let i = 0; i < ds.length; i++) if (RARE_DECL_KINDS.has(ds[i].kind)) out.push(decls.at[head + k] + i);
  }
  for (const j of last.rareDecls) if (j >= oldEnd) out.push(j + shift);
  return out;
}

/**
 * `src[0, from)`, then `mid`, then `src[to, end)` (`end`: the source's length unless given), with
 * `by` added to each element of that part (numbers), then `more`, in one new array. Where `mid`
 * replaces as many elements as it has (and nothing is cut off or added at the end), one copy of
 * `src` changed in place; otherwise native slices and `concat`, its kept parts copied twice (a slice
 * grown by pushes copied them three times). Either way the result is a packed array (an array made
 * by `new Array(n)` and filled stays holey, and V8's builtins and element loads are slower on those:
 * a file's declaration list made so took the first hover of a 150,000-line file from 7 to 15-19 ms).
 */
export function spliced<T>(src: readonly T[], from: number, mid: readonly T[], to: number, by = 0, end = src.length, ...more: T[]): T[] {
  if (mid.length === to - from && end === src.length && more.length === 0) {
    // as many new elements as old ones (an edit inside one chunk): one copy, changed in place
    const out = src.slice();
    for (let i = 0; i < mid.length; i++) out[from + i] = mid[i];
    if (by !== 0) for (let i = to; i < out.length; i++) out[i] = ((out[i] as number) + by) as T;
    return out;
  }
  const tail = src.slice(to, end);
  if (by !== 0) for (let i = 0; i < tail.length; i++) tail[i] = ((tail[i] as number) + by) as T;
  return src.slice(0, from).concat(mid, tail, more);
}
