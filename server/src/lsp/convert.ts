// Offsets (UTF-16, what every layer below lsp/ speaks) <-> LSP line/character positions.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import {
  DiagnosticSeverity,
  DiagnosticTag,
  type Diagnostic as LspDiagnostic,
  type Range as LspRange,
  type TextEdit,
} from 'vscode-languageserver';
import type { Range } from '../../../grammar/src/ast.js';
import type { Diagnostic, Severity } from '../../../grammar/src/diagnostic.js';

export function toRange(doc: TextDocument, r: Range): LspRange {
  return { start: doc.positionAt(r.start), end: doc.positionAt(r.end) };
}

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
