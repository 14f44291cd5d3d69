// Semantic tokens: the classification chunk by chunk (each chunk's classified tokens kept across
// versions while its declarations resolve as they did: service/semantic-tokens.ts `ChunkTokens`) and
// encoded as it comes (lsp/semantic-tokens.ts), held to the obvious
// construction it replaced (below: the whole text lexed into objects, maps of declarations and uses by
// offset, each token's position found by the editor document's `positionAt`), on every .layout file of
// the repository, the benchmark's file, and random edits of them (texts with syntax errors, CR and CRLF
// line ends), version after version through one parser and history as the server keeps them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { SemanticTokensBuilder } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type * as ast from '../../grammar/src/ast.js';
import { children as childrenOf } from '../../grammar/src/ast.js';
import { MAX_DIAGNOSTICS } from '../../grammar/src/parse-limits.js';
import { ChunkedParser } from '../../server/src/service/chunks.js';
import { DocumentHistory, LayoutDocument } from '../../server/src/service/document.js';
import { constructor as builtinConstructor, method as builtinMethod, primitive as builtinPrimitive } from '../../server/src/service/builtins.js';
import { byKind, semanticTokens, tokenModifiers, tokenTypes, type SemanticToken, type SemanticType, type SemanticModifier } from '../../server/src/service/semantic-tokens.js';
import { semanticTokens as lspSemanticTokens, semanticTokensDelta as lspSemanticTokensDelta, semanticTokensRange as lspSemanticTokensRange } from '../../server/src/lsp/semantic-tokens.js';
import type { ServerContext } from '../../server/src/lsp/context.js';
import { layoutFile } from '../../bench/support/lsp-files.js';

/** The classification as it was written first (its table of kinds is the module's): the reference. */
function reference(doc: LayoutDocument): SemanticToken[] {
  const special = new Map<number, { type: SemanticType; modifiers: SemanticModifier[] }>();
  const opRanges: ast.Range[] = [];
  const lib = (type: SemanticType) => ({ type, modifiers: ['defaultLibrary'] as SemanticModifier[] });
  const visit = (n: ast.AnyNode): void => {
    if (n.kind === 'MethodCall' && builtinMethod(n.method.name)) special.set(n.method.range.start, lib('method'));
    if (n.kind === 'Step' && builtinPrimitive(n.primitive.name)) special.set(n.primitive.range.start, lib('function'));
    for (const c of childrenOf(n)) visit(c);
  };
  for (const d of doc.file.decls) {
    if (d.kind === 'Kernel') {
      if (d.target) special.set(d.target.range.start, lib('enumMember'));
      if (d.template?.kind === 'builtin') special.set(d.template.name.range.start, lib('function'));
    }
    if (d.kind === 'Schedule') {
      if (d.gpu) special.set(d.gpu.range.start, lib('enumMember'));
      if (d.op) opRanges.push(d.op.range);
    }
    visit(d);
  }
  const ix = doc.symbols;
  const defAt = new Map(ix.defs.map((d) => [d.range.start, d]));
  const refAt = new Map(ix.refs.filter((r) => r.def).map((r) => [r.range.start, r.def]));
  const out: SemanticToken[] = [];
  const tok = (range: ast.Range, type: SemanticType, modifiers: SemanticModifier[] = []) => out.push({ range, type, modifiers });
  const tokens = doc.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    switch (t.category) {
      case 'keyword': tok(t.range, 'keyword'); continue;
      case 'number': tok(t.range, 'number'); continue;
      case 'string': tok(t.range, 'string'); continue;
      case 'comment': tok(t.range, 'comment'); continue;
      case 'operator': tok(t.range, 'operator'); continue;
      case 'punctuation': continue;
    }
    const start = t.range.start;
    const sp = special.get(start);
    if (sp) { tok(t.range, sp.type, [...sp.modifiers]); continue; }
    if (opRanges.some((r) => r.start <= start && t.range.end <= r.end)) { tok(t.range, 'type', ['defaultLibrary']); continue; }
    const def = defAt.get(start);
    if (def && def.range.end === t.range.end) { tok(t.range, byKind[def.kind].type, ['declaration', ...byKind[def.kind].modifiers]); continue; }
    const ref = refAt.get(start);
    if (ref) { tok(t.range, byKind[ref.kind].type, [...byKind[ref.kind].modifiers]); continue; }
    const prev = tokens[i - 1];
    if (prev && prev.text === '.' && builtinMethod(t.text)) { tok(t.range, 'method', ['defaultLibrary']); continue; }
    const bi = builtinConstructor(t.text);
    if (bi) { tok(t.range, bi.kind === 'function' ? 'function' : 'class', ['defaultLibrary']); continue; }
    tok(t.range, 'variable');
  }
  return out;
}

/** The LSP encoding as it was: each token's position from the editor document. */
function referenceEncoding(doc: TextDocument, model: LayoutDocument): number[] {
  const b = new SemanticTokensBuilder();
  for (const t of reference(model)) {
    const start = doc.positionAt(t.range.start);
    const end = doc.positionAt(t.range.end);
    if (end.line !== start.line || t.range.end <= t.range.start) continue;
    let mods = 0;
    for (const m of t.modifiers) mods |= 1 << tokenModifiers.indexOf(m);
    b.push(start.line, start.character, t.range.end - t.range.start, tokenTypes.indexOf(t.type), mods);
  }
  return b.build().data;
}

/** One document edited version after version, as the server keeps it (one parser, one history). */
class Versions {
  private readonly parser = new ChunkedParser();
  private readonly history = new DocumentHistory();
  private version = 0;
  /** the last result the client holds (a full one, or the one a delta's edits made) */
  private held?: { id: string; data: number[] };
  check(text: string): void {
    const model = new LayoutDocument('file:///t.layout', ++this.version, text, this.parser, this.history);
    const doc = TextDocument.create('file:///t.layout', 'layout', this.version, text);
    const why = JSON.stringify(text.slice(0, 160));
    assert.deepEqual(semanticTokens(model), reference(model), why);
    const ctx = { snapshot: () => ({ doc, model }) } as unknown as ServerContext;
    const textDocument = { uri: 'file:///t.layout' };
    const expected = referenceEncoding(doc, model);
    // a delta against what the client holds (deltas in a row; every third version a full result too)
    if (this.held) {
      const r = lspSemanticTokensDelta(ctx, { textDocument, previousResultId: this.held.id });
      assert.ok('edits' in r, why);
      const data = this.held.data.slice();
      for (const e of [...r.edits].sort((a, b) => b.start - a.start)) data.splice(e.start, e.deleteCount, ...(e.data ?? []));
      assert.deepEqual(data, expected, `delta, version ${this.version}: ${why}`);
      this.held = { id: r.resultId!, data };
    }
    if (!this.held || this.version % 3 === 0) {
      const full = lspSemanticTokens(ctx, { textDocument });
      assert.deepEqual(full.data, expected, why);
      this.held = { id: full.resultId!, data: full.data };
    }
    // a range (some lines of the text): every token it gives is the full result's, and every token of
    // the full result that starts in the range is among them
    const lines = model.lines;
    const first = (this.version * 7) % lines.lineCount;
    const range = { start: { line: first, character: 0 }, end: { line: first + 1 + (this.version % 4), character: 0 } };
    const got = decode(lspSemanticTokensRange(ctx, { textDocument, range }).data);
    const all = decode(expected);
    const key = (t: number[]) => t.join(',');
    const inFull = new Set(all.map(key));
    for (const t of got) assert.ok(inFull.has(key(t)), `range token ${key(t)} not in the full result: ${why}`);
    const [from, to] = [lines.offset(range.start), lines.offset(range.end)];
    const inRange = new Set(got.map(key));
    for (const t of all) {
      const at = lines.offset({ line: t[0], character: t[1] });
      if (at >= from && at < to) assert.ok(inRange.has(key(t)), `full token ${key(t)} in lines ${first}-${range.end.line} missing from the range result: ${why}`);
    }
  }
}

/** encoded tokens as [line, character, length, type, modifiers] each */
function decode(data: readonly number[]): number[][] {
  const out: number[][] = [];
  let line = 0;
  let ch = 0;
  for (let i = 0; i < data.length; i += 5) {
    line += data[i];
    ch = data[i] ? data[i + 1] : ch + data[i + 1];
    out.push([line, ch, data[i + 2], data[i + 3], data[i + 4]]);
  }
  return out;
}

const root = join(import.meta.dirname, '../..');
const layoutFiles = execFileSync('git', ['ls-files', '*.layout'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean).map((f) => readFileSync(join(root, f), 'utf8'));

test('semantic tokens: as the obvious construction gives them, on every .layout file of the repository and the benchmark file', () => {
  assert.ok(layoutFiles.length >= 40, String(layoutFiles.length));
  for (const text of [...layoutFiles, layoutFile(300)]) new Versions().check(text);
});

test('semantic tokens: a file with more syntax errors than a chunked parse keeps (parsed whole, one run), as the obvious construction gives them', () => {
  const broken = Array.from({ length: MAX_DIAGNOSTICS + 20 }, (_, k) => `layout B${k} = OrderBy(Row(N, (\n`).join('');
  const text = `param N = 4\nperm p(n)[i] = n - 1 - i\nlayout A = OrderBy(GenP([N], p(N))).TileBy([N])\n${broken}`;
  const model = new LayoutDocument('file:///t.layout', 1, text, new ChunkedParser(), new DocumentHistory());
  assert.equal(model.chunks(), undefined);
  assert.ok(model.parseDiagnostics.length >= MAX_DIAGNOSTICS);
  const v = new Versions();
  v.check(text);
  v.check(text.replace('param N = 4', 'const N = 4'));
});

test('semantic tokens: as the obvious construction gives them, version after version of random edits (kept pieces, moved chunks, broken text, CR and CRLF)', () => {
  const bits = ['\n', '\r\n', '\r', ' ', '.', ',', '(', ')', '[', ']', '"', '#', 'layout ', 'param ', 'schedule ', 'kernel ', 'x', 'A0', 'OrderBy', 'apply', 'tile', 'linalg.matmul', '= ', '1'];
  fc.assert(fc.property(
    fc.integer({ min: 0, max: layoutFiles.length - 1 }),
    fc.array(fc.record({ at: fc.nat(), del: fc.nat({ max: 12 }), ins: fc.array(fc.constantFrom(...bits), { maxLength: 3 }) }), { minLength: 1, maxLength: 6 }),
    (k, edits) => {
      const v = new Versions();
      let text = layoutFiles[k];
      v.check(text);
      for (const e of edits) {
        const at = e.at % (text.length + 1);
        text = text.slice(0, at) + e.ins.join('') + text.slice(at + e.del);
        v.check(text);
      }
    },
  ), { numRuns: 150, seed: 20261124 });
});
