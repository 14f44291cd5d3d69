// Layout hovers computed before they are asked for (lsp/hover-priming.ts runs this when the server is
// idle): a layout's hover is its most expensive one (elaboration of its closure, the symbolic apply
// and inv simplified, its class, a table: 0.5-4 ms the first time), and it is kept across versions
// while the texts of its closure stay the same (hover-cache.ts `acrossVersions`), so a hover right
// after an edit elsewhere, or the first one at a layout, finds it computed.
import type * as ast from '../../../grammar/src/ast.js';
import type { LayoutDocument } from './document.js';
import { transientModels } from './elaboration.js';
import { layoutHover } from './layout-info.js';
import type { Settings } from './settings.js';

/**
 * The layout declarations of `doc` whose hovers to compute ahead, nearest `focus` (an offset: where
 * the user last asked something) first, at most `max`.
 */
export function layoutsToPrime(doc: LayoutDocument, focus: number, max: number): ast.LayoutDecl[] {
  const away = (d: ast.Decl): number => (d.range.end < focus ? focus - d.range.end : d.range.start > focus ? d.range.start - focus : 0);
  const layouts: [number, ast.LayoutDecl][] = [];
  for (const d of doc.file.decls) if (d.kind === 'Layout') layouts.push([away(d), d]);
  layouts.sort((a, b) => a[0] - b[0]);
  return layouts.slice(0, max).map(([, d]) => d);
}

/**
 * Computes the hover of layout `decl`'s name as a hover there would (`hover.ts` `describeSymbol`),
 * which keeps its text; the models elaborated for it are not kept (`transientModels`: a few tens of
 * kilobytes per layout, for as long as its declarations are unchanged); nothing for a second
 * declaration of a name (never the model's).
 */
export function primeLayoutHover(doc: LayoutDocument, decl: ast.LayoutDecl, settings: Settings): void {
  const def = doc.symbols.global(decl.name.name);
  if (def?.container === decl) transientModels(() => layoutHover(doc, def, settings));
}
