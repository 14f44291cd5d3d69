// Incremental analysis, in process: the chunked parse is exactly the whole-file parse, and
// `IncrementalAnalysis` gives exactly what the whole-file analysis gives after any sequence of
// edits (properties over the example files), while re-checking only what an edit touches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { MAX_DIAGNOSTICS, parse } from '../../grammar/src/parse.js';
import { lookersOf, resolve, ResolveCache, type Definition, type Resolution } from '../../grammar/src/resolve.js';
import type { Diagnostic } from '../../grammar/src/diagnostic.js';
import { analyze, type Analysis } from '../../server/src/check/index.js';
import { ChunkedParser, chunkStarts, matchChunks, type ChunkedParse } from '../../server/src/service/chunks.js';
import { LineIndex } from '../../grammar/src/line-index.js';
import { IncrementalAnalysis } from '../../server/src/service/incremental.js';
import { fileDiagnostics } from '../../server/src/service/kernel-checks.js';
import type * as ast from '../../grammar/src/ast.js';
import { generate } from '../../bench/parse.js';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { SnapshotCache } from '../../server/src/lsp/context.js';
import { root } from './harness.js';
import { apply, edit, type Edit } from './edits.js';
import { warmUpUnit } from '../../server/src/lsp/warm-up.js';

const BUDGET = 4096;
const examples = readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.layout')).sort()
  .map((f) => readFileSync(join(root, 'examples', f), 'utf8'));

/** JSON with bigints as strings: deepEqual then compares values, not object identity or prototypes */
function plain(x: unknown): unknown {
  return JSON.parse(JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)));
}

/** What the server publishes for a whole-file analysis: `analyze` plus the kernel checks. */
function full(text: string): Diagnostic[] {
  return withKernels(text, analyze(text, { slow: true, budget: BUDGET, gpuTarget: 'sm_90' }));
}

function withKernels(text: string, a: Analysis): Diagnostic[] {
  return fileDiagnostics(a, text, undefined);
}

test('chunks start at 0 and at each line that starts with a declaration keyword', () => {
  const text = 'param M = 1 let x = 2\r\nlayout A = X\n  let y = 3\nlets = 4\n# let z\n"\nkernel k {\rschedule s\n';
  assert.deepEqual(chunkStarts(text), [0, text.indexOf('layout'), text.indexOf('kernel'), text.indexOf('schedule')]);
  assert.deepEqual(chunkStarts(''), [0]);
});

/** the indices of the `assume` and `linear` declarations, by a scan of the whole list */
function rareScan(file: ast.File): number[] {
  return file.decls.flatMap((d, j) => (d.kind === 'Assume' || d.kind === 'Linear' ? [j] : []));
}

/** the line (0-based) each offset of `starts` is on, from a fresh line index */
function lineOfEach(text: string, starts: readonly number[]): number[] {
  const lines = new LineIndex(text);
  return starts.map((s) => lines.position(s).line);
}

test('the chunked parse is the whole-file parse, after any edits (property)', () => {
  fc.assert(fc.property(fc.constantFrom(...examples.keys()), fc.array(edit, { minLength: 1, maxLength: 8 }), (k, edits) => {
    const p = new ChunkedParser();
    let text = examples[k];
    for (const e of [undefined, ...edits]) {
      if (e) text = apply(text, e);
      const before = p.previous.map((c) => c.text);
      const a = p.parse(text);
      const b = parse(text);
      assert.deepEqual(plain({ file: a.file, diagnostics: a.diagnostics }), plain({ file: b.file, diagnostics: b.diagnostics }), JSON.stringify(text));
      // the index of `assume` and `linear` declarations, kept across versions, is a scan's
      if (a.chunks) assert.deepEqual(a.rareDecls, rareScan(b.file), JSON.stringify(text));
      // the line index and the chunks compared with the previous version are those of the whole text
      assert.deepEqual(a.lines.lineStarts(), new LineIndex(text).lineStarts(), JSON.stringify(text));
      if (!a.chunks) {
        // more syntax errors than the whole-file parse lists: its result, and no chunks kept
        assert.ok(b.diagnostics.length > MAX_DIAGNOSTICS);
        assert.equal(p.previous.length, 0);
        continue;
      }
      const starts = chunkStarts(text);
      const texts = starts.map((s, k) => text.slice(s, starts[k + 1] ?? text.length));
      assert.deepEqual(a.chunks.map((c) => [c.start, c.text]), starts.map((s, k) => [s, texts[k]]));
      assert.deepEqual(a.from, matchChunks(before, texts));
      // the line each chunk starts on (kept chunks' from the previous version's, moved by the lines added)
      assert.deepEqual([a.chunkLines, a.chunks.map((c) => c.line)], [lineOfEach(text, starts), lineOfEach(text, starts)], JSON.stringify(text));
    }
  }), { numRuns: 250 });
});

test('parses stopped midway, and earlier versions claimed back between parses, in any order: each claimed parse is the whole-file parse (property)', () => {
  type Step = { kind: 'parse'; e: Edit } | { kind: 'stop'; e: Edit; after: number } | { kind: 'claim'; which: number };
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ kind: fc.constant('parse' as const), e: edit }),
    fc.record({ kind: fc.constant('stop' as const), e: edit, after: fc.nat(3) }),
    fc.record({ kind: fc.constant('claim' as const), which: fc.nat() }),
  );
  fc.assert(fc.property(fc.constantFrom(...examples.keys()), fc.array(step, { minLength: 1, maxLength: 12 }), (k, steps) => {
    const p = new ChunkedParser();
    let text = examples[k];
    const versions: [string, ChunkedParse][] = [[text, p.parse(text)]];
    const same = (t: string, r: ChunkedParse, why: string) => {
      const w = parse(t);
      assert.deepEqual(plain({ file: r.file, diagnostics: r.diagnostics }), plain({ file: w.file, diagnostics: w.diagnostics }), `${why} ${JSON.stringify(steps)}`);
    };
    for (const s of steps) {
      if (s.kind === 'claim') {
        const [t, r] = versions[s.which % versions.length];
        p.claim(r);
        same(t, r, 'claimed');
        continue;
      }
      const next = apply(text, s.e);
      let polls = 0;
      const r = s.kind === 'stop' ? p.parse(next, () => polls++ >= s.after) : p.parse(next);
      if (!r) continue; // stopped: the previous version stays the one compared with
      text = next;
      versions.push([text, r]);
      same(text, r, 'parsed');
      if (r.chunks) assert.deepEqual(r.rareDecls, rareScan(parse(text).file), `rare declarations ${JSON.stringify(steps)}`);
    }
    // every version claimed back, the latest first
    for (let i = versions.length - 1; i >= 0; i--) {
      p.claim(versions[i][1]);
      same(versions[i][0], versions[i][1], `version ${i} claimed at the end`);
    }
  }), { numRuns: 200, seed: 5151 });
});

test('the chunked parse cuts an edited text as the whole text is cut: edits at chunk boundaries, keywords, line breaks (property)', () => {
  const bits = ['\n', '\r', '\r\n', 'param', 'layout', 'let', 'lets', 'schedule', ' ', 'x', '=', '1', '#'];
  const piece = fc.array(fc.constantFrom(...bits), { maxLength: 6 }).map((xs) => xs.join(''));
  const text0 = fc.array(fc.constantFrom('param a = 1\n', 'let b = a\n', 'layout L = X\n', 'schedule s {\n}\n', '# c\n', '\r\n', 'lets = 2\n'), { maxLength: 12 }).map((xs) => xs.join(''));
  const step = fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), del: fc.nat(12), ins: piece });
  fc.assert(fc.property(text0, fc.array(step, { minLength: 1, maxLength: 10 }), (t0, steps) => {
    const p = new ChunkedParser();
    let text = t0;
    for (const e of [undefined, ...steps]) {
      if (e) {
        const at = Math.floor(e.at * (text.length + 1));
        text = text.slice(0, at) + e.ins + text.slice(at + e.del);
      }
      const before = p.previous.map((c) => c.text);
      const a = p.parse(text);
      const starts = chunkStarts(text);
      const texts = starts.map((s, k) => text.slice(s, starts[k + 1] ?? text.length));
      assert.deepEqual(a.chunks?.map((c) => [c.start, c.text]), starts.map((s, k) => [s, texts[k]]), JSON.stringify(text));
      assert.deepEqual(a.from, matchChunks(before, texts), JSON.stringify(text));
      assert.deepEqual(a.lines.lineStarts(), new LineIndex(text).lineStarts(), JSON.stringify(text));
      assert.deepEqual(a.chunkLines, lineOfEach(text, starts), JSON.stringify(text));
      assert.deepEqual(plain(a.file), plain(parse(text).file), JSON.stringify(text));
    }
  }), { numRuns: 400 });
});

test('chunks are matched by equal text in order: the runs at both ends, then each in between after the last matched', () => {
  assert.deepEqual(matchChunks(['A', 'B', 'C', 'D', 'E'], ['A', 'b', 'C', 'd', 'E']), [0, undefined, 2, undefined, 4]);
  assert.deepEqual(matchChunks(['A', 'B', 'C', 'D'], ['A', 'x', 'B', 'C', 'y', 'D']), [0, undefined, 1, 2, undefined, 3]);
  // order kept: a chunk moved before others is parsed again, the others are kept
  assert.deepEqual(matchChunks(['A', 'B', 'C', 'D', 'Z'], ['Y', 'D', 'B', 'C', 'Z']), [undefined, 3, undefined, undefined, 4]);
  // equal texts: each old chunk matched once, in order
  assert.deepEqual(matchChunks(['P', 'X', 'q', 'X', 'R'], ['P', 'X', 'X', 'X', 'r']), [0, 1, 3, undefined, undefined]);
  fc.assert(fc.property(fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 12 }), fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 12 }), (old, now) => {
    const m = matchChunks(old, now);
    assert.equal(m.length, now.length);
    let last = -1;
    m.forEach((o, j) => {
      if (o === undefined) return;
      assert.equal(old[o], now[j]);
      assert.ok(o > last);
      last = o;
    });
  }));
});

test('edits at several places since the last parse: the declarations between them are kept, their name resolution too', () => {
  const text = 'param M = 64, N = 32\nlayout A = OrderBy(Row(M, N))\nlet x = M * 2\nlet y = x + N\nlayout B = GroupBy([M, N]).OrderBy(Col(M, N))\n';
  const p = new ChunkedParser();
  const cache = new ResolveCache();
  const c1 = p.parse(text);
  const r1 = resolve(c1.file, c1.lines, cache);
  // two edits (a version in between was never parsed): `let x` and `let y` lie between them
  const edited = text.replace('Row(M, N)', 'Row(M,  N)').replace('Col(M, N)', 'Col(M,N)');
  const c2 = p.parse(edited);
  assert.equal(c2.parsed, 2);
  assert.equal(c2.file.decls[2], c1.file.decls[2]);
  assert.equal(c2.file.decls[3], c1.file.decls[3]);
  const r2 = resolve(c2.file, c2.lines, cache);
  assert.equal(r2.unitOf(c2.file.decls[2]), r1.unitOf(c1.file.decls[2]));
  assert.equal(r2.unitOf(c2.file.decls[3]), r1.unitOf(c1.file.decls[3]));
  assert.notEqual(r2.unitOf(c2.file.decls[1]), r1.unitOf(c1.file.decls[1]));
  assert.deepEqual(resolutionFacts(r2, edited), resolutionFacts(resolve(parse(edited).file, edited), edited));
});

test('a length-changing edit keeps the later declarations, the same objects moved in place, and re-checks only the edited one', () => {
  const text = 'param M = 64, N = 32\nlayout A = OrderBy(Row(M, N))\nlet x = M * 2\nlayout B = GroupBy([M, N]).OrderBy(Col(M, N))\n';
  const p = new ChunkedParser();
  const first = p.parse(text);
  const [, a1, x1, b1] = first.file.decls;
  const bStart = b1.range.start;
  const bName = (b1 as ast.LayoutDecl).name.range.start;
  // one character typed in `layout A`: x and B move by one, A is parsed again
  const edited = text.replace('Row(M, N)', 'Row(M,  N)');
  const second = p.parse(edited);
  assert.equal(second.parsed, 1);
  const [, a2, x2, b2] = second.file.decls;
  assert.notEqual(a2, a1);
  assert.equal(x2, x1);
  assert.equal(b2, b1);
  assert.equal(b2.range.start, bStart + 1);
  assert.equal((b2 as ast.LayoutDecl).name.range.start, bName + 1);
  assert.deepEqual(plain(second.file), plain(parse(edited).file));
  // the earlier version, claimed back: its own offsets again; then the later one
  p.claim(first);
  assert.equal(b1.range.start, bStart);
  assert.deepEqual(plain(first.file), plain(parse(text).file));
  p.claim(second);
  assert.deepEqual(plain(second.file), plain(parse(edited).file));

  // the incremental analysis: the moved declarations keep their results (moved), only A is checked again
  const bad = 'param M = 64, N = 30\nlayout A = OrderBy(Row(M, N))\nlet x = M * 2\nlayout B = GroupBy([M, N]).TileBy([7, 7])\n';
  const an = new IncrementalAnalysis();
  const r1 = an.diagnose(bad);
  assert.ok(r1.diagnostics.length > 0);
  const badEdited = bad.replace('Row(M, N)', 'Row(M,  N)');
  const r2 = an.diagnose(badEdited);
  assert.equal(r2.stats.rechecked, 1);
  assert.equal(r2.stats.chunksParsed, 1);
  assert.deepEqual(plain(r2.diagnostics), plain(full(badEdited)));
  assert.deepEqual(r2.diagnostics.map((d) => d.range.start), r1.diagnostics.map((d) => d.range.start + (d.range.start > bad.indexOf('Row') ? 1 : 0)));
  // the first result is its own data: later versions do not move its ranges
  assert.deepEqual(plain(r1.diagnostics), plain(full(bad)));
});

test('the stages handed out early (syntax and names, then all but the slow checks) are the caller\'s: a later version moves none of their ranges', () => {
  const t0 = 'param M = 4\nlayout A = OrderBy(Row(M, 4)\nlayout B = Q\nlayout G = OrderBy(GenP([3, 3], antidiag(3)))\n';
  const an = new IncrementalAnalysis();
  let syntax: Diagnostic[] = [];
  let fast: Diagnostic[] = [];
  an.diagnose(t0, { budget: BUDGET, gpuTarget: 'sm_90', onSyntax: (d) => (syntax = d), onFast: (d) => (fast = d) });
  const [syntax0, fast0] = [plain(syntax), plain(fast)];
  assert.deepEqual(syntax.map((d) => d.code), ['parse/unclosed', 'name/undefined', 'name/undefined']);
  assert.ok(fast.length >= 2, JSON.stringify(fast));
  // every declaration moves (kept chunks move in place): the lists handed out stay where they were
  an.diagnose('# moved\n' + t0, { budget: BUDGET, gpuTarget: 'sm_90' });
  assert.deepEqual(plain(syntax), syntax0);
  assert.deepEqual(plain(fast), fast0);
});

test('a chunk that moves to another line is parsed again when its messages quote positions', () => {
  const p = new ChunkedParser();
  const text = 'param M = 1\nlayout A = OrderBy(Row(4, 4)\nlet x = 1\n';
  const first = p.parse(text);
  assert.deepEqual(first.diagnostics.map((d) => d.message), ["expected ')' to close the argument list opened at 2:19"]);
  // a new first line: its chunk is parsed, `param` and `let` are copied (shifted), `layout` is parsed again
  const moved = p.parse('let z = 0\n' + text);
  assert.equal(moved.parsed, 2);
  assert.deepEqual(moved.diagnostics.map((d) => [d.message, d.range]), [["expected ')' to close the argument list opened at 3:19", { start: first.diagnostics[0].range.start + 10, end: first.diagnostics[0].range.end + 10 }]]);
  assert.deepEqual(plain(moved.file), plain(parse('let z = 0\n' + text).file));
  // moved along a line (same line numbers): copied
  const along = p.parse('let zz = 0\n' + text);
  assert.equal(along.parsed, 1);
  const whole = parse('let zz = 0\n' + text);
  assert.deepEqual(plain({ file: along.file, diagnostics: along.diagnostics }), plain({ file: whole.file, diagnostics: whole.diagnostics }));
});

/** Everything a resolution says, as plain data (definitions by what they name and where). */
function resolutionFacts(r: Resolution, text: string): unknown {
  const at = (d: Definition | undefined) => (d ? `${d.kind}:${d.name}@${d.ident?.range.start ?? '-'}/${d.decl?.range.start ?? '-'}` : 'none');
  const symbols: string[] = [];
  for (let o = 0; o <= text.length; o++) {
    const s = r.symbolAt(o);
    symbols.push(s ? `${s.node.range.start}:${at(s.definition)}` : '');
  }
  return {
    diagnostics: plain(r.diagnostics),
    globals: [...r.globals].map(([k, d]) => `${k}=${at(d)}`),
    definitions: r.definitions.map((d) => `${at(d)} used=${r.isUsed(d)} refs=${r.references(d).map((u) => u.range.start).join(',')}`),
    refs: [...r.refs].map(([u, d]) => `${u.range.start}-${u.range.end}=${at(d)}`),
    declarations: [...r.declarations].map(([u, d]) => `${u.range.start}=${at(d)}`),
    free: r.freeSymbols.map(at),
    unused: r.unusedGlobals().map(at),
    symbols,
    size: [r.refs.size, r.declarations.size],
  };
}

test('name resolution with a cache across versions is the whole-file resolution, after any edits (property)', () => {
  fc.assert(fc.property(fc.constantFrom(...examples.keys()), fc.array(edit, { minLength: 1, maxLength: 8 }), (k, edits) => {
    const p = new ChunkedParser();
    const cache = new ResolveCache();
    let text = examples[k];
    let older: { r: Resolution; facts: unknown; text: string; parse: ChunkedParse } | undefined;
    for (const e of [undefined, ...edits]) {
      if (e) text = apply(text, e);
      const c = p.parse(text);
      const r = resolve(c.file, c.lines, cache);
      const facts = resolutionFacts(r, text);
      assert.deepEqual(facts, resolutionFacts(resolve(c.file, text), text), JSON.stringify(text));
      // an earlier version's resolution, its parse claimed back (kept chunks moved in place), still
      // says what it said; and the latest one too, claimed again
      if (older) {
        p.claim(older.parse);
        assert.deepEqual(resolutionFacts(older.r, older.text), older.facts);
        p.claim(c);
        assert.deepEqual(resolutionFacts(r, text), facts);
      }
      older = { r, facts, text, parse: c };
    }
  }), { numRuns: 60 });
});

test('name resolution with a cache, read only now and then, is the whole-file resolution (property)', () => {
  // the index of which declarations looked a name up is made when first needed: by the next version
  // (when no reader asked for it before), or by a `references` read, or right after the first version
  // (`lookersOf`: the server, once a just-opened document's first diagnostics are out); every way must stay exact
  fc.assert(fc.property(fc.constantFrom(...examples.keys()), fc.array(fc.tuple(edit, fc.boolean()), { minLength: 1, maxLength: 8 }), fc.boolean(), (k, edits, early) => {
    const p = new ChunkedParser();
    const cache = new ResolveCache();
    let text = examples[k];
    const first = p.parse(text);
    resolve(first.file, first.lines, cache);
    if (early) lookersOf(cache);
    for (const [e, read] of edits) {
      text = apply(text, e);
      const c = p.parse(text);
      const r = resolve(c.file, c.lines, cache);
      assert.deepEqual(plain(r.diagnostics), plain(resolve(c.file, text).diagnostics), JSON.stringify(text));
      if (read) assert.deepEqual(resolutionFacts(r, text), resolutionFacts(resolve(c.file, text), text), JSON.stringify(text));
    }
    const c = p.parse(text);
    assert.deepEqual(resolutionFacts(resolve(c.file, c.lines, cache), text), resolutionFacts(resolve(c.file, text), text), JSON.stringify(text));
  }), { numRuns: 60 });
});

test('name resolution with a cache: kept declarations, re-resolved ones, uses counted, did-you-means and quoted positions', () => {
  const p = new ChunkedParser();
  const cache = new ResolveCache();
  const step = (text: string) => {
    const c = p.parse(text);
    const r = resolve(c.file, c.lines, cache);
    assert.deepEqual(resolutionFacts(r, text), resolutionFacts(resolve(c.file, text), text), JSON.stringify(text));
    return { r, file: c.file };
  };
  // the only use of M goes away and comes back (same length: nothing moves)
  const used = step('param M = 1\nlet x = M\n');
  assert.equal(used.r.isUsed(used.r.globals.get('M')!), true);
  const unused = step('param M = 1\nlet x = 7\n');
  assert.equal(unused.r.unitOf(unused.file.decls[0]), used.r.unitOf(used.file.decls[0]), 'the param declaration keeps its resolution');
  assert.equal(unused.r.isUsed(unused.r.globals.get('M')!), false);
  assert.equal(step('param M = 1\nlet x = M\n').r.isUsed(used.r.globals.get('M')!), true);
  // a new name close to an unknown one, declared by another declaration: the did-you-mean changes
  step('param Aa = 1\nlet x = Mb\n');
  assert.deepEqual(step('param Ma = 1\nlet x = Mb\n').r.diagnostics.map((d) => d.message), ["unknown name 'Mb' (did you mean 'Ma'?)"]);
  // a line break above, same length: the quoted position of a later declaration moves a line down
  assert.deepEqual(step('# c\nlet y = x\nlet x = 1\n').r.diagnostics.map((d) => d.message), ["'x' is used before its declaration at 3:5"]);
  assert.deepEqual(step('#\n\nlet y = x\nlet x = 1\n').r.diagnostics.map((d) => d.message), ["'x' is used before its declaration at 4:5"]);
  // a declaration of a name above its (unchanged) declaration: the new one is the first
  step('let q = 1\nlet x = 2\nlet y = x\n');
  const twice = step('let x = 1\nlet x = 2\nlet y = x\n');
  assert.deepEqual(twice.r.diagnostics.map((d) => d.message), ["'x' is already declared at 1:5"]);
  assert.equal(twice.r.globals.get('x')?.ident?.range.start, 4);
});

test('incremental diagnostics are the whole-file analysis, after any edits (property)', () => {
  fc.assert(fc.property(fc.constantFrom(...examples.keys()), fc.array(edit, { minLength: 1, maxLength: 8 }), (k, edits) => {
    const a = new IncrementalAnalysis();
    let text = examples[k];
    for (const e of [undefined, ...edits]) {
      if (e) text = apply(text, e);
      const stages: Diagnostic[][] = [];
      const r = a.diagnose(text, { budget: BUDGET, gpuTarget: 'sm_90', onSyntax: (d) => stages.push(d) });
      assert.equal(r.cancelled, false);
      const whole = full(text);
      assert.deepEqual(plain(r.diagnostics), plain(whole), JSON.stringify(text));
      // the first stage: exactly the syntax and name diagnostics of the whole-file analysis, in its order
      if (!r.stats.full || stages.length) {
        assert.equal(stages.length, 1);
        assert.deepEqual(plain(stages[0]), plain(whole.filter((d) => /^(lex|parse|name)\//.test(d.code))), JSON.stringify(text));
      }
    }
  }), { numRuns: Number(process.env.RUNS ?? 100), ...(process.env.SEED ? { seed: Number(process.env.SEED) } : {}) });
});

test('a kept declaration whose own chunk stayed, with fixes that point into a chunk that moved: its results move too', () => {
  // matmul.layout: a digit changed (tile/not-divisible errors whose fixes edit the params' line), then
  // two lines swapped: the params' chunk moves up, the layouts with the errors stay where they were
  const a = new IncrementalAnalysis();
  let text = readFileSync(join(root, 'examples', 'matmul.layout'), 'utf8');
  for (const e of [undefined, { kind: 'number', which: 9016633, value: 7 }, { kind: 'swap', a: 0, b: 0.2174 }] as const) {
    if (e) text = apply(text, e);
    const r = a.diagnose(text, { budget: BUDGET, gpuTarget: 'sm_90' });
    assert.deepEqual(plain(r.diagnostics), plain(full(text)));
  }
  assert.ok(full(text).some((d) => d.code === 'tile/not-divisible' && d.fixes?.length));
});

test('an edit re-checks the declaration and what uses its names, and nothing else', () => {
  const text = generate(400);
  const a = new IncrementalAnalysis();
  const first = a.diagnose(text, { budget: BUDGET, gpuTarget: 'sm_90' });
  assert.deepEqual(first.stats, { decls: first.stats.decls, chunksParsed: first.stats.decls + 1, rechecked: first.stats.decls, elaborated: first.stats.decls, full: false });
  // M1 4096 -> 4095: the const declaration, num_pid_m1, Pid1, A1, C1, kernel matmul1, schedule gemm1;
  // N1 and K1 share the declaration: num_pid_n1 and B1 too
  const at = text.indexOf('const M1 = 4096') + 'const M1 = 409'.length;
  const edited = text.slice(0, at) + '5' + text.slice(at + 1);
  const r = a.diagnose(edited, { budget: BUDGET, gpuTarget: 'sm_90' });
  // elaborated besides: the BM1, BN1, BK1, GM1 declaration, const T1 (the schedule's threads) and the
  // schedule's tuned SM1, SN1, SK1 that they use
  assert.deepEqual(r.stats, { decls: first.stats.decls, chunksParsed: 1, rechecked: 9, elaborated: 12, full: false });
  assert.deepEqual(plain(r.diagnostics), plain(full(edited)));
  assert.ok(r.diagnostics.some((d) => d.code === 'tile/not-divisible' && d.message === 'BM1 = 128 does not divide M1 = 4095'));
  // typing at the top moves every declaration: one chunk parsed, the comment's declaration alone re-checked
  const typed = '# a comment\n' + edited;
  const t = a.diagnose(typed, { budget: BUDGET, gpuTarget: 'sm_90' });
  assert.deepEqual([t.stats.chunksParsed, t.stats.rechecked], [1, 0]);
  assert.deepEqual(plain(t.diagnostics), plain(full(typed)));
  // the same text again: nothing to do
  const same = a.diagnose(typed, { budget: BUDGET, gpuTarget: 'sm_90' });
  assert.deepEqual([same.stats.chunksParsed, same.stats.rechecked, same.stats.elaborated], [0, 0, 0]);
});

test('slow checks: offered after the rest, re-run on a budget change, resumed after a cancel', () => {
  const text = 'param S = 6\nperm sw(n)[i, j] = j * n + i\nlayout L = OrderBy(GenP([S, S], sw(S)))\nlet y = zz\n';
  const a = new IncrementalAnalysis();
  const fast: Diagnostic[][] = [];
  const r = a.diagnose(text, { budget: 10, onFast: (d) => fast.push(d) });
  assert.deepEqual(fast.map((ds) => ds.map((d) => d.code)), [['unused/let', 'name/undefined']]);
  assert.deepEqual(r.diagnostics.map((d) => d.code), ['genp/partially-checked', 'unused/let', 'name/undefined']);
  assert.match(r.diagnostics[0].message, /not checked at S = 6 \(36 points\): over the check budget of 10 points/);
  // nothing slow to run: no early offer
  fast.length = 0;
  a.diagnose(text.replace('zz', 'S'), { budget: 10, onFast: (d) => fast.push(d) });
  assert.equal(fast.length, 0);
  // a new budget re-runs the GenP check
  const big = a.diagnose(text, { budget: 100, onFast: (d) => fast.push(d) });
  assert.match(big.diagnostics[0].message, /checked exhaustively at S = 6 \(36 points\)/);
  assert.equal(fast.length, 1);
  // stopped (the enumeration polls every so many points): partial and cancelled; the next call finishes the work
  const edited = text.replace('S = 6', 'S = 700');
  const stopped = a.diagnose(edited, { budget: 1e6, shouldStop: () => true });
  assert.equal(stopped.cancelled, true);
  assert.ok(!stopped.diagnostics.some((d) => d.code.startsWith('genp/')));
  const resumed = a.diagnose(edited, { budget: 1e6 });
  assert.equal(resumed.cancelled, false);
  assert.deepEqual(plain(resumed.diagnostics), plain(withKernels(edited, analyze(edited, { budget: 1e6 }))));
  assert.match(resumed.diagnostics[0].message, /checked exhaustively at S = 700 \(490000 points\)/);
});

test('more syntax errors than the parser lists: the whole-file analysis, exactly', () => {
  const text = 'param M = 1\n' + '$\n'.repeat(150) + 'let x = M\n';
  const a = new IncrementalAnalysis();
  const r = a.diagnose(text, { budget: BUDGET, gpuTarget: 'sm_90' });
  assert.equal(r.stats.full, true);
  assert.deepEqual(plain(r.diagnostics), plain(full(text)));
  assert.equal(r.diagnostics.filter((d) => d.code === 'parse/too-many-errors').length, 1);
  // and back to incremental once the errors are gone
  const fixed = 'param M = 1\nlet x = M\n';
  const f = a.diagnose(fixed, { budget: BUDGET, gpuTarget: 'sm_90' });
  assert.equal(f.stats.full, false);
  assert.deepEqual(plain(f.diagnostics), plain(full(fixed)));
});

test('the server\'s snapshots of consecutive versions parse incrementally, to exactly the whole-file parse', () => {
  const cache = new SnapshotCache();
  const v1 = 'param M = 4\nlayout A = OrderBy(Row(M, 2))\nlet x = M\n';
  const v2 = v1.replace('let x = M', 'let x = M + 1');
  const a = cache.get(TextDocument.create('file:///s.layout', 'layout', 1, v1)).file;
  const b = cache.get(TextDocument.create('file:///s.layout', 'layout', 2, v2)).file;
  assert.deepEqual(plain(b), plain(parse(v2).file));
  // the unchanged declarations are the same objects; the edited one is new
  assert.deepEqual([a.decls[0] === b.decls[0], a.decls[1] === b.decls[1], a.decls[2] === b.decls[2]], [true, true, false]);
  assert.deepEqual(plain(a), plain(parse(v1).file), 'the earlier snapshot is left as it was');
});

test('schedule checks: kept per block, re-run when what they use or the GPU setting changes', () => {
  const text = 'param M = 4096, N = 4096, K = 4096\nparam T = 32\nschedule gemm for linalg.matmul(M, N, K) {\n  mm = findOp("linalg.matmul")\n'
    + '  tileForGrids(mm, [128, 128])\n  parallelizeForThreads(mm, [T, 64])\n  bufferize()\n}\nlet unrelated = 1\n';
  const a = new IncrementalAnalysis();
  const run = (t: string, gpuTarget?: string) => {
    const r = a.diagnose(t, { budget: BUDGET, ...(gpuTarget ? { gpuTarget } : {}) });
    assert.deepEqual(plain(r.diagnostics), plain(withKernels(t, analyze(t, { budget: BUDGET, ...(gpuTarget ? { gpuTarget } : {}) }))));
    return r;
  };
  const sm90 = run(text, 'sm_90');
  assert.deepEqual(sm90.diagnostics.filter((d) => d.code.startsWith('schedule/')).map((d) => d.message), ['32 x 64 = 2048 threads per block exceeds 1024 on sm_90']);
  // T is used by the schedule: it is checked again
  const t16 = text.replace('T = 32', 'T = 16');
  assert.deepEqual(run(t16, 'sm_90').diagnostics.filter((d) => d.code.startsWith('schedule/')), []);
  // an unrelated edit keeps the block's result
  const other = t16.replace('unrelated = 1', 'unrelated = 2');
  assert.equal(run(other, 'sm_90').stats.rechecked, 1);
  // the same text without the GPU setting: the block targets the CPU
  const cpu = run(other);
  assert.deepEqual(cpu.diagnostics.filter((d) => d.code.startsWith('schedule/')).map((d) => d.code), ['schedule/needs-gpu', 'schedule/needs-gpu']);
});

test('kernel checks: kept per block, re-run when the params their implicit placeholders name change', () => {
  const text = 'param n_rows = 4096\nparam n_cols = 1024\nparam BLOCK_SIZE = 1024\n\nlayout X = OrderBy(Row(n_rows, 1024)).TileBy([n_rows, 1024])\n\n' +
    'kernel softmax target triton builtin softmax {\n  input_offset = X[row_idx, 0:BLOCK_SIZE]\n  output_offset = X[row_idx, 0:BLOCK_SIZE]\n}\n';
  const a = new IncrementalAnalysis();
  const first = a.diagnose(text, { budget: BUDGET, gpuTarget: 'sm_90' });
  assert.deepEqual(plain(first.diagnostics), plain(full(text)));
  assert.deepEqual(first.diagnostics.filter((d) => d.code.startsWith('kernel/')), []);
  // n_cols is used by nothing but the template's {{ param_n_cols }}: renaming it re-checks only its
  // own declaration, and the kernel's kept result is re-run because its answer changed
  const renamed = text.replace('param n_cols', 'param n_colz');
  const r = a.diagnose(renamed, { budget: BUDGET, gpuTarget: 'sm_90' });
  assert.equal(r.stats.rechecked, 1);
  assert.deepEqual(plain(r.diagnostics), plain(full(renamed)));
  assert.deepEqual(r.diagnostics.filter((d) => d.code === 'kernel/missing-binding').map((d) => [renamed.slice(d.range.start, d.range.end), d.message]), [
    ['softmax', 'builtin softmax uses `{{ param_n_cols }}` (line 17), which kernel softmax does not bind; declare `param n_cols` or `const n_cols` to fill it'],
  ]);
  // and back: the diagnostic goes away again; an edit above moves the kept result with its block
  const back = '# moved\n' + text;
  const b = a.diagnose(back, { budget: BUDGET, gpuTarget: 'sm_90' });
  assert.deepEqual(plain(b.diagnostics), plain(full(back)));
  assert.deepEqual(b.diagnostics.filter((d) => d.code.startsWith('kernel/')), []);
});

test('a chunked parse stopped midway changes nothing, and the next parse re-uses the chunks it parsed', () => {
  const text = generate(400);
  const p = new ChunkedParser();
  let polls = 0;
  assert.equal(p.parse(text, () => ++polls > 3), undefined);
  assert.equal(p.previous.length, 0);
  const r = p.parse(text);
  const whole = parse(text);
  assert.deepEqual(plain(r.file), plain(whole.file));
  assert.deepEqual(plain(r.diagnostics), plain(whole.diagnostics));
  assert.equal(r.parsed, r.chunks!.length - 3);
  // stopped on an edited version: the previous version stays the one compared with
  const edited = text.replace('const M1 = 4096', 'const M1 = 4095');
  assert.equal(p.parse(edited, () => true), undefined);
  const e = p.parse(edited);
  assert.equal(e.parsed, 1);
  assert.deepEqual(plain(e.file), plain(parse(edited).file));
});

test('a cancelled analysis keeps the declarations it finished; the next run does the rest, exactly', () => {
  const text = generate(400);
  for (const after of [5, 150, 300, 340]) {
    const a = new IncrementalAnalysis();
    let polls = 0;
    const stopped = a.diagnose(text, { budget: BUDGET, gpuTarget: 'sm_90', shouldStop: () => ++polls > after });
    assert.equal(stopped.cancelled, true, `stopped after ${after} polls`);
    const r = a.diagnose(text, { budget: BUDGET, gpuTarget: 'sm_90' });
    assert.equal(r.cancelled, false);
    assert.deepEqual(plain(r.diagnostics), plain(full(text)));
    if (after >= 300) assert.ok(r.stats.rechecked < r.stats.decls, `kept some of ${r.stats.decls}: re-checked ${r.stats.rechecked}`);
  }
});

test('a change of every line of a file with 150,000 declarations: the chunked parse gives each chunk its line (no argument list as long as the file)', () => {
  const n = 150_000;
  const before = Array.from({ length: n }, (_, i) => `param P${i} = ${i}`).join('\n') + '\n';
  const after = '# moved\n' + Array.from({ length: n }, (_, i) => `param P${i} = ${i + 1}`).join('\n') + '\n';
  const p = new ChunkedParser();
  p.parse(before);
  const r = p.parse(after);
  assert.equal(r.chunks?.length, n + 1);
  assert.deepEqual([r.chunkLines![0], r.chunkLines![1], r.chunkLines![n]], [0, 1, n]);
  assert.equal(r.file.decls.length, n);
});

test('a kernel block\'s own diagnostics move with it when an edit above changes the text\'s length; the declarations after the edit keep their states', () => {
  // the warm-up's sample units, each kernel block with a binding its template does not name
  let text = [0, 1, 2, 3].map((k) => warmUpUnit(k).replace('  param_GM = 4\n', `  param_GM = 4\n  not_a_binding${k} = 1\n`)).join('\n');
  const a = new IncrementalAnalysis();
  const check = () => {
    const r = a.diagnose(text, { budget: BUDGET, gpuTarget: 'sm_90' });
    const whole = full(text);
    assert.ok(whole.filter((d) => d.code.startsWith('kernel/')).length >= 4, JSON.stringify(whole.map((d) => d.code)));
    assert.deepEqual(plain(r.diagnostics), plain(whole));
    return r;
  };
  check();
  // typed and deleted above later blocks (every later offset moves), a line added and removed, an edit inside a block
  for (const [at, del, ins] of [[text.indexOf('= 1024'), 0, ' '], [text.indexOf('= 1024'), 1, ''], [text.indexOf('layout Y1'), 0, '# note\n'], [text.indexOf('# note'), 7, ''], [text.indexOf('param_GM = 4', text.indexOf('kernel mm2')) + 11, 1, '8']] as [number, number, string][]) {
    text = text.slice(0, at) + ins + text.slice(at + del);
    const r = check();
    assert.equal(r.stats.full, false);
  }
});

test('chunk starts are the lines that begin with a declaration keyword, as the regular expression defines them (property)', () => {
  const reference = (text: string): number[] => {
    const re = /(?:^|(?<=[\n\r]))(?:param|const|let|layout|perm|kernel|schedule|assume)(?![A-Za-z0-9_])/g;
    const out = [0];
    for (let m = re.exec(text); m; m = re.exec(text)) if (m.index > 0) out.push(m.index);
    return out;
  };
  const piece = fc.constantFrom('param', 'const', 'let', 'lets', 'layout', 'perm', 'permute', 'kernel', 'schedule', 'assume', 'assume_', 'a', 'l', 'p', ' ', '\n', '\r', '\r\n', '#', '=', '1', 'x', '_', 'Z', '9', '\u00e9');
  fc.assert(fc.property(fc.array(piece, { maxLength: 40 }).map((xs) => xs.join('')), (text) => {
    assert.deepEqual(chunkStarts(text), reference(text), JSON.stringify(text));
  }), { numRuns: 2000 });
});
