// Offsets <-> 0-based {line, character} positions (UTF-16 units, as in LSP). Line breaks are
// `\n`, `\r\n` and `\r`, as in the LSP specification.

export interface Position {
  /** 0-based line */
  line: number;
  /** 0-based UTF-16 offset inside the line */
  character: number;
}

export class LineIndex {
  /** offset of the first character of each line */
  private readonly starts: number[];

  /** `starts`: the line starts of `text` when the caller knows them (service/chunks.ts, from the previous version's) */
  constructor(readonly text: string, starts?: number[]) {
    if (starts) {
      this.starts = starts;
      return;
    }
    starts = [0];
    if (text.indexOf('\r') < 0) {
      // only `\n` (the common case): the engine's search is much faster than a loop over every character
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    } else pushLineStarts(text, 0, text.length, starts);
    this.starts = starts;
  }

  /** the offset of the first character of each line */
  lineStarts(): readonly number[] {
    return this.starts;
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** the offset where `line` starts (clamped to the text) */
  lineStart(line: number): number {
    if (line <= 0) return 0;
    if (line >= this.starts.length) return this.text.length;
    return this.starts[line];
  }

  /** the position of `offset` (clamped to [0, text.length]) */
  position(offset: number): Position {
    const o = Math.max(0, Math.min(Number.isFinite(offset) ? Math.floor(offset) : 0, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - this.starts[lo] };
  }

  /** the offset of a position; a character past the end of its line clamps to the line end */
  offset(p: Position): number {
    if (p.line < 0) return 0;
    if (p.line >= this.starts.length) return this.text.length;
    const start = this.starts[p.line];
    const next = p.line + 1 < this.starts.length ? this.starts[p.line + 1] : this.text.length;
    let end = next;
    // the line's content ends before its line break
    if (p.line + 1 < this.starts.length) {
      end = next - 1;
      if (end > start && this.text.charCodeAt(end) === 10 && this.text.charCodeAt(end - 1) === 13) end--;
    }
    return start + Math.max(0, Math.min(p.character, end - start));
  }

  /** `line:column`, both 1-based, as messages and the CLI print positions */
  format(offset: number): string {
    const p = this.position(offset);
    return `${p.line + 1}:${p.character + 1}`;
  }
}

/**
 * Pushes onto `out` the start of every line that a line break (`\n`, `\r\n` or `\r`) beginning in
 * `text[from, to)` opens, up to (not including) `limit`.
 */
export function pushLineStarts(text: string, from: number, to: number, out: number[], limit = Infinity): void {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    let at = -1;
    if (c === 10) at = i + 1;
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      at = i + 1;
    }
    if (at < 0) continue;
    if (at >= limit) break;
    out.push(at);
  }
}
