// A layout value's structure as a string, and the symbols it names: what results that are pure
// functions of the structure (classify) are kept by, and what a symbolic query's results depend on
// besides it (the values and definitions of those symbols).
import { childrenOf, freeSymbols, type Expr } from '../expr/index.js';
import type { Layout } from './types.js';

/**
 * A layout without GenP as a string: equal strings <=> equal structures (its dims as expression
 * keys, which are canonical: expr/node.ts, with the `nonneg` hints the keys leave out marked;
 * display-only parts included too). Undefined for a layout with a GenP (its permutation's body).
 */
export function structureKey(L: Layout): string | undefined {
  let genp = false;
  const walk = (x: Layout): unknown => {
    switch (x.kind) {
      case 'RegP': return ['R', keys(x.dims), x.perm, x.sugar ?? ''];
      case 'GenP': genp = true; return null;
      case 'OrderBy': return ['O', x.blocks.map(walk), x.tileLevels?.map(keys) ?? null];
      case 'GroupBy': return ['G', x.groupDims.map(keys), x.chain.map(walk)];
      case 'TileBy': return ['T', x.levels.map(keys), x.chain.map(walk)];
      case 'ExpandBy': return ['E', walk(x.inner), keys(x.original), keys(x.expanded)];
    }
  };
  const k = JSON.stringify(walk(L));
  return genp ? undefined : k;
}

/** The symbols the expressions of a layout without GenP name (every part `structureKey` reads). */
export function structureSymbols(L: Layout): Set<string> {
  const out = new Set<string>();
  const add = (es: readonly Expr[]) => {
    for (const e of es) for (const s of freeSymbols(e)) out.add(s);
  };
  const walk = (x: Layout): void => {
    switch (x.kind) {
      case 'RegP': case 'GenP': add(x.dims); break;
      case 'OrderBy': x.blocks.forEach(walk); x.tileLevels?.forEach(add); break;
      case 'GroupBy': x.groupDims.forEach(add); x.chain.forEach(walk); break;
      case 'TileBy': x.levels.forEach(add); x.chain.forEach(walk); break;
      case 'ExpandBy': walk(x.inner); add(x.original); add(x.expanded); break;
    }
  };
  walk(L);
  return out;
}

/** an expression's key, with its `nonneg` hints when it has any */
export function exprKey(e: Expr): string | [string, string] {
  return hinted(e) ? [e.key, hints(e)] : e.key;
}

function keys(es: readonly Expr[]): (string | [string, string])[] {
  return es.map(exprKey);
}

function hinted(e: Expr): boolean {
  return ((e.kind === 'floordiv' || e.kind === 'mod') && e.nonneg === true) || childrenOf(e).some(hinted);
}

/** the `nonneg` hints of e's floordiv/mod nodes, in a fixed order (depth first) */
function hints(e: Expr): string {
  return `${(e.kind === 'floordiv' || e.kind === 'mod') && e.nonneg ? 'n' : '-'}(${childrenOf(e).map(hints).join(',')})`;
}
