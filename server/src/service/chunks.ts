// Incremental parsing by chunks, on top of the grammar's `parse` (which is left as it is).
//
// The parser cuts the token stream at every declaration keyword and parses each piece on its
// own, and no token spans a line break (comments and strings end at the line end). So the text
// can be cut at every line that starts (column 0) with a declaration keyword: each such
// "chunk" parses to exactly what the whole-file parse gives for it. A chunk is parsed alone, told
// the offset and line it starts at (`parse`'s `offset` and `firstLine`), so that its ranges are
// file offsets and the positions quoted in messages ("opened at 12:5") are the file's.
//
// `ChunkedParser` keeps the chunks of the previous version: an edit re-parses only the chunks
// whose text changed (`matchChunks`: the unchanged leading and trailing chunks, and equal texts in
// order between them), and keeps the
// others, the same objects. A kept chunk that moved (the text before it changed length) is moved in
// place: every range in it (its declarations', comments' and diagnostics') is shifted, so that every
// cache keyed on its declaration objects (name resolution, the incremental analysis's state, the
// main thread's models) stays valid. The objects are thus positioned for the version parsed last:
// a holder of an earlier version's parse puts them back with `claim` before reading it (the main
// thread's snapshots do, service/document.ts). Only the text between the unchanged leading and
// trailing chunks is scanned for chunk starts and line breaks (`cut`). Where the whole-file parse
// would cap the number of syntax diagnostics (`MAX_DIAGNOSTICS`), the file is parsed whole instead.
import type * as ast from '../../../grammar/src/ast.js';
import type { Diagnostic } from '../../../grammar/src/diagnostic.js';
import { LineIndex, pushLineStarts } from '../../../grammar/src/line-index.js';
import { isWordChar } from '../../../grammar/src/lexer.js';
import { DECL_KEYWORDS } from '../../../grammar/src/spelling.js';
import { MAX_DIAGNOSTICS, parse } from '../../../grammar/src/parse.js';
import { commonPrefixLength, commonSuffixLength } from './common-affix.js';
import { joined, rareJoined, spliced } from './chunk-lists.js';

/**
 * One chunk: its text, where it starts, and its parse in file offsets. `start` and `line` (and every
 * range inside) are those of the version that placed it last (`ChunkedParser.parse` or `claim`).
 */
export interface Chunk {
  readonly text: string;
  start: number;
  /** the line it starts on (messages quote positions: a chunk with diagnostics that moved to another line is parsed again) */
  line: number;
  readonly decls: ast.Decl[];
  readonly comments: ast.Comment[];
  /** lexical and syntax diagnostics inside the chunk, sorted */
  readonly diagnostics: Diagnostic[];
  /** every range object inside, each once: made when the chunk first moves */
  ranges?: ast.Range[];
}

export interface ChunkedParse {
  file: ast.File;
  /** as `parse(text).diagnostics` */
  diagnostics: Diagnostic[];
  lines: LineIndex;
  /** the chunks, in order; undefined when the file was parsed whole (see `MAX_DIAGNOSTICS`) */
  chunks?: Chunk[];
  /** for each chunk, the index of the previous version's chunk with the same text it was copied from */
  from?: (number | undefined)[];
  /** chunks parsed (not kept) for this version */
  parsed: number;
  /**
   * the indices (into `file.decls`) of the `assume` and `linear` declarations, ascending: kinds that
   * every hover asks about (file-level facts, linear layouts) and that few files have, kept across
   * versions as the declaration list is (a scan of the list per version cost 0.1-0.2 ms at 20,000 lines)
   */
  rareDecls?: number[];
  /** where each chunk starts, and the line it starts on, in this version (what `claim` puts back) */
  starts?: readonly number[];
  chunkLines?: readonly number[];
}

/** the declaration keywords by their first code unit */
const KEYWORDS_BY_FIRST: string[][] = [];
for (const k of DECL_KEYWORDS) (KEYWORDS_BY_FIRST[k.charCodeAt(0)] ??= []).push(k);

/** does a declaration keyword start at `at`, not followed by a word character (`[A-Za-z0-9_]`) */
function keywordAt(text: string, at: number): boolean {
  const list = KEYWORDS_BY_FIRST[text.charCodeAt(at)];
  if (list === undefined) return false;
  for (let j = 0; j < list.length; j++) {
    const k = list[j];
    if (!text.startsWith(k, at)) continue;
    if (!isWordChar(text.charCodeAt(at + k.length))) return true;
  }
  return false;
}

/**
 * Offsets where chunks start: 0, then every line start (after `\n` or `\r`) that begins with a
 * declaration keyword. (A search for line breaks, not a regular expression with a lookbehind: the
 * whole text is scanned at an open.)
 */
export function chunkStarts(text: string): number[] {
  const out = [0];
  if (text.indexOf('\r') < 0) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) if (keywordAt(text, i + 1)) out.push(i + 1);
  } else {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if ((c === 10 || c === 13) && keywordAt(text, i + 1)) out.push(i + 1);
    }
  }
  return out;
}

/** A parse by chunks: what the next parse compares with. */
type ChunkedResult = ChunkedParse & {
  chunks: Chunk[];
  starts: number[];
  chunkLines: number[];
  /** each chunk's text (its own: `Chunk.text`) */
  texts: string[];
  /** where each chunk's declarations, comments and diagnostics start in the file's lists (one more entry: their lengths) */
  at: { decls: number[]; comments: number[]; diagnostics: number[] };
};

const NO_CHUNKS: readonly Chunk[] = Object.freeze([]);

export class ChunkedParser {
  /**
   * the last parse by chunks (none after a whole-file parse or `reset`): its chunks, their starts
   * and lines in that version (the chunks may have been claimed elsewhere since), its line index
   * and text (what `cut` compares with)
   */
  private last?: ChunkedResult;
  /** chunks parsed by a call that was stopped, by text: the next call re-uses them */
  private spare = new Map<string, Chunk>();

  /** the chunks of the previous call (what the next call compares with) */
  get previous(): readonly Chunk[] {
    return this.last?.chunks ?? NO_CHUNKS;
  }

  /**
   * Parses `text`, re-using the chunks of the previous call whose text is unchanged.
   * `shouldStop` is polled before each chunk parse: when it says stop, the result is undefined,
   * the previous version stays the one compared with, and the chunks parsed so far are kept for
   * the next call.
   */
  parse(text: string): ChunkedParse;
  parse(text: string, shouldStop: () => boolean): ChunkedParse | undefined;
  parse(text: string, shouldStop?: () => boolean): ChunkedParse | undefined {
    const { lines, starts, texts, from, chunkLines, lead: head, trail, delta, lineDelta } = this.cut(text);
    const last = this.last;
    const n = texts.length;
    // the leading and trailing chunks that `cut` kept are the previous version's, in order: taken as
    // a whole (the trailing ones only while no line was added or removed: a chunk with diagnostics
    // that moved to another line is parsed again), the others (what the edit touched) one by one
    const tail = lineDelta === 0 ? trail : 0;
    /** the chunks between the kept leading and trailing ones */
    const chunks: Chunk[] = [];
    /** chunks not kept from the previous version (parsed now, or kept from a stopped call) */
    const fresh: Chunk[] = [];
    let parsed = 0;
    for (let k = head; k < n - tail; k++) {
      let old: Chunk | undefined;
      if (from[k] !== undefined) old = last!.chunks[from[k]!];
      else if (this.spare.size > 0 && (old = this.spare.get(texts[k]))) this.spare.delete(texts[k]); // each object in one place (no text hashed when none is spare)
      const line = chunkLines[k];
      let c: Chunk;
      if (old && (old.line === line || old.diagnostics.length === 0)) c = old;
      else {
        if (shouldStop?.()) {
          for (const f of fresh) this.spare.set(f.text, f);
          return undefined;
        }
        c = parseChunk(texts[k], starts[k], line);
        parsed++;
      }
      chunks.push(c);
      if (from[k] === undefined) fresh.push(c);
    }
    this.spare.clear();
    const oldN = last ? last.chunks.length : 0;
    const oldTail = oldN - tail;
    const all = last ? spliced(last.chunks, head, chunks, oldTail) : chunks;
    // the kept chunks' diagnostics counted by the last parse's offsets (its lists' lengths are their
    // last entries); indexed loops: this runs at open in code not yet compiled, where for-of is slow
    let count = last ? last.at.diagnostics[head] + last.diagnostics.length - last.at.diagnostics[oldTail] : 0;
    for (let k = 0; k < chunks.length; k++) count += chunks[k].diagnostics.length;
    if (count > MAX_DIAGNOSTICS) {
      // the whole-file parse caps the list: give exactly its result, and start afresh next time
      this.last = undefined;
      this.owner = undefined;
      const p = parse(text);
      return { file: p.file, diagnostics: p.diagnostics, lines, parsed: starts.length };
    }
    // nothing can stop the call from here: the kept chunks move to their places (those of the last
    // parse are there already, but the trailing ones when the text's length changed)
    const inPlace = last !== undefined && this.owner === last;
    const placeTo = inPlace && tail > 0 && delta === 0 ? n - tail : n;
    for (let k = inPlace ? head : 0; k < placeTo; k++) place(all[k], starts[k], chunkLines[k]);
    // the file's lists: the kept leading and trailing chunks' parts from the last parse's, the
    // middle's from its chunks (and where each chunk's parts start in them)
    const decls = joined(chunks, (c) => c.decls, head, oldTail, last?.file.decls, last?.at.decls);
    const rareDecls = rareJoined(chunks, head, oldTail, decls, last);
    const comments = joined(chunks, (c) => c.comments, head, oldTail, last?.file.comments, last?.at.comments);
    const diagnostics = joined(chunks, (c) => c.diagnostics, head, oldTail, last?.diagnostics, last?.at.diagnostics);
    // the chunks' own texts (not slices of the file's text, which would keep every version's text alive)
    const midTexts = chunks.map((c) => c.text);
    const ownTexts = last ? spliced(last.texts, head, midTexts, oldTail) : midTexts;
    const result: ChunkedResult = {
      file: { kind: 'File', range: { start: 0, end: text.length }, decls: decls.list, comments: comments.list },
      diagnostics: diagnostics.list,
      lines,
      chunks: all,
      from,
      parsed,
      starts,
      chunkLines,
      texts: ownTexts,
      rareDecls,
      at: { decls: decls.at, comments: comments.at, diagnostics: diagnostics.at },
    };
    this.last = result;
    this.owner = result;
    return result;
  }

  /** the parse whose positions the chunks have now (the last `parse` or `claim`) */
  private owner?: ChunkedParse;

  /**
   * Puts the chunks of `p` (a result of this parser, of any version) back at that version's
   * places, so that its ranges are its text's again: what a holder of an earlier version does
   * before reading its parse. Nothing to do when `p` is the one placed last; the next `parse` moves
   * every chunk it keeps to its own places, wherever they are.
   */
  claim(p: ChunkedParse): void {
    if (this.owner === p || !p.chunks || !p.starts || !p.chunkLines) return;
    for (let k = 0; k < p.chunks.length; k++) place(p.chunks[k], p.starts[k], p.chunkLines[k]);
    this.owner = p;
  }

  /** Forgets the previous version (the next parse parses every chunk). */
  reset(): void {
    this.last = undefined;
    this.owner = undefined;
    this.spare.clear();
  }

  /**
   * The text's line index, chunk starts, the lines they start on and texts, and for each chunk the
   * previous chunk with the same text (`matchChunks`). With a previous version, only the part of the
   * text between the unchanged leading and trailing chunks is scanned: an edit costs the same in a
   * file of any length.
   */
  private cut(text: string): { lines: LineIndex; starts: number[]; chunkLines: number[]; texts: string[]; from: (number | undefined)[]; lead: number; trail: number; delta: number; lineDelta: number } {
    const last = this.last;
    const prev = last?.chunks ?? NO_CHUNKS;
    if (!last || prev.length === 0) {
      const starts = chunkStarts(text);
      const texts = starts.map((s, k) => text.slice(s, k + 1 < starts.length ? starts[k + 1] : text.length));
      const lines = new LineIndex(text);
      return { lines, starts, chunkLines: linesOf(starts, 0, starts.length, lines.lineStarts(), 0, []), texts, from: matchChunks(prev.map((c) => c.text), texts), lead: 0, trail: 0, delta: 0, lineDelta: 0 };
    }
    const at = last.starts;
    const old = last.lines.text;
    // the common prefix and suffix, in characters (not overlapping)
    const most = Math.min(old.length, text.length);
    const P = commonPrefixLength(old, text);
    const delta = text.length - old.length;
    const S = commonSuffixLength(old, text, most - P);
    // a chunk start depends on the character before it and the keyword after it (at most 9 characters):
    // the leading chunks that end 9 characters before the first change, and the trailing ones that start
    // after the last change, are the same chunks in the new text
    let a = 0;
    while (a < prev.length - 1 && at[a + 1] + 9 <= P) a++;
    if (P === old.length && P === text.length) a = prev.length; // the same text (the last chunk runs to the end)
    let b = prev.length;
    while (b > a && at[b - 1] - 1 >= old.length - S && at[b - 1] > 0) b--;
    const r0 = a < prev.length ? at[a] : text.length;
    const r1 = b < prev.length ? at[b] + delta : text.length;
    // the leading and trailing chunks' starts, texts and indexes copied from the last parse's (each
    // list made at its final length), the region's found
    const midStarts: number[] = [];
    const midTexts: string[] = [];
    const midFrom: (number | undefined)[] = [];
    if (r1 > r0 || (a === 0 && b === prev.length)) {
      const region = text.slice(r0, r1);
      const local = chunkStarts(region);
      for (let k = 0; k < local.length; k++) midTexts.push(region.slice(local[k], k + 1 < local.length ? local[k + 1] : region.length));
      const m = matchChunks(last.texts.slice(a, b), midTexts);
      for (let k = 0; k < local.length; k++) {
        midStarts.push(r0 + local[k]);
        midFrom.push(m[k] === undefined ? undefined : a + m[k]!);
      }
    }
    const starts = spliced(at, a, midStarts, b, delta);
    const texts = spliced(last.texts, a, midTexts, b);
    const mid = a + midStarts.length;
    const n = mid + (prev.length - b);
    const from: (number | undefined)[] = [];
    for (let k = 0; k < a; k++) from.push(k);
    for (let k = 0; k < midFrom.length; k++) from.push(midFrom[k]);
    for (let k = mid; k < n; k++) from.push(k - mid + b);
    // line starts: the old ones before the change region and after it (moved), the region scanned
    // (copied in bulk: a loop that pushed every line start cost more than the rest of an edit's parse)
    const oldStarts = last.lines.lineStarts();
    const q = text.length - S + 1;
    const scanned: number[] = [];
    pushLineStarts(text, r0, q - 1, scanned, q);
    const before = firstAbove(oldStarts, r0);
    const after = firstAbove(oldStarts, q - delta - 1);
    // the same lines (an edit that neither moved the text after it nor added or removed a line
    // break): the old line starts, shared (a line index never changes them)
    let same = delta === 0 && after - before === scanned.length;
    for (let j = 0; same && j < scanned.length; j++) same = scanned[j] === oldStarts[before + j];
    const lineStarts = same ? oldStarts as number[] : spliced(oldStarts, before, scanned, after, delta);
    // the lines chunks start on: the leading chunks' as before, the trailing ones' moved by the lines
    // the edit added, those between found walking the scanned region's line starts
    const lineDelta = lineStarts.length - oldStarts.length;
    const midLines: number[] = [];
    if (mid > a) linesOf(starts, a, mid, lineStarts, firstAbove(lineStarts, starts[a]) - 1, midLines);
    return {
      lines: new LineIndex(text, lineStarts),
      starts,
      chunkLines: spliced(last.chunkLines, a, midLines, b, lineDelta),
      texts,
      from,
      lead: a,
      trail: n - mid,
      delta,
      lineDelta,
    };
  }
}

/**
 * Appends to `out` the line each of `starts[from, to)` (sorted offsets, each a line start) starts
 * on: a walk over `lineStarts` from `line`, the line of `starts[from]` or one before it.
 */
function linesOf(starts: readonly number[], from: number, to: number, lineStarts: readonly number[], line: number, out: number[]): number[] {
  for (let k = from; k < to; k++) {
    while (line + 1 < lineStarts.length && lineStarts[line + 1] <= starts[k]) line++;
    out.push(line);
  }
  return out;
}

/** The first index of sorted `xs` whose value is above `v` (xs.length when none is). */
function firstAbove(xs: readonly number[], v: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * For each new chunk, the old chunk it equals (undefined: none, it is parsed): the longest runs of
 * equal chunks at the start and at the end, and between them, in order, each new chunk the first
 * old one with its text after the last one matched. Several edits since the last parse (a snapshot
 * built after a few keystrokes at several places) then re-parse only the chunks they changed.
 */
export function matchChunks(old: readonly string[], now: readonly string[]): (number | undefined)[] {
  const out: (number | undefined)[] = new Array(now.length).fill(undefined);
  let p = 0;
  while (p < old.length && p < now.length && old[p] === now[p]) {
    out[p] = p;
    p++;
  }
  let s = 0;
  while (s < old.length - p && s < now.length - p && old[old.length - 1 - s] === now[now.length - 1 - s]) {
    out[now.length - 1 - s] = old.length - 1 - s;
    s++;
  }
  const oldEnd = old.length - s;
  const nowEnd = now.length - s;
  if (p === oldEnd || p === nowEnd) return out;
  /** old chunks of the middle by text, in order; `next` is where each text's list is read from */
  const byText = new Map<string, number[]>();
  for (let i = p; i < oldEnd; i++) {
    const list = byText.get(old[i]);
    if (list) list.push(i);
    else byText.set(old[i], [i]);
  }
  const next = new Map<string, number>();
  let last = p - 1;
  for (let j = p; j < nowEnd; j++) {
    const list = byText.get(now[j]);
    if (!list) continue;
    let k = next.get(now[j]) ?? 0;
    while (k < list.length && list[k] <= last) k++;
    next.set(now[j], k + 1);
    if (k < list.length) {
      out[j] = list[k];
      last = list[k];
    }
  }
  return out;
}

/**
 * `s` in a string of its own. A slice of the document's text (V8 makes substrings of 13 or more
 * characters views of their parent) would keep the whole text of the version it came from alive
 * for as long as the chunk, and its tokens' names, are kept: one full text per edited version.
 */
export function ownCopy(s: string): string {
  return (' ' + s).slice(1);
}

function parseChunk(slice: string, start: number, line: number): Chunk {
  const text = ownCopy(slice);
  // the chunk alone (no line breaks in front: that made a file of n declarations quadratic), told
  // where it starts so that its ranges, and the positions quoted in messages, are the file's
  const r = parse(text, { firstLine: line, offset: start });
  return { text, start, line, decls: r.file.decls, comments: r.file.comments, diagnostics: r.diagnostics };
}

/** Moves `c` (in place) to start at `start` on line `line`: every range inside moves with it. */
function place(c: Chunk, start: number, line: number): void {
  c.line = line;
  const delta = start - c.start;
  if (delta === 0) return;
  c.start = start;
  const ranges = (c.ranges ??= rangesOf(c));
  for (let i = 0; i < ranges.length; i++) {
    const r = ranges[i];
    r.start += delta;
    r.end += delta;
  }
}

/**
 * Every range object in a chunk's plain data (AST nodes, comments, diagnostics with their related
 * information and fixes), each once even where two hold the same object. A range is an object with
 * numeric `start` and `end` (a Slice's `start` and `end` are nodes).
 */
function rangesOf(c: Chunk): ast.Range[] {
  const out: ast.Range[] = [];
  const seen = new Set<object>();
  const stack: unknown[] = [c.decls, c.comments, c.diagnostics];
  while (stack.length) {
    const x = stack.pop();
    if (x === null || typeof x !== 'object' || seen.has(x)) continue;
    seen.add(x);
    if (Array.isArray(x)) {
      for (let i = 0; i < x.length; i++) stack.push(x[i]);
      continue;
    }
    const o = x as Record<string, unknown>;
    if (typeof o.start === 'number' && typeof o.end === 'number') {
      out.push(o as unknown as ast.Range);
      continue;
    }
    for (const k in o) {
      const v = o[k];
      if (v !== null && typeof v === 'object') stack.push(v);
    }
  }
  return out;
}
