// `buildEmitModel`: a .layout text analysed for code generation: parse, resolve, elaborate
// (server/src/check/elaborate.ts), then per binding the elaborated query's simplified
// expression(s) and the target's printer. Pure: no file access. Never throws.
//
// Names in generated text: `param`s stay symbols, `const`s are folded, free index names and
// earlier binding names are symbols. `let`s are inlined, except in a built-in where the template's
// code defines the let itself (`num_pid_m` in the matmul), which then stays by name as in LEGO.
import { parse, resolve } from '../../../grammar/src/index.js';
import type * as ast from '../../../grammar/src/ast.js';
import type { Diagnostic } from '../../../grammar/src/diagnostic.js';
import { elaborate, queryExpr, inline, type Model } from '../check/elaborate.js';
import { freeSymbols, printC, printTriton, substitute, sym, type Expr } from '../expr/index.js';
import { findBuiltin } from './builtins.js';
import type { BindingValue } from './emit-kernel.js';
import type { EmitModel } from './index.js';
import { magnitude, maxEnv, queryBounds } from './ranges.js';

export interface BuildModelOptions {
  /** how generated headers name the source (default: `path`) */
  sourceLabel?: string;
}

export function buildEmitModel(text: string, path: string, opts: BuildModelOptions = {}): EmitModel {
  const parsed = parse(text);
  const resolution = resolve(parsed.file, parsed.lines);
  let model: Model | undefined;
  let elabDiagnostics: Diagnostic[] = [];
  try {
    const e = elaborate(parsed.file, resolution);
    model = e.model;
    elabDiagnostics = e.diagnostics;
  } catch {
    model = undefined;
  }
  return { path, sourceLabel: opts.sourceLabel ?? path, text, file: parsed.file, ...bindingEvaluator(model, elabDiagnostics) };
}

/**
 * How a kernel's bindings are evaluated from an elaborated model: `evaluate`, `print` and the params'
 * values. `elabDiagnostics`: the elaborator's (an error inside a binding is that binding's answer).
 * `model` may hold only what the kernels depend on (the incremental analysis elaborates no more).
 */
export function bindingEvaluator(model: Model | undefined, elabDiagnostics: readonly Diagnostic[]): Pick<EmitModel, 'evaluate' | 'print' | 'paramValues'> {
  const paramValues = new Map<string, bigint>();
  for (const [name, p] of model?.params ?? []) if (p.value !== undefined) paramValues.set(name, p.value);
  let env: Map<string, bigint> | undefined;
  /** the let definitions inlined, per built-in (a built-in's code defines some lets itself) */
  const defsFor = new Map<string | undefined, Map<string, Expr>>();
  return {
    paramValues,
    evaluate(kernel: ast.KernelDecl, binding: ast.Binding): BindingValue {
      const where = binding.value.range;
      const inside = elabDiagnostics.filter((d) => d.severity === 'error' && d.range.start >= where.start && d.range.end <= where.end);
      if (inside.length) return { ok: false, diagnostics: inside };
      if (!model) return { ok: false, diagnostics: [cannot(where, 'the file could not be elaborated')] };
      const r = queryExpr(model, binding.value);
      if (!r.ok) return { ok: false, diagnostics: [cannot(where, r.message)] };
      const b = kernel.template?.kind === 'builtin' ? findBuiltin(kernel.template.name.name) : undefined;
      let defs = defsFor.get(b?.name);
      if (!defs) {
        const keep = new Set(b?.scope ?? []);
        defs = new Map([...model.defs].filter(([name]) => !keep.has(name)));
        defsFor.set(b?.name, defs);
      }
      const exprs = r.exprs.map((e) => inline(e, defs));
      // known ranges: the largest intermediate of each expression (ranges.ts)
      let magnitudes: (bigint | undefined)[];
      try {
        // (the params' largest values: made once, not per binding, for a model of a whole file)
        const max = (env ??= maxEnv(model));
        const bounds = queryBounds(model, model.queries.get(binding.value), max);
        magnitudes = exprs.map((e) => magnitude(e, bounds, max));
      } catch {
        magnitudes = exprs.map(() => undefined);
      }
      return { ok: true, exprs, magnitudes };
    },
    print(e: Expr, target: 'cuda' | 'triton', opts?: { wide?: boolean }): string {
      if (target === 'cuda') return opts?.wide ? printC64(e) : printC(e);
      return printTriton(e);
    },
  };
}

/**
 * C with every operation in 64 bits: each symbol is read as `(long long)NAME`, so that every sum and
 * product it takes part in is computed in `long long` (constants are promoted by C's usual conversions).
 */
export function printC64(e: Expr): string {
  const syms = [...freeSymbols(e)];
  if (syms.length === 0) return printC(e);
  const taken = new Set(syms);
  let prefix = 'LAYOUT_I64_';
  while (syms.some((s) => s.startsWith(prefix))) prefix = '_' + prefix;
  const marked = substitute(e, new Map(syms.map((s) => [s, sym(prefix + s)])), { keepNonneg: true });
  void taken;
  const re = new RegExp(`\\b${prefix}([A-Za-z0-9_]+)`, 'g');
  return printC(marked).replace(re, (_m, name: string) => `((long long)${name})`);
}

function cannot(range: ast.Range, why: string): Diagnostic {
  return { code: 'kernel/cannot-evaluate', severity: 'error', message: `cannot generate code for this binding: ${why}`, range };
}
