// Hover on linear layouts: bases, class, broadcast, the access's vector width and wavefronts,
// the Triton attribute; F2 facts on a LEGO layout's hover.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LayoutDocument } from '../../server/src/service/document.js';
import { hover } from '../../server/src/service/hover.js';
import { defaultSettings } from '../../server/src/service/settings.js';

const text = [
  'layout S = OrderBy(Row(32, 32)).GroupBy([32, 32])',
  'linear R = bases(shape=[32, 32], register=[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], lane=[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp=[[0, 0]], load=S, elemBytes=4)',
  'linear Z = swizzled(shape=[32, 32], vec=1, perPhase=1, maxPhase=32, order=[1, 0])',
  '',
].join('\n');
const doc = new LayoutDocument('file:///x.layout', 1, text);

test('hover on a distributed linear layout', () => {
  const md = hover(doc, text.indexOf('linear R') + 7, defaultSettings)!.markdown;
  assert.equal(md, [
    '**linear** `R`',
    '',
    'distributed layout, shape `[32, 32]`, **bit permutation**',
    '',
    '| input | bases (logical coordinates, bit 0 first) |',
    '|---|---|',
    '| register | (0, 1) (0, 2) (0, 4) (0, 8) (0, 16) |',
    '| lane | (1, 0) (2, 0) (4, 0) (8, 0) (16, 0) |',
    '| warp | (0, 0) |',
    '',
    'broadcast: warp bits 0 free (2×)',
    '',
    'a Triton distributed layout (Def. 4.10)',
    '',
    '`#ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[0, 0]], block = []}>`',
    '',
    'load through `S`: vector 4 × 4 B = 128 bits per lane; **32** wavefronts per instruction (minimum 4, 8-way conflict: lanes 0, 1, 2, 3, 4, 5, 6, 7)',
  ].join('\n'));
});

test('hover on a shared linear layout and F2 facts on a LEGO layout', () => {
  const md = hover(doc, text.indexOf('linear Z') + 7, defaultSettings)!.markdown;
  assert.match(md, /shared layout, shape `\[32, 32\]`, \*\*F2-linear\*\*/);
  assert.match(md, /offset\(i, j\) = `32\*i \+ \(j \^ i\)`/);
  assert.match(md, /CuTe `Swizzle<5, 0, 5>`/);
  assert.match(md, /`#ttg\.swizzled_shared<\{vec = 1, perPhase = 1, maxPhase = 32, order = \[1, 0\]\}>`/);
  const lego = hover(doc, 7, defaultSettings)!.markdown;
  assert.match(lego, /as a linear layout over F2 \(offset → coordinate\): \*\*bit permutation\*\*; offset bases \(0, 1\) \(0, 2\) \(0, 4\) \(0, 8\) \(0, 16\) \(1, 0\) \(2, 0\) \(4, 0\) \(8, 0\) \(16, 0\)$/);
});
