// Layout-dependent features over the protocol: layout and query hovers (in each hover language),
// inlay hints after queries, and the `layout/picture` request.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LspClient, pos } from './harness.js';

const src = [
  'param M = 64, K = 32', //                                                       0
  'param BM = 16, BK = 16', //                                                     1
  'layout A = OrderBy(Row(M, K)).TileBy([M / BM, K / BK], [BM, BK])', //           2
  'layout R = OrderBy(Row(2, 3))', //                                              3
  'layout T = OrderBy(Row(4, 6)).TileBy([2, 3], [2, 2])', //                       4
  'layout Bad = OrderBy(RegP([2, 2], [0]))', //                                     5
  'kernel copy target triton template "copy_template.py" {', //                   6
  '  offs = A[pid_m, k, :, :]', //                                                 7
  '  r, c = R.inv(pid)', //                                                        8
  '}', //                                                                          9
  'kernel cc target cuda template "k.cu" {', //                                   10
  '  o = R[i, j] + 1', //                                                         11
  '}', //                                                                         12
  '',
].join('\n');

const R = (l1: number, c1: number, l2: number, c2: number) => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });

describe('layouts', () => {
  let c: LspClient;
  let uri: string;
  const hover = (line: number, character: number) =>
    c.request<{ contents: { value: string }; range: unknown } | null>('textDocument/hover', { textDocument: { uri }, position: { line, character } });
  before(async () => {
    c = await LspClient.start({ settings: { inlayHints: { maxLength: 40 } } });
    uri = c.uri('layouts.layout');
    await c.open(uri, src);
  });
  after(() => c.stop());

  test('layout hover: shape, size, class, apply, inv, table', async () => {
    assert.deepEqual(await hover(3, 7), {
      contents: {
        kind: 'markdown',
        value: [
          '**layout** `R` = `OrderBy(Row(2, 3))`', '',
          'logical shape: [2, 3]', '',
          'size: 6 elements', '',
          'class: affine (a linear combination of the coordinates)', '',
          'apply `R[i, j]` (2 ops, triton):', '', '```python', '3*i + j', '```', '',
          'inv `R.inv(x)` → `i`, `j` (2 ops, triton):', '', '```python', '((x)//(3))', 'x % 3', '```', '',
          "positions at the params' values (rows: dim 0, columns: dim 1):", '',
          '| | 0 | 1 | 2 |', '|---|---|---|---|', '| **0** | 0 | 1 | 2 |', '| **1** | 3 | 4 | 5 |', '',
          '2 uses in this file',
        ].join('\n'),
      } as never,
      range: R(3, 7, 3, 8),
    });
  });

  test('tiled layout: symbolic shape and the tiled table', async () => {
    const h = (await hover(4, 7))!.contents.value;
    assert.match(h, /\nlogical shape: \[2, 3, 2, 2\]\n/);
    assert.match(h, /\nsize: 24 elements\n/);
    assert.match(h, /\napply `T\[ti, tj, i, j\]` \(6 ops, triton\):\n\n```python\n6\*i \+ j \+ 12\*ti \+ 2\*tj\n```/);
    assert.match(h, /\ninv `T.inv\(x\)` → `ti`, `tj`, `i`, `j` \(6 ops, triton\):\n\n```python\n\(\(x\)\/\/\(12\)\)\n\(\(x % 6\)\/\/\(2\)\)\n\(\(x\)\/\/\(6\)\) % 2\nx % 2\n```/);
    assert.match(h, /\| \*\*1\*\* \| 6 \| 7 \| 8 \| 9 \| 10 \| 11 \|/);
    const a = (await hover(2, 7))!.contents.value;
    assert.match(a, /\nlogical shape: \[4, 2, 16, 16\]\n/);
    assert.match(a, /```python\nBK\*tj \+ K\*\(BM\*ti \+ i\) \+ j\n```/);
    assert.ok(!a.includes('positions at'), 'a 64 x 32 layout has no table in the hover');
  });

  test('a layout that cannot be built says why', async () => {
    const h = (await hover(5, 8))!.contents.value;
    assert.match(h, /^\*\*layout\*\* `Bad` = `OrderBy\(RegP\(\[2, 2\], \[0\]\)\)`\n/);
    assert.match(h, /\n\napply cannot be computed: RegP permutation \[0\] is not a permutation of 0\.\.1\n/);
  });

  test('query hover: the generated expression and op count (LEGO reference string)', async () => {
    assert.deepEqual(await hover(7, 4), {
      contents: {
        kind: 'markdown',
        value: '**query** `A[pid_m, k, :, :]` → `offs` (6 ops, triton):\n\n```python\nBK*k + K*(BM*pid_m + ((tl.arange(0, BM))[:, None])) + ((tl.arange(0, BK))[None, :])\n```',
      } as never,
      range: R(7, 2, 7, 6),
    });
    // on `.inv`: both results; on one bound name: its own
    assert.equal((await hover(8, 12))!.contents.value, '**query** `R.inv(pid)` → `r`, `c` (2 ops, triton):\n\n```python\n((pid)//(3))\npid % 3\n```');
    assert.equal((await hover(8, 5))!.contents.value, '**query** `R.inv(pid)` → `c` (result 2 of 2, 1 op, triton):\n\n```python\npid % 3\n```');
    // a query inside an expression (no names), on either bracket, although they touch `R` and `j`
    // (in the CUDA kernel `cc`: C, the language of its generated file)
    const rij = { contents: { kind: 'markdown', value: '**query** `R[i, j]` (2 ops, c):\n\n```c\n3*i + j\n```' }, range: R(11, 6, 11, 13) };
    assert.deepEqual(await hover(11, 7), rij);
    assert.deepEqual(await hover(11, 12), rij);
    assert.equal((await hover(11, 11))!.contents.value.split('\n')[0], '**free index symbol** `j` of kernel `cc`: an input of the generated code, ranging over the dimension it indexes');
  });

  test('inlay hints after queries, in the kernel target\'s language, cut to maxLength', async () => {
    const hints = await c.request<{ position: unknown; label: string; tooltip: string }[]>('textDocument/inlayHint', { textDocument: { uri }, range: R(0, 0, 13, 0) });
    assert.deepEqual(hints.map((h) => [h.position, h.label, h.tooltip]), [
      [pos(src, src.indexOf(':, :]') + 5), '→ BK*k + K*(BM*pid_m + ((tl.arange(0, B…', 'BK*k + K*(BM*pid_m + ((tl.arange(0, BM))[:, None])) + ((tl.arange(0, BK))[None, :])\n(6 ops)'],
      [pos(src, src.indexOf('R.inv(pid)') + 10), '→ r = ((pid)//(3)); c = pid % 3', 'r = ((pid)//(3)); c = pid % 3\n(2 ops)'],
      [pos(src, src.indexOf('R[i, j]') + 7), '→ 3*i + j', '3*i + j\n(2 ops)'],
    ]);
    assert.equal(hints[0].label.length, 40);
    // only the requested range
    const part = await c.request<unknown[]>('textDocument/inlayHint', { textDocument: { uri }, range: R(10, 0, 13, 0) });
    assert.equal(part.length, 1);
  });

  test('hover language and inlay hints follow the settings without a restart', async () => {
    c.changeConfiguration({ hover: { language: 'c' }, inlayHints: { enabled: false } });
    await new Promise((r) => setTimeout(r, 300));
    assert.match((await hover(3, 7))!.contents.value, /\napply `R\[i, j\]` \(2 ops, c\):\n\n```c\n3\*i \+ j\n```\n\ninv `R.inv\(x\)` → `i`, `j` \(2 ops, c\):\n\n```c\n\(\(x\)\/\(3\)\)\nx % 3\n```/);
    // a query inside a kernel keeps its kernel's language (Triton here), whatever the setting
    assert.match((await hover(7, 4))!.contents.value, /^\*\*query\*\* `A\[pid_m, k, :, :\]` → `offs` \(6 ops, triton\):\n/);
    assert.deepEqual(await c.request('textDocument/inlayHint', { textDocument: { uri }, range: R(0, 0, 13, 0) }), []);
    c.changeConfiguration({ hover: { language: 'mlir' } });
    await new Promise((r) => setTimeout(r, 300));
    const m = (await hover(3, 7))!.contents.value;
    assert.match(m, /apply `R\[i, j\]` \(2 ops, mlir\):\n\n```mlir\n/);
    assert.match(m, /arith\.muli/);
    c.changeConfiguration({ inlayHints: { maxLength: 40 } });
  });

  test('layout/picture: cells, groups, expressions; by name; errors', async () => {
    const p = await c.request<{ name: string; logicalDims: number[]; cells: { logical: number[]; physical: number; group: number }[]; totalCells: number; truncated: boolean; exprs: unknown }>(
      'layout/picture', { uri, position: { line: 4, character: 8 } });
    assert.equal(p.name, 'T');
    assert.deepEqual(p.logicalDims, [2, 3, 2, 2]);
    assert.equal(p.totalCells, 24);
    assert.equal(p.truncated, false);
    assert.deepEqual(p.cells.slice(0, 6), [
      { logical: [0, 0, 0, 0], physical: 0, group: 0 }, { logical: [0, 0, 0, 1], physical: 1, group: 0 },
      { logical: [0, 0, 1, 0], physical: 6, group: 0 }, { logical: [0, 0, 1, 1], physical: 7, group: 0 },
      { logical: [0, 1, 0, 0], physical: 2, group: 1 }, { logical: [0, 1, 0, 1], physical: 3, group: 1 },
    ]);
    // a bijection onto [0, 24)
    assert.deepEqual(p.cells.map((x) => x.physical).sort((a, b) => a - b), Array.from({ length: 24 }, (_, k) => k));
    assert.deepEqual(p.exprs, { apply: '6*i + j + 12*ti + 2*tj', inv: 'ti = ((x)//(12)); tj = ((x % 6)//(2)); i = ((x)//(6)) % 2; j = x % 2', vars: ['ti', 'tj', 'i', 'j'] });
    const byName = await c.request<{ name: string; cells: unknown[] }>('layout/picture', { uri, position: { line: 0, character: 0 }, name: 'R' });
    assert.deepEqual([byName.name, byName.cells.length], ['R', 6]);
    const big = await c.request<{ totalCells: number; truncated: boolean; cells: unknown[] }>('layout/picture', { uri, position: { line: 7, character: 9 } });
    assert.deepEqual([big.totalCells, big.truncated, big.cells.length], [2048, false, 2048]);
    const bad = await c.request<{ error: string }>('layout/picture', { uri, position: { line: 5, character: 8 } });
    assert.match(bad.error, /^layout Bad cannot be evaluated/);
    assert.equal(await c.request('layout/picture', { uri, position: { line: 0, character: 7 } }), null);
  });

  test('layout/picture: levels, params, and drawing at other params\' values (overrides)', async () => {
    type P = { logicalDims: number[]; levels?: number[][]; params?: unknown[]; cells: unknown[]; totalCells: number; checkedCells?: number };
    const a = await c.request<P>('layout/picture', { uri, position: { line: 2, character: 7 } });
    assert.deepEqual([a.logicalDims, a.levels, a.totalCells, a.checkedCells], [[4, 2, 16, 16], [[4, 2], [16, 16]], 2048, 2048]);
    assert.deepEqual(a.params, [
      { name: 'M', value: 64, declared: 64 }, { name: 'K', value: 32, declared: 32 },
      { name: 'BM', value: 16, declared: 16 }, { name: 'BK', value: 16, declared: 16 },
    ]);
    const small = await c.request<P>('layout/picture', { uri, position: { line: 0, character: 0 }, name: 'A', overrides: { M: 8, K: 8, BM: 4, BK: 4 } });
    assert.deepEqual([small.logicalDims, small.levels, small.totalCells, small.cells.length], [[2, 2, 4, 4], [[2, 2], [4, 4]], 64, 64]);
    assert.deepEqual(small.params, [
      { name: 'M', value: 8, declared: 64 }, { name: 'K', value: 8, declared: 32 },
      { name: 'BM', value: 4, declared: 16 }, { name: 'BK', value: 4, declared: 16 },
    ]);
    const wrong = await c.request<{ error: string }>('layout/picture', { uri, position: { line: 0, character: 0 }, name: 'A', overrides: { Q: 1 } });
    assert.deepEqual(wrong, { error: 'there is no param Q' });
    const zero = await c.request<{ error: string }>('layout/picture', { uri, position: { line: 0, character: 0 }, name: 'A', overrides: { BM: 0 } });
    assert.match(zero.error, /^layout A cannot be evaluated with BM = 0: /);
  });
});
