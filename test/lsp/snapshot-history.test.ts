// The server's snapshots re-use the earlier versions' work (SnapshotCache: the chunked parse, name
// resolution per declaration, elaborated models per declaration): after any edits, every answer
// is the one a fresh snapshot of the same text gives (hover, definition, references, highlights,
// inlay hints), and the work is really re-used.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { SnapshotCache } from '../../server/src/lsp/context.js';
import { LayoutDocument } from '../../server/src/service/document.js';
import { modelOfDecl } from '../../server/src/service/elaboration.js';
import { hover } from '../../server/src/service/hover.js';
import { inlayHints } from '../../server/src/service/inlay-hints.js';
import { definition, highlights, references } from '../../server/src/service/navigation.js';
import { defaultSettings, type Settings } from '../../server/src/service/settings.js';
import { layoutFile } from '../../bench/support/lsp-files.js';
import { apply, edit } from './edits.js';
import { root } from './harness.js';

const examples = readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.layout')).sort()
  .map((f) => readFileSync(join(root, 'examples', f), 'utf8'));
const settings: Settings = { ...defaultSettings, inlayHints: { enabled: true, maxLength: 100_000 } };

/** JSON with bigints as strings */
function plain(x: unknown): unknown {
  return JSON.parse(JSON.stringify(x ?? null, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)));
}

/** What the features answer on `doc`: at the start and the end of every word, and the hints of the whole text. */
function answers(doc: LayoutDocument): unknown {
  const out: unknown[] = [];
  for (const m of doc.text.matchAll(/[A-Za-z_][A-Za-z0-9_]*|\[/g)) {
    for (const o of [m.index, m.index + m[0].length]) {
      out.push([o, plain(hover(doc, o, settings)), plain(definition(doc, o)), plain(references(doc, o, true)), plain(highlights(doc, o))]);
    }
  }
  out.push(plain(inlayHints(doc, { start: 0, end: doc.text.length }, settings)));
  return out;
}

test('snapshots that re-use earlier versions answer as fresh ones, after any edits (property)', () => {
  fc.assert(fc.property(fc.constantFrom(...examples.keys()), fc.array(edit, { minLength: 1, maxLength: 6 }), fc.nat(), (k, edits, seed) => {
    const cache = new SnapshotCache();
    let text = examples[k];
    let version = 1;
    for (const e of [undefined, ...edits]) {
      if (e) text = apply(text, e);
      const doc = cache.get(TextDocument.create('file:///h.layout', 'layout', version++, text));
      // ask some versions first about one declaration only (what later versions may re-use)
      if ((seed + version) % 3 === 0 && doc.file.decls.length) modelOfDecl(doc, doc.file.decls[seed % doc.file.decls.length]);
      assert.deepEqual(answers(doc), answers(new LayoutDocument('file:///h.layout', version, text)), JSON.stringify(text));
    }
  }), { numRuns: 25 });
});

test('a hover after an edit re-uses the unchanged declarations\' resolution and models', () => {
  const cache = new SnapshotCache();
  let text = layoutFile(300);
  const v1 = cache.get(TextDocument.create('file:///b.layout', 'layout', 1, text));
  const a1 = v1.file.decls.find((d) => d.kind === 'Layout' && d.name.name === 'A1')!;
  const m1 = modelOfDecl(v1, a1);
  // an edit in block 2 (same length): A1 keeps its model; block 2's layout A2 is elaborated again
  const at = text.indexOf('GM2 = 8') + 6;
  text = text.slice(0, at) + '4' + text.slice(at + 1);
  const v2 = cache.get(TextDocument.create('file:///b.layout', 'layout', 2, text));
  const a1v2 = v2.file.decls.find((d) => d.kind === 'Layout' && d.name.name === 'A1')!;
  assert.equal(a1v2, a1, 'the unchanged declaration is the same object');
  assert.equal(modelOfDecl(v2, a1v2), m1);
  assert.equal(v2.symbols.resolution.unitOf(a1v2), v1.symbols.resolution.unitOf(a1));
  const pid2 = (d: LayoutDocument) => d.file.decls.find((x) => x.kind === 'Layout' && x.name.name === 'Pid2')!;
  const before = modelOfDecl(v1, pid2(v1));
  assert.notEqual(modelOfDecl(v2, pid2(v2)), before, 'Pid2 uses GM2: elaborated again');
  assert.deepEqual(plain(hover(v2, text.indexOf('A1 ='), settings)), plain(hover(new LayoutDocument('file:///b.layout', 2, text), text.indexOf('A1 ='), settings)));
});

test('a second request on the same version re-uses its snapshot: the same parse and name resolution, nothing built again', () => {
  const cache = new SnapshotCache();
  const text = Array.from({ length: 3000 }, (_, i) => `param p${i} = 1`).join('\n') + '\n';
  const doc = TextDocument.create('file:///same.layout', 'layout', 1, text);
  const a = cache.get(doc);
  const file = a.file;
  const symbols = a.symbols;
  assert.equal(hover(a, text.indexOf('p2999'), defaultSettings)?.markdown.split('\n')[0], '**param** `p2999` = `1`');
  const b = cache.get(doc);
  assert.equal(b, a);
  assert.equal(b.file, file);
  assert.equal(b.symbols, symbols);
  // a new version is a new snapshot
  const c = cache.get(TextDocument.create('file:///same.layout', 'layout', 2, text + 'param q = 2\n'));
  assert.notEqual(c, a);
  assert.equal(c.file.decls[0], file.decls[0]);
});
