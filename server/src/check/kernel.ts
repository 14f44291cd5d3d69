// Kernel-block checks: do a kernel's bindings and its template's `{{ name }}` placeholders match?
//
// Pure data in, diagnostics as data out. This layer reads no files and knows no template engine:
// the caller (codegen's facade) scans the template and passes what it found as a `TemplateInfo`,
// or says why it could not (`TemplateLookup`). Codes are `kernel/...` (docs/diagnostics.md).
import { children, type AnyNode, type Binding, type KernelDecl, type Range } from '../../../grammar/src/ast.js';
import type { Diagnostic, Fix } from '../../../grammar/src/diagnostic.js';

/** One `{{ name }}` occurrence in a template. */
export interface TemplatePlaceholder {
  name: string;
  /** offsets of `{{` and one past `}}` in the template text */
  offset: number;
  end: number;
  /** 1-based line in the template */
  line: number;
}

/** Something wrong with the template itself (a section, a partial, an unclosed tag, ...). */
export interface TemplateProblem {
  message: string;
  offset: number;
  /** 1-based line in the template */
  line: number;
}

/** What the checks need to know about a template. */
export interface TemplateInfo {
  placeholders: TemplatePlaceholder[];
  problems: TemplateProblem[];
}

export type KernelTarget = 'cuda' | 'triton' | 'mlir';
export const KERNEL_TARGETS: readonly KernelTarget[] = ['cuda', 'triton', 'mlir'];

/** The outcome of finding a kernel's template. */
export type TemplateLookup =
  | {
      kind: 'found';
      info: TemplateInfo;
      /** how messages name it: `template "t/matmul.py"` or `builtin triton_matmul` */
      label: string;
      /** set for built-ins: the one target the template is written for */
      target?: KernelTarget;
    }
  | { kind: 'error'; code: KernelTemplateErrorCode; message: string }
  /** no template clause (the parser reported it) or a broken header: nothing to compare */
  | { kind: 'none' };

export type KernelTemplateErrorCode =
  | 'kernel/template-not-found'
  | 'kernel/template-outside-workspace'
  | 'kernel/unknown-builtin'
  | 'kernel/template-unreadable';

export interface KernelCheckContext {
  /** placeholders filled without a binding: `kernel_name`, and `param_NAME` for each param/const */
  implicit: ReadonlySet<string>;
  /** the file's text, so that a removal fix can take a whole line; optional */
  text?: string;
}

/** The implicit placeholder that holds a param's or const's value. */
export const PARAM_PREFIX = 'param_';

/** Every binding name with the binding that binds it, in source order. */
export function boundNames(decl: KernelDecl): { name: string; range: Range; binding: Binding }[] {
  return decl.bindings.flatMap((b) => b.names.map((n) => ({ name: n.name, range: n.range, binding: b })));
}

/**
 * `kernel/range-in-cuda`'s message: a binding whose value is a block of indices (a slice in a query,
 * a range `(a:b)`: Triton's `tl.arange`) in a CUDA kernel, where each thread computes one index.
 * Written where the syntax shows it (`checkKernel`), and at emission where only the value does.
 */
export function rangeInCudaMessage(names: readonly string[]): string {
  const what = names.length === 1 ? `\`${names[0]}\` is a range` : `the values of ${names.map((n) => `\`${n}\``).join(', ')} hold a range`;
  return `${what} of indices (a slice \`:\` or \`a:b\`): a CUDA kernel computes one index per thread, so index every dimension with a single value (slices are for Triton kernels)`;
}

function hasRangeSyntax(n: AnyNode): boolean {
  if (n.kind === 'Slice' || n.kind === 'Range') return true;
  return children(n).some(hasRangeSyntax);
}

/** Checks one kernel block against its template. */
export function checkKernel(decl: KernelDecl, lookup: TemplateLookup, ctx: KernelCheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const kernel = decl.name.name;

  // Duplicate names, whatever the template.
  const first = new Map<string, Range>();
  for (const b of boundNames(decl)) {
    const prev = first.get(b.name);
    if (prev) {
      out.push({
        code: 'kernel/duplicate-binding',
        severity: 'error',
        message: `\`${b.name}\` is bound twice in kernel ${kernel}`,
        range: b.range,
        related: [{ message: `first bound here`, range: prev }],
      });
    } else {
      first.set(b.name, b.range);
    }
  }

  // (a built-in has a target of its own: kernel/target-mismatch says it, with a fix)
  if (decl.target?.value === 'mlir' && !(lookup.kind === 'found' && lookup.target)) {
    out.push({
      code: 'kernel/unsupported-target',
      severity: 'error',
      message: `kernel ${kernel}: templates emit CUDA or Triton; MLIR is generated from \`schedule\` blocks`,
      range: decl.target.range,
    });
  }
  if (decl.target?.value === 'cuda') {
    for (const b of decl.bindings) {
      if (!hasRangeSyntax(b.value)) continue;
      out.push({ code: 'kernel/range-in-cuda', severity: 'error', message: rangeInCudaMessage(b.names.map((n) => n.name)), range: b.value.range });
    }
  }

  const tmplRange = templateRange(decl);
  if (lookup.kind === 'none') return out;
  if (lookup.kind === 'error') {
    out.push({ code: lookup.code, severity: 'error', message: lookup.message, range: tmplRange });
    return out;
  }

  const { info, label } = lookup;
  if (lookup.target && decl.target && decl.target.value !== lookup.target && (KERNEL_TARGETS as readonly string[]).includes(decl.target.value)) {
    out.push({
      code: 'kernel/target-mismatch',
      severity: 'error',
      message: `${label} is a ${lookup.target} kernel, but kernel ${kernel} says \`target ${decl.target.value}\``,
      range: decl.target.range,
      fixes: [{ title: `Change the target to ${lookup.target}`, edits: [{ range: decl.target.range, newText: lookup.target }] }],
    });
  }

  for (const p of info.problems) {
    out.push({
      code: 'kernel/template-syntax',
      severity: 'error',
      message: `${label}, line ${p.line}: ${p.message}`,
      range: tmplRange,
    });
  }

  // Placeholders without a binding: one diagnostic per name, at the kernel's name.
  const used = new Map<string, TemplatePlaceholder[]>();
  for (const p of info.placeholders) {
    const list = used.get(p.name);
    if (list) list.push(p);
    else used.set(p.name, [p]);
  }
  for (const [name, occ] of used) {
    if (first.has(name) || ctx.implicit.has(name)) continue;
    const lines = [...new Set(occ.map((p) => p.line))];
    const where = lines.length === 1 ? `line ${lines[0]}` : `lines ${lines.join(', ')}`;
    let message = `${label} uses \`{{ ${name} }}\` (${where}), which kernel ${kernel} does not bind`;
    if (name.startsWith(PARAM_PREFIX) && name.length > PARAM_PREFIX.length) {
      message += `; declare \`param ${name.slice(PARAM_PREFIX.length)}\` or \`const ${name.slice(PARAM_PREFIX.length)}\` to fill it`;
    }
    out.push({ code: 'kernel/missing-binding', severity: 'error', message, range: decl.name.range });
  }

  // Bindings the template never uses: at the bound name.
  if (info.problems.length === 0) {
    for (const b of decl.bindings) {
      const unused = b.names.filter((n) => !used.has(n.name));
      for (const n of unused) {
        const fixes: Fix[] = [];
        if (unused.length === b.names.length && b.names.length > 0) {
          fixes.push({ title: `Remove the binding of ${b.names.map((x) => x.name).join(', ')}`, edits: [{ range: lineRange(b.range, ctx.text), newText: '' }] });
        }
        out.push({
          code: 'kernel/unused-binding',
          severity: 'warning',
          message: `${label} never uses \`{{ ${n.name} }}\`: the binding of \`${n.name}\` has no effect`,
          range: n.range,
          tags: ['unnecessary'],
          ...(fixes.length ? { fixes } : {}),
        });
      }
    }
  }
  return out;
}

/** Where template-level diagnostics go: the path string, the builtin name, or the kernel name. */
export function templateRange(decl: KernelDecl): Range {
  if (decl.template?.kind === 'file') return decl.template.path.range;
  if (decl.template?.kind === 'builtin') return decl.template.name.range;
  return decl.name.range;
}

/** `r` widened to its whole line(s) when nothing else is on them, newline included. */
function lineRange(r: Range, text: string | undefined): Range {
  if (text === undefined) return r;
  let s = r.start;
  while (s > 0 && (text[s - 1] === ' ' || text[s - 1] === '\t')) s--;
  let e = r.end;
  while (e < text.length && (text[e] === ' ' || text[e] === '\t')) e++;
  const startsLine = s === 0 || text[s - 1] === '\n';
  if (e < text.length && text[e] === '\r') e++;
  const endsLine = e === text.length || text[e] === '\n';
  if (!startsLine || !endsLine) return r;
  if (e < text.length) e++;
  return { start: s, end: e };
}
