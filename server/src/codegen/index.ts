// The code-generation facade: kernels from templates (CUDA, Triton) and schedules (MLIR, through
// ./mlir/). Pure: results are `{ files: {relPath, content}[], diagnostics }`; nothing is read but
// through `options.readTemplate`, nothing is written. `planEmit` says where files may go; the CLI
// (server/src/cli/emit.ts) and the language server write them.
import type { File, KernelDecl, ScheduleDecl } from '../../../grammar/src/ast.js';
import type { Diagnostic } from '../../../grammar/src/diagnostic.js';
import type { KernelTarget } from '../check/kernel.js';
import type { Model } from '../check/elaborate.js';
import {
  emitKernel,
  kernelEmitDiagnostics,
  kernelTemplateDiagnostics,
  implicitNames,
  type EmittedFile,
  type KernelContext,
  type TemplateAccess,
} from './emit-kernel.js';
import { emitScheduleBlock } from './schedule.js';
import { bindingEvaluator } from './model.js';
import type { KernelEmission } from './gate.js';

export type EmitTarget = KernelTarget;
export type { EmittedFile, KernelContext, TemplateAccess, BindingValue } from './emit-kernel.js';
export { resolveTemplatePath, headerComment, kernelTemplateDiagnostics, kernelEmitDiagnostics, kernelTemplateCheck, evaluateKernel, evaluateKernelSteps, implicitNames, templatePlaceholders, type KernelEvaluation, type Evaluable, type EvaluationContext } from './emit-kernel.js';
export { planEmit, type EmitPlan, type PlanOptions, type PlannedWrite, type RefusedWrite } from './plan.js';
export { builtinKernels, findBuiltin, type BuiltinKernel } from './builtins.js';
export { scanTemplate, renderTemplate } from './template.js';
export { buildEmitModel, bindingEvaluator, type BuildModelOptions } from './model.js';

/** Everything emitting needs from an analysed .layout file (see `buildEmitModel`). */
export interface EmitModel extends KernelContext {
  file: File;
}

export interface EmitOptions extends TemplateAccess {
  /** restrict `emitBlock`'s name lookup to one kind of block */
  blockKind?: 'kernel' | 'schedule';
}

export interface EmitResult {
  files: EmittedFile[];
  diagnostics: Diagnostic[];
  /** those of `diagnostics` that evaluating kernels' bindings gave (see `KernelEmit.evaluation`) */
  evaluation?: Diagnostic[];
}

function blocks(model: EmitModel): (KernelDecl | ScheduleDecl)[] {
  return model.file.decls.filter((d): d is KernelDecl | ScheduleDecl => d.kind === 'Kernel' || d.kind === 'Schedule');
}

function emitOne(model: EmitModel, decl: KernelDecl | ScheduleDecl, options: EmitOptions): EmitResult {
  if (decl.kind === 'Schedule') return emitScheduleBlock(model, decl);
  return emitKernel(decl, model, options);
}

/**
 * Emits the kernel or schedule called `blockName`. With `target`, a block for another target is
 * an error (`emit/target-mismatch`) rather than emitted: schedules are MLIR; kernels say theirs.
 */
export function emitBlock(model: EmitModel, blockName: string, target?: EmitTarget, options: EmitOptions = {}): EmitResult {
  const decl = blocks(model).find((d) => d.name.name === blockName && (!options.blockKind || (options.blockKind === 'kernel') === (d.kind === 'Kernel')));
  const whole = { start: 0, end: 0 };
  if (!decl) {
    const names = blocks(model).filter((d) => !options.blockKind || (options.blockKind === 'kernel') === (d.kind === 'Kernel')).map((d) => d.name.name);
    const what = options.blockKind ?? 'kernel or schedule';
    return {
      files: [],
      diagnostics: [{
        code: 'emit/no-such-block',
        severity: 'error',
        message: `there is no ${what} block \`${blockName}\`${names.length ? `; there ${names.length === 1 ? 'is' : 'are'} ${names.map((n) => `\`${n}\``).join(', ')}` : ''}`,
        range: whole,
      }],
    };
  }
  const own = blockTarget(decl);
  if (target !== undefined && own !== undefined && own !== target) {
    return {
      files: [],
      diagnostics: [{
        code: 'emit/target-mismatch',
        severity: 'error',
        message: `${decl.kind === 'Kernel' ? 'kernel' : 'schedule'} \`${blockName}\` emits ${own}, not ${target}`,
        range: decl.name.range,
      }],
    };
  }
  return emitOne(model, decl, options);
}

/** An emit's diagnostics but those its evaluation of bindings gave (`EmitResult.evaluation`): what its gate weighs. */
export function withoutEvaluation(result: EmitResult): Diagnostic[] {
  const evaluated = new Set(result.evaluation ?? []);
  return evaluated.size ? result.diagnostics.filter((d) => !evaluated.has(d)) : result.diagnostics;
}

/** Emits every block of the file for `target` (kernels that declare it; schedules for `mlir`). */
export function emitFile(model: EmitModel, target: EmitTarget, options: EmitOptions = {}): EmitResult {
  const files: EmittedFile[] = [];
  const diagnostics: Diagnostic[] = [];
  const evaluation: Diagnostic[] = [];
  for (const d of blocks(model)) {
    if (blockTarget(d) !== target) continue;
    const r = emitOne(model, d, options);
    files.push(...r.files);
    diagnostics.push(...r.diagnostics);
    evaluation.push(...(r.evaluation ?? []));
  }
  // One error anywhere writes nothing: a half-emitted set of files is harder to notice.
  if (diagnostics.some((x) => x.severity === 'error')) return { files: [], diagnostics, evaluation };
  return { files, diagnostics, evaluation };
}

/** The target a block emits: a kernel's declared target, `mlir` for schedules. */
export function blockTarget(d: KernelDecl | ScheduleDecl): EmitTarget | undefined {
  if (d.kind === 'Schedule') return 'mlir';
  const t = d.target?.value;
  return t === 'cuda' || t === 'triton' || t === 'mlir' ? t : undefined;
}

/**
 * Template-vs-binding diagnostics of every kernel block (missing and unused bindings, unknown
 * built-ins, template files that are missing, outside the workspace or use unsupported tags).
 * Cheap: evaluates no binding. For the language server's diagnostics.
 */
export function kernelDiagnostics(model: Pick<EmitModel, 'file' | 'path' | 'paramValues' | 'text'>, options: TemplateAccess = {}): Diagnostic[] {
  const out: Diagnostic[] = [];
  const implicit = implicitNames(model); // one set for every kernel of the file
  for (const d of model.file.decls) if (d.kind === 'Kernel') out.push(...kernelTemplateDiagnostics(d, model, options, implicit));
  return out;
}

/**
 * Every kernel block's diagnostics as `layout emit` finds them, from a whole-file analysis (its file
 * and elaborated model): the template checks (`template`) and, for each kernel whose template checks
 * pass, what evaluating its bindings finds (`emission`: `emitKernel`'s own evaluation). A check
 * reports `emission` through `withEmission` (codegen/gate.ts).
 */
export function kernelChecksOfModel(file: File, text: string, path: string, model: Model | undefined, options: TemplateAccess = {}): { template: Diagnostic[]; emission: KernelEmission[] } {
  const template: Diagnostic[] = [];
  const emission: KernelEmission[] = [];
  if (!file.decls.some((d) => d.kind === 'Kernel')) return { template, emission };
  const ctx = { path, text, file, ...bindingEvaluator(model, []) };
  // the implicit `{{ param_NAME }}` names: every param's, valued or not (as the incremental analysis's `Placeholders`)
  const implicit = implicitNames({ paramValues: paramNames(file) });
  for (const d of file.decls) {
    if (d.kind !== 'Kernel') continue;
    const r = kernelEmitDiagnostics(d, ctx, options, implicit);
    template.push(...r.template);
    if (r.emission) emission.push({ kernel: d, diagnostics: r.emission.diagnostics });
  }
  return { template, emission };
}

function paramNames(file: File): Map<string, bigint> {
  const paramValues = new Map<string, bigint>();
  for (const d of file.decls) if (d.kind === 'Param') for (const item of d.items) paramValues.set(item.name.name, 0n);
  return paramValues;
}
