// Requests that lex only around the cursor answer as with the whole file's tokens: the tokens of
// whole lines lexed alone are the file's tokens of those lines, and completion from its window of
// tokens (two declarations back to the cursor's line end) equals completion from every token, at
// every offset of the examples, the test fixtures, the benchmark's block and randomly broken texts.
// Its names in scope equal the symbol index's `visibleAt`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { tokenInfos } from '../../grammar/src/token-info.js';
import { LayoutDocument } from '../../server/src/service/document.js';
import { clipSource, completion, completionWith, visibleNames } from '../../server/src/service/completion.js';
import { lineTokens, tokensOfLines } from '../../server/src/service/local-tokens.js';
import { layoutBlock } from '../../bench/support/lsp-files.js';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { SnapshotCache } from '../../server/src/lsp/context.js';
import { apply, edit } from './edits.js';
import { matmul } from './fixtures.js';

const examples = join(import.meta.dirname, '../../examples');
const texts: [string, string][] = [
  ...readdirSync(examples).filter((f) => f.endsWith('.layout')).map((f): [string, string] => [f, readFileSync(join(examples, f), 'utf8')]),
  ['fixture', matmul],
  ['bench', layoutBlock(0) + layoutBlock(1)],
  ['crlf', matmul.replace(/\n/g, '\r\n')],
  ['cr', matmul.replace(/\n/g, '\r')],
  // a scan that stops at a declaration keyword looks two tokens back, into the declaration before
  ['lookback', 'param M = 4\nschedule\nlayout for linalg.'],
  ['odd', 'param M = 4 # x "y\nlayout A = OrderBy(Row(M, M))\n  "unterminated\nkernel k target cuda builtin copy {\n  a = A[i, j]\n} @ # z\nschedule s for linalg.matmul(M, M, M) : f16 x f16 -> f32 on sm_90 {\n  mm = findOp("linalg.matmul")\n  tile(mm, [1, 2, 3])\n}\nlinear L = blocked(shape=[4, 4])\nassume M % 4 == 0\nparam'],
];

function sameEverywhere(name: string, text: string, step = 1): void {
  const doc = new LayoutDocument('file:///t.layout', 1, text);
  const all = tokenInfos(text);
  for (let o = 0; o <= text.length; o += step) {
    // the line's tokens are the file's tokens on that line
    const line = lineTokens(text, o);
    if (line.length) {
      const from = all.findIndex((t) => t.range.start === line[0].range.start);
      assert.deepEqual(all.slice(from, from + line.length), line, `${name}: tokens of the line at ${o}`);
    }
    assert.deepEqual(completion(doc, o), completionWith(doc, o, all), `${name}: completion at ${o}`);
    assert.deepEqual(visibleNames(doc, o), doc.symbols.visibleAt(o), `${name}: names in scope at ${o}`);
    namesDescribed(doc, o, `${name} at ${o}`);
  }
}

/** Each name completion offers says what its symbol (as the symbol index has it now) declares: its kind and source on one line. */
function namesDescribed(doc: LayoutDocument, o: number, what: string): void {
  const visible = new Map(doc.symbols.visibleAt(o).map((d) => [d.name, d]));
  for (const it of completion(doc, o).items) {
    if (it.sortText !== '1') continue;
    const d = visible.get(it.label)!;
    const src = doc.text.slice(d.declRange.start, d.declRange.end).replace(/\s+/g, ' ');
    const clipped = src.length > 60 ? src.slice(0, 57) + '...' : src;
    const detail = { free: 'free index symbol', permParam: 'perm size parameter', permIndex: 'perm index', inverseArg: 'inverse argument', handle: `handle: ${clipped}` }[d.kind as string] ?? clipped;
    assert.deepEqual([it.kind, it.detail], [d.kind, detail], `${what}: ${it.label}`);
  }
}

test('line tokens and completion windows answer as the whole file does, at every offset', () => {
  for (const [name, text] of texts) sameEverywhere(name, text);
});

test('the same on randomly broken texts', () => {
  const pieces = ['(', ')', '[', ']', '{', '}', ',', '.', ':', '=', '"', '#', '\n', '\r', ' ', 'x', 'for ', 'schedule ', 'kernel ', 'param ',
    'layout ', 'let ', 'perm ', 'const ', 'assume ', 'linear ', '-', '>', 'target ', 'on '];
  fc.assert(fc.property(fc.array(fc.record({ at: fc.nat(), text: fc.constantFrom(...pieces) }), { maxLength: 6 }), (edits) => {
    let t = matmul;
    for (const e of edits) {
      const at = e.at % (t.length + 1);
      t = t.slice(0, at) + e.text + t.slice(at);
    }
    sameEverywhere('broken', t, 3);
  }), { numRuns: 40, seed: 14 });
});

test('tokens of lines are shifted to file offsets', () => {
  const text = 'param M = 4\nlayout A = OrderBy(Row(M, M)) # c\n';
  assert.deepEqual(tokensOfLines(text, 14, 14).map((t) => [t.text, t.range.start, t.category]), [
    ['layout', 12, 'keyword'], ['A', 19, 'identifier'], ['=', 21, 'operator'], ['OrderBy', 23, 'constructor'], ['(', 30, 'punctuation'],
    ['Row', 31, 'constructor'], ['(', 34, 'punctuation'], ['M', 35, 'identifier'], [',', 36, 'punctuation'], ['M', 38, 'identifier'],
    [')', 39, 'punctuation'], [')', 40, 'punctuation'], ['# c', 42, 'comment'],
  ]);
});

test('a name\'s detail: its declaration on one line, cut at 60 characters, as the whole text made one line and cut', () => {
  const chars = fc.constantFrom('a', 'b', ' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2028', '\ufeff', '\u3000', 'é', '\ud83d\ude00', '(', 'x'.repeat(20));
  fc.assert(fc.property(fc.array(chars, { maxLength: 40 }).map((a) => a.join('')), fc.nat(), fc.nat(), (text, a, b) => {
    const start = Math.min(a, b) % (text.length + 1);
    const end = Math.min(text.length, start + (Math.max(a, b) % (text.length + 1)));
    const src = text.slice(start, end).replace(/\s+/g, ' ');
    assert.equal(clipSource(text, start, end), src.length > 60 ? src.slice(0, 57) + '...' : src);
  }), { numRuns: 2000, seed: 60 });
});

test('after edits, the names completion offers are described as their declarations now read (symbols kept across versions)', () => {
  const cache = new SnapshotCache();
  let text = layoutBlock(0) + layoutBlock(1);
  fc.assert(fc.property(fc.array(edit, { minLength: 1, maxLength: 6 }), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 4, maxLength: 4 }), (edits, spots) => {
    let version = 0;
    for (const e of edits) {
      text = apply(text, e);
      const doc = cache.get(TextDocument.create('file:///kept.layout', 'layout', ++version, text));
      for (const f of spots) namesDescribed(doc, Math.floor(f * (text.length + 1)), `after ${JSON.stringify(e)}`);
    }
    cache.delete('file:///kept.layout');
  }), { numRuns: 25, seed: 1515 });
});
