// The analysis facade: text -> AST, name resolution and every diagnostic. A short pipeline of
// stages, each taking what the previous ones produced; later stages (elaboration, rule checks)
// are appended here.
import { parse, resolve, type LineIndex, type Resolution, type ast, type Diagnostic } from '../../../grammar/src/index.js';

export interface Analysis {
  file: ast.File;
  /** every diagnostic of every stage, sorted by position */
  diagnostics: Diagnostic[];
  resolution: Resolution;
  lines: LineIndex;
}

export function analyze(text: string): Analysis {
  const parsed = parse(text);
  const resolution = resolve(parsed.file, parsed.lines);
  const diagnostics = [...parsed.diagnostics, ...resolution.diagnostics];
  diagnostics.sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end);
  return { file: parsed.file, diagnostics, resolution, lines: parsed.lines };
}
