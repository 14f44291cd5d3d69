// commonPrefixLength / commonSuffixLength (compared in blocks) answer as the character loops do:
// on edits of every size at every place of texts long enough for many blocks, on unrelated and
// empty texts, and with the suffix bounded (what the chunked parser's `cut` asks).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { commonPrefixLength, commonSuffixLength } from '../../server/src/service/common-affix.js';

function prefix(a: string, b: string): number {
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  return p;
}

function suffix(a: string, b: string, max: number): number {
  let s = 0;
  while (s < max && s < a.length && s < b.length && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  return s;
}

const base = Array.from({ length: 3000 }, (_, i) => `line ${i % 97} ${'x'.repeat(i % 13)}\n`).join('');

test('an edit anywhere: the common prefix and suffix are the character loops\'', () => {
  fc.assert(fc.property(fc.integer({ min: 0, max: base.length }), fc.integer({ min: 0, max: 5000 }), fc.string({ maxLength: 40 }), fc.nat(), (at, cut, ins, bound) => {
    const edited = base.slice(0, at) + ins + base.slice(Math.min(base.length, at + cut));
    const p = commonPrefixLength(base, edited);
    assert.equal(p, prefix(base, edited));
    assert.equal(commonPrefixLength(edited, base), p);
    const max = Math.min(base.length, edited.length) - p;
    assert.equal(commonSuffixLength(base, edited, max), suffix(base, edited, max));
    assert.equal(commonSuffixLength(base, edited), suffix(base, edited, Infinity));
    const b = bound % (max + 1);
    assert.equal(commonSuffixLength(edited, base, b), suffix(edited, base, b));
  }), { numRuns: 300 });
});

test('equal, empty and unrelated texts; a difference at each end', () => {
  assert.equal(commonPrefixLength(base, base), base.length);
  assert.equal(commonSuffixLength(base, base), base.length);
  assert.equal(commonSuffixLength(base, base, 10), 10);
  assert.equal(commonPrefixLength('', base), 0);
  assert.equal(commonSuffixLength(base, ''), 0);
  assert.equal(commonPrefixLength('abc', 'xbc'), 0);
  assert.equal(commonSuffixLength('abc', 'abx'), 0);
  assert.equal(commonPrefixLength(base, base + 'more'), base.length);
  assert.equal(commonSuffixLength(base, 'more' + base), base.length);
  const last = base.slice(0, -1) + '!';
  assert.equal(commonPrefixLength(base, last), base.length - 1);
  assert.equal(commonSuffixLength(base, last), 0);
  const first = '!' + base.slice(1);
  assert.equal(commonPrefixLength(base, first), 0);
  assert.equal(commonSuffixLength(base, first), base.length - 1);
});
