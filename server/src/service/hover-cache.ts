// Hover texts kept per document version, and across versions: a layout's, a query's and a
// schedule step's hover text (and a query's inlay hint) depend on the texts of the declarations
// they are elaborated with (elaboration.ts `closureOf`), so they stay valid after an edit
// elsewhere; layout-info.ts and hover.ts compute them, this module keeps them.
import type * as ast from '../../../grammar/src/ast.js';
import type { LayoutDocument } from './document.js';
import { closureKeyTexts, closureOf } from './elaboration.js';

/** hover texts per snapshot, by key (layout name or query offset, language, component) */
const hoverCache = new WeakMap<LayoutDocument, Map<string, string | undefined>>();

/** `n`, or `n` with `_` added until the file declares no such name (a hover's coordinate names) */
export function fresh(doc: LayoutDocument, n: string): string {
  let name = n;
  while (doc.symbols.global(name)) name += '_';
  return name;
}

/**
 * Hover texts that the texts of a declaration's closure decide (the declarations it is elaborated
 * with, in order: elaboration.ts `closureOf`), kept across versions: an edit elsewhere leaves them
 * valid, and a hover there does not elaborate, evaluate and simplify again. Keyed on those texts,
 * which of them is the declaration's own, and `extra` (the language; a query's offset in its
 * declaration), checked on use against the names the text picked as unused in the file (`fresh`);
 * only texts that quote no position (no error message) are kept. At most `ACROSS_VERSIONS` entries and `ACROSS_CHARS` characters of keys
 * and texts (a declaration's closure can be long), the least recently used dropped.
 */
const across = new Map<string, Computed>();
let ACROSS_VERSIONS = 500;
let ACROSS_CHARS = 4_000_000;
let acrossChars = 0;

/**
 * A hover text that may be kept across versions (`keep`), the names it picked as unused in the
 * file (`fresh`: base -> picked), and whether the number of uses follows it (never kept: an edit
 * anywhere may change it).
 */
export interface Computed { text: string; keep: boolean; fresh: [string, string][]; uses?: boolean; f2?: string }

export function acrossVersions(doc: LayoutDocument, decl: ast.Decl, extra: string, compute: () => Computed | undefined): Computed | undefined {
  if (!acrossOn) return compute();
  // which declaration of the closure the hover is of: two declarations can have the same closure
  // (each uses a name the other declares, e.g. through a second declaration of a name)
  const closure = closureOf(doc, decl);
  const key = `${extra}\u0001${closure.indexOf(decl)}\u0001${closureKeyTexts(doc, decl, closure).join('\u0000')}`;
  const hit = across.get(key);
  if (hit && hit.fresh.every(([base, name]) => fresh(doc, base) === name)) {
    stats.hits++;
    across.delete(key); // most recently used last
    across.set(key, hit);
    return hit;
  }
  stats.misses++;
  const r = compute();
  if (r?.keep) {
    if (hit) acrossChars -= sizeOf(key, hit);
    across.delete(key);
    across.set(key, r);
    acrossChars += sizeOf(key, r);
    for (const [k, v] of across) {
      if (across.size <= ACROSS_VERSIONS && acrossChars <= ACROSS_CHARS) break;
      across.delete(k);
      acrossChars -= sizeOf(k, v);
    }
  }
  return r;
}

function sizeOf(key: string, c: Computed): number {
  return key.length + c.text.length + (c.f2?.length ?? 0);
}

/**
 * A hover text that depends only on the texts of `decl`'s closure and quotes no position (`extra`
 * says which of the declaration's hovers it is, in offsets relative to the declaration): kept per
 * version under `key` and across versions as `acrossVersions` keeps them.
 */
export function keptHover(doc: LayoutDocument, key: string, decl: ast.Decl, extra: string, compute: () => string | undefined): string | undefined {
  return cached(doc, key, () => acrossVersions(doc, decl, extra, () => {
    const text = compute();
    return text === undefined ? undefined : { text, keep: true, fresh: [] };
  })?.text);
}

let acrossOn = true;
const stats = { hits: 0, misses: 0 };

/** Sets the bounds of the texts kept across versions (for tests); returns the previous ones. */
export function hoverCacheLimits(entries: number, chars: number): [number, number] {
  const was: [number, number] = [ACROSS_VERSIONS, ACROSS_CHARS];
  ACROSS_VERSIONS = entries;
  ACROSS_CHARS = chars;
  return was;
}

/** Forgets every hover text kept across versions, and what `alsoKept` registered (for tests). */
export function clearHoverCache(): void {
  across.clear();
  acrossChars = 0;
  for (const f of clearers) f();
}

const clearers: (() => void)[] = [];

/**
 * Other results kept across versions for the hovers (layout-info.ts: a layout's apply and inv):
 * `clear` forgets them with `clearHoverCache`; the answer says whether they may be used now (not
 * inside `withoutHoverCache`).
 */
export function alsoKept(clear: () => void): () => boolean {
  clearers.push(clear);
  return () => acrossOn;
}

/** `f()` with no hover text looked up or kept across versions (for tests: what a hover is with nothing kept). */
export function withoutHoverCache<T>(f: () => T): T {
  const was = acrossOn;
  acrossOn = false;
  try {
    return f();
  } finally {
    acrossOn = was;
  }
}

/** Hovers answered from texts kept across versions, and the others; the texts kept and their size in characters (for tests). */
export function hoverCacheStats(): { hits: number; misses: number; entries: number; chars: number } {
  return { ...stats, entries: across.size, chars: acrossChars };
}

/** `f()`, kept for the version (the document) under `key` */
export function cached(doc: LayoutDocument, key: string, f: () => string | undefined): string | undefined {
  let h = hoverCache.get(doc);
  if (!h) hoverCache.set(doc, (h = new Map()));
  if (!h.has(key)) h.set(key, f());
  return h.get(key);
}
