// The outline (service/outline.ts) keeps each declaration's items by declaration object: the chunked
// parse keeps an unchanged declaration (moving its ranges in place), so its items are the same in every
// version. Held to the items made from a fresh parse of each version (`declOutline`, nothing kept), version after version
// of random edits of every .layout file of the repository, through one parser as the server keeps it;
// and an older snapshot read again (its parse claimed back) gives its own outline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse } from '../../grammar/src/parse.js';
import { ChunkedParser } from '../../server/src/service/chunks.js';
import { DocumentHistory, LayoutDocument } from '../../server/src/service/document.js';
import { declOutline, outline, type OutlineItem } from '../../server/src/service/outline.js';

const root = join(import.meta.dirname, '../..');
const files = execFileSync('git', ['ls-files', '*.layout'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean).map((f) => readFileSync(join(root, f), 'utf8'));

/** the items as values (ranges read now: a kept item holds the AST's range objects) */
const values = (items: readonly OutlineItem[]): unknown[] =>
  items.map((it) => [it.name, it.detail, it.kind, it.range.start, it.range.end, it.selectionRange.start, it.selectionRange.end, values(it.children)]);

test('the outline through one chunked parser equals a fresh parse\'s, version after version of random edits', () => {
  const bits = ['\n', ' ', 'layout ', 'param ', 'const ', 'kernel ', 'perm ', 'x', 'A0', '= ', '1', '(', ')', ',', '"', '#'];
  fc.assert(fc.property(
    fc.integer({ min: 0, max: files.length - 1 }),
    fc.array(fc.record({ at: fc.nat(), del: fc.nat({ max: 12 }), ins: fc.array(fc.constantFrom(...bits), { maxLength: 3 }) }), { minLength: 1, maxLength: 6 }),
    (k, edits) => {
      const parser = new ChunkedParser();
      const history = new DocumentHistory();
      let text = files[k];
      const versions: { doc: LayoutDocument; expected: unknown[] }[] = [];
      for (let v = 0; v <= edits.length; v++) {
        if (v > 0) {
          const e = edits[v - 1];
          const at = e.at % (text.length + 1);
          text = text.slice(0, at) + e.ins.join('') + text.slice(at + e.del);
        }
        const doc = new LayoutDocument('file:///o.layout', v + 1, text, parser, history);
        // made now from a fresh parse (nothing kept: `declOutline` per declaration)
        const expected = values(parse(text).file.decls.flatMap((d) => declOutline(d, text)));
        assert.deepEqual(values(outline(doc.file, doc.text)), expected, `version ${v + 1}: ${JSON.stringify(text.slice(0, 120))}`);
        versions.push({ doc, expected });
      }
      // the first version read again: its parse claimed back, its own outline
      assert.deepEqual(values(outline(versions[0].doc.file, versions[0].doc.text)), versions[0].expected);
    },
  ), { numRuns: 120, seed: 20261124 });
});
