// The `kernel/...` diagnostics (template placeholders vs bindings) of a document's kernel blocks,
// as the editor shows them. Template files are read from the document's own folder tree only;
// documents that are not files (untitled) can use built-in templates only.
//
// `kernelChecks` checks a whole file (`fileDiagnostics`: with the rest of its diagnostics);
// `KernelChecker` checks one kernel block at a time, for the incremental analysis
// (service/incremental.ts), and says when a kept result is still valid. Both report what evaluating
// the bindings finds (as `layout emit` does) once nothing the kernel depends on is an error (codegen/gate.ts's
// `withEmission`).
import { realpathSync } from 'node:fs';
import { readPlainFileOr } from './read-file.js';
import * as nodePath from 'node:path';
import { fileURLToPath } from 'node:url';
import type { File, KernelDecl } from '../../../grammar/src/ast.js';
import type { Diagnostic } from '../../../grammar/src/diagnostic.js';
import { evaluateKernelSteps, kernelChecksOfModel, kernelTemplateCheck, templatePlaceholders, type EvaluationContext, type Evaluable, type TemplateAccess } from '../codegen/index.js';
import { withEmission, type KernelEmission } from '../codegen/gate.js';
import { dependsOnByName } from './decl-names.js';
import type { Analysis } from '../check/index.js';
import { PARAM_PREFIX } from '../check/kernel.js';

/**
 * Reads template files inside `root` only: a path that leaves it, also through a symbolic link, reads
 * as missing (undefined), as does a missing file; what is not a plain file or cannot be read says why.
 * `open` gives the text of a template the editor has open (by its real path), read instead of the file.
 */
export function templateReaderWithin(root: string, open?: (realPath: string) => string | undefined): (absPath: string) => string | undefined | { unreadable: string } {
  return (abs) => {
    try {
      const real = realpathSync(abs);
      const rel = nodePath.relative(realpathSync(root), real);
      if (rel.startsWith('..') || nodePath.isAbsolute(rel)) return undefined;
      const text = open?.(real);
      if (text !== undefined) return text;
      const r = readPlainFileOr(real); // never a FIFO or device: they would block for ever
      return typeof r === 'string' || 'unreadable' in r ? r : undefined;
    } catch {
      return undefined;
    }
  };
}

/** Where a document's template files come from: its path and how they are read. */
function access(uri: string | undefined): { path: string; access: TemplateAccess } {
  let path = '/untitled.layout';
  let readTemplate: TemplateAccess['readTemplate'];
  if (uri?.startsWith('file:')) {
    try {
      path = fileURLToPath(uri);
    } catch {
      /* keep the placeholder path */
    }
    readTemplate = templateReaderWithin(nodePath.dirname(path));
  }
  return { path, access: { readTemplate, templateRoot: nodePath.dirname(path) } };
}

/**
 * The kernel checks of a whole-file analysis: the template checks, and what evaluating the bindings
 * of each kernel that passes them finds. `uri` is the document's URI; only `file:` URIs can read
 * template files.
 */
export function kernelChecks(a: Pick<Analysis, 'file' | 'model'>, text: string, uri: string | undefined): { template: Diagnostic[]; emission: KernelEmission[] } {
  if (!a.file.decls.some((d) => d.kind === 'Kernel')) return { template: [], emission: [] };
  const where = access(uri);
  try {
    return kernelChecksOfModel(a.file, text, where.path, a.model, where.access);
  } catch (e) {
    const first = a.file.decls.find((d) => d.kind === 'Kernel')!;
    return { template: [{ code: 'check/internal-error', severity: 'error', message: `internal error while checking kernels: ${(e as Error).message}`, range: first.name.range }], emission: [] };
  }
}

/** A whole-file analysis's diagnostics with its kernel checks (`kernelChecks`), sorted: a document's diagnostics. */
export function fileDiagnostics(a: Pick<Analysis, 'file' | 'model' | 'diagnostics'>, text: string, uri: string | undefined): Diagnostic[] {
  const k = kernelChecks(a, text, uri);
  const all = k.template.length ? [...a.diagnostics, ...k.template].sort((x, y) => x.range.start - y.range.start || x.range.end - y.range.end) : a.diagnostics;
  return withEmission(all, k.emission, { decls: a.file.decls, dependsOn: dependsOnByName(a.file) });
}

/** The placeholders of a kernel's template as the editor finds it (see `access`); undefined when it cannot be read. */
export function kernelPlaceholders(decl: KernelDecl, uri: string | undefined): { names: ReadonlySet<string>; label: string } | undefined {
  const a = access(uri);
  try {
    return templatePlaceholders(decl, a.path, a.access);
  } catch {
    return undefined;
  }
}

/** One kernel's diagnostics, and what they depend on besides the block's own text. */
export interface KernelResult {
  diagnostics: Diagnostic[];
  /** the template checks passed: what evaluating the bindings needs */
  evaluable?: Evaluable;
  /**
   * the implicit placeholder names the check asked about, with the answers; undefined when the
   * result cannot be kept (a template file, which may change on disk)
   */
  asked?: ReadonlyMap<string, boolean>;
}

/** The param names of a file, as the implicit `{{ param_NAME }}` placeholders see them. */
export function implicitPlaceholders(file: File): Set<string> {
  const s = new Set(['kernel_name']);
  for (const d of file.decls) if (d.kind === 'Param') for (const item of d.items) s.add('param_' + item.name.name);
  return s;
}

/**
 * The implicit `{{ param_NAME }}` placeholder names (`implicitPlaceholders`) read from a
 * caller's kept param-name counts (the incremental analysis); listed (rarely) from the file itself, in its order.
 */
export class Placeholders implements ReadonlySet<string> {
  private list?: Set<string>;
  constructor(private readonly params: ReadonlyMap<string, number>, private readonly file: File) {}
  has(name: string): boolean {
    return name === 'kernel_name' || (name.startsWith('param_') && this.params.has(name.slice(6)));
  }
  private all(): Set<string> {
    this.list ??= implicitPlaceholders(this.file);
    return this.list;
  }
  get size(): number {
    return this.all().size;
  }
  forEach(f: (value: string, key: string, set: ReadonlySet<string>) => void): void {
    this.all().forEach((v) => f(v, v, this));
  }
  entries(): SetIterator<[string, string]> {
    return this.all().entries();
  }
  keys(): SetIterator<string> {
    return this.all().keys();
  }
  values(): SetIterator<string> {
    return this.all().values();
  }
  [Symbol.iterator](): SetIterator<string> {
    return this.all()[Symbol.iterator]();
  }
}

/** The checks of one version's kernels, one block at a time (the same as `kernelChecks`, in order). */
export class KernelChecker {
  private readonly a: { path: string; access: TemplateAccess };
  private readonly implicit: ReadonlySet<string>;
  /** `implicit`: the file's implicit placeholder names when the caller keeps them (else read from `file`) */
  constructor(file: File, private readonly text: string, uri: string | undefined, implicit?: ReadonlySet<string>) {
    this.a = access(uri);
    this.implicit = implicit ?? implicitPlaceholders(file);
  }

  /** is a result kept from an earlier version (of the block's same text) still this version's */
  valid(r: KernelResult): boolean {
    if (!r.asked) return false;
    for (const [name, was] of r.asked) if (this.implicit.has(name) !== was) return false;
    return true;
  }

  /** throws where `kernelChecks` reports an internal error (the caller falls back to it) */
  check(decl: KernelDecl): KernelResult {
    const asked = new AskedSet(this.implicit);
    const { diagnostics, evaluable } = kernelTemplateCheck(decl, { path: this.a.path, paramValues: new Map(), text: this.text }, this.a.access, asked);
    return { diagnostics, ...(evaluable ? { evaluable } : {}), ...(decl.template?.kind === 'builtin' && !asked.iterated ? { asked: asked.asked } : {}) };
  }

  /**
   * Evaluates the bindings of a kernel whose template checks passed (`evaluable`), from a model that
   * holds what the kernel depends on and the params its template names (`{{ param_NAME }}`), a
   * binding at a time (it yields between two: `evaluateKernelSteps`). Undefined when `shouldStop`
   * (polled before each binding) said stop.
   */
  *evaluate(decl: KernelDecl, evaluable: Evaluable, evaluator: EvaluationContext, shouldStop?: () => boolean): Generator<void, Emission | undefined, void> {
    const e = yield* evaluateKernelSteps(decl, evaluable, evaluator, shouldStop);
    return e && { diagnostics: e.diagnostics, template: evaluable.template.text, paramsRead: e.paramsRead };
  }
}

/**
 * What evaluating a kernel's bindings found (reported once nothing the kernel depends on is an error), and what it
 * read besides the declarations the kernel names: the template (a file may change on disk) and the
 * values of the params its `{{ param_NAME }}` placeholders name.
 */
export interface Emission {
  diagnostics: Diagnostic[];
  /** the template's text */
  template: string;
  paramsRead: ReadonlyMap<string, bigint | undefined>;
}

/** The param names a template's `{{ param_NAME }}` placeholders name. */
export function placeholderParams(evaluable: Evaluable): string[] {
  const out: string[] = [];
  for (const p of evaluable.template.placeholders) if (p.name.startsWith(PARAM_PREFIX)) out.push(p.name.slice(PARAM_PREFIX.length));
  return out;
}

/** A read-only view of a set that records which names were asked about. */
class AskedSet implements ReadonlySet<string> {
  readonly asked = new Map<string, boolean>();
  /** something listed the set: what the result depends on is not known */
  iterated = false;
  constructor(private readonly base: ReadonlySet<string>) {}
  has(name: string): boolean {
    const v = this.base.has(name);
    this.asked.set(name, v);
    return v;
  }
  get size(): number {
    this.iterated = true;
    return this.base.size;
  }
  forEach(f: (value: string, key: string, set: ReadonlySet<string>) => void, thisArg?: unknown): void {
    this.iterated = true;
    this.base.forEach((v) => f.call(thisArg, v, v, this));
  }
  entries(): SetIterator<[string, string]> {
    this.iterated = true;
    return this.base.entries();
  }
  keys(): SetIterator<string> {
    this.iterated = true;
    return this.base.keys();
  }
  values(): SetIterator<string> {
    this.iterated = true;
    return this.base.values();
  }
  [Symbol.iterator](): SetIterator<string> {
    this.iterated = true;
    return this.base[Symbol.iterator]();
  }
}
