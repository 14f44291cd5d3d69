// `declAt` (binary search over the declarations) answers as the plain scan does ("the first
// declaration whose range contains the offset, ends included") at every offset of the examples and
// of randomly broken texts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type * as ast from '../../grammar/src/ast.js';
import { LayoutDocument, declAt } from '../../server/src/service/document.js';

const scan = (file: ast.File, offset: number) => file.decls.find((d) => d.range.start <= offset && offset <= d.range.end);

function same(text: string, where: string): void {
  const file = new LayoutDocument('file:///t.layout', 1, text).file;
  for (let o = 0; o <= text.length; o++) assert.equal(declAt(file, o), scan(file, o), `${where} at ${o}`);
}

const examples = join(import.meta.dirname, '../../examples');

test('declAt equals the scan at every offset of the examples', () => {
  const files = readdirSync(examples).filter((f) => f.endsWith('.layout'));
  assert.ok(files.length >= 8);
  for (const f of files) same(readFileSync(join(examples, f), 'utf8'), f);
});

test('declAt equals the scan at every offset of broken texts (touching and missing declarations)', () => {
  const base = readFileSync(join(examples, 'matmul.layout'), 'utf8');
  fc.assert(fc.property(fc.integer({ min: 0, max: base.length }), fc.integer({ min: 0, max: 40 }), fc.string({ maxLength: 6 }), (at, cut, ins) => {
    same(base.slice(0, at) + ins + base.slice(Math.min(base.length, at + cut)), `cut ${cut} at ${at}, ${JSON.stringify(ins)}`);
  }), { numRuns: 60, seed: 14 });
  same('param A = 1\nparam B = 2', 'touching');
  same('', 'empty');
});
