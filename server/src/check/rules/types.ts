// What a rule sees and returns. Rules are pure functions of the analysed document.
import type { ast, Diagnostic, Resolution } from '../../../../grammar/src/index.js';
import type { GenPCheck } from '../../algebra/index.js';
import { Shapes } from './shape.js';
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
  /**
   * The declarations to check, in source order: every declaration of `file` for a whole-file
   * run, one declaration when the incremental analysis re-checks it. Lookups (layouts, lets,
   * perms, params by name) always see the whole file through `index`.
   */
  decls: readonly ast.Decl[];
  /** whole-file lookups, built on first use and shared by every rule of one run */
  index: FileIndex;
  /** integer values of expressions at the params' values and at each tuning candidate */
  values: Values;
  /** `budget` with its default applied */
  budget: number;
  shouldStop: () => boolean;
}

/**
 * Name -> declaration maps of one file (the first declaration of a name wins, as in name
 * resolution), the layout shapes and the GenP results of one run. Each is built once, on first
 * use, so that no rule walks the whole file per declaration it checks.
 */
export class FileIndex {
  private _lets?: Map<string, ast.LetDecl>;
  private _perms?: Map<string, ast.PermDecl>;
  private _paramItems?: Map<string, ast.ParamItem>;
  private _shapes?: Shapes;
  /** GenP check results of this run by `perm(args)[dims]` (the perm is the first of its name) */
  readonly genpResults = new Map<string, GenPCheck>();

  constructor(private readonly file: ast.File, private readonly resolution: Resolution) {}

  get lets(): ReadonlyMap<string, ast.LetDecl> {
    if (!this._lets) {
      this._lets = new Map();
      for (const d of this.file.decls) if (d.kind === 'Let' && !this._lets.has(d.name.name)) this._lets.set(d.name.name, d);
    }
    return this._lets;
  }

  get perms(): ReadonlyMap<string, ast.PermDecl> {
    if (!this._perms) {
      this._perms = new Map();
      for (const d of this.file.decls) if (d.kind === 'Perm' && !this._perms.has(d.name.name)) this._perms.set(d.name.name, d);
    }
    return this._perms;
  }

  /** the first `param`/`const` item declaring `name` */
  paramItem(name: string): ast.ParamItem | undefined {
    if (!this._paramItems) {
      this._paramItems = new Map();
      for (const d of this.file.decls) {
        if (d.kind !== 'Param') continue;
        for (const it of d.items) if (!this._paramItems.has(it.name.name)) this._paramItems.set(it.name.name, it);
      }
    }
    return this._paramItems.get(name);
  }

  get shapes(): Shapes {
    this._shapes ??= new Shapes(this.file, this.resolution);
    return this._shapes;
  }
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
  /**
   * Checks `ctx.decls`. Rules other than `global` ones report, per declaration they check, the
   * same diagnostics whatever else `ctx.decls` holds (so results can be kept per declaration).
   */
  run(ctx: RuleContext): RuleRun;
  /** the result depends on the whole file (every use of every name): always run on every declaration */
  global?: boolean;
}
