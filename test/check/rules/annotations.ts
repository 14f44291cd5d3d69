// Annotated fixtures in the rust-analyzer style, for the check rules.
//
//   param M = 100
//   layout A = OrderBy(Row(M, 64)).TileBy([M/32, 2], [32, 32])
//   #                                      ^^^^ error: 32 does not divide M = 100 [tile/not-divisible]
//
// An annotation is a comment line whose text after `#` starts (after blanks) with `^`. The carets
// mark columns of the nearest line above that is not an annotation; the rest of the line is
// `severity: message [code]`. Annotation lines are ordinary comments, so they are part of the
// analysed text and keep every offset as it is. A caret run cannot start at column 0 (the `#` is
// there): rules never point at column 0 of a declaration.
//
// Two optional suffixes, after the code, describe the rest of a diagnostic:
//   `{tags: unnecessary}`               the diagnostic's tags, comma-separated
//   `{fixes: 2}`                        how many fixes it offers (the fix tests check their edits)
import type { Diagnostic, Severity } from '../../../grammar/src/diagnostic.js';

export interface Expected {
  code: string;
  severity: Severity;
  message: string;
  start: number;
  end: number;
  tags?: string[];
  fixes?: number;
  /** 1-based line of the annotation, for error messages */
  annotationLine: number;
}

const severities = new Set(['error', 'warning', 'information', 'hint']);
const annotationRe = /^(\s*)#(\s*)(\^+)\s+(\w+):\s(.*?)\s\[([\w/-]+)\]((?:\s*\{[^}]*\})*)\s*$/;

/** Parses every annotation of a fixture; throws on a malformed one (a fixture bug, not a test result). */
export function parseAnnotations(text: string): Expected[] {
  const lines = text.split('\n');
  const lineStart: number[] = [];
  let off = 0;
  for (const l of lines) {
    lineStart.push(off);
    off += l.length + 1;
  }
  const out: Expected[] = [];
  let target = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '');
    const looksLike = /^\s*#\s*\^/.test(line);
    if (!looksLike) {
      target = i;
      continue;
    }
    const m = annotationRe.exec(line);
    if (!m) throw new Error(`line ${i + 1}: malformed annotation: ${line}`);
    if (target < 0) throw new Error(`line ${i + 1}: annotation with no line above it`);
    const col = m[1].length + 1 + m[2].length;
    const width = m[3].length;
    const severity = m[4];
    if (!severities.has(severity)) throw new Error(`line ${i + 1}: unknown severity '${severity}'`);
    const targetLine = lines[target].replace(/\r$/, '');
    if (col + width > targetLine.length + 1) {
      throw new Error(`line ${i + 1}: carets run past the end of line ${target + 1}`);
    }
    const e: Expected = {
      code: m[6],
      severity: severity as Severity,
      message: m[5],
      start: lineStart[target] + col,
      end: lineStart[target] + col + width,
      annotationLine: i + 1,
    };
    for (const s of m[7].matchAll(/\{(\w+):\s*([^}]*)\}/g)) {
      if (s[1] === 'tags') e.tags = s[2].split(',').map((t) => t.trim()).filter(Boolean);
      else if (s[1] === 'fixes') e.fixes = Number(s[2]);
      else throw new Error(`line ${i + 1}: unknown suffix {${s[1]}: ...}`);
    }
    out.push(e);
  }
  return out;
}

/** One line per diagnostic, comparable as strings: `L:C-L:C severity: message [code]`. */
export function describe(text: string, d: { start: number; end: number; severity: string; message: string; code: string }): string {
  return `${pos(text, d.start)}-${pos(text, d.end)} ${d.severity}: ${d.message} [${d.code}]`;
}

function pos(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const col = offset - (before.lastIndexOf('\n') + 1);
  return `${line}:${col}`;
}

/**
 * Compares actual diagnostics against the annotations. Returns human-readable problems (empty when
 * they match exactly): missing expected diagnostics, unexpected ones, and wrong tags/fix counts.
 */
export function compare(text: string, expected: Expected[], actual: Diagnostic[]): string[] {
  const problems: string[] = [];
  const remaining = [...actual];
  for (const e of expected) {
    const idx = remaining.findIndex(
      (d) => d.code === e.code && d.severity === e.severity && d.message === e.message && d.range.start === e.start && d.range.end === e.end,
    );
    const want = describe(text, e);
    if (idx < 0) {
      problems.push(`missing (annotation line ${e.annotationLine}): ${want}`);
      continue;
    }
    const [d] = remaining.splice(idx, 1);
    if (e.tags !== undefined && JSON.stringify(d.tags ?? []) !== JSON.stringify(e.tags)) {
      problems.push(`tags differ for ${want}: got ${JSON.stringify(d.tags ?? [])}`);
    }
    if (e.fixes !== undefined && (d.fixes?.length ?? 0) !== e.fixes) {
      problems.push(`fix count differs for ${want}: got ${d.fixes?.length ?? 0}`);
    }
  }
  for (const d of remaining) {
    problems.push(`unexpected: ${describe(text, { start: d.range.start, end: d.range.end, severity: d.severity, message: d.message, code: d.code })}`);
  }
  return problems;
}
