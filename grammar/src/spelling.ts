// Misspelled declaration keywords (`layuot B = ...`): the keyword a word is close to, by edit distance
// (also used to suggest names: resolve-decl.ts, check/elaborate-calls.ts).
import type { TokenType } from 'chevrotain';
import * as t from './tokens.js';

/** the token type of each declaration keyword (the words of `nearDeclWord`) */
export const declWordTypes: Record<string, TokenType> = {
  param: t.Param, const: t.Const, let: t.Let, layout: t.LayoutKw, perm: t.Perm, kernel: t.Kernel, schedule: t.Schedule, assume: t.Assume,
};
/** the keywords a declaration starts with, in that order (what the chunked parse cuts a file at too: service/chunks.ts) */
export const DECL_KEYWORDS: readonly string[] = Object.keys(declWordTypes);

/**
 * The declaration keyword a word is a misspelling of, if any: edit distance 1 for words of up to 4
 * letters (`lt`, `parm`), 2 for longer ones (`layuot`); a single letter is never taken for a keyword.
 */
export function nearDeclWord(image: string): string | undefined {
  if (image.length < 2) return undefined;
  const w = image.toLowerCase();
  const most = w.length <= 4 ? 1 : 2;
  return DECL_KEYWORDS.find((k) => k !== image && editDistance(k, w) <= most);
}

/** Damerau-Levenshtein (optimal string alignment) distance */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > 3) return Math.abs(a.length - b.length);
  const m = a.length;
  const n = b.length;
  let prev2: number[] = [];
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const cur = [i];
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur.push(v);
    }
    prev2 = prev;
    prev = cur;
  }
  return prev[n];
}
