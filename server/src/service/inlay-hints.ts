// Inlay hints: after each query in a kernel binding (`A[pid_m, k, :, :]`, `Pid.inv(pid)`,
// `L.apply(i, j)`), its expression as `layout expr` prints it in the kernel's language (the one
// the hover uses: C for cuda, Triton for triton; lets by name), kept short so that the line's own
// comment stays on screen: the whole line with its hint stays within LINE_BUDGET columns (and the
// hint within the configured length); a hint that does not fit is the expression cut with `…`, or,
// where even that would say little, the operation count (`→ 12 ops`). The tooltip has the whole
// text and op count.
import type * as ast from '../../../grammar/src/ast.js';
import { children } from '../../../grammar/src/ast.js';
import type { LayoutDocument } from './document.js';
import { kernelLanguage, queryFigures } from './layout-info.js';
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
        const r = queryFigures(doc, q, lang); // kept per version and across versions
        if (!r) continue;
        const texts = r.texts;
        const named = b.value === q && b.names.length === texts.length && texts.length > 1
          ? texts.map((t, k) => `${b.names[k].name} = ${t}`)
          : texts;
        const full = named.join('; ');
        const ops = r.ops.reduce((a, b) => a + b, 0);
        const room = LINE_BUDGET - lineLength(doc.text, q.range.end);
        out.push({ offset: q.range.end, label: shortLabel(full, ops, Math.min(settings.inlayHints.maxLength, room)), tooltip: `${full}\n(${ops} op${ops === 1 ? '' : 's'})` });
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

/** A line and its hints stay within this many columns (a comment at the end of the line stays visible). */
export const LINE_BUDGET = 100;
/** A cut expression shorter than this says little: the operation count is shown instead. */
export const MIN_CUT = 24;

/** Length of the line holding `offset`. */
function lineLength(text: string, offset: number): number {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  let end = text.indexOf('\n', offset);
  if (end < 0) end = text.length;
  if (end > start && text[end - 1] === '\r') end--;
  return end - start;
}

/** The hint for an expression `full` of `ops` operations in at most `room` characters (see the file comment). */
export function shortLabel(full: string, ops: number, room: number): string {
  const label = `→ ${full}`;
  if (label.length <= room) return label;
  if (room >= MIN_CUT) return clip(label, room);
  return `→ ${ops} op${ops === 1 ? '' : 's'}`;
}

/** Cuts `s` to `max` characters with an ellipsis. */
export function clip(s: string, max: number): string {
  return s.length <= max ? s : s.slice(0, Math.max(1, max - 1)) + '…';
}
