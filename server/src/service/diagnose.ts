// The diagnostics of one document version, as data, through the check layer's `analyze`.
// `diagnose` runs every rule, the slow ones too; `quickDiagnostics` only the fast rules (syntax,
// names, shapes). The language server's worker gets the same list as `diagnose` from an
// `IncrementalAnalysis` (incremental.ts), which re-uses the previous version's work.
import type { Diagnostic } from '../../../grammar/src/diagnostic.js';
import { analyze, type AnalyzeOptions } from '../check/index.js';
import { parse } from '../../../grammar/src/parse.js';
import { resolve } from '../../../grammar/src/resolve.js';
import type { Settings } from './settings.js';
import { fileDiagnostics } from './kernel-checks.js';
import { firstStage } from './incremental-move.js';

export interface DiagnoseResult {
  diagnostics: Diagnostic[];
  /** stopped by `shouldStop`: the diagnostics are partial */
  cancelled: boolean;
}

export function diagnose(text: string, settings: Settings, shouldStop?: () => boolean, uri?: string): DiagnoseResult {
  const options: AnalyzeOptions & { gpuTarget?: string } = {
    slow: true,
    budget: settings.genp.checkBudget,
    gpuTarget: settings.gpuTarget,
    ...(shouldStop ? { shouldStop } : {}),
  };
  const a = analyze(text, options);
  return { diagnostics: fileDiagnostics(a, text, uri), cancelled: a.cancelled === true };
}

export function quickDiagnostics(text: string, settings?: Settings): Diagnostic[] {
  const options: AnalyzeOptions & { gpuTarget?: string } = { slow: false, ...(settings ? { gpuTarget: settings.gpuTarget } : {}) };
  return analyze(text, options).diagnostics;
}

/** Syntax and name diagnostics only: what is always safe to compute on the main thread (the list of `firstStage`). */
export function syntaxDiagnostics(text: string): Diagnostic[] {
  const p = parse(text);
  return firstStage(p.diagnostics, resolve(p.file, p.lines).diagnostics);
}
