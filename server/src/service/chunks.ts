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
import { MAX_DIAGNOSTICS, parse } from '../../../grammar/src/parse.js';
import { commonPrefixLength, commonSuffixLength } from './common-affix.js';

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
  /** where each chunk starts, and the line it starts on, in this version (what `claim` puts back) */
  starts?: readonly number[];
  chunkLines?: readonly number[];
}

const KEYWORDS = ['param', 'const', 'let', 'layout', 'perm', 'kernel', 'schedule', 'assume'];
const CHUNK_START = /(?:^|(?<=[\n\r]))(?:param|const|let|layout|perm|kernel|schedule|assume)(?![A-Za-z0-9_])/g;

/** Offsets where chunks start: 0, then every line start that begins with a declaration keyword. */
export function chunkStarts(text: string): number[] {
  const out = [0];
  CHUNK_START.lastIndex = 0;
  for (let m = CHUNK_START.exec(text); m; m = CHUNK_START.exec(text)) if (m.index > 0) out.push(m.index);
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
    const { lines, starts, texts, from, chunkLines, lead, trail, delta, lineDelta } = this.cut(text);
    const last = this.last;
    const n = texts.length;
    // the leading and trailing chunks that `cut` kept are the previous version's, in order: taken as
    // a whole (the trailing ones only while no line was added or removed: a chunk with diagnostics
    // that moved to another line is parsed again), the others (what the edit touched) one by one
    const head = last ? lead : 0;
    const tail = last && lineDelta === 0 ? trail : 0;
    const chunks: Chunk[] = head > 0 ? last!.chunks.slice(0, head) : [];
    /** chunks not kept from the previous version (parsed now, or kept from a stopped call) */
    const fresh: Chunk[] = [];
    let parsed = 0;
    for (let k = head; k < n - tail; k++) {
      let old: Chunk | undefined;
      if (from[k] !== undefined) old = last!.chunks[from[k]!];
      else if (this.spare.size > 0 && (old = this.spare.get(texts[k]))) this.spare.delete(texts[k]); // each object in one place (no text hashed when none is spare)
      const line = chunkLines[k];
      if (old && (old.line === line || old.diagnostics.length === 0)) chunks.push(old);
      else {
        if (shouldStop?.()) {
          for (const c of fresh) this.spare.set(c.text, c);
          return undefined;
        }
        chunks.push(parseChunk(texts[k], starts[k], line));
        parsed++;
      }
      if (from[k] === undefined) fresh.push(chunks[k]);
    }
    this.spare.clear();
    const oldTail = last ? last.chunks.length - tail : 0;
    const all = tail > 0 ? chunks.concat(last!.chunks.slice(oldTail)) : chunks;
    // (indexed loops: this runs once per parse, so at open in code not yet compiled, where for-of is slow)
    let count = head > 0 ? last!.at.diagnostics[head] : 0;
    for (let k = head; k < n - tail; k++) count += all[k].diagnostics.length;
    if (tail > 0) count += last!.diagnostics.length - last!.at.diagnostics[oldTail];
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
    // the file's lists: the kept leading and trailing chunks' parts copied in bulk from the last parse's
    const decls: ast.Decl[] = head > 0 ? last!.file.decls.slice(0, last!.at.decls[head]) : [];
    const comments: ast.Comment[] = head > 0 ? last!.file.comments.slice(0, last!.at.comments[head]) : [];
    const diagnostics: Diagnostic[] = head > 0 ? last!.diagnostics.slice(0, last!.at.diagnostics[head]) : [];
    const at = {
      decls: head > 0 ? last!.at.decls.slice(0, head) : [],
      comments: head > 0 ? last!.at.comments.slice(0, head) : [],
      diagnostics: head > 0 ? last!.at.diagnostics.slice(0, head) : [],
    };
    for (let k = head; k < n - tail; k++) {
      const c = all[k];
      at.decls.push(decls.length);
      at.comments.push(comments.length);
      at.diagnostics.push(diagnostics.length);
      for (let i = 0; i < c.decls.length; i++) decls.push(c.decls[i]);
      for (let i = 0; i < c.comments.length; i++) comments.push(c.comments[i]);
      for (let i = 0; i < c.diagnostics.length; i++) diagnostics.push(c.diagnostics[i]);
    }
    let file: { decls: ast.Decl[]; comments: ast.Comment[]; diagnostics: Diagnostic[] } = { decls, comments, diagnostics };
    if (tail > 0) {
      const o = last!;
      file = {
        decls: decls.concat(o.file.decls.slice(o.at.decls[oldTail])),
        comments: comments.concat(o.file.comments.slice(o.at.comments[oldTail])),
        diagnostics: diagnostics.concat(o.diagnostics.slice(o.at.diagnostics[oldTail])),
      };
      at.decls = at.decls.concat(shifted(o.at.decls.slice(oldTail, oldTail + tail), decls.length - o.at.decls[oldTail]));
      at.comments = at.comments.concat(shifted(o.at.comments.slice(oldTail, oldTail + tail), comments.length - o.at.comments[oldTail]));
      at.diagnostics = at.diagnostics.concat(shifted(o.at.diagnostics.slice(oldTail, oldTail + tail), diagnostics.length - o.at.diagnostics[oldTail]));
    }
    // the chunks' own texts (not slices of the file's text, which would keep every version's text alive)
    let ownTexts: string[] = head > 0 ? last!.texts.slice(0, head) : [];
    for (let k = head; k < n - tail; k++) ownTexts.push(all[k].text);
    if (tail > 0) ownTexts = ownTexts.concat(last!.texts.slice(oldTail));
    at.decls.push(file.decls.length);
    at.comments.push(file.comments.length);
    at.diagnostics.push(file.diagnostics.length);
    const result: ChunkedResult = {
      file: { kind: 'File', range: { start: 0, end: text.length }, decls: file.decls, comments: file.comments },
      diagnostics: file.diagnostics,
      lines,
      chunks: all,
      from,
      parsed,
      starts,
      chunkLines,
      texts: ownTexts,
      at,
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
    // the leading and trailing chunks' starts, texts and indexes copied in bulk, the region's found
    const starts: number[] = at.slice(0, a);
    const texts: string[] = last.texts.slice(0, a);
    const from: (number | undefined)[] = new Array<number | undefined>(a);
    for (let k = 0; k < a; k++) from[k] = k;
    if (r1 > r0 || (starts.length === 0 && b === prev.length)) {
      const mid = text.slice(r0, r1);
      const local = chunkStarts(mid);
      const midTexts = local.map((s, k) => mid.slice(s, k + 1 < local.length ? local[k + 1] : mid.length));
      const m = matchChunks(last.texts.slice(a, b), midTexts);
      for (let k = 0; k < local.length; k++) {
        starts.push(r0 + local[k]);
        texts.push(midTexts[k]);
        from.push(m[k] === undefined ? undefined : a + m[k]!);
      }
    }
    const mid = starts.length;
    const n = mid + (prev.length - b);
    for (let k = b; k < prev.length; k++) from.push(k);
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
    const lineStarts = same ? oldStarts as number[] : oldStarts.slice(0, before).concat(scanned, shifted(oldStarts.slice(after), delta));
    // the lines chunks start on: the leading chunks' as before, the trailing ones' moved by the lines
    // the edit added, those between found walking the scanned region's line starts
    const lineDelta = lineStarts.length - oldStarts.length;
    const chunkLines = last.chunkLines.slice(0, a);
    if (mid > a) linesOf(starts, a, mid, lineStarts, firstAbove(lineStarts, starts[a]) - 1, chunkLines);
    return {
      lines: new LineIndex(text, lineStarts),
      starts: b < prev.length ? starts.concat(shifted(at.slice(b), delta)) : starts,
      chunkLines: b < prev.length ? chunkLines.concat(shifted(last.chunkLines.slice(b), lineDelta)) : chunkLines,
      texts: b < prev.length ? texts.concat(last.texts.slice(b)) : texts,
      from,
      lead: a,
      trail: n - mid,
      delta,
      lineDelta,
    };
  }
}

/** `xs` (a fresh array) with `by` added to each element, in place */
function shifted(xs: number[], by: number): number[] {
  if (by !== 0) for (let i = 0; i < xs.length; i++) xs[i] += by;
  return xs;
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

/** The declaration keywords a chunk starts with (exported for tests). */
export const CHUNK_KEYWORDS: readonly string[] = KEYWORDS;
