// "Never emit from a broken file": which error diagnostics stop a kernel or schedule block from
// being emitted. A block depends on every declaration its names resolve to (transitively), and on
// every `param`/`const` (templates see all of them as `{{ param_NAME }}`, schedules size their
// payload with them). An error inside the block or any declaration it depends on blocks it; so does
// an error outside every declaration (text the parser could not attach to one). Errors in unrelated
// declarations do not. Pure: the caller passes the file's whole-file analysis.
//
// `forcedHeader` marks a file emitted anyway (`layout emit --force`, the editor's "Emit anyway").
import type * as ast from '../../../grammar/src/ast.js';
import type { Diagnostic } from '../../../grammar/src/diagnostic.js';
import type { Resolution } from '../../../grammar/src/resolve.js';

export interface GateInput {
  file: ast.File;
  resolution: Pick<Resolution, 'refs'>;
  /** every diagnostic of the file (analyze's, plus the kernel template checks) */
  diagnostics: readonly Diagnostic[];
}

/** The declarations `roots` depend on, themselves included, in source order. */
export function dependencyClosure(input: Pick<GateInput, 'file' | 'resolution'>, roots: readonly ast.Decl[]): ast.Decl[] {
  const decls = input.file.decls;
  // Uses grouped by the top-level declaration they sit in (declarations are in source order).
  const usesIn = new Map<ast.Decl, ast.Decl[]>();
  for (const [use, def] of input.resolution.refs) {
    if (!def.decl) continue;
    const owner = declAt(decls, use.range.start);
    if (!owner || owner === def.decl) continue;
    let list = usesIn.get(owner);
    if (!list) usesIn.set(owner, (list = []));
    list.push(def.decl);
  }
  const seen = new Set<ast.Decl>();
  const work: ast.Decl[] = [];
  const add = (d: ast.Decl) => {
    if (!seen.has(d)) {
      seen.add(d);
      work.push(d);
    }
  };
  for (const r of roots) {
    add(r);
    if (r.kind === 'Kernel' || r.kind === 'Schedule') for (const d of decls) if (d.kind === 'Param') add(d);
  }
  // Iterative: the depth of a dependency chain never reaches the call stack.
  while (work.length > 0) {
    const d = work.pop()!;
    for (const dep of usesIn.get(d) ?? []) add(dep);
  }
  return decls.filter((d) => seen.has(d));
}

/** The error diagnostics that stop `roots` from being emitted, in source order. */
export function emitBlockers(input: GateInput, roots: readonly ast.Decl[]): Diagnostic[] {
  const closure = dependencyClosure(input, roots);
  const decls = input.file.decls;
  const out: Diagnostic[] = [];
  for (const d of input.diagnostics) {
    if (d.severity !== 'error') continue;
    const owner = declAt(decls, d.range.start);
    if (!owner || closure.includes(owner)) out.push(d);
  }
  return out.sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end);
}

/** The declaration whose range holds `offset` (binary search over the source-ordered declarations). */
function declAt(decls: readonly ast.Decl[], offset: number): ast.Decl | undefined {
  let lo = 0;
  let hi = decls.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const d = decls[mid];
    if (offset < d.range.start) hi = mid - 1;
    else if (offset >= d.range.end && !(offset === d.range.end && d.range.start === d.range.end)) lo = mid + 1;
    else return d;
  }
  // a diagnostic at the very end of a declaration (e.g. "expected ']'" after its last token)
  const prev = decls[hi];
  return prev && offset === prev.range.end ? prev : undefined;
}

/** What evaluating one kernel's bindings found (`kernelChecksOfModel`, the incremental analysis). */
export interface KernelEmission {
  kernel: ast.KernelDecl;
  diagnostics: readonly Diagnostic[];
}

/** What `withEmission` needs of the file: its declarations and what a kernel depends on. */
export interface EmissionGate {
  /** the file's declarations, in source order (which one holds an error) */
  decls: readonly ast.Decl[];
  /**
   * the declarations `kernel` depends on by name, transitively, itself included (every declaration
   * that declares a name it uses: service/decl-names.ts `dependsOnByName`)
   */
  dependsOn(kernel: ast.KernelDecl): ReadonlySet<ast.Decl>;
}

/**
 * What a check (`layout check`, the editor) reports: `diagnostics` (every other diagnostic of the
 * file) and each kernel's `emission` (evaluating its bindings, `evaluateKernel`) once nothing it
 * depends on is an error: no error in the kernel, in a declaration it depends on, in any `param`
 * (templates read them all) or outside every declaration. As a compiler reports code generation's
 * errors once the earlier stages pass: evaluating what a broken declaration means only repeats its
 * error (a binding of a query with the wrong number of indices "cannot be evaluated"), and a file
 * that has no error is one `layout emit` accepts. Per kernel, so that typing in one place does not
 * hide and show again the diagnostics of kernels that do not depend on it.
 */
export function withEmission(diagnostics: Diagnostic[], emission: readonly KernelEmission[], gate: EmissionGate): Diagnostic[] {
  let shown = emission.filter((e) => e.diagnostics.length > 0);
  if (shown.length === 0) return diagnostics;
  const broken = new Set<ast.Decl>();
  for (const d of diagnostics) {
    if (d.severity !== 'error') continue;
    const owner = declAt(gate.decls, d.range.start);
    if (!owner || owner.kind === 'Param') return diagnostics;
    broken.add(owner);
  }
  if (broken.size > 0) {
    shown = shown.filter((e) => {
      for (const d of gate.dependsOn(e.kernel)) if (broken.has(d)) return false;
      return true;
    });
    if (shown.length === 0) return diagnostics;
  }
  const out = [...diagnostics];
  for (const e of shown) for (const d of e.diagnostics) out.push(d);
  return out.sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end);
}

/**
 * The comment that marks a file emitted with errors present (first lines of the file, after a `#!`
 * line). `where` lists the errors as `file:line:col: message`.
 */
export function forcedHeader(relPath: string, where: readonly string[]): string {
  const lead = relPath.endsWith('.py') ? '# ' : '// ';
  const lines = [
    `WARNING: emitted with --force although the .layout file has ${where.length} error${where.length === 1 ? '' : 's'}:`,
    ...where.slice(0, 10).map((w) => `  ${w}`),
    ...(where.length > 10 ? [`  ... and ${where.length - 10} more`] : []),
    'This code may compute wrong indices: fix the errors and emit again.',
  ];
  return lines.map((l) => (lead + l.replace(/[\r\n]+/g, ' ')).trimEnd()).join('\n') + '\n';
}

/** `content` with `header` put first (after a `#!` line, which must stay first). */
export function prependHeader(content: string, header: string): string {
  if (!content.startsWith('#!')) return header + content;
  const nl = content.indexOf('\n');
  return nl < 0 ? content + '\n' + header : content.slice(0, nl + 1) + header + content.slice(nl + 1);
}
