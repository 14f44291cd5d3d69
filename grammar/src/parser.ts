// The concrete-syntax grammar (Chevrotain, CST output). Pure grammar: no actions; `lower.ts`
// turns the CST into the AST of `ast.ts`. Operator precedence is NOT encoded here: an expression
// is a flat `operand (op operand)*` list that `lower.ts` folds by precedence, which keeps the CST
// shallow (fast) and lets the lowering report chained comparisons in plain words.
//
// The grammar has several entry rules because `parse.ts` splits a file into declarations (and
// kernel/schedule blocks into statements) before parsing; see there for why.
import { CstParser, EOF, type CstNode, type IOrAlt, type IParserErrorMessageProvider, type IToken, type TokenType } from 'chevrotain';
import type { FastRule } from './fast-parse.js';
import * as t from './tokens.js';

/**
 * Chevrotain builds error messages through this provider. We encode what went wrong as JSON
 * and `parse.ts` renders the final, positioned message (it knows the tokens around the error).
 */
export interface EncodedError {
  kind: 'mismatch' | 'noAlt' | 'earlyExit' | 'notAll';
  /** token type name for `mismatch`; a description for the others */
  expected: string;
  rule: string;
}

const encoder: IParserErrorMessageProvider = {
  buildMismatchTokenMessage({ expected, ruleName }) {
    return JSON.stringify({ kind: 'mismatch', expected: expected.name, rule: ruleName } satisfies EncodedError);
  },
  buildNotAllInputParsedMessage({ ruleName }) {
    return JSON.stringify({ kind: 'notAll', expected: '', rule: ruleName } satisfies EncodedError);
  },
  buildNoViableAltMessage({ expectedPathsPerAlt, customUserDescription, ruleName }) {
    const expected = customUserDescription ?? describePaths(expectedPathsPerAlt.flat());
    return JSON.stringify({ kind: 'noAlt', expected, rule: ruleName } satisfies EncodedError);
  },
  buildEarlyExitMessage({ expectedIterationPaths, customUserDescription, ruleName }) {
    const expected = customUserDescription ?? describePaths(expectedIterationPaths);
    return JSON.stringify({ kind: 'earlyExit', expected, rule: ruleName } satisfies EncodedError);
  },
};

function describePaths(paths: TokenType[][]): string {
  const labels = [...new Set(paths.map((p) => t.tokenLabels[p[0]?.name ?? 'EOF'] ?? p[0].name))];
  if (labels.length <= 1) return labels[0] ?? 'more input';
  return labels.slice(0, -1).join(', ') + ' or ' + labels[labels.length - 1];
}

const EXPR = 'an expression';
const ATOM = { LABEL: 'atom' };

export class LayoutParser extends CstParser {
  constructor() {
    super(t.allTokens, {
      recoveryEnabled: true,
      nodeLocationTracking: 'onlyOffset',
      maxLookahead: 2,
      errorMessageProvider: encoder,
    });
    this.performSelfAnalysis();
  }

  // ---------------------------------------------------------------- declarations

  /** `param`/`const`, `let`, `layout` or `perm` (kernels and schedules: see kernelHeader, scheduleHeader) */
  // OR alternatives are built once (perf: no closures per call) and kept in these fields
  private altDecl?: IOrAlt<unknown>[];
  private altParamKw?: IOrAlt<unknown>[];
  private altTemplate?: IOrAlt<unknown>[];
  private altSuffix?: IOrAlt<unknown>[];
  private altIndex?: IOrAlt<unknown>[];
  private altPrimary?: IOrAlt<unknown>[];

  public declaration = this.RULE('declaration', () => {
    this.OR((this.altDecl ??= [
      { ALT: () => this.SUBRULE(this.paramDecl) },
      { ALT: () => this.SUBRULE(this.letDecl) },
      { ALT: () => this.SUBRULE(this.layoutDecl) },
      { ALT: () => this.SUBRULE(this.permDecl) },
      { ALT: () => this.SUBRULE(this.assumeDecl) },
      { ALT: () => this.SUBRULE(this.linearDecl) },
    ]));
  });

  /** `linear NAME = CTOR(key=value, ...)` */
  private linearDecl = this.RULE('linearDecl', () => {
    this.CONSUME(t.Linear);
    this.CONSUME(t.Ident, { LABEL: 'name' });
    this.CONSUME(t.Eq);
    this.CONSUME2(t.Ident, { LABEL: 'ctor' });
    this.CONSUME(t.LParen);
    this.OPTION(() => {
      this.SUBRULE(this.linearArg);
      this.MANY(() => {
        this.CONSUME(t.Comma);
        this.SUBRULE2(this.linearArg);
      });
    });
    this.CONSUME(t.RParen);
  });

  private linearArg = this.RULE('linearArg', () => {
    this.CONSUME(t.Ident);
    this.CONSUME(t.Eq);
    this.SUBRULE(this.expression);
  });

  /** `assume FACT, FACT, ...` */
  private assumeDecl = this.RULE('assumeDecl', () => {
    this.CONSUME(t.Assume);
    this.SUBRULE(this.factList);
  });

  /** `where FACT, FACT, ...` after a layout's value or a kernel's header */
  private whereClause = this.RULE('whereClause', () => {
    this.CONSUME(t.Where);
    this.SUBRULE(this.factList);
  });

  private factList = this.RULE('factList', () => {
    this.SUBRULE(this.expression);
    this.MANY(() => {
      this.CONSUME(t.Comma);
      this.SUBRULE2(this.expression);
    });
  });

  private paramDecl = this.RULE('paramDecl', () => {
    this.OR((this.altParamKw ??= [
      { ALT: () => this.CONSUME(t.Param) },
      { ALT: () => this.CONSUME(t.Const) },
    ]));
    this.SUBRULE(this.paramItem);
    this.MANY(() => {
      this.CONSUME(t.Comma);
      this.SUBRULE2(this.paramItem);
    });
  });

  private paramItem = this.RULE('paramItem', () => {
    this.CONSUME(t.Ident);
    this.CONSUME(t.Eq);
    this.SUBRULE(this.expression);
    this.OPTION(() => {
      this.CONSUME(t.In);
      this.SUBRULE(this.list);
    });
  });

  private letDecl = this.RULE('letDecl', () => {
    this.CONSUME(t.Let);
    this.CONSUME(t.Ident);
    this.CONSUME(t.Eq);
    this.SUBRULE(this.expression);
  });

  private layoutDecl = this.RULE('layoutDecl', () => {
    this.CONSUME(t.LayoutKw);
    this.CONSUME(t.Ident);
    this.CONSUME(t.Eq);
    this.SUBRULE(this.expression);
    this.OPTION(() => this.SUBRULE(this.whereClause));
  });

  private permDecl = this.RULE('permDecl', () => {
    this.CONSUME(t.Perm);
    this.CONSUME(t.Ident, { LABEL: 'name' });
    this.CONSUME(t.LParen);
    this.OPTION(() => {
      this.CONSUME2(t.Ident, { LABEL: 'params' });
      this.MANY(() => {
        this.CONSUME(t.Comma);
        this.CONSUME3(t.Ident, { LABEL: 'params' });
      });
    });
    this.CONSUME(t.RParen);
    this.CONSUME(t.LBracket);
    this.AT_LEAST_ONE_SEP({
      SEP: t.Comma,
      DEF: () => this.CONSUME4(t.Ident, { LABEL: 'indices' }),
      ERR_MSG: 'an index name',
    });
    this.CONSUME(t.RBracket);
    this.CONSUME(t.Eq);
    this.SUBRULE(this.expression);
    this.OPTION2(() => this.SUBRULE(this.permInverse));
  });

  private permInverse = this.RULE('permInverse', () => {
    this.CONSUME(t.Inverse);
    this.CONSUME(t.LParen);
    this.CONSUME(t.Ident);
    this.CONSUME(t.RParen);
    this.CONSUME(t.Eq);
    this.SUBRULE(this.list);
  });

  /** `kernel NAME target TARGET (template "path" | builtin NAME)`; the `{ ... }` block is split off by parse.ts */
  public kernelHeader = this.RULE('kernelHeader', () => {
    this.CONSUME(t.Kernel);
    this.CONSUME(t.Ident, { LABEL: 'name' });
    this.CONSUME(t.Target);
    this.CONSUME2(t.Ident, { LABEL: 'target' });
    this.OR({
      DEF: (this.altTemplate ??= [
        {
          ALT: () => {
            this.CONSUME(t.Template);
            this.CONSUME(t.StringLike);
          },
        },
        {
          ALT: () => {
            this.CONSUME(t.Builtin);
            this.CONSUME3(t.Ident, { LABEL: 'builtin' });
          },
        },
      ]),
      ERR_MSG: `'template "PATH"' or 'builtin NAME'`,
    });
    this.OPTION(() => this.SUBRULE(this.whereClause));
  });

  /** `schedule NAME for OP.NAME(ARGS) [: T x T -> T] [on GPU]`; the block is split off by parse.ts */
  public scheduleHeader = this.RULE('scheduleHeader', () => {
    this.CONSUME(t.Schedule);
    this.CONSUME(t.Ident, { LABEL: 'name' });
    this.CONSUME(t.For);
    this.CONSUME2(t.Ident, { LABEL: 'op' });
    this.MANY(() => {
      this.CONSUME(t.Dot);
      this.CONSUME(t.AnyName, { LABEL: 'op' });
    });
    this.SUBRULE(this.args);
    // element types: `: f16 x f16 -> f32` (inputs, then the output/accumulator)
    this.OPTION2(() => {
      this.CONSUME(t.Colon);
      this.CONSUME4(t.Ident, { LABEL: 'elt' });
      this.MANY2(() => {
        this.CONSUME5(t.Ident, { LABEL: 'times' });
        this.CONSUME6(t.Ident, { LABEL: 'elt' });
      });
      this.CONSUME(t.Minus, { LABEL: 'arrow' });
      this.CONSUME(t.Gt, { LABEL: 'arrow' });
      this.CONSUME7(t.Ident, { LABEL: 'acc' });
    });
    this.OPTION(() => {
      this.CONSUME(t.On);
      this.CONSUME3(t.Ident, { LABEL: 'gpu' });
    });
  });

  /** kernel statement: `a, b = EXPR` */
  public binding = this.RULE('binding', () => {
    this.CONSUME(t.Ident);
    this.MANY(() => {
      this.CONSUME(t.Comma);
      this.CONSUME2(t.Ident);
    });
    this.CONSUME(t.Eq);
    this.SUBRULE(this.expression);
  });

  /** schedule statement: `[h =] primitive(args)` */
  public step = this.RULE('step', () => {
    this.OPTION(() => {
      this.CONSUME(t.Ident, { LABEL: 'result' });
      this.CONSUME(t.Eq);
    });
    this.CONSUME2(t.Ident, { LABEL: 'primitive' });
    this.SUBRULE(this.args);
  });

  // ---------------------------------------------------------------- expressions

  /**
   * A flat `operand (op operand)*`; precedence is applied by lower.ts. The first operand's parts
   * are inlined (they are this node's own children): most expressions are a single operand, and
   * one rule invocation less per expression is a measurable share of the parse time.
   */
  public expression = this.RULE('expression', () => {
    this.operandParts();
    this.MANY3(() => {
      this.CONSUME(t.BinaryOp);
      this.SUBRULE2(this.operand);
    });
  });

  /** prefix operators, a primary, then `.method(args)` and `[indices]` suffixes */
  private operand = this.RULE('operand', () => this.operandParts());

  /** the body of an operand, shared by `operand` and (for the first operand) `expression` */
  private operandParts(): void {
    this.MANY(() => this.CONSUME(t.PrefixOp));
    // the primary, inlined (one rule invocation less per leaf)
    this.OR({
      DEF: (this.altPrimary ??= [
        // every primary is labelled `atom`, so the lowering finds it with one property read
        { ALT: () => this.CONSUME(t.Int, ATOM) },
        { ALT: () => this.CONSUME(t.StringLike, ATOM) },
        {
          ALT: () => {
            this.CONSUME(t.Ident, ATOM);
            this.OPTION(() => this.SUBRULE(this.args));
          },
        },
        { ALT: () => this.SUBRULE(this.parens, ATOM) },
        { ALT: () => this.SUBRULE(this.list, ATOM) },
        { ALT: () => this.SUBRULE(this.ifExpr, ATOM) },
      ]),
      ERR_MSG: EXPR,
    });
    this.MANY2(() => this.SUBRULE(this.suffix));
  }

  private suffix = this.RULE('suffix', () => {
    this.OR((this.altSuffix ??= [
      {
        ALT: () => {
          this.CONSUME(t.Dot);
          this.CONSUME(t.Ident);
          this.SUBRULE(this.args);
        },
      },
      {
        ALT: () => {
          this.CONSUME(t.LBracket);
          this.SUBRULE(this.indexItem);
          this.MANY(() => {
            this.CONSUME(t.Comma);
            this.SUBRULE2(this.indexItem);
          });
          this.OPTION(() => this.CONSUME2(t.Comma));
          this.CONSUME(t.RBracket);
        },
      },
    ]));
  });

  private indexItem = this.RULE('indexItem', () => {
    this.OR({
      DEF: (this.altIndex ??= [
        {
          ALT: () => {
            this.CONSUME(t.Colon);
            this.OPTION(() => this.SUBRULE(this.expression, { LABEL: 'stop' }));
            this.OPTION4(() => {
              this.CONSUME3(t.Colon, { LABEL: 'stepColon' });
              this.SUBRULE4(this.expression, { LABEL: 'step' });
            });
          },
        },
        {
          ALT: () => {
            this.SUBRULE2(this.expression, { LABEL: 'start' });
            this.OPTION2(() => {
              this.CONSUME2(t.Colon);
              this.OPTION3(() => this.SUBRULE3(this.expression, { LABEL: 'stop' }));
              this.OPTION5(() => {
                this.CONSUME4(t.Colon, { LABEL: 'stepColon' });
                this.SUBRULE5(this.expression, { LABEL: 'step' });
              });
            });
          },
        },
      ]),
      ERR_MSG: `an index or a slice`,
    });
  });

  /** `(e)` (just e), a tuple `(a, b)`, `(a,)`, or a range `(a:b)`, `(a:b:s)` */
  private parens = this.RULE('parens', () => {
    this.CONSUME(t.LParen);
    this.SUBRULE(this.expression);
    // `(a:b)`, `(a:b:s)`: a range (LEGO's index arithmetic with ranges)
    this.OPTION3(() => {
      this.CONSUME(t.Colon);
      this.SUBRULE3(this.expression, { LABEL: 'rangeStop' });
      this.OPTION4(() => {
        this.CONSUME2(t.Colon);
        this.SUBRULE4(this.expression, { LABEL: 'rangeStep' });
      });
    });
    this.MANY(() => {
      this.CONSUME(t.Comma);
      this.SUBRULE2(this.expression);
    });
    this.OPTION(() => this.CONSUME2(t.Comma));
    this.CONSUME(t.RParen);
  });

  public list = this.RULE('list', () => {
    this.CONSUME(t.LBracket);
    this.OPTION(() => {
      this.SUBRULE(this.expression);
      this.MANY(() => {
        this.CONSUME(t.Comma);
        this.SUBRULE2(this.expression);
      });
      this.OPTION2(() => this.CONSUME2(t.Comma));
    });
    this.CONSUME(t.RBracket);
  });

  /** `(a, b)`: comma-separated expressions, possibly none, with an optional trailing comma (as `list`) */
  public args = this.RULE('args', () => {
    this.CONSUME(t.LParen);
    this.OPTION(() => {
      this.SUBRULE(this.expression);
      this.MANY(() => {
        this.CONSUME(t.Comma);
        this.SUBRULE2(this.expression);
      });
      this.OPTION2(() => this.CONSUME2(t.Comma));
    });
    this.CONSUME(t.RParen);
  });

  private ifExpr = this.RULE('ifExpr', () => {
    this.CONSUME(t.If);
    this.SUBRULE(this.expression, { LABEL: 'cond' });
    this.CONSUME(t.Then);
    this.SUBRULE2(this.expression, { LABEL: 'then' });
    this.CONSUME(t.Else);
    this.SUBRULE3(this.expression, { LABEL: 'else' });
  });
}

let instance: LayoutParser | undefined;
/** The one parser instance (building it runs Chevrotain's grammar analysis and validations). */
export function theParser(): LayoutParser {
  instance ??= new LayoutParser();
  return instance;
}

/** the rules a piece is parsed with (parse.ts) */
export type EntryRule = FastRule;

export interface RuleResult {
  cst: CstNode;
  errors: { name: string; message: string; token: IToken }[];
}

/** pieces parsed so far by the fast path (fast-parse.ts) and by Chevrotain (tests, benchmarks) */
export const parseCounts = { fast: 0, chevrotain: 0 };

let fastPath = true;
/** whether parse.ts tries the fast path (fast-parse.ts) before Chevrotain */
export function fastPathOn(): boolean {
  return fastPath;
}
/** Runs `f` with every piece parsed by Chevrotain and lowered by lower.ts (tests: the fast path must give the same). */
export function withoutFastPath<T>(f: () => T): T {
  const was = fastPath;
  fastPath = false;
  try {
    return f();
  } finally {
    fastPath = was;
  }
}

/** Parses `tokens` with one entry rule by Chevrotain's parser (its error recovery and messages). May throw on an internal failure; parse.ts catches. */
export function chevrotainParse(rule: EntryRule, tokens: IToken[]): RuleResult {
  const p = theParser();
  p.input = tokens;
  const cst = p[rule]() as CstNode;
  return { cst, errors: p.errors.map((e) => ({ name: e.name, message: e.message, token: e.token })) };
}

export { EOF };
