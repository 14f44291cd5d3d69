// lsp/convert.ts `Positions`: offsets to LSP positions by a cursor over the parse's line starts, the
// same positions as the editor's document (`TextDocument.positionAt`) whatever the order of the offsets:
// LF, CR and CRLF line ends, an offset inside a CRLF pair, before the start and past the end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LineIndex } from '../../grammar/src/line-index.js';
import { Positions } from '../../server/src/lsp/convert.js';

const text = fc.array(fc.constantFrom('a', 'bc', ' ', '\n', '\r', '\r\n', '\n\n', 'é', '🧩'), { maxLength: 200 }).map((xs) => xs.join(''));

test('Positions gives TextDocument.positionAt for every offset, in any order', () => {
  fc.assert(
    fc.property(text, fc.array(fc.integer({ min: -3, max: 260 }), { maxLength: 80 }), fc.boolean(), (t, offsets, sorted) => {
      const doc = TextDocument.create('file:///p', 'layout', 1, t);
      const at = new Positions(t, new LineIndex(t));
      const os = sorted ? [...offsets].sort((a, b) => a - b) : offsets;
      for (const o of os) assert.deepEqual(at.at(o), doc.positionAt(o), `offset ${o} in ${JSON.stringify(t)}`);
    }),
    { numRuns: 500 },
  );
});

test('Positions: far jumps forward and back on a long text', () => {
  const t = Array.from({ length: 500 }, (_, i) => `line ${i}${i % 3 === 0 ? '\r\n' : '\n'}`).join('');
  const doc = TextDocument.create('file:///p', 'layout', 1, t);
  const at = new Positions(t, new LineIndex(t));
  for (const o of [0, 5, 4000, 4001, 3990, 17, t.length, t.length + 5, 2000, 2001, 1999, 6, 7, 8, 100, 350]) assert.deepEqual(at.at(o), doc.positionAt(o), `offset ${o}`);
});
