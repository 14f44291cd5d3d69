// `buildEmitModel`: a .layout text analysed for code generation (parse, resolve, param values,
// binding evaluation, printers). Pure: no file access.
import { parse, resolve } from '../../../grammar/src/index.js';
import { Values } from '../check/rules/values.js';
import { printC, printTriton, type Expr } from '../expr/index.js';
import { Binder } from './bind.js';
import { findBuiltin } from './builtins.js';
import type { EmitModel } from './index.js';

export interface BuildModelOptions {
  /** how generated headers name the source (default: `path`) */
  sourceLabel?: string;
}

export function buildEmitModel(text: string, path: string, opts: BuildModelOptions = {}): EmitModel {
  const parsed = parse(text);
  const resolution = resolve(parsed.file, parsed.lines);
  const paramValues = new Map<string, bigint>();
  try {
    const values = new Values(parsed.file, resolution, text);
    for (const [k, v] of values.base.params) paramValues.set(k, v);
  } catch {
    // no values: param_NAME placeholders are then missing, and reported as such
  }
  const binder = new Binder({ file: parsed.file, resolution, paramValues });
  return {
    path,
    sourceLabel: opts.sourceLabel ?? path,
    text,
    file: parsed.file,
    paramValues,
    evaluate(kernel, binding) {
      const b = kernel.template?.kind === 'builtin' ? findBuiltin(kernel.template.name.name) : undefined;
      return binder.evaluate(binding, b?.scope ?? []);
    },
    print(e: Expr, target: 'cuda' | 'triton'): string {
      return target === 'cuda' ? printC(e) : printTriton(e);
    },
  };
}
