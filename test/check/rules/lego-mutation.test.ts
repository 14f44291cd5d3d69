// lego/mutated-receiver: LEGO's `X.OrderBy(B)` mutates X; a later use of X is reported with a
// fix that writes LEGO's chain out, and the fixed file computes what LEGO computes.
import { test } from 'node:test';
import { readdirSync, readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { analyze } from '../../../server/src/check/index.js';
import { parse, resolve } from '../../../grammar/src/index.js';
import { elaborate } from '../../../server/src/check/elaborate.js';
import * as A from '../../../server/src/algebra/index.js';
import type { Fix } from '../../../grammar/src/diagnostic.js';

function applyFix(text: string, fix: Fix): string {
  let out = text;
  for (const e of [...fix.edits].sort((a, b) => b.range.start - a.range.start)) out = out.slice(0, e.range.start) + e.newText + out.slice(e.range.end);
  return out;
}

const TEXT = [
  'layout X = OrderBy(Row(2, 3))',
  'layout Y = X.OrderBy(Col(2, 3)).GroupBy([6])',
  'layout Z = X.GroupBy([6])',
  'layout W = X.OrderBy(Row(3, 2)).GroupBy([6])',
  '',
].join('\n');

test('every use of X after X.OrderBy(...) is reported, with the chain as a fix', () => {
  const ds = analyze(TEXT).diagnostics.filter((d) => d.code === 'lego/mutated-receiver');
  const at = (s: string) => TEXT.indexOf(s);
  assert.deepEqual(ds.map((d) => [d.range.start, d.range.end, d.severity, d.message]), [
    [at('X.GroupBy'), at('X.GroupBy') + 1, 'warning', "in LEGO's Python, .OrderBy(...) mutates its receiver: after line 2, X is X.OrderBy(Col(2, 3)); here X is unchanged (layouts are values)"],
    [at('X.OrderBy(Row'), at('X.OrderBy(Row') + 1, 'warning', "in LEGO's Python, .OrderBy(...) mutates its receiver: after line 2, X is X.OrderBy(Col(2, 3)); here X is unchanged (layouts are values)"],
  ]);
  assert.deepEqual(ds[0].related?.map((r) => TEXT.slice(r.range.start, r.range.end)), ['X.OrderBy(Col(2, 3))']);
  // the first fix: Z as LEGO computes it
  const fixed = applyFix(TEXT, ds[0].fixes![0]);
  assert.equal(ds[0].fixes![0].title, "Write LEGO's value of X out: OrderBy(Row(2, 3)).OrderBy(Col(2, 3))");
  assert.equal(fixed.split('\n')[2], 'layout Z = OrderBy(Row(2, 3)).OrderBy(Col(2, 3)).GroupBy([6])');
  const p = parse(fixed);
  const m = elaborate(p.file, resolve(p.file, p.lines)).model;
  const E = new Map<string, bigint>();
  // LEGO: Z = GroupBy([6], [X's chain: Row(2, 3), Col(2, 3)]), the same layout as Y
  assert.deepEqual(A.applyTable(m.layouts.get('Z')!.layout!, E), A.applyTable(m.layouts.get('Y')!.layout!, E));
  // and different from the unfixed Z (what the warning is about)
  const p0 = parse(TEXT);
  const m0 = elaborate(p0.file, resolve(p0.file, p0.lines)).model;
  assert.notDeepEqual(A.applyTable(m0.layouts.get('Z')!.layout!, E), A.applyTable(m0.layouts.get('Y')!.layout!, E));
  assert.deepEqual(analyze(TEXT).diagnostics.filter((d) => d.severity === 'error'), []);
  // the fixed text extends nothing: W is still the only use reported, and its fix is then clean
  const ds2 = analyze(fixed).diagnostics.filter((d) => d.code === 'lego/mutated-receiver');
  assert.deepEqual(ds2.map((d) => TEXT.slice(0, 0) + fixed.slice(d.range.start, d.range.end + 10)), ['X.OrderBy(R']);
  const clean = applyFix(fixed, ds2[0].fixes![0]);
  assert.equal(clean.split('\n')[3], 'layout W = OrderBy(Row(2, 3)).OrderBy(Col(2, 3)).OrderBy(Row(3, 2)).GroupBy([6])');
  assert.deepEqual(analyze(clean).diagnostics.filter((d) => d.code === 'lego/mutated-receiver'), []);
});

test('no warning without a later use, for a fresh OrderBy(...) value, or in the examples', () => {
  for (const text of [
    'layout X = OrderBy(Row(2, 3))\nlayout Y = X.OrderBy(Col(2, 3)).GroupBy([6])\n',
    'layout X = OrderBy(Row(2, 3)).OrderBy(Col(2, 3)).GroupBy([6])\nlayout Y = X.GroupBy([6])\n',
    'layout X = OrderBy(Row(2, 3))\nlayout Y = X.GroupBy([6])\nlayout Z = X.TileBy([2, 3])\n',
  ]) {
    assert.deepEqual(analyze(text).diagnostics.filter((d) => d.code === 'lego/mutated-receiver'), [], text);
  }
  const dir = new URL('../../../examples/', import.meta.url);
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.layout'))) {
    assert.deepEqual(analyze(readFileSync(new URL(f, dir), 'utf8')).diagnostics.filter((d) => d.code === 'lego/mutated-receiver'), [], f);
  }
});

test('the chain is found with white space or a comment between the dot and OrderBy', () => {
  for (const spelling of ['X .\n   OrderBy(Col(2, 3))', 'X. # the columns\n  OrderBy(Col(2, 3))', 'X\n  .OrderBy(Col(2, 3))']) {
    const text = `layout X = OrderBy(Row(2, 3))\nlayout Y = ${spelling}.GroupBy([6])\nlayout Z = X.GroupBy([6])\n`;
    const ds = analyze(text).diagnostics.filter((d) => d.code === 'lego/mutated-receiver');
    assert.deepEqual(ds.map((d) => text.slice(d.range.start, d.range.end + 8)), ['X.GroupBy'], spelling);
  }
});

test('an editing session: the warnings follow extensions made, removed and moved, as a whole-file analysis gives them (incremental analysis)', async () => {
  const { IncrementalAnalysis } = await import('../../../server/src/service/incremental.js');
  const filler = Array.from({ length: 30 }, (_, k) => `layout F${k} = OrderBy(Row(2, ${k + 2}))`).join('\n');
  let text = `${filler}\n${TEXT}${filler.replace(/F(\d+)/g, 'G$1')}\n`;
  const a = new IncrementalAnalysis();
  const codes = (ds: { code: string; range: { start: number } }[]) => ds.filter((d) => d.code === 'lego/mutated-receiver').map((d) => d.range.start);
  const step = (at: number, del: number, ins: string) => {
    text = text.slice(0, at) + ins + text.slice(at + del);
    assert.deepEqual(codes(a.diagnose(text).diagnostics), codes(analyze(text).diagnostics), JSON.stringify(text));
    return codes(a.diagnose(text).diagnostics).length;
  };
  assert.equal(step(0, 0, ''), 2);
  // Y extends F0 instead (no use of F0 follows; W's extension of X has no later use either), then X
  // again, an edit far away, an extension of Z with a use after it at the end, that use deleted
  assert.equal(step(text.indexOf('X.OrderBy(Col'), 1, 'F0'), 0);
  assert.equal(step(text.indexOf('F0.OrderBy(Col'), 2, 'X'), 2);
  assert.equal(step(text.indexOf('Row(2, 7)'), 0, ' '), 2);
  assert.equal(step(text.length, 0, 'layout V = Z.OrderBy(Col(1, 1))\nlayout U = Z\n'), 3);
  assert.equal(step(text.indexOf('layout U'), 'layout U = Z\n'.length, ''), 2);
});
