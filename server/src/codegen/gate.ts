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

/**
 * What a check (`layout check`, the editor) reports of emission's own diagnostics (evaluating the
 * kernels' bindings: `kernelChecksOfModel`): `diagnostics` (every other diagnostic of the file) and,
 * once none of them is an error, `emission` after them. As a compiler reports code generation's
 * errors once the earlier stages pass: evaluating what a broken declaration means only repeats its
 * error (a binding of a query with the wrong number of indices "cannot be evaluated"), and a file
 * that has no error is one `layout emit` accepts.
 */
export function withEmission(diagnostics: Diagnostic[], emission: readonly Diagnostic[]): Diagnostic[] {
  if (emission.length === 0 || diagnostics.some((d) => d.severity === 'error')) return diagnostics;
  return [...diagnostics, ...emission].sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end);
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
