// Hovers show the values of the elaborated model (issue 10 §1): the one the checks use. A let that
// uses a name before its declaration has no value; of a name declared twice the first counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LayoutDocument } from '../../server/src/service/document.js';
import { hover } from '../../server/src/service/hover.js';
import { defaultSettings } from '../../server/src/service/settings.js';

const text = `param M = 6, M = 8
param N = M * 2
let early = later * 2
let later = 3
let fine = later * 2
`;
const doc = new LayoutDocument('file:///v.layout', 1, text);
const at = (s: string, k = 0): number => text.indexOf(s) + k;

test('a let used before its declaration: no value in the hover', () => {
  assert.equal(hover(doc, at('early'), defaultSettings)!.markdown, '**let** `early` = `later * 2`\n\n0 uses in this file');
  assert.equal(hover(doc, at('fine'), defaultSettings)!.markdown, '**let** `fine` = `later * 2`\n\nvalue: `6` (at the params\' values)\n\n0 uses in this file');
});

test('a param declared twice: the first value everywhere, the second says it is not used', () => {
  assert.equal(hover(doc, at('N ='), defaultSettings)!.markdown,
    '**param** `N` = `M * 2`\n\nvalue: `12`\n\nstays symbolic in generated expressions\n\n0 uses in this file');
  assert.equal(hover(doc, at('M = 8'), defaultSettings)!.markdown,
    '**param** `M` = `8`\n\na second declaration of `M`: the first one is the one used\n\nstays symbolic in generated expressions\n\n0 uses in this file');
});
