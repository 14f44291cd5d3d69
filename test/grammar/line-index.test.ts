// LineIndex: offsets <-> 0-based positions, for \n, \r\n and \r line ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LineIndex } from '../../grammar/src/index.js';

test('positions and offsets with every kind of line end', () => {
  const text = 'ab\ncd\r\nef\rg';
  const li = new LineIndex(text);
  assert.equal(li.lineCount, 4);
  assert.deepEqual([0, 2, 3, 5, 6, 7, 9, 10, 11].map((o) => li.position(o)), [
    { line: 0, character: 0 }, { line: 0, character: 2 }, { line: 1, character: 0 }, { line: 1, character: 2 },
    { line: 1, character: 3 }, { line: 2, character: 0 }, { line: 2, character: 2 }, { line: 3, character: 0 }, { line: 3, character: 1 },
  ]);
  assert.equal(li.offset({ line: 1, character: 1 }), 4);
  assert.equal(li.offset({ line: 1, character: 99 }), 5); // clamps to the line's end, before \r\n
  assert.equal(li.offset({ line: 2, character: 99 }), 9); // before \r
  assert.equal(li.offset({ line: 9, character: 0 }), text.length);
  assert.equal(li.offset({ line: -1, character: 5 }), 0);
  assert.equal(li.format(7), '3:1');
  assert.deepEqual(li.position(-5), { line: 0, character: 0 });
  assert.deepEqual(li.position(999), { line: 3, character: 1 });
  assert.equal(li.lineStart(2), 7);
});

test('UTF-16 columns: a character outside the BMP counts two', () => {
  const li = new LineIndex('a\u{1F600}b\nc');
  assert.deepEqual(li.position(3), { line: 0, character: 3 });
  assert.equal(li.format(5), '2:1');
});

test('offset(position(o)) = o for every offset that is not inside a \\r\\n pair', () => {
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom('a', 'b', '\n', '\r', '\r\n'), maxLength: 40 }), (text) => {
      const li = new LineIndex(text);
      for (let o = 0; o <= text.length; o++) {
        if (text[o - 1] === '\r' && text[o] === '\n') continue;
        assert.equal(li.offset(li.position(o)), o);
      }
    }),
    { numRuns: 200 },
  );
});
