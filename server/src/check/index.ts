// The analysis facade: text -> AST, name resolution and every diagnostic. A short pipeline of
// stages, each taking what the previous ones produced; later stages (elaboration, rule checks)
// are appended here. The language server computes the same list incrementally
// (server/src/service/incremental.ts): a stage added here must be added there too
// (test/lsp/incremental.test.ts compares the two).
import { parse, resolve, type LineIndex, type Resolution, type ast, type Diagnostic } from '../../../grammar/src/index.js';
import { runRules, type RuleOptions } from './rules/index.js';
import { elaborate, type ElaborateOptions, type Model } from './elaborate.js';
import { checkSchedule, scheduleEnvOf } from './schedule/index.js';
import { linearDiagnostics } from './linear.js';
import { Scenarios } from './scenario.js';

/** Options of `analyze`; each stage reads the ones it knows. */
export interface AnalyzeOptions extends RuleOptions, ElaborateOptions {
  /** GPU for schedules without an `on` clause that map work to a GPU (the `layout.gpuTarget` setting) */
  gpuTarget?: string;
}

export interface Analysis {
  file: ast.File;
  /** every diagnostic of every stage, sorted by position */
  diagnostics: Diagnostic[];
  resolution: Resolution;
  /** the elaborated model: param values, layouts as algebra values, queries (check/elaborate.ts) */
  model: Model;
  lines: LineIndex;
  /** a slow check was stopped by `options.shouldStop`: the diagnostics are partial */
  cancelled: boolean;
}

export function analyze(text: string, options: AnalyzeOptions = {}): Analysis {
  const parsed = parse(text);
  const resolution = resolve(parsed.file, parsed.lines);
  const elab = elaborate(parsed.file, resolution, options);
  // one set of scenarios for the rules and the schedule checks: the values they compute are shared
  const scenarios = new Scenarios(elab.model);
  const checked = runRules({ text, file: parsed.file, resolution, model: elab.model, scenarios }, options);
  const schedules = scheduleDiagnostics(parsed.file, elab.model, resolution, options, scenarios);
  const linear = linearDiagnostics(parsed.file, resolution, elab.model);
  const diagnostics = [...parsed.diagnostics, ...resolution.diagnostics, ...elab.diagnostics, ...checked.diagnostics, ...schedules, ...linear];
  diagnostics.sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end);
  return { file: parsed.file, diagnostics, resolution, model: elab.model, lines: parsed.lines, cancelled: checked.cancelled };
}

/** The `schedule/...` checks of every schedule block (threads, shared memory, divisibility, order). */
function scheduleDiagnostics(file: ast.File, model: Model, resolution: Resolution, options: AnalyzeOptions, scenarios: Scenarios): Diagnostic[] {
  if (!file.decls.some((d) => d.kind === 'Schedule')) return [];
  const env = scheduleEnvOf(model, resolution, undefined, scenarios);
  const out: Diagnostic[] = [];
  for (const d of file.decls) {
    if (d.kind !== 'Schedule') continue;
    try {
      out.push(...checkSchedule(d, env, { defaultTarget: options.gpuTarget }));
    } catch (e) {
      out.push({ code: 'check/internal-error', severity: 'error', message: `internal error while checking schedule '${d.name.name}': ${(e as Error).message}`, range: d.name.range });
    }
  }
  return out;
}
