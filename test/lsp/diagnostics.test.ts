// Diagnostics over the protocol: every kind the analysis produces reaches the client with its
// version, code, severity, related information and tags; quick fixes become code actions;
// settings are pulled and re-applied; rapid edits during a long check publish only the newest
// version; hover answers while the check runs; a runaway check is stopped.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { diagnose } from '../../server/src/service/diagnose.js';
import { defaultSettings } from '../../server/src/service/settings.js';
import { LspClient, rangeOf, rng } from './harness.js';

const R = (l1: number, c1: number, l2: number, c2: number) => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });

const kinds = [
  'param M = 100, N = 64', //                                                  0
  'param M = 3', //                                                             1
  'param unusedp = 5', //                                                       2
  'let x = Mx + 1', //                                                          3
  'layout A = OrderBy(Row(M, N)).TileBy([M / 32, 2], [32, 32])', //             4
  'layout P = OrderBy(RegP([2, 2], [1, 2]))', //                                5
  'perm bad(n)[i, j] = i', //                                                   6
  'layout G = OrderBy(GenP([3, 3], bad(3)))', //                                7
  'layout E = OrderBy(Row(4 $', //                                              8
  'kernel k target triton template "t.py" {', //                               9
  '  o = A[i, j, :, :] + P[0, 0] + G[0, 0]', //                               10
  '}', //                                                                     11
  '',
].join('\n');

/** `diagnose(text)` as the server publishes it. */
function converted(uri: string, text: string) {
  const doc = TextDocument.create(uri, 'layout', 1, text);
  const sev = { error: 1, warning: 2, information: 3, hint: 4 } as const;
  return diagnose(text, defaultSettings, undefined, uri).diagnostics.map((d) => ({
    range: { start: doc.positionAt(d.range.start), end: doc.positionAt(d.range.end) },
    severity: sev[d.severity],
    code: d.code,
    source: 'layout',
    message: d.message,
    ...(d.related?.length ? { relatedInformation: d.related.map((r) => ({ location: { uri, range: { start: doc.positionAt(r.range.start), end: doc.positionAt(r.range.end) } }, message: r.message })) } : {}),
    ...(d.tags?.length ? { tags: d.tags.map((t) => (t === 'unnecessary' ? 1 : 2)) } : {}),
  }));
}

describe('diagnostics', () => {
  let c: LspClient;
  before(async () => {
    c = await LspClient.start({ settings: { diagnostics: { debounceMs: 20 } } });
  });
  after(() => c.stop());

  test('syntax, name and check diagnostics: version, code, severity, related info, tags', async () => {
    const uri = c.uri('kinds.layout');
    const p = await c.open(uri, kinds, 7);
    assert.equal(p.version, 7);
    const byCode = new Map(p.diagnostics.map((d) => [d.code, d]));
    assert.deepEqual(byCode.get('lex/unexpected-character'), { range: R(8, 25, 8, 26), severity: 1, code: 'lex/unexpected-character', source: 'layout', message: "unexpected character '$'" });
    assert.deepEqual(byCode.get('name/undefined'), { range: R(3, 8, 3, 10), severity: 1, code: 'name/undefined', source: 'layout', message: "unknown name 'Mx' (did you mean 'M'?)" });
    assert.deepEqual(byCode.get('name/duplicate'), {
      range: R(1, 6, 1, 7), severity: 1, code: 'name/duplicate', source: 'layout', message: "'M' is already declared at 1:7",
      relatedInformation: [{ location: { uri, range: R(0, 6, 0, 7) }, message: "first declaration of 'M'" }],
    });
    const unused = byCode.get('unused/param')!;
    assert.deepEqual([unused.range, unused.severity, unused.tags], [R(2, 6, 2, 13), 4, [1]]);
    assert.deepEqual(byCode.get('regp/not-a-permutation')?.range, R(5, 32, 5, 38));
    assert.deepEqual(byCode.get('tile/not-divisible')?.severity, 1);
    assert.deepEqual(byCode.get('genp/not-bijective')?.relatedInformation?.[0].location.range, R(6, 20, 6, 21));
    // kernel checks (codegen's template-vs-binding checks) are published too
    assert.match(String(byCode.get('kernel/template-not-found')?.message ?? ''), /^template "t\.py" not found \(looked for .*kinds\.layout|^template "t\.py" not found \(looked for .*t\.py\)$/);
  });

  test('the published diagnostics are exactly the analysis results, converted', async () => {
    const uri = c.uri('kinds.layout');
    const p = await c.diagnostics(uri, 7);
    const expected = converted(uri, kinds);
    assert.ok(expected.length >= 9, `only ${expected.length} diagnostics`);
    assert.deepEqual(p.diagnostics, expected);
  });

  test('after incremental edits (lines added above, values changed, a declaration broken and mended) they still are', async () => {
    const uri = c.uri('edits.layout');
    let text = kinds;
    let version = 1;
    await c.open(uri, text, version);
    const edits: [string, string][] = [
      ['', '# moved down a line\n'], // everything moves: related ranges in other declarations too
      ['param M = 100', 'param M = 96'], // A's TileBy divides now
      ['layout E = ', 'layout Q = OrderBy(Row(2 2))\nlayout E = '], // a broken declaration in between
      ['layout Q = OrderBy(Row(2 2))\n', ''],
      ['perm bad(n)[i, j] = i', 'perm bad(n)[i, j] = j * n + i'], // G's GenP is a bijection now
    ];
    for (const [from, to] of edits) {
      const at = from === '' ? 0 : text.indexOf(from);
      assert.ok(at >= 0, from);
      const wait = c.diagnostics(uri, ++version);
      c.change(uri, version, [{ range: rng(text, at, at + from.length), text: to }]);
      text = text.slice(0, at) + to + text.slice(at + from.length);
      assert.deepEqual((await wait).diagnostics, converted(uri, text), `after ${JSON.stringify(to)}`);
    }
    const codes = (await c.diagnostics(uri, version)).diagnostics.map((d) => d.code);
    assert.ok(!codes.includes('tile/not-divisible') && !codes.includes('genp/not-bijective') && codes.includes('regp/not-a-permutation'), codes.join());
  });

  test('quick fixes of the diagnostics become code actions', async () => {
    const uri = c.uri('kinds.layout');
    const p = await c.diagnostics(uri, 7);
    const regp = p.diagnostics.find((d) => d.code === 'regp/not-a-permutation')!;
    const actions = await c.request<unknown[]>('textDocument/codeAction', { textDocument: { uri }, range: regp.range, context: { diagnostics: [regp], only: ['quickfix'] } });
    assert.deepEqual(actions, [{
      title: 'Convert to 0-based: [0, 1]',
      kind: 'quickfix',
      diagnostics: [regp],
      isPreferred: true,
      edit: { changes: { [uri]: [{ range: R(5, 33, 5, 34), newText: '0' }, { range: R(5, 36, 5, 37), newText: '1' }] } },
    }]);
    // every fix of every diagnostic touching the range, when the client sends none
    const tile = p.diagnostics.find((d) => d.code === 'tile/not-divisible')!;
    const all = await c.request<{ title: string; kind: string }[]>('textDocument/codeAction', { textDocument: { uri }, range: tile.range, context: { diagnostics: [] } });
    const data = diagnose(kinds, defaultSettings).diagnostics.find((d) => d.code === 'tile/not-divisible')!;
    assert.deepEqual(all.filter((a) => a.kind === 'quickfix').map((a) => a.title), data.fixes!.map((f) => f.title));
    assert.ok(data.fixes!.length >= 2);
  });

  test('"did you mean": a misspelled keyword, constructor, name or primitive is one error with a quick fix', async () => {
    const uri = c.uri('typos.layout');
    const text = [
      'param M = 8', //                                                      0
      'layuot A = OrderBy(Rw(M, M))', //                                      1
      'lett n = M - 1', //                                                    2
      'layout B = A', //                                                      3
      'let m = n * 2', //                                                     4
      'schedule s for linalg.matmul(M, M, M) {', //                            5
      '  mm = findOp("linalg.matmul")', //                                    6
      '  tiel(mm, [4, 4, 4])', //                                             7
      '}', //                                                                  8
    ].join('\n') + '\n';
    const p = await c.open(uri, text);
    // one error per typo: 'layuot' and 'lett' still declare A and n, so their uses are not errors
    assert.deepEqual(p.diagnostics.filter((d) => d.severity === 1).map((d) => [d.code, d.message, d.range]), [
      ['parse/unexpected-token', "unexpected 'layuot' here: expected a declaration (param, let, layout, perm, kernel, schedule); did you mean 'layout'?", R(1, 0, 1, 6)],
      ['name/undefined', "unknown name 'Rw' (did you mean 'Row'?)", R(1, 19, 1, 21)],
      ['parse/unexpected-token', "unexpected 'lett' here: expected a declaration (param, let, layout, perm, kernel, schedule); did you mean 'let'?", R(2, 0, 2, 4)],
      ['name/unknown-primitive', "unknown schedule primitive 'tiel' (did you mean 'tile'?)", R(7, 2, 7, 6)],
    ]);
    const fix = async (line: number, ch: number) => {
      const d = p.diagnostics.find((x) => x.range.start.line === line && x.range.start.character === ch)!;
      const a = await c.request<{ title: string; kind: string; isPreferred: boolean; edit: unknown }[]>('textDocument/codeAction', { textDocument: { uri }, range: d.range, context: { diagnostics: [d], only: ['quickfix'] } });
      return a.map((x) => [x.title, x.kind, x.isPreferred, x.edit]);
    };
    assert.deepEqual(await fix(1, 0), [["Change to 'layout'", 'quickfix', true, { changes: { [uri]: [{ range: R(1, 0, 1, 6), newText: 'layout' }] } }]]);
    assert.deepEqual(await fix(1, 19), [["Change to 'Row'", 'quickfix', true, { changes: { [uri]: [{ range: R(1, 19, 1, 21), newText: 'Row' }] } }]]);
    assert.deepEqual(await fix(2, 0), [["Change to 'let'", 'quickfix', true, { changes: { [uri]: [{ range: R(2, 0, 2, 4), newText: 'let' }] } }]]);
    assert.deepEqual(await fix(7, 2), [["Change to 'tile'", 'quickfix', true, { changes: { [uri]: [{ range: R(7, 2, 7, 6), newText: 'tile' }] } }]]);
  });

  test('an incremental edit is re-analysed and published with its version', async () => {
    const uri = c.uri('inc.layout');
    const text = 'param M = 4\nlet x = M + y\n';
    const first = await c.open(uri, text);
    assert.deepEqual(first.diagnostics.map((d) => d.code), ['unused/let', 'name/undefined']);
    const wait = c.diagnostics(uri, 2);
    c.change(uri, 2, [{ range: rangeOf(text, 'y'), text: 'M' }]);
    const second = await wait;
    assert.deepEqual(second.diagnostics.map((d) => [d.code, d.range]), [['unused/let', R(1, 4, 1, 5)]]);
  });

  test('closing a document clears its diagnostics', async () => {
    const uri = c.uri('inc.layout');
    const cleared = c.waitFor((p) => p.uri === uri && p.version === undefined);
    c.close(uri);
    assert.deepEqual((await cleared).diagnostics, []);
  });
});

/** A GenP check of S*S points: with S = 20000 and a large budget it runs for many seconds unless stopped. */
const slow = (s: number) => `param S = ${s}\nperm sw(n)[i, j] = j * n + i\nlayout L = OrderBy(GenP([S, S], sw(S)))\n`;

describe('long checks', () => {
  let c: LspClient;
  before(async () => {
    c = await LspClient.start({ settings: { genp: { checkBudget: 1e12 }, diagnostics: { debounceMs: 30 } }, env: { LAYOUT_INTERIM_AFTER_MS: '5000' } });
  });
  after(() => c.stop());

  test('hover answers while a long check runs; rapid edits publish only the newest version', async () => {
    const uri = c.uri('slow.layout');
    const t0 = Date.now();
    c.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'layout', version: 1, text: slow(20000) } });
    await new Promise((r) => setTimeout(r, 150));
    const h0 = Date.now();
    const h = await c.request<{ contents: { kind: string; value: string } }>('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 6 } });
    const hoverMs = Date.now() - h0;
    assert.equal(h.contents.value.split('\n')[0], '**param** `S` = `20000`');
    assert.ok(hoverMs < 1000, `hover took ${hoverMs} ms`);
    assert.deepEqual(c.published.filter((p) => p.uri === uri), [], 'the check of v1 should still be running');
    // rapid edits, each a long check again; the last makes the check small
    for (let v = 2; v <= 5; v++) c.change(uri, v, [{ text: slow(20000 + v) }]);
    const last = c.diagnostics(uri, 6, 20_000);
    c.change(uri, 6, [{ range: rangeOf(slow(20005), '20005'), text: '6' }]);
    const p = await last;
    const elapsed = Date.now() - t0;
    assert.deepEqual(p.diagnostics.map((d) => d.code), ['genp/partially-checked']);
    assert.match(p.diagnostics[0].message as string, /checked exhaustively at S = 6 \(36 points\)/);
    const versions = c.published.filter((x) => x.uri === uri).map((x) => x.version);
    assert.deepEqual(versions, [6]);
    // one 20000 x 20000 check alone takes several seconds; the cancelled ones cost nothing
    assert.ok(elapsed < 4000, `took ${elapsed} ms`);
  });

  test('while a long check runs, everything else about the same version is published meanwhile', async () => {
    const t = await LspClient.start({ settings: { genp: { checkBudget: 1e12 } }, env: { LAYOUT_INTERIM_AFTER_MS: '200' } });
    try {
      const uri = t.uri('interim.layout');
      const text = slow(20000) + 'let y = zz\n';
      const t0 = Date.now();
      // the fast checks' result (unused/let comes from a rule: not the syntax-only fallback, which a
      // very slow machine may show first), without the GenP check
      const first = t.waitFor((p) => p.uri === uri && p.version === 1 && p.diagnostics.some((d) => d.code === 'unused/let'));
      void t.open(uri, text);
      assert.deepEqual((await first).diagnostics.map((d) => d.code), ['unused/let', 'name/undefined']);
      assert.ok(Date.now() - t0 < 5000);
      // the final result of the next version replaces it
      const next = t.diagnostics(uri, 2, 20_000);
      t.change(uri, 2, [{ range: rangeOf(text, '20000'), text: '6' }]);
      assert.deepEqual((await next).diagnostics.map((d) => d.code), ['genp/partially-checked', 'unused/let', 'name/undefined']);
      const pubs = t.published.filter((p) => p.uri === uri);
      assert.equal(pubs.at(-1)!.version, 2);
      assert.ok(pubs.filter((p) => p.version === 1).every((p) => !p.diagnostics.some((d) => String(d.code).startsWith('genp/'))));
    } finally {
      await t.stop();
    }
  });

  test('a large file just opened gets its syntax and name diagnostics first, then the complete set; an edit only the complete set', async () => {
    // every file counts as large here (LAYOUT_EARLY_STAGE_MIN_CHARS); the default is 8,000 characters
    const t = await LspClient.start({ settings: { diagnostics: { debounceMs: 0 } }, env: { LAYOUT_EARLY_STAGE_MIN_CHARS: '10' } });
    try {
      const uri = t.uri('staged.layout');
      // a GenP check (a slow rule): the fast checks' results come as a stage of their own
      const text = 'param N = 4\nlet y = zz\nlayout G = OrderBy(Row(N, N)).GroupBy([N, 5])\n' + slow(8);
      const complete = t.waitFor((p) => p.uri === uri && p.version === 1 && p.diagnostics.some((d) => String(d.code).startsWith('genp/')));
      void t.open(uri, text);
      await complete;
      const codes = (v: number) => t.published.filter((p) => p.uri === uri && p.version === v).map((p) => p.diagnostics.map((d) => d.code));
      assert.deepEqual(codes(1), [
        ['name/undefined'],
        ['unused/let', 'name/undefined', 'size/groupby-mismatch'],
        ['unused/let', 'name/undefined', 'size/groupby-mismatch', 'genp/partially-checked'],
      ]);
      // an edit: the previous complete set stays until the new one replaces it
      const next = t.diagnostics(uri, 2);
      t.change(uri, 2, [{ range: rangeOf(text, 'zz'), text: 'N' }]);
      await next;
      await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(codes(2), [['unused/let', 'size/groupby-mismatch', 'genp/partially-checked']]);
      // a small file (the default threshold): one publish, the complete set
      const u = await LspClient.start({ settings: { diagnostics: { debounceMs: 0 } } });
      try {
        const small = u.uri('small.layout');
        await u.open(small, text);
        await new Promise((r) => setTimeout(r, 200));
        assert.deepEqual(u.published.filter((p) => p.uri === small).map((p) => p.diagnostics.map((d) => d.code)), [['unused/let', 'name/undefined', 'size/groupby-mismatch', 'genp/partially-checked']]);
      } finally {
        await u.stop();
      }
    } finally {
      await t.stop();
    }
  });

  test('a check that runs past the time limit is stopped; syntax diagnostics and a note are published', async () => {
    const t = await LspClient.start({ settings: { genp: { checkBudget: 1e12 } }, env: { LAYOUT_ANALYSIS_TIMEOUT_MS: '600', LAYOUT_INTERIM_AFTER_MS: '5000' } });
    try {
      const uri = t.uri('runaway.layout');
      const p = await t.open(uri, slow(20000) + 'let y = zz\n');
      assert.deepEqual(p.diagnostics.map((d) => [d.code, d.severity, d.message]), [
        ['analysis/timeout', 2, 'the checks of this file ran longer than 600 ms and were stopped; only syntax and name errors are shown'],
        ['name/undefined', 1, "unknown name 'zz'"],
      ]);
      // the server still works afterwards (a fresh worker)
      const q = await t.open(t.uri('after.layout'), 'param Q = 1\n');
      assert.deepEqual(q.diagnostics.map((d) => d.code), ['unused/param']);
    } finally {
      await t.stop();
    }
  });
});

describe('settings', () => {
  test('pulled at start and re-applied on didChangeConfiguration', async () => {
    const c = await LspClient.start({ settings: { genp: { checkBudget: 10 } } });
    try {
      const uri = c.uri('budget.layout');
      const small = await c.open(uri, slow(8));
      assert.deepEqual(small.diagnostics.map((d) => d.code), ['genp/partially-checked']);
      assert.match(small.diagnostics[0].message as string, /not checked at S = 8 \(64 points\): over the check budget of 10 points/);
      const before = small.diagnostics[0].message;
      const next = c.waitFor((p: PublishDiagnosticsParams) => p.uri === uri && p.diagnostics[0]?.message !== before);
      c.changeConfiguration({ genp: { checkBudget: 1000 } });
      const big = await next;
      assert.equal(big.version, 1);
      assert.match(big.diagnostics[0].message as string, /checked exhaustively at S = 8 \(64 points\)/);
      assert.ok(c.configRequests.length >= 2);
      assert.ok(c.refreshes.includes('workspace/inlayHint/refresh'));
    } finally {
      await c.stop();
    }
  });
});
