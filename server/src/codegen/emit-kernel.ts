// Emitting one `kernel` block: find its template, check it against the bindings, evaluate the
// bindings to expressions, print them for the target and render. Pure: template files are read
// through the caller's `readTemplate`, nothing is written.
import * as nodePath from 'node:path';
import type { Binding, File, KernelDecl, ParamDecl, Range } from '../../../grammar/src/ast.js';
import type { Diagnostic, Fix } from '../../../grammar/src/diagnostic.js';
import {
  PARAM_PREFIX,
  checkKernel,
  rangeInCudaMessage,
  templateRange,
  type KernelTarget,
  type TemplateLookup,
} from '../check/kernel.js';
import { freeSymbols, hasArange, withInterrupt, type Expr } from '../expr/index.js';
import { builtinSource, findBuiltin, builtinKernels, type BuiltinKernel } from './builtins.js';
import { renderTemplate, scanTemplate, type ScannedTemplate } from './template.js';
import { planShared, type SharedBinding } from './shared-lines.js';
import { INT32_MAX } from './ranges.js';

/** What emitting needs to know about a binding's value. */
export type BindingValue =
  /** `magnitudes`: per expression, the largest intermediate value it computes (codegen/ranges.ts); undefined: unknown */
  | { ok: true; exprs: Expr[]; magnitudes?: (bigint | undefined)[] }
  | { ok: false; diagnostics: Diagnostic[] };

/** What a kernel needs from the analysed file. */
export interface KernelContext {
  /** the .layout file's path (absolute, or relative to the working directory) */
  path: string;
  /** how headers name the source: a workspace-relative path, say */
  sourceLabel: string;
  text: string;
  /** evaluates a binding's value (an AST query such as `A[pid_m, k, :, :]`) to one Expr per bound name */
  evaluate(kernel: KernelDecl, binding: Binding): BindingValue;
  /** the concrete value of every param and const, by name */
  paramValues: ReadonlyMap<string, bigint>;
  /** prints an expression for a target; `wide`: CUDA arithmetic in 64 bits (`long long`) */
  print(expr: Expr, target: 'cuda' | 'triton', opts?: { wide?: boolean }): string;
  /** the parsed file (quick fixes look up the params' declarations in it) */
  file?: File;
}

export interface TemplateAccess {
  /**
   * reads a template file (absolute path): its text; undefined when it does not exist; or why it
   * cannot be read (`{ unreadable: 'is a FIFO, not a plain file' }`)
   */
  readTemplate?: (absPath: string) => string | undefined | { unreadable: string };
  /**
   * the folder template files must stay inside: the workspace root in the editor. Default: the
   * .layout file's own folder.
   */
  templateRoot?: string;
}

export interface EmittedFile {
  /** path relative to the output folder, `/`-separated */
  relPath: string;
  content: string;
}

const EXT: Record<KernelTarget, string> = { triton: '.py', cuda: '.cu', mlir: '.mlir' };

/** `template "p"` resolved against the .layout file, and whether it stays inside `root`. */
export function resolveTemplatePath(layoutPath: string, templatePath: string, root?: string): { absPath: string; inside: boolean } {
  const dir = nodePath.dirname(nodePath.resolve(layoutPath));
  const absPath = nodePath.resolve(dir, templatePath);
  const r = nodePath.resolve(root ?? dir);
  const rel = nodePath.relative(r, absPath);
  const inside = templatePath.length > 0 && !templatePath.includes('\0') && rel !== '' && !rel.startsWith('..') && !nodePath.isAbsolute(rel);
  return { absPath, inside };
}

interface Found {
  lookup: TemplateLookup;
  template?: ScannedTemplate;
  builtin?: BuiltinKernel;
  /** extension of the emitted file */
  ext?: string;
}

/** Finds and scans the template of a kernel. */
export function findTemplate(decl: KernelDecl, ctx: Pick<KernelContext, 'path'>, access: TemplateAccess): Found {
  const t = decl.template;
  if (!t) return { lookup: { kind: 'none' } };
  if (t.kind === 'builtin') {
    const b = findBuiltin(t.name.name);
    if (!b) {
      const names = builtinKernels().map((x) => x.name);
      return {
        lookup: {
          kind: 'error',
          code: 'kernel/unknown-builtin',
          message: `there is no built-in kernel \`${t.name.name}\`; the built-ins are ${names.join(', ')}`,
        },
      };
    }
    const template = scanTemplate(builtinSource(b));
    return { lookup: { kind: 'found', info: template, label: `builtin ${b.name}`, target: b.target }, template, builtin: b, ext: b.ext };
  }
  const p = t.path.value;
  const label = `template ${JSON.stringify(p)}`;
  const { absPath, inside } = resolveTemplatePath(ctx.path, p, access.templateRoot);
  if (!inside) {
    return {
      lookup: {
        kind: 'error',
        code: 'kernel/template-outside-workspace',
        message: `${label} resolves to ${absPath}, outside ${access.templateRoot ? 'the workspace' : "the .layout file's folder"}; templates must stay inside it`,
      },
    };
  }
  let text: string | undefined | { unreadable: string };
  try {
    text = access.readTemplate?.(absPath);
  } catch {
    text = undefined;
  }
  if (typeof text === 'object') {
    return { lookup: { kind: 'error', code: 'kernel/template-unreadable', message: `${label} (${absPath}) ${text.unreadable}` } };
  }
  if (text === undefined) {
    return {
      lookup: {
        kind: 'error',
        code: access.readTemplate ? 'kernel/template-not-found' : 'kernel/template-unreadable',
        message: access.readTemplate ? `${label} not found (looked for ${absPath})` : `${label} cannot be read here`,
      },
    };
  }
  const template = scanTemplate(text);
  const base = nodePath.basename(p).replace(/\.tmpl$/, '');
  const ext = nodePath.extname(base);
  return { lookup: { kind: 'found', info: template, label }, template, ext: ext || undefined };
}

/**
 * The placeholder names of a kernel's template, and how messages name the template; undefined when it
 * cannot be found or read.
 */
export function templatePlaceholders(decl: KernelDecl, path: string, access: TemplateAccess): { names: ReadonlySet<string>; label: string } | undefined {
  const { lookup } = findTemplate(decl, { path }, access);
  return lookup.kind === 'found' ? { names: new Set(lookup.info.placeholders.map((p) => p.name)), label: lookup.label } : undefined;
}

/** The implicit placeholders available to every template. */
export function implicitNames(ctx: Pick<KernelContext, 'paramValues'>): Set<string> {
  const s = new Set(['kernel_name']);
  for (const name of ctx.paramValues.keys()) s.add(PARAM_PREFIX + name);
  return s;
}

/**
 * Diagnostics of one kernel block (template vs bindings); evaluates nothing. `implicit` is
 * `implicitNames(ctx)`, given by a caller that checks several kernels of one file (built once).
 */
export function kernelTemplateDiagnostics(decl: KernelDecl, ctx: Pick<KernelContext, 'path' | 'paramValues' | 'text'>, access: TemplateAccess, implicit?: ReadonlySet<string>): Diagnostic[] {
  return kernelTemplateCheck(decl, ctx, access, implicit).diagnostics;
}

/** The comment that starts every emitted file. */
export function headerComment(target: KernelTarget, lines: string[]): string {
  const lead = target === 'triton' ? '# ' : '// ';
  return lines.map((l) => (lead + l).trimEnd()).join('\n') + '\n';
}

export interface KernelEmit {
  files: EmittedFile[];
  diagnostics: Diagnostic[];
  /** those of `diagnostics` that evaluating the bindings gave (`evaluateKernel`): a front end shows them once nothing else blocks the block (gate.ts `withEmission`) */
  evaluation?: Diagnostic[];
}

/**
 * What evaluating a kernel's bindings found: the diagnostics only emission can give (a binding that
 * cannot be evaluated, a built-in's constraints on its values, index width, param values beyond
 * CUDA's `int`), and the printed values for the template.
 */
export interface KernelEvaluation {
  diagnostics: Diagnostic[];
  /** placeholder -> printed value (the bindings the template uses, `kernel_name`; `emitKernel` adds the params' `param_NAME`s) */
  values: Record<string, string>;
  /** bindings whose repeated subexpressions may become shared temporaries (shared-lines.ts) */
  sharable: SharedBinding[];
  /** the params whose values the diagnostics depend on beyond the bindings' own expressions (`{{ param_NAME }}`), with their values */
  paramsRead: Map<string, bigint | undefined>;
}

/**
 * Evaluates and prints every binding a kernel's template uses (the kernel's template checks passed):
 * the one evaluation that `emitKernel` renders and that the checks (`kernelEmitDiagnostics`) report
 * from, so that a file the checks pass is one emission accepts. `shouldStop` (the editor's analysis
 * worker) is polled before each binding: undefined when it said stop.
 */
export function evaluateKernel(decl: KernelDecl, evaluable: Evaluable, ctx: EvaluationContext): KernelEvaluation;
export function evaluateKernel(decl: KernelDecl, evaluable: Evaluable, ctx: EvaluationContext, shouldStop?: () => boolean): KernelEvaluation | undefined;
export function evaluateKernel(decl: KernelDecl, evaluable: Evaluable, ctx: EvaluationContext, shouldStop?: () => boolean): KernelEvaluation | undefined {
  const steps = evaluateKernelSteps(decl, evaluable, ctx, shouldStop);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * `evaluateKernel` a binding at a time: it yields after each binding it evaluated, so that the
 * editor's analysis, which runs between requests, can let one be answered (the bindings of a kernel
 * are its slow part: 4-5 ms for the bench file's matmul, more the first time).
 */
export function* evaluateKernelSteps(decl: KernelDecl, { template, builtin, target }: Evaluable, ctx: EvaluationContext, shouldStop?: () => boolean): Generator<void, KernelEvaluation | undefined, void> {
  const diagnostics: Diagnostic[] = [];
  const used = new Set(template.placeholders.map((p) => p.name));
  const values: Record<string, string> = Object.create(null) as Record<string, string>;
  values.kernel_name = decl.name.name;
  const b = builtin;
  const sharable: SharedBinding[] = [];
  const usedParams = new Set<string>();
  let first = true;
  for (const binding of decl.bindings) {
    if (!binding.names.some((n) => used.has(n.name))) continue;
    if (!first) yield;
    first = false;
    if (shouldStop?.()) return undefined;
    let v: BindingValue;
    try {
      // (stopped midway, the binding fails as an over-budget one does: thrown away below)
      v = withInterrupt(shouldStop, () => ctx.evaluate(decl, binding));
    } catch (e) {
      v = { ok: false, diagnostics: [internalError(binding.value.range, e)] };
    }
    if (shouldStop?.()) return undefined;
    if (!v.ok) {
      diagnostics.push(...v.diagnostics);
      continue;
    }
    if (v.exprs.length !== binding.names.length) {
      diagnostics.push({
        code: 'kernel/binding-arity',
        severity: 'error',
        message: `${binding.names.length} name${binding.names.length === 1 ? '' : 's'} bound to ${v.exprs.length} value${v.exprs.length === 1 ? '' : 's'}`,
        range: binding.value.range,
      });
      continue;
    }
    // CUDA values that may leave `int` are printed in 64 bits below, so they keep their own line: the shared
    // temporaries (`const auto`) would take the type of 32-bit operands
    const wideInCuda = target === 'cuda' && v.exprs.some((_, i) => { const m = v.magnitudes?.[i]; return m === undefined || m > INT32_MAX; });
    if (!wideInCuda && binding.names.every((n) => !b || !builtinProblem(b, n.name, v.exprs[binding.names.indexOf(n)]))) {
      sharable.push({ names: binding.names.map((n) => n.name), exprs: v.exprs });
    }
    binding.names.forEach((n, i) => {
      const e = v.exprs[i];
      if (b) {
        const problem = builtinProblem(b, n.name, e);
        if (problem) {
          const fix = problem.code === 'kernel/not-constant' && ctx.file ? constFix(ctx.file, [...freeSymbols(e)]) : undefined;
          diagnostics.push({ code: problem.code, severity: 'error', message: problem.message, range: binding.value.range, ...(fix ? { fixes: [fix] } : {}) });
          return;
        }
      }
      // index width (docs/codegen.md, "Index width"): CUDA computes in 64 bits where a value can leave
      // `int`; Triton's program ids and tl.arange are int32, so there it is an error at the binding.
      const mag = v.magnitudes?.[i];
      const wide = mag === undefined || mag > INT32_MAX;
      if (target === 'triton' && mag !== undefined && mag > INT32_MAX) {
        diagnostics.push({
          code: 'emit/index-overflow',
          severity: 'error',
          message: `\`${n.name}\` computes values up to ${mag} (${bitsOf(mag)}), beyond Triton's 32-bit program ids and tl.arange (2^31 - 1 = ${INT32_MAX}): it would wrap around; use smaller sizes or split the tensor`,
          range: binding.value.range,
        });
        return;
      }
      // a slice or range the syntax does not show (checkKernel reports those it does)
      if (target === 'cuda' && hasArange(e)) {
        diagnostics.push({
          code: 'kernel/range-in-cuda',
          severity: 'error',
          message: rangeInCudaMessage([n.name]),
          range: binding.value.range,
        });
        return;
      }
      try {
        values[n.name] = ctx.print(e, target, { wide: target === 'cuda' && wide });
        if (target === 'cuda') for (const s of freeSymbols(e)) usedParams.add(s);
      } catch (err) {
        diagnostics.push(internalError(binding.value.range, err));
      }
    });
  }
  // CUDA code holds params in 32-bit `int` (the built-ins' kernel arguments and host code): a value beyond
  // it cannot be emitted (`const int n = 8589934592` would not compile or would wrap). The params are
  // looked at by name, sorted (the same order whichever way the caller keeps them).
  const paramsRead = new Map<string, bigint | undefined>();
  if (target === 'cuda') {
    const names = new Set<string>(usedParams);
    for (const p of used) if (p.startsWith(PARAM_PREFIX)) names.add(p.slice(PARAM_PREFIX.length));
    for (const p of [...names].sort()) {
      const v = ctx.paramValues.get(p);
      const viaPlaceholder = used.has(PARAM_PREFIX + p);
      if (viaPlaceholder) paramsRead.set(p, v);
      if (v === undefined || (v <= INT32_MAX && v >= -INT32_MAX - 1n)) continue;
      diagnostics.push({
        code: 'emit/value-too-large',
        severity: 'error',
        message: `param ${p} = ${v} does not fit CUDA's 32-bit int (at most 2^31 - 1 = ${INT32_MAX}), which the generated code ${viaPlaceholder ? `declares it as ({{ ${PARAM_PREFIX}${p} }})` : 'passes it as'}; use a smaller value`,
        range: decl.name.range,
      });
    }
  }
  return { diagnostics, values, sharable, paramsRead };
}

/** What evaluating a kernel's bindings reads; `file`: where quick fixes look for the params' declarations. */
export type EvaluationContext = Pick<KernelContext, 'evaluate' | 'paramValues' | 'print' | 'file'>;

/** A kernel whose template checks passed: what evaluating its bindings (`evaluateKernel`) needs. */
export interface Evaluable {
  template: ScannedTemplate;
  builtin?: BuiltinKernel;
  target: 'cuda' | 'triton';
}

/**
 * A kernel block's template checks (`kernelTemplateDiagnostics`), and when they pass (no error, a
 * template found, a CUDA or Triton target), what evaluating its bindings needs.
 */
export function kernelTemplateCheck(decl: KernelDecl, ctx: Pick<KernelContext, 'path' | 'paramValues' | 'text'>, access: TemplateAccess, implicit?: ReadonlySet<string>): { diagnostics: Diagnostic[]; evaluable?: Evaluable; ext?: string } {
  const found = findTemplate(decl, ctx, access);
  const diagnostics = checkKernel(decl, found.lookup, { implicit: implicit ?? implicitNames(ctx), text: ctx.text });
  const target = decl.target?.value;
  // (`target mlir`: kernel/unsupported-target, from checkKernel)
  if (!decl.template || !found.template || diagnostics.some((d) => d.severity === 'error') || (target !== 'cuda' && target !== 'triton')) return { diagnostics };
  return { diagnostics, evaluable: { template: found.template, builtin: found.builtin, target }, ext: found.ext };
}

/**
 * The diagnostics of one kernel block as emission finds them: the template checks and, when they
 * pass, those of evaluating its bindings (`evaluateKernel`), separately. `emission` is undefined when
 * the bindings were not evaluated.
 */
export function kernelEmitDiagnostics(decl: KernelDecl, ctx: Pick<KernelContext, 'path' | 'paramValues' | 'text' | 'evaluate' | 'print' | 'file'>, access: TemplateAccess, implicit?: ReadonlySet<string>): { template: Diagnostic[]; emission?: KernelEvaluation } {
  const r = kernelTemplateCheck(decl, ctx, access, implicit);
  if (!r.evaluable) return { template: r.diagnostics };
  return { template: r.diagnostics, emission: evaluateKernel(decl, r.evaluable, ctx) };
}

/** Emits one kernel block. Never throws; a kernel with an error diagnostic emits no file. */
export function emitKernel(decl: KernelDecl, ctx: KernelContext, access: TemplateAccess): KernelEmit {
  const name = decl.name.name;
  // (a kernel without a template clause is a syntax error, the parser's: `layout check` lists that
  // one error, and so does emit, which writes nothing for a file with one)
  const { diagnostics, evaluable, ext: templateExt } = kernelTemplateCheck(decl, ctx, access);
  if (!evaluable) return { files: [], diagnostics };
  const { template, target } = evaluable;
  const evaluation = evaluateKernel(decl, evaluable, ctx);
  diagnostics.push(...evaluation.diagnostics);
  const evaluated = evaluation.diagnostics;
  const { sharable } = evaluation;
  // every param and const as `{{ param_NAME }}`, unless a binding of that name says otherwise
  const values: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [p, v] of ctx.paramValues) values[PARAM_PREFIX + p] = v.toString();
  Object.assign(values, evaluation.values);
  if (diagnostics.some((d) => d.severity === 'error')) return { files: [], diagnostics, evaluation: evaluated };

  // repeated subexpressions of a binding: named temporaries before its line (shared-lines.ts)
  const plan = planShared(template, sharable, target);
  const r = plan.text === template.text ? renderTemplate(template, values) : renderTemplate(scanTemplate(plan.text), { ...values, ...plan.values });
  if (!r.ok) {
    // checkKernel already reported missing names and template problems; this is a safety net.
    diagnostics.push({
      code: 'kernel/missing-binding',
      severity: 'error',
      message: `kernel ${name}: no value for ${r.missing.map((m) => `{{ ${m} }}`).join(', ')}`,
      range: templateRange(decl),
    });
    return { files: [], diagnostics };
  }
  const how = decl.template!.kind === 'builtin' ? `builtin ${decl.template!.name.name}` : `template ${JSON.stringify(decl.template!.path.value)}`;
  const header = headerComment(target, [
    `GENERATED by \`layout emit\` from ${ctx.sourceLabel}, kernel ${name} (${how}).`,
    'Do not edit: change the .layout file and emit again.',
  ]);
  let content = r.text;
  // Keep a `#!` line first.
  if (content.startsWith('#!')) {
    const nl = content.indexOf('\n');
    content = nl < 0 ? content + '\n' + header : content.slice(0, nl + 1) + header + content.slice(nl + 1);
  } else {
    content = header + content;
  }
  const ext = templateExt ?? EXT[target];
  return { files: [{ relPath: `${name}${ext}`, content }], diagnostics, evaluation: evaluated };
}

function builtinProblem(b: BuiltinKernel, placeholder: string, e: Expr): { code: string; message: string } | undefined {
  if (b.constants.includes(placeholder)) {
    if (e.kind !== 'int') {
      const syms = [...freeSymbols(e)].map((s) => `\`${s}\``).join(', ');
      return {
        code: 'kernel/not-constant',
        message: `builtin ${b.name} needs \`${placeholder}\` to be a constant, but it depends on ${syms || 'a non-constant value'}: declare ${syms ? (syms.includes(',') ? 'them' : 'it') : 'the sizes it uses'} with \`const\``,
      };
    }
    return undefined;
  }
  const outside = [...freeSymbols(e)].filter((s) => !b.scope.includes(s));
  if (outside.length > 0) {
    return {
      code: 'kernel/name-not-in-template',
      message: `builtin ${b.name} does not define ${outside.map((s) => `\`${s}\``).join(', ')} where {{ ${placeholder} }} goes; its code defines ${b.scope.join(', ')} (make other sizes \`const\`, or rename them)`,
    };
  }
  return undefined;
}

/**
 * `kernel/not-constant`'s quick fix: declare the params the value depends on with `const` (folded into
 * the generated code). Only where each is a `param` declaration (its first) whose items have no tuning
 * candidates (a `const` takes none), so that the fix makes the file right and changes nothing else.
 */
function constFix(file: File, names: readonly string[]): Fix | undefined {
  if (names.length === 0) return undefined;
  const decls = new Set<ParamDecl>();
  for (const name of names) {
    const d = file.decls.find((x): x is ParamDecl => x.kind === 'Param' && x.items.some((it) => it.name.name === name));
    if (!d || d.isConst || d.items.some((it) => it.candidates)) return undefined;
    decls.add(d);
  }
  const list = names.map((n) => `\`${n}\``).join(', ');
  return {
    title: `Declare ${list} with \`const\` (folded into the generated code)`,
    edits: [...decls].map((d) => ({ range: { start: d.range.start, end: d.range.start + 'param'.length }, newText: 'const' })),
  };
}

function bitsOf(v: bigint): string {
  return `a ${v.toString(2).length + 1}-bit signed value`;
}

function internalError(range: Range, e: unknown): Diagnostic {
  return {
    code: 'kernel/internal-error',
    severity: 'error',
    message: `internal error while generating code: ${e instanceof Error ? e.message : String(e)}`,
    range,
  };
}
