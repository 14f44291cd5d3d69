// What a rule sees and returns. Rules are pure functions of the analysed document.
import type { ast, Diagnostic, Resolution } from '../../../../grammar/src/index.js';
import type { Values } from './values.js';

export interface RuleOptions {
  /** also run the `slow` rules (enumeration); default true */
  slow?: boolean;
  /** most points a GenP check enumerates per evaluation point; default 2^24 */
  budget?: number;
  /** polled during slow rules; returning true stops them with `cancelled` */
  shouldStop?: () => boolean;
}

export interface RuleContext {
  text: string;
  file: ast.File;
  resolution: Resolution;
  /** integer values of expressions at the params' values and at each tuning candidate */
  values: Values;
  /** `budget` with its default applied */
  budget: number;
  shouldStop: () => boolean;
}

export type RuleCategory = 'fast' | 'slow';

export interface RuleRun {
  diagnostics: Diagnostic[];
  /** the rule stopped early because `shouldStop` said so; its diagnostics are partial */
  cancelled?: boolean;
}

export interface Rule {
  /** the family: the part of the codes before `/` */
  family: string;
  /** every code the rule can emit */
  codes: readonly string[];
  category: RuleCategory;
  run(ctx: RuleContext): RuleRun;
}
