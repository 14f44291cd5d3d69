// The rule registry: every check rule of docs/diagnostics.md ("Check rules"), in a `fast`
// category (shape checks, run on every keystroke) or a `slow` one (enumeration, run when the
// caller asks, e.g. on save or in a worker). `runRules` is the step `analyze` calls.
import type { ast, Diagnostic, Resolution } from '../../../../grammar/src/index.js';
import { checkGenPs } from './genp.js';
import { checkQueries } from './query.js';
import { checkRegP } from './regp.js';
import { checkSizes } from './size.js';
import { checkTiles } from './tile.js';
import { FileIndex, type Rule, type RuleContext, type RuleOptions, type RuleRun } from './types.js';
import { checkUnused } from './unused.js';
import { checkLegoMutation } from './lego-mutation.js';
import type { Model } from '../elaborate-model.js';
import { Scenarios } from '../scenario.js';

export type { Rule, RuleCategory, RuleContext, RuleOptions, RuleRun } from './types.js';
export { FileIndex } from './types.js';
export { checkGenPs, genpUses, checkUse, type GenPUse } from './genp.js';
export { queryDiagnostics } from './query.js';

/** Default number of points a GenP check enumerates exhaustively (per evaluation point). */
export const DEFAULT_BUDGET = 1 << 24;

export const rules: readonly Rule[] = [
  { family: 'unused', codes: ['unused/param', 'unused/layout', 'unused/perm', 'unused/let'], category: 'fast', global: true, run: (c) => ({ diagnostics: checkUnused(c) }) },
  { family: 'lego', codes: ['lego/mutated-receiver'], category: 'fast', global: true, run: (c) => ({ diagnostics: checkLegoMutation(c) }) },
  { family: 'size', codes: ['size/groupby-mismatch', 'size/tile-mismatch', 'size/rank-mismatch'], category: 'fast', run: (c) => ({ diagnostics: checkSizes(c) }) },
  { family: 'query', codes: ['query/arity', 'query/out-of-range'], category: 'fast', run: (c) => ({ diagnostics: checkQueries(c) }) },
  { family: 'tile', codes: ['tile/not-divisible'], category: 'fast', run: (c) => ({ diagnostics: checkTiles(c) }) },
  { family: 'regp', codes: ['regp/not-a-permutation'], category: 'fast', run: (c) => ({ diagnostics: checkRegP(c) }) },
  {
    family: 'genp',
    codes: ['genp/not-bijective', 'genp/out-of-range', 'genp/inverse-mismatch', 'genp/eval-error', 'genp/partially-checked'],
    category: 'slow',
    run: checkGenPs,
  },
];

export interface RulesInput {
  text: string;
  file: ast.File;
  resolution: Resolution;
  /** the declarations to check (default: all of `file`) */
  decls?: readonly ast.Decl[];
  /** the elaborated model: of the whole file, or at least of `decls` and what they depend on */
  model: Model;
  /** reuse the scenarios and shared results of another run over the same model */
  scenarios?: Scenarios;
  index?: FileIndex;
}

export interface RulesResult {
  diagnostics: Diagnostic[];
  /** a slow rule was stopped by `shouldStop`: its diagnostics are partial */
  cancelled: boolean;
}

/** Builds the context once and runs every fast rule, and the slow ones unless `slow: false`. */
export function runRules(input: RulesInput, options: RuleOptions = {}): RulesResult {
  const ctx = ruleContext(input, options);
  const slow = options.slow ?? true;
  const diagnostics: Diagnostic[] = [];
  let cancelled = false;
  for (const rule of rules) {
    if (rule.category === 'slow' && !slow) continue;
    if (cancelled) break;
    const run = runOne(rule, ctx);
    for (const d of run.diagnostics) diagnostics.push(d); // (no spread: a file may have 100,000s)
    if (run.cancelled) cancelled = true;
  }
  return { diagnostics, cancelled };
}

/** The context `runRules` gives every rule. */
export function ruleContext(input: RulesInput, options: RuleOptions = {}): RuleContext {
  return {
    text: input.text,
    file: input.file,
    resolution: input.resolution,
    decls: input.decls ?? input.file.decls,
    model: input.model,
    scenarios: input.scenarios ?? new Scenarios(input.model),
    index: input.index ?? new FileIndex(),
    budget: options.budget ?? DEFAULT_BUDGET,
    shouldStop: options.shouldStop ?? (() => false),
  };
}

/** Runs one rule; a rule that throws (a bug) becomes one diagnostic instead of a crash. */
export function runOne(rule: Rule, ctx: RuleContext): RuleRun {
  try {
    return rule.run(ctx);
  } catch (e) {
    return {
      diagnostics: [{
        code: 'check/internal-error',
        severity: 'warning',
        message: `internal error in the ${rule.family} checks: ${e instanceof Error ? e.message : String(e)}`,
        range: { start: 0, end: 0 },
      }],
    };
  }
}
