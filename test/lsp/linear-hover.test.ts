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

test('the linear layouts behind hovers are the whole file\'s: linear declarations elaborated with what they depend on, not the whole file', async () => {
  const { readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { resolve } = await import('../../grammar/src/index.js');
  const { elaborate } = await import('../../server/src/check/elaborate.js');
  const { checkLinear, memoryLayout } = await import('../../server/src/check/linear.js');
  const { modelOfDecl } = await import('../../server/src/service/elaboration.js');
  const { linearNamed } = await import('../../server/src/service/linear-hover.js');
  const { layoutBlock } = await import('../../bench/support/lsp-files.js');
  const texts = [
    text,
    readFileSync(join(import.meta.dirname, '../../examples/swizzle.layout'), 'utf8'),
    // params, lets and layouts the linear declarations use, among others they do not
    `${layoutBlock(0)}param W = 4\nlet L2 = W * 8\nlayout Sm = OrderBy(Row(L2, 32)).GroupBy([L2, 32])\n${layoutBlock(1)}` +
      'linear D = blocked(shape=[32, 32], sizePerThread=[1, W], threadsPerWarp=[4, 8], warpsPerCTA=[1, 1], order=[1, 0], store=Sm, elemBytes=4)\n' +
      'linear Q = swizzled(shape=[32, 32], vec=W, perPhase=1, maxPhase=8, order=[1, 0])\nlinear E = blocked(shape=[16, 16], sizePerThread=[1, 1], threadsPerWarp=[4, 8], warpsPerCTA=[1, 1], order=[1, 0], load=Q, elemBytes=2)\n',
  ];
  for (const t of texts) {
    const d = new LayoutDocument('file:///w.layout', 1, t);
    const r = resolve(d.file, d.lines);
    const whole = elaborate(d.file, r).model;
    const all = checkLinear(d.file, r, whole);
    const names = d.file.decls.filter((x) => x.kind === 'Linear' || x.kind === 'Layout').map((x) => (x as { name: { name: string } }).name.name);
    assert.ok(names.length > 2 && [...all.linears.values()].some((m) => m.access));
    // equal, but for a LEGO layout's environment: the params its model has (those it depends on) have the whole file's values
    const same = (a: unknown, b: unknown, what: string) => {
      const envOf = (x: unknown) => (x && typeof x === 'object' && 'lego' in x ? (x as { lego?: { env: Map<string, bigint> } }).lego?.env : undefined);
      const [ea, eb] = [envOf(a), envOf(b)];
      if (ea && eb) for (const [k, v] of ea) assert.equal(eb.get(k), v, `${what}: ${k}`);
      const strip = (x: unknown) => (envOf(x) ? { ...(x as object), lego: { ...(x as { lego: object }).lego, env: undefined } } : x);
      assert.deepEqual(strip(a), strip(b), what);
    };
    for (const name of names) {
      same(linearNamed(d, name), all.linears.get(name), name);
      const decl = d.file.decls.find((x) => x.kind === 'Layout' && x.name.name === name);
      if (decl) same(memoryLayout(name, d.file, modelOfDecl(d, decl).model, all.linears), memoryLayout(name, d.file, whole, all.linears), name);
    }
  }
});
