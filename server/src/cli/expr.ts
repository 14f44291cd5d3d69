// `layout expr FILE QUERY [--lang c|python|triton|mlir] [--json] [--inline-lets] [--set NAME=VALUE]...`:
// prints the simplified expression of a query written in the language, e.g. "A[pid_m, k, :, :]"
// (one line) or "Pid.inv(pid)" (one line per coordinate). Names the file does not declare are
// free index symbols with the range of the dimension they index. `--json` prints
// {"expr": ..., "ops": N} (an array of them for inv; MLIR: one object with all SSA lines and the
// total count, each repeated subexpression once, as the SSA lines compute it). Errors: one line on stderr; exit 2 for usage, 1 for an error.
import type { Command } from 'commander';
import type * as ast from '../../../grammar/src/ast.js';
import { queryExpr, printExprs, type Lang, type Model } from '../check/elaborate.js';
import { queryDiagnostics } from '../check/rules/index.js';
import { Scenarios } from '../check/scenario.js';
import { countOps, countOpsShared, evaluate, printShared } from '../expr/index.js';
import { CliFailure, guarded, loadModel, type CliIo } from './load-model.js';

export interface ExprOptions {
  lang?: string;
  json?: boolean;
  inlineLets?: boolean;
  set?: string[];
  /** print repeated subexpressions once, as temporaries (`t0 = ...`) before the results */
  share?: boolean;
}

const KERNEL = '__layout_expr_query__';
const LANGS: readonly Lang[] = ['c', 'python', 'triton', 'mlir'];

/** Runs `layout expr`; returns the exit status. */
export function runExpr(file: string, query: string, opts: ExprOptions, io: CliIo): number {
  return guarded(io, () => {
    const lang = (opts.lang ?? 'python') as Lang;
    if (!LANGS.includes(lang)) throw new CliFailure(`--lang must be one of ${LANGS.join(', ')}, got '${opts.lang}'`, 2);
    if (/[\n{}]/.test(query)) throw new CliFailure('the query must be one expression on one line', 2);
    const prefix = `\nkernel ${KERNEL} target triton builtin none {\n  __q = `;
    const l = loadModel(file, opts.set, `${prefix}${query}\n}\n`);
    const start = l.text.length - query.length - 3;
    const inQuery = l.diagnostics.find((d) => d.severity === 'error' && d.range.start >= start - prefix.length);
    if (inQuery) throw new CliFailure(`in the query: ${inQuery.message.replace(/ at \d+:\d+/g, "")}`, 1);
    const binding = l.model.kernels.get(KERNEL)?.bindings[0];
    if (!binding) throw new CliFailure('the query could not be parsed', 1);
    const problem = keyProblem(l.model, binding.binding.value);
    if (problem) throw new CliFailure(problem, 1);
    const r = queryExpr(l.model, binding.binding.value, { inlineLets: opts.inlineLets === true });
    if (!r.ok) throw new CliFailure(r.message, 1);
    if (opts.share && lang !== 'mlir') {
      let s: ReturnType<typeof printShared>;
      try {
        s = printShared(r.exprs, lang);
      } catch (e) {
        throw new CliFailure(e instanceof Error ? e.message : String(e), 1);
      }
      if (opts.json) io.out(JSON.stringify({ temps: s.temps.map((t) => ({ name: t.name, expr: t.text, ops: t.ops })), exprs: s.results, ops: s.ops, unsharedOps: s.unsharedOps }) + '\n');
      else io.out([...s.temps.map((t) => `${t.name} = ${t.text}`), ...s.results].map((t) => t + '\n').join(''));
      return 0;
    }
    let texts: string[];
    try {
      texts = printExprs(r.exprs, lang);
    } catch (e) {
      throw new CliFailure(e instanceof Error ? e.message : String(e), 1);
    }
    const ops = r.exprs.map((e) => countOps(e));
    if (!opts.json) io.out(texts.map((t) => t + '\n').join(''));
    // MLIR shares SSA values across the expressions: each repeated subexpression counted once
    else if (lang === 'mlir') io.out(JSON.stringify({ expr: texts[0], ops: countOpsShared(r.exprs) }) + '\n');
    else {
      const objs = texts.map((t, k) => ({ expr: t, ops: ops[k] }));
      io.out(JSON.stringify(r.kind === 'inv' ? objs : objs[0]) + '\n');
    }
    return 0;
  });
}

/**
 * The query's arity and constant indices, slice bounds and inv argument against its layout's
 * dims at the param values (with --set applied): the query rule's first diagnostic, or undefined.
 */
function keyProblem(model: Model, node: ast.Expr): string | undefined {
  const use = model.queryUses.find((u) => u.node === node);
  if (!use) return undefined;
  // an index whose value cannot be computed exactly (beyond 2^53) is an error here, not a free name
  for (const it of use.indices) {
    for (const part of it.kind === 'Slice' ? [it.start, it.stop] : [it]) {
      const v = part && model.values.get(part);
      if (!v || v.k !== 'int') continue;
      try {
        evaluate(v.e, model.env);
      } catch (err) {
        const msg = err instanceof Error ? err.message : String(err);
        if (!/unbound symbol|arange/.test(msg)) throw new CliFailure(`in the query: ${msg}`, 1);
      }
    }
  }
  return queryDiagnostics(new Scenarios(model), use)[0]?.message;
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** Adds `expr` to the CLI. */
export function registerExpr(program: Command): void {
  program
    .command('expr')
    .description('print the simplified index expression of a query, e.g. "A[pid_m, k, :, :]" or "Pid.inv(pid)"')
    .argument('<file>', 'the .layout file')
    .argument('<query>', 'a query in the language')
    .option('--lang <lang>', 'c, python, triton or mlir', 'python')
    .option('--json', 'print {"expr": ..., "ops": N} (an array for inv)')
    .option('--inline-lets', 'replace lets by their definitions')
    .option('--share', 'compute repeated subexpressions once: temporaries (t0 = ...) before the results; --json: {temps, exprs, ops, unsharedOps}')
    .option('--set <name=value>', 'override a param (repeatable)', collect)
    .action((file: string, query: string, opts: ExprOptions) => {
      process.exitCode = runExpr(file, query, opts, {
        out: (text) => process.stdout.write(text),
        err: (line) => process.stderr.write(line + '\n'),
      });
    });
}
