// Layout and query hovers are kept across document versions, keyed on the texts of the
// declarations they are elaborated with (layout-info.ts `acrossVersions`): after any edit, a hover
// answers exactly what it answers with nothing kept, and an edit elsewhere re-uses the kept text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LayoutDocument } from '../../server/src/service/document.js';
import { hover } from '../../server/src/service/hover.js';
import { clearHoverCache, hoverCacheLimits, hoverCacheStats, withoutHoverCache } from '../../server/src/service/hover-cache.js';
import { defaultSettings, type Settings } from '../../server/src/service/settings.js';
import { inlayHints } from '../../server/src/service/inlay-hints.js';
import { symbolicKeptStats } from '../../server/src/service/layout-info.js';

const base = [
  'param M = 64, N = 32',
  'param BM = 16',
  'let half = M / 2',
  'layout A = OrderBy(Row(M, N)).TileBy([M / BM, 2], [BM, N / 2])',
  'layout B = OrderBy(Col(half, 4))',
  'kernel kern target triton builtin matmul {',
  '  offset_aptrs = A[pid_m, k, :, :]',
  '  pm, pn = B.inv(pid)',
  '}',
  'schedule s for linalg.matmul(M, N, 64) on sm_90 {',
  '  mm = findOp("linalg.matmul")',
  '  tileForGrids(mm, [BM, 16])',
  '  tile(mm, [0, 0, 16])',
  '  promote(mm, [0, 1])',
  '  parallelizeForThreads(mm, [4, 4])',
  '  vectorize()',
  '  bufferize()',
  '}',
  '',
].join('\n');

let version = 0;
const docOf = (text: string) => new LayoutDocument('file:///across.layout', ++version, text);
const at = (text: string, needle: string, delta = 0) => text.indexOf(needle) + delta;
/** the hover with whatever is kept, and the hover with nothing kept */
function both(text: string, offset: number, settings: Settings = defaultSettings): [string | undefined, string | undefined] {
  const kept = hover(docOf(text), offset, settings)?.markdown;
  const fresh = withoutHoverCache(() => hover(docOf(text), offset, settings)?.markdown);
  return [kept, fresh];
}
const spots = (text: string) => [
  at(text, 'offset_aptrs = A', 15), // a layout name
  at(text, 'B.inv', 0), // another
  at(text, 'A[pid_m', 1), // a query, on its bracket
  at(text, '.inv(pid)', 2), // a query, on its method
  at(text, 'pm, pn', 4), // one result of a query (the binding's second name)
  at(text, 'tileForGrids', 2), // a schedule step (its figures at the params' values)
];

test('an edit that changes a layout\'s value changes its hover, as computed from scratch', () => {
  clearHoverCache();
  const h0 = spots(base).map((o) => hover(docOf(base), o, defaultSettings)?.markdown);
  for (const [from, to] of [['M = 64', 'M = 128'], ['BM = 16', 'BM = 8'], ['M / 2', 'M / 4'], ['Col(half, 4)', 'Col(half, 8)'], ['[BM, N / 2]', '[BM, N / 4]']]) {
    const text = base.replace(from, to);
    const h = spots(text).map((o) => both(text, o));
    for (const [k, [kept, fresh]] of h.entries()) assert.equal(kept, fresh, `${from} -> ${to} at spot ${k}`);
    assert.notDeepEqual(h.map(([kept]) => kept), h0, `${from} -> ${to}`);
  }
  const all = (t: string) => ({ start: 0, end: t.length });
  const hints0 = inlayHints(docOf(base), all(base), defaultSettings);
  const halfer = base.replace('M / 2', 'M / 4');
  const hints1 = inlayHints(docOf(halfer), all(halfer), defaultSettings);
  assert.deepEqual(hints1, withoutHoverCache(() => inlayHints(docOf(halfer), all(halfer), defaultSettings)));
  assert.deepEqual(hints0.map((h) => h.label), hints1.map((h) => h.label)); // `half` stays by name
  const bigger = base.replace('M = 64', 'M = 128');
  const after = hover(docOf(bigger), spots(bigger)[0], defaultSettings)?.markdown;
  assert.notEqual(h0[0], after);
  assert.match(after ?? '', /logical shape: \[8, 2, 16, 16\]/);
  assert.match(h0[0] ?? '', /logical shape: \[4, 2, 16, 16\]/);
  const smaller = base.replace('BM = 16', 'BM = 8');
  assert.match(h0[5] ?? '', /grid: 4 x 2 = 8 blocks of 16 x 16 outputs/);
  assert.match(hover(docOf(smaller), spots(smaller)[5], defaultSettings)?.markdown ?? '', /grid: 8 x 2 = 16 blocks of 8 x 16 outputs/);
});

test('an edit elsewhere re-uses the kept texts; the number of uses and fresh names are not kept', () => {
  clearHoverCache();
  const h0 = spots(base).map((o) => hover(docOf(base), o, defaultSettings)?.markdown);
  const s0 = hoverCacheStats();
  // a declaration inserted before (every offset moves) that uses nothing the hovers depend on
  const moved = '# a comment\nparam Z = 3\n' + base;
  const h1 = spots(moved).map((o) => hover(docOf(moved), o, defaultSettings)?.markdown);
  assert.deepEqual(h1, h0);
  assert.equal(hoverCacheStats().hits - s0.hits, 6);
  // a new use of A: the hover says so
  const used = base.replace('}\n', '  offset_bptrs = A[pid_m, k, :, :]\n}\n');
  const [kept, fresh] = both(used, spots(used)[0]);
  assert.equal(kept, fresh);
  assert.match(kept!, /2 uses in this file/);
  // a global named `i`: the hover's coordinate names change to `i_`
  clearHoverCache();
  hover(docOf(base), spots(base)[1], defaultSettings);
  const withI = 'param i = 2\n' + base;
  const [k2, f2] = both(withI, spots(withI)[1]);
  assert.equal(k2, f2);
  assert.match(k2!, /B\[i_, j\]/);
});

test('a layout elaborated again to the same value re-uses its apply and inv; a value it reads, or its structure, changed computes them again', () => {
  clearHoverCache();
  const o = (t: string) => at(t, 'offset_aptrs = A', 15);
  hover(docOf(base), o(base), defaultSettings);
  const count = () => symbolicKeptStats().hits;
  // N stays 32, M changes: A's declarations' texts change (the hover text is computed again), its value
  // does not: apply and inv are re-used
  const items = base.replace('param M = 64, N = 32', 'param N = 32, M = 64');
  let h = count();
  const [k1, f1] = both(items, o(items));
  assert.equal(k1, f1);
  assert.equal(count() - h, 2);
  // values A's dims read, a let it reads, its structure: computed again, as from scratch (`2` written
  // `1 + 1` is the same value: re-used)
  for (const [from, to] of [['BM = 16', 'BM = 8'], ['N = 32', 'N = 64'], ['Row(M, N)', 'Col(M, N)'], ['TileBy([M / BM, 2], [BM, N / 2])', 'TileBy([M / BM, 2], [BM, half / 2])']]) {
    const text = base.replace(from, to);
    h = count();
    const [kept, fresh] = both(text, o(text));
    assert.equal(kept, fresh, `${from} -> ${to}`);
    assert.equal(count() - h, 0, `${from} -> ${to}`);
  }
  // B reads the let `half`: its definition written otherwise (a constant now) computes them again
  hover(docOf(base), at(base, 'B.inv', 0), defaultSettings);
  const same = base.replace('let half = M / 2', 'let half = 64 / 2');
  h = count();
  const [k2, f2] = both(same, at(same, 'B.inv', 0));
  assert.equal(k2, f2);
  assert.equal(count() - h, 0);
  // with nothing kept (withoutHoverCache), nothing is read: the fresh hovers above counted no hit
  const s = symbolicKeptStats();
  assert.ok(s.entries > 0);
  clearHoverCache();
  assert.equal(symbolicKeptStats().entries, 0);
});

test('the hover language and `linear` declarations are part of the key', () => {
  clearHoverCache();
  const c: Settings = { ...defaultSettings, hover: { ...defaultSettings.hover, language: 'c' } };
  const o = spots(base)[1];
  const py = hover(docOf(base), o, defaultSettings)!.markdown;
  const [kc, fc_] = both(base, o, c);
  assert.equal(kc, fc_);
  assert.notEqual(kc, py);
  assert.match(kc!, /, c\):/);
  const lin = base + 'linear L = blocked(shape=[16, 16])\n';
  const [kl, fl] = both(lin, o);
  assert.equal(kl, fl);
});

test('random edits: every hover equals the hover with nothing kept', () => {
  const pairs: [string, string][] = [['M = 64', 'M = 32'], ['N = 32', 'N = 16'], ['BM = 16', 'BM = 4'], ['M / 2', 'M / 8'], ['Row(M, N)', 'Col(M, N)'],
    ['Col(half, 4)', 'Row(half, 2)'], ['param BM', '# x\nparam BM'], ['let half', 'param i = 1\nlet half'], ['offset_aptrs', 'offset_a']];
  fc.assert(fc.property(fc.array(fc.tuple(fc.nat(pairs.length - 1), fc.boolean()), { minLength: 1, maxLength: 8 }), (steps) => {
    clearHoverCache();
    let text = base;
    for (const [k, back] of steps) {
      const [a, b] = back ? [pairs[k][1], pairs[k][0]] : pairs[k];
      text = text.replace(a, b);
      const doc = docOf(text);
      for (const o of spots(text)) {
        if (o < 0) continue;
        assert.equal(hover(doc, o, defaultSettings)?.markdown, withoutHoverCache(() => hover(docOf(text), o, defaultSettings)?.markdown), `${text} at ${o}`);
      }
      const all = { start: 0, end: text.length };
      const hints = inlayHints(doc, all, defaultSettings);
      assert.deepEqual(hints, withoutHoverCache(() => inlayHints(docOf(text), all, defaultSettings)), text);
      assert.ok(hints.length >= 1, text);
    }
  }), { numRuns: 40, seed: 1414 });
  assert.ok(hoverCacheStats().hits > 0);
});

test('at most 500 texts are kept, and at most so many characters; the least recently used go first', () => {
  clearHoverCache();
  const text = Array.from({ length: 520 }, (_, k) => `layout L${k} = OrderBy(Row(4, ${k + 1}))`).join('\n') + '\n';
  const doc = docOf(text);
  const on = (k: number) => text.indexOf(`L${k} =`) + 1;
  let chars = 0;
  for (let k = 0; k < 520; k++) {
    const h = hover(doc, on(k), defaultSettings)!.markdown;
    if (k >= 20) chars += h.length; // (roughly: the key adds the declaration's text)
  }
  const s = hoverCacheStats();
  assert.equal(s.entries, 500);
  assert.ok(s.chars > chars && s.chars < 2 * chars + 520 * 100, String(s.chars));
  // L0 was dropped (a miss), L519 is kept (a hit)
  const again = docOf(text);
  const before = hoverCacheStats();
  hover(again, on(519), defaultSettings);
  hover(again, on(0), defaultSettings);
  const after = hoverCacheStats();
  assert.deepEqual([after.hits - before.hits, after.misses - before.misses], [1, 1]);
  // a bound on characters: only as many texts as fit (L100..L109: texts of one size, but for a digit)
  clearHoverCache();
  hover(docOf(text), on(100), defaultSettings);
  const one = hoverCacheStats().chars;
  const was = hoverCacheLimits(500, Math.floor(2.5 * one));
  try {
    clearHoverCache();
    for (let k = 100; k < 110; k++) hover(docOf(text), on(k), defaultSettings);
    const t = hoverCacheStats();
    assert.equal(t.entries, 2);
    assert.ok(t.chars <= 2.5 * one && t.chars >= 2 * one - 10, `${t.chars} ${one}`);
  } finally {
    hoverCacheLimits(...was);
    clearHoverCache();
  }
});
