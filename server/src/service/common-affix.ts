// The common prefix and suffix of two versions of a text (service/chunks.ts finds what an edit
// changed with them). Compared in blocks, `a.slice(i, j) === b.slice(i, j)`, which the engine
// does as one memory comparison: a loop over the chunks with `startsWith`, or over the characters,
// cost 2-3 ms per version at 20,000 lines (the first hover after an edit waits for it), blocks
// about 0.1 ms.

/** The first block compared; each equal block doubles the next one. */
const FIRST_BLOCK = 256;
/** A differing block is halved down to this size, then compared character by character. */
const LAST_BLOCK = 32;

/** The length of the longest common prefix of `a` and `b`. */
export function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let p = 0;
  let e = p;
  for (let step = FIRST_BLOCK; p < n; step *= 2) {
    e = Math.min(n, p + step);
    if (a.slice(p, e) !== b.slice(p, e)) break;
    p = e;
  }
  // a difference lies in [p, e): halve the block while it is long
  while (e - p > LAST_BLOCK) {
    const m = (p + e) >> 1;
    if (a.slice(p, m) === b.slice(p, m)) p = m;
    else e = m;
  }
  while (p < n && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  return p;
}

/** The length of the longest common suffix of `a` and `b`, at most `max`. */
export function commonSuffixLength(a: string, b: string, max = Infinity): number {
  const n = Math.min(a.length, b.length, max);
  const la = a.length;
  const lb = b.length;
  // s: a common suffix length; t: one where the suffixes are known to differ (when t > s)
  let s = 0;
  let t = s;
  for (let step = FIRST_BLOCK; s < n; step *= 2) {
    t = Math.min(n, s + step);
    if (a.slice(la - t, la - s) !== b.slice(lb - t, lb - s)) break;
    s = t;
  }
  while (t - s > LAST_BLOCK) {
    const m = (s + t) >> 1;
    if (a.slice(la - m, la - s) === b.slice(lb - m, lb - s)) s = m;
    else t = m;
  }
  while (s < n && a.charCodeAt(la - 1 - s) === b.charCodeAt(lb - 1 - s)) s++;
  return s;
}
