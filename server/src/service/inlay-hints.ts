// Inlay hints: after each query in a kernel binding (`A[pid_m, k, :, :]`, `Pid.inv(pid)`,
// `L.apply(i, j)`), its expression as `layout expr` prints it in the kernel's language (the one
// the hover uses: C for cuda, Triton for triton; lets by name), cut to the configured length; the
// tooltip has the whole text and op count.
import type * as ast from '../../../grammar/src/ast.js';
import { children } from '../../../grammar/src/ast.js';
import type { LayoutDocument } from './document.js';
import { kernelLanguage, queryTexts } from './layout-info.js';
import type { Settings } from './settings.js';

export interface InlayHintData {
  offset: number;
  label: string;
  tooltip?: string;
}

export function inlayHints(doc: LayoutDocument, range: ast.Range, settings: Settings): InlayHintData[] {
  if (!settings.inlayHints.enabled) return [];
  const out: InlayHintData[] = [];
  for (const d of doc.file.decls) {
    if (d.kind !== 'Kernel' || d.range.end < range.start || d.range.start > range.end) continue;
    const lang = kernelLanguage(d) ?? settings.hover.language;
    for (const b of d.bindings) {
      for (const q of queriesIn(b.value)) {
        if (q.range.end < range.start || q.range.end > range.end) continue;
        const r = queryTexts(doc, q, lang);
        if (!r.ok) continue;
        const texts = r.texts;
        const named = b.value === q && b.names.length === texts.length && texts.length > 1
          ? texts.map((t, k) => `${b.names[k].name} = ${t}`)
          : texts;
        const full = named.join('; ');
        const ops = r.ops.reduce((a, b) => a + b, 0);
        out.push({ offset: q.range.end, label: clip(`→ ${full}`, settings.inlayHints.maxLength), tooltip: `${full}\n(${ops} op${ops === 1 ? '' : 's'})` });
      }
    }
  }
  return out;
}

/** The outermost queries inside an expression, in source order. */
export function queriesIn(e: ast.AnyNode): (ast.IndexExpr | ast.MethodCall)[] {
  if (e.kind === 'Index' || (e.kind === 'MethodCall' && (e.method.name === 'inv' || e.method.name === 'apply'))) return [e];
  return children(e).flatMap(queriesIn);
}

/** Cuts `s` to `max` characters with an ellipsis. */
export function clip(s: string, max: number): string {
  return s.length <= max ? s : s.slice(0, Math.max(1, max - 1)) + '…';
}
