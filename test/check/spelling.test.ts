// Call and method spellings of every chain constructor give identical diagnostics (codes,
// severities, messages, fix counts; the hints of unused params aside), because the rules read the layout the elaborator built, not its syntax
// (issue 10 §1). Row, Col, RegP and GenP have only the call spelling. Each case is also checked
// with a query on the layout, and the annotated fixture rules/spelling/constructors.layout pins
// the ranges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/check/index.js';

const PARAMS = 'param M = 128, K = 64, BM = 32, BK = 16\n';

/** [what, method spelling, call spelling, query] */
const cases: [string, string, string, string][] = [
  ['OrderBy chain under GroupBy', 'OrderBy(Row(4, 8)).OrderBy(Col(5, 7)).GroupBy([6, 6])', 'GroupBy([6, 6], [OrderBy(Row(4, 8)), OrderBy(Col(5, 7))])', 'L[0]'],
  ['TileOrderBy under GroupBy (120 elements, view of 128)', 'OrderBy(Row(8, 15)).TileOrderBy([2, 3], [4, 5]).GroupBy([8, 16])', 'GroupBy([8, 16], [OrderBy(Row(8, 15)), TileOrderBy([2, 3], [4, 5])])', 'L[0, 0]'],
  ['TileOrderBy levels of different ranks', 'OrderBy(Row(8, 15)).TileOrderBy([2, 3], [4]).GroupBy([8, 15])', 'GroupBy([8, 15], [OrderBy(Row(8, 15)), TileOrderBy([2, 3], [4])])', 'L[0, 0]'],
  ['GroupBy view of another size', 'OrderBy(Row(4, 8)).GroupBy([6, 6])', 'GroupBy([6, 6], [OrderBy(Row(4, 8))])', 'L[6, 0]'],
  ['GroupBy per-level tuples', 'OrderBy(Row(6, 6)).GroupBy([(2, 3), (2, 4)])', 'GroupBy([(2, 3), (2, 4)], [OrderBy(Row(6, 6))])', 'L[0, 0, 0, 9]'],
  ['TileBy level product', 'OrderBy(Row(M, K)).TileBy([M / BM, 2], [BM, BK])', 'TileBy(OrderBy(Row(M, K)), [M / BM, 2], [BM, BK])', 'L[0, 0, 0]'],
  ['TileBy level ranks', 'OrderBy(Row(8, 8)).TileBy([2, 2], [4])', 'TileBy(OrderBy(Row(8, 8)), [2, 2], [4])', 'L.inv(64)'],
  ['TileBy division with a remainder', 'OrderBy(Row(M, K)).TileBy([M / 48, K / BK], [48, BK])', 'TileBy(OrderBy(Row(M, K)), [M / 48, K / BK], [48, BK])', 'L[0, 0, 0, 99]'],
  ['ExpandBy queries', 'OrderBy(Row(8, 8)).TileBy([2, 2], [4, 4]).ExpandBy([7, 7])', 'ExpandBy(OrderBy(Row(8, 8)).TileBy([2, 2], [4, 4]), [7, 7])', 'L[1]'],
  ['ExpandBy flat index', 'OrderBy(Row(8, 8)).TileBy([2, 2], [4, 4]).ExpandBy([7, 7])', 'ExpandBy(OrderBy(Row(8, 8)).TileBy([2, 2], [4, 4]), [7, 7])', 'L.inv(49)'],
  ['ExpandBy over a GroupBy without a physical shape', 'OrderBy(Row(4, 4)).GroupBy([4, 4]).ExpandBy([3, 4])', 'ExpandBy(OrderBy(Row(4, 4)).GroupBy([4, 4]), [3, 4])', 'L[0, 0]'],
];

function diagnostics(layout: string, query: string): string[] {
  const text = `${PARAMS}layout L = ${layout}\nkernel k target cuda builtin transpose {\n  q = ${query}\n}\n`;
  return analyze(text, { slow: true }).diagnostics.filter((d) => d.severity !== 'hint').map((d) => `${d.severity} ${d.code}: ${d.message}${d.fixes ? ` (${d.fixes.length} fixes)` : ''}`);
}

for (const [what, method, call, query] of cases) {
  test(`same diagnostics in both spellings: ${what}`, () => {
    const m = diagnostics(method, query);
    assert.ok(m.some((d) => d.startsWith('error')), `the case must have an error: ${JSON.stringify(m)}`);
    assert.deepEqual(diagnostics(call, query), m);
  });
}

test('the issue-10 cases give the expected diagnostics', () => {
  assert.deepEqual(diagnostics(cases[1][1], cases[1][3]), [
    'error size/groupby-mismatch: GroupBy [8, 16] has 128 elements but OrderBy(Row(8, 15)) has 120',
  ]);
  assert.deepEqual(diagnostics(cases[8][1], cases[8][3]), [
    'error query/arity: L takes 4 indices (its logical shape is [2, 2, 4, 4]) but 1 is given',
  ]);
});
