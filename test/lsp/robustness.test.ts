// Never crash on bad input: every service feature, at every kind of offset, on randomly broken
// texts (in process, fast-check), and the formatter's guarantees on whatever still parses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LayoutDocument } from '../../server/src/service/document.js';
import { hover } from '../../server/src/service/hover.js';
import { completion } from '../../server/src/service/completion.js';
import { signatureHelp } from '../../server/src/service/signature-help.js';
import { definition, highlights, prepareRename, references, rename } from '../../server/src/service/navigation.js';
import { outline } from '../../server/src/service/outline.js';
import { foldingRanges } from '../../server/src/service/folding.js';
import { semanticTokens } from '../../server/src/service/semantic-tokens.js';
import { applyEdits, format } from '../../server/src/service/format.js';
import { inlayHints } from '../../server/src/service/inlay-hints.js';
import { syntaxDiagnostics } from '../../server/src/service/diagnose.js';
import { defaultSettings } from '../../server/src/service/settings.js';
import { matmul } from './fixtures.js';

const pieces = ['(', ')', '[', ']', '{', '}', ',', '.', ':', '=', '"', '#', '\n', ' ', 'x', '0', '-', '/', 'if', 'then', 'else',
  'layout ', 'param ', 'kernel ', 'schedule ', 'perm ', 'OrderBy(', 'Row(', '.TileBy(', '.inv(', 'A[', 'findOp(', '\u00e9', '\ud83d\ude00', '\t', '$'];

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 12 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 4 }).map((a) => a.join('')) }),
);

function mutate(text: string, ms: { kind: 'delete' | 'insert'; at: number; len?: number; text?: string }[]): string {
  let t = text;
  for (const m of ms) {
    const at = t.length ? m.at % (t.length + 1) : 0;
    t = m.kind === 'delete' ? t.slice(0, at) + t.slice(at + (m.len ?? 1)) : t.slice(0, at) + m.text + t.slice(at);
  }
  return t;
}

function exercise(text: string, offsets: number[]): void {
  const doc = new LayoutDocument('file:///fuzz.layout', 1, text);
  syntaxDiagnostics(text);
  outline(doc.file, text);
  foldingRanges(doc.file, text, doc.lines);
  semanticTokens(doc);
  inlayHints(doc, { start: 0, end: text.length }, defaultSettings);
  for (const raw of offsets) {
    const o = text.length ? raw % (text.length + 1) : 0;
    hover(doc, o, defaultSettings);
    completion(doc, o);
    signatureHelp(doc, o);
    definition(doc, o);
    references(doc, o, true);
    highlights(doc, o);
    prepareRename(doc, o);
    rename(doc, o, 'renamed_x');
  }
  const f = format(doc);
  if ('edits' in f) {
    const out = applyEdits(text, f.edits);
    assert.equal(out.replace(/\s+/g, ''), text.replace(/\s+/g, ''), 'formatting changed more than whitespace');
    const again = format(new LayoutDocument('file:///fuzz.layout', 2, out));
    assert.deepEqual(again, { edits: [] }, 'formatting is not idempotent');
  }
}

test('every feature survives randomly broken files', () => {
  fc.assert(
    fc.property(fc.array(mutation, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { minLength: 4, maxLength: 8 }), (ms, offsets) => {
      exercise(mutate(matmul, ms), offsets);
    }),
    { numRuns: 150, seed: 11 },
  );
});

test('empty, whitespace-only and pathological texts', () => {
  for (const t of ['', ' ', '\n\n\n', '#', '"', '(((((((', ']]]]', 'layout', 'kernel k target', 'schedule s for', '\r\n\r', '\ud83d', 'layout A = ' + '('.repeat(500)]) {
    exercise(t, [0, 1, 2, t.length, t.length + 5]);
  }
});
