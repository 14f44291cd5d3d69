// Offsets (UTF-16, what every layer below lsp/ speaks) <-> LSP line/character positions.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import {
  type Position,
  DiagnosticSeverity,
  DiagnosticTag,
  type Diagnostic as LspDiagnostic,
  type Range as LspRange,
  type TextEdit,
} from 'vscode-languageserver';
import type { Range } from '../../../grammar/src/ast.js';
import type { LineIndex } from '../../../grammar/src/line-index.js';
import type { Diagnostic, Severity } from '../../../grammar/src/diagnostic.js';

export function toRange(doc: TextDocument, r: Range): LspRange {
  return { start: doc.positionAt(r.start), end: doc.positionAt(r.end) };
}

/**
 * The positions of offsets that mostly come in file order (an outline's items), each found from the
 * line of the one before instead of a search over every line, over the line index the parse has made
 * already for `text` (its search where they jump). They are `TextDocument.positionAt`'s, an offset
 * inside a CRLF pair and past the end included: at 10,000 lines the editor's document computed its
 * line starts on the first request that asked (6 ms), and the outline's 37,000 positions took 20 ms more.
 */
export class Positions {
  private line = 0;
  private readonly starts: readonly number[];

  constructor(private readonly text: string, private readonly lines: LineIndex) {
    this.starts = lines.lineStarts();
  }

  at(offset: number): Position {
    const text = this.text;
    const starts = this.starts;
    let o = Math.max(0, Math.min(offset, text.length));
    let line = this.line;
    // backwards, or far ahead: the index's search
    if (o < starts[line] || (line + FORWARD_LINES < starts.length && starts[line + FORWARD_LINES] <= o)) line = this.lines.position(o).line;
    else while (line + 1 < starts.length && starts[line + 1] <= o) line++;
    this.line = line;
    const start = starts[line];
    // as the editor's document does: an offset after a line break's first character is before it
    while (o > start && (text.charCodeAt(o - 1) === 13 || text.charCodeAt(o - 1) === 10)) o--;
    return { line, character: o - start };
  }

  range(r: Range): LspRange {
    return { start: this.at(r.start), end: this.at(r.end) };
  }
}

/** how many lines `Positions` walks forward before it searches instead */
const FORWARD_LINES = 32;

export function fromRange(doc: TextDocument, r: LspRange): Range {
  const start = doc.offsetAt(r.start);
  const end = doc.offsetAt(r.end);
  return start <= end ? { start, end } : { start: end, end: start };
}

export function toEdit(doc: TextDocument, e: { range: Range; newText: string }): TextEdit {
  return { range: toRange(doc, e.range), newText: e.newText };
}

const severities: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export const diagnosticSource = 'layout';

export function toDiagnostic(doc: TextDocument, d: Diagnostic, uri: string): LspDiagnostic {
  const out: LspDiagnostic = {
    range: toRange(doc, d.range),
    severity: severities[d.severity] ?? DiagnosticSeverity.Error,
    code: d.code,
    source: diagnosticSource,
    message: d.message,
  };
  if (d.related?.length) {
    out.relatedInformation = d.related.map((r) => ({ location: { uri, range: toRange(doc, r.range) }, message: r.message }));
  }
  if (d.tags?.length) {
    out.tags = d.tags.map((t) => (t === 'unnecessary' ? DiagnosticTag.Unnecessary : DiagnosticTag.Deprecated));
  }
  return out;
}
