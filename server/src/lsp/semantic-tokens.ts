// textDocument/semanticTokens/full, full/delta and range: names classified by what they refer to.
import type { SemanticTokens, SemanticTokensDelta, SemanticTokensDeltaParams, SemanticTokensLegend, SemanticTokensParams, SemanticTokensRangeParams } from 'vscode-languageserver';
import type { LineIndex } from '../../../grammar/src/line-index.js';
import type { DocumentHistory, LayoutDocument } from '../service/document.js';
import { semanticTokenRuns, tokenModifiers, tokenTypes } from '../service/semantic-tokens.js';
import type { ServerContext } from './context.js';

export const legend: SemanticTokensLegend = { tokenTypes: [...tokenTypes], tokenModifiers: [...tokenModifiers] };

type Run = { base: number; data: readonly number[] };

/**
 * The last result sent for a document (its history's: dropped with the document): its runs (one per
 * chunk, service/semantic-tokens.ts `semanticTokenRuns`, whose arrays are the same objects while a chunk
 * is unchanged), and per run where its tokens start in the encoded data (`at`, one more entry: the
 * length), the line of its first encoded token (`first`, -1 for none), and the position of the last
 * token encoded up to and including it (`endLine`, `endChar`: the next token's deltas start there).
 */
interface Sent {
  id: string;
  runs: readonly Run[];
  at: Int32Array;
  first: Int32Array;
  endLine: Int32Array;
  endChar: Int32Array;
}

const sent = new WeakMap<DocumentHistory, Sent>();
let nextId = 1;

/** The whole file's tokens (and, for a document with a history, what a later delta starts from). */
export function semanticTokens(ctx: ServerContext, p: SemanticTokensParams): SemanticTokens {
  const s = ctx.snapshot(p.textDocument.uri);
  return s ? fullTokens(s.model) : { data: [] };
}

/** `semanticTokens` of a snapshot (also the main thread's warm-up's: warm-main.ts). */
export function fullTokens(doc: LayoutDocument): SemanticTokens {
  const runs = semanticTokenRuns(doc);
  const e = new Encoder(doc, runs);
  const data: number[] = [];
  e.encode(0, runs.length, 0, 0, data);
  return { resultId: remember(doc, e), data };
}

/**
 * The tokens as an edit of the last result sent (`previousResultId`): the runs from the first that is
 * not the same array at the same offset to the last that is not the same array (counted from the
 * end), plus the first token after them (its deltas start at the token before it). Relative encoding
 * makes every other token's numbers what they were: an edit inside one declaration sends that
 * declaration's tokens, not the file's (at 20,000 lines a full result is some 1.3 MB of JSON). A full
 * result when the previous one is not the one kept.
 */
export function semanticTokensDelta(ctx: ServerContext, p: SemanticTokensDeltaParams): SemanticTokens | SemanticTokensDelta {
  const s = ctx.snapshot(p.textDocument.uri);
  if (!s) return { data: [] };
  const last = s.model.history ? sent.get(s.model.history) : undefined;
  if (!last || last.id !== p.previousResultId) return fullTokens(s.model);
  const runs = semanticTokenRuns(s.model);
  const e = new Encoder(s.model, runs);
  const old = last.runs;
  const n = runs.length;
  const m = old.length;
  let pre = 0;
  while (pre < n && pre < m && runs[pre].data === old[pre].data && runs[pre].base === old[pre].base) pre++;
  let suf = 0;
  while (suf < n - pre && suf < m - pre && runs[n - 1 - suf].data === old[m - 1 - suf].data) suf++;
  // the suffix starts with a run that has a token in both (the one whose deltas are encoded again)
  while (suf > 0 && (last.first[m - suf] < 0 || runs[n - suf].data.length === 0)) suf--;
  const [line0, char0] = pre > 0 ? [last.endLine[pre - 1], last.endChar[pre - 1]] : [0, 0];
  e.copyPrefix(last, pre);
  const data: number[] = [];
  e.encode(pre, n - suf, line0, char0, data);
  let oldEnd = last.at[m];
  if (suf > 0) {
    // the suffix's first token, relative to what now comes before it; the rest of its numbers are the same
    const firstRun: number[] = [];
    const [l, c] = n - suf > 0 ? [e.endLine[n - suf - 1], e.endChar[n - suf - 1]] : [0, 0];
    e.encode(n - suf, n - suf + 1, l, c, firstRun);
    data.push(...firstRun.slice(0, 5));
    oldEnd = last.at[m - suf] + 5;
    e.moveSuffix(last, suf, e.first[n - suf] - last.first[m - suf], data.length - (oldEnd - last.at[pre]));
  }
  const start = last.at[pre];
  return { resultId: remember(s.model, e), edits: [{ start, deleteCount: oldEnd - start, data }] };
}

/**
 * The tokens of the declarations that overlap `range` (an editor asks for its visible lines while a
 * large file's full result is not there yet): the chunks outside it are neither classified nor
 * encoded. Encoded as a full result is (from the document's start); not a base for deltas.
 */
export function semanticTokensRange(ctx: ServerContext, p: SemanticTokensRangeParams): SemanticTokens {
  const s = ctx.snapshot(p.textDocument.uri);
  if (!s) return { data: [] };
  const lines = s.model.lines;
  const runs = semanticTokenRuns(s.model, { start: lines.offset(p.range.start), end: lines.offset(p.range.end) });
  const data: number[] = [];
  new Encoder(s.model, runs).encode(0, runs.length, 0, 0, data);
  return { data };
}

/** Keeps `e`'s runs as the document's last result; returns the result's id. */
function remember(doc: LayoutDocument, e: Encoder): string {
  const id = String(nextId++);
  if (doc.history) sent.set(doc.history, { id, runs: e.runs, at: e.at, first: e.first, endLine: e.endLine, endChar: e.endChar });
  return id;
}

/**
 * Encodes runs as the LSP does (per token: line delta, start delta on the same line or start, length,
 * type, modifiers), recording per run what `Sent` keeps. A token's line is found by moving one pointer
 * over the line starts (not a search per token); each is encoded as it comes (no object per token: a
 * request at 20,000 lines has some 125,000).
 */
class Encoder {
  readonly at: Int32Array;
  readonly first: Int32Array;
  readonly endLine: Int32Array;
  readonly endChar: Int32Array;
  private readonly lines: LineIndex;
  private readonly starts: readonly number[];

  constructor(doc: LayoutDocument, readonly runs: readonly Run[]) {
    this.lines = doc.lines;
    this.starts = doc.lines.lineStarts();
    this.at = new Int32Array(runs.length + 1);
    this.first = new Int32Array(runs.length);
    this.endLine = new Int32Array(runs.length);
    this.endChar = new Int32Array(runs.length);
  }

  /** runs `from` to `to` (excluded) onto `out`, the first token's deltas from (`prevLine`, `prevChar`) */
  encode(from: number, to: number, prevLine: number, prevChar: number, out: number[]): void {
    const starts = this.starts;
    let line = this.lines.position(from < this.runs.length ? this.runs[from].base : 0).line;
    const at0 = this.at[from] - out.length;
    for (let k = from; k < to; k++) {
      const { base, data: t } = this.runs[k];
      this.at[k] = at0 + out.length;
      this.first[k] = -1;
      for (let i = 0; i < t.length; i += 2) {
        const start = base + t[i];
        const length = t[i + 1] >>> 8;
        while (line + 1 < starts.length && starts[line + 1] <= start) line++;
        // tokens never span lines (one that would ends at or past the next line's start)
        if (length <= 0 || (line + 1 < starts.length && start + length >= starts[line + 1])) continue;
        const char = start - starts[line];
        out.push(line - prevLine, line === prevLine ? char - prevChar : char, length, t[i + 1] & 15, (t[i + 1] >>> 4) & 15);
        if (this.first[k] < 0) this.first[k] = line;
        prevLine = line;
        prevChar = char;
      }
      this.endLine[k] = prevLine;
      this.endChar[k] = prevChar;
    }
    this.at[to] = at0 + out.length;
  }

  /** the first `count` runs as `last` encoded them (the same arrays at the same offsets) */
  copyPrefix(last: Sent, count: number): void {
    for (let k = 0; k < count; k++) {
      this.at[k] = last.at[k];
      this.first[k] = last.first[k];
      this.endLine[k] = last.endLine[k];
      this.endChar[k] = last.endChar[k];
    }
    this.at[count] = last.at[count];
  }

  /** the last `count` runs as `last` encoded them, `lines` lower and `shift` later in the data */
  moveSuffix(last: Sent, count: number, lines: number, shift: number): void {
    const n = this.runs.length;
    const m = last.runs.length;
    for (let j = 1; j <= count; j++) {
      const k = n - j;
      const o = m - j;
      this.at[k] = last.at[o] + shift;
      this.first[k] = last.first[o] < 0 ? -1 : last.first[o] + lines;
      // a run without tokens ends where the one before it does
      const empty = last.at[o + 1] === last.at[o];
      this.endLine[k] = empty ? -1 : last.endLine[o] + lines;
      this.endChar[k] = last.endChar[o];
    }
    this.at[n] = last.at[m] + shift;
    for (let k = n - count; k < n; k++) {
      if (this.endLine[k] >= 0) continue;
      this.endLine[k] = this.endLine[k - 1];
      this.endChar[k] = this.endChar[k - 1];
    }
  }
}
