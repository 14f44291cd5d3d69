// Folding ranges (in lines): kernel and schedule blocks, declarations that span lines, and runs
// of two or more whole-line comments.
import type * as ast from '../../../grammar/src/ast.js';
import type { LineIndex } from '../../../grammar/src/line-index.js';

export interface Fold {
  startLine: number;
  endLine: number;
  kind?: 'comment' | 'region';
}

export function foldingRanges(file: ast.File, text: string, lines: LineIndex): Fold[] {
  const out: Fold[] = [];
  const line = (o: number) => lines.position(o).line;
  for (const d of file.decls) {
    if (!validRange(d.range)) continue;
    if ((d.kind === 'Kernel' || d.kind === 'Schedule') && validRange(d.bodyRange) && d.bodyRange.end > d.bodyRange.start) {
      // keep the closing brace visible: fold up to the line before it
      const start = line(d.range.start);
      const close = line(d.bodyRange.end - 1);
      const end = text[d.bodyRange.end - 1] === '}' ? close - 1 : close;
      if (end > start) out.push({ startLine: start, endLine: end });
      continue;
    }
    const start = line(d.range.start);
    const end = line(d.range.end);
    if (end > start) out.push({ startLine: start, endLine: end });
  }
  // comment runs
  let runStart = -1;
  let runEnd = -1;
  const flush = () => {
    if (runStart >= 0 && runEnd > runStart) out.push({ startLine: runStart, endLine: runEnd, kind: 'comment' });
  };
  for (const c of file.comments) {
    const p = lines.position(c.range.start);
    const ownLine = text.slice(lines.lineStart(p.line), c.range.start).trim() === '';
    if (!ownLine) continue;
    if (runStart >= 0 && p.line === runEnd + 1) runEnd = p.line;
    else {
      flush();
      runStart = runEnd = p.line;
    }
  }
  flush();
  out.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
  return out;
}

export function validRange(r: ast.Range | undefined): r is ast.Range {
  return !!r && Number.isInteger(r.start) && Number.isInteger(r.end) && r.start >= 0 && r.end >= r.start;
}
