// Protocol-level tests of the AST features: outline, folding, navigation, rename, semantic tokens,
// formatting, completion, signature help, code lenses, code actions and workspace symbols.
// One server for the file (spawned from dist/server.js, built in `before`).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspClient, markers, pos } from './harness.js';
import { matmul } from './fixtures.js';

let c: LspClient;
let uri: string;
const td = () => ({ textDocument: { uri } });
const at = (line: number, character: number) => ({ textDocument: { uri }, position: { line, character } });
const R = (l1: number, c1: number, l2: number, c2: number) => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });

before(async () => {
  // as the VS Code client: it declares the client-side command of "Show layout" lenses
  c = await LspClient.start({ initializationOptions: { clientCommands: ['layout.showLayout'] } });
  uri = c.uri('matmul.layout');
  await c.open(uri, matmul);
});
after(() => c.stop());

test('initialize announces every feature', () => {
  const caps = c.initializeResult.capabilities as Record<string, unknown>;
  for (const k of ['hoverProvider', 'completionProvider', 'signatureHelpProvider', 'definitionProvider', 'referencesProvider',
    'documentHighlightProvider', 'renameProvider', 'documentSymbolProvider', 'workspaceSymbolProvider', 'semanticTokensProvider',
    'documentFormattingProvider', 'foldingRangeProvider', 'codeActionProvider', 'codeLensProvider', 'inlayHintProvider', 'executeCommandProvider']) {
    assert.ok(caps[k], `missing ${k}`);
  }
  assert.deepEqual(caps.textDocumentSync, { openClose: true, change: 2, save: { includeText: false } });
  assert.deepEqual(caps.renameProvider, { prepareProvider: true });
  assert.deepEqual(caps.executeCommandProvider, { commands: ['layout.emit'] });
});

describe('outline', () => {
  test('document symbols with children', async () => {
    const syms = await c.request<{ name: string; detail: string; kind: number; range: unknown; selectionRange: unknown; children: { name: string; kind: number }[] }[]>('textDocument/documentSymbol', td());
    assert.deepEqual(syms.map((s) => [s.name, s.kind, s.detail]), [
      ['M', 14, 'param = 4096'], ['N', 14, 'param = 4096'], ['K', 14, 'param = 4096'],
      ['BM', 14, 'param = 128 in [64, 128, 256]'], ['BN', 14, 'param = 256'], ['BK', 14, 'param = 64'],
      ['num_pid_m', 13, '= M / BM'],
      ['A', 23, 'OrderBy(Row(M, K)).TileBy([M / BM, K / BK], [BM, BK])'],
      ['antidiag', 12, '(n)[i, j]'],
      ['matmul', 2, 'target triton template "templates/matmul.py"'],
      ['gemm', 3, 'for linalg.matmul(M, N, K) on sm_90'],
    ]);
    const kernel = syms[9];
    assert.deepEqual(kernel.range, R(6, 0, 8, 1));
    assert.deepEqual(kernel.selectionRange, R(6, 7, 6, 13));
    assert.deepEqual(kernel.children.map((x) => [x.name, x.kind]), [['offset_aptrs', 13]]);
    assert.deepEqual(syms[8].children.map((x) => [x.name, x.kind]), [['n', 26], ['i', 13], ['j', 13]]);
    assert.deepEqual(syms[10].children.map((x) => [x.name, x.kind]), [['mm = findOp', 24], ['tile', 24]]);
  });

  test('folding ranges: blocks, multi-line declarations, comment runs', async () => {
    assert.deepEqual(await c.request('textDocument/foldingRange', td()), [{ startLine: 6, endLine: 7 }, { startLine: 9, endLine: 11 }]);
    const u = c.uri('fold.layout');
    await c.open(u, '# one\n# two\n# three\nparam M = 1\nlayout A = OrderBy(\n  Row(M, M)\n)\n# lone\n');
    assert.deepEqual(await c.request('textDocument/foldingRange', { textDocument: { uri: u } }), [
      { startLine: 0, endLine: 2, kind: 'comment' },
      { startLine: 4, endLine: 6 },
    ]);
  });

  test('workspace symbols: open documents and .layout files on disk', async () => {
    mkdirSync(join(c.workspace, 'sub'), { recursive: true });
    writeFileSync(join(c.workspace, 'sub', 'other.layout'), 'param QQ_size = 3\nlayout QQ_layout = OrderBy(Row(QQ_size, 2))\n');
    writeFileSync(join(c.workspace, 'sub', 'ignored.txt'), 'param QQ_txt = 1\n');
    // the files appeared after the server's initial scan: the client's file watcher says so
    c.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: ['other.layout', 'ignored.txt'].map((f) => ({ uri: pathToFileURL(join(c.workspace, 'sub', f)).href, type: 1 })) });
    const r = await c.request<{ name: string; kind: number; location: { uri: string; range: unknown } }[]>('workspace/symbol', { query: 'qq' });
    const other = pathToFileURL(join(c.workspace, 'sub', 'other.layout')).href;
    assert.deepEqual(r, [
      { name: 'QQ_size', kind: 14, location: { uri: other, range: R(0, 6, 0, 13) } },
      { name: 'QQ_layout', kind: 23, location: { uri: other, range: R(1, 7, 1, 16) } },
    ]);
    const mine = await c.request<{ name: string; containerName?: string; location: { uri: string } }[]>('workspace/symbol', { query: 'offset' });
    assert.deepEqual(mine.map((s) => [s.name, s.containerName, s.location.uri]), [['offset_aptrs', 'matmul', uri]]);
  });
});

describe('navigation', () => {
  test('definition of a param, a perm-local, a handle; nothing on a built-in', async () => {
    assert.deepEqual(await c.request('textDocument/definition', at(4, 24)), [{ uri, range: R(1, 6, 1, 7) }]); // K in Row(M, K)
    assert.deepEqual(await c.request('textDocument/definition', at(5, 37)), [{ uri, range: R(5, 14, 5, 15) }]); // n in the body
    assert.deepEqual(await c.request('textDocument/definition', at(11, 8)), [{ uri, range: R(10, 2, 10, 4) }]); // mm
    assert.deepEqual(await c.request('textDocument/definition', at(4, 13)), []); // OrderBy
  });

  test('definition on a template path opens the template file', async () => {
    mkdirSync(join(c.workspace, 'templates'), { recursive: true });
    writeFileSync(join(c.workspace, 'templates', 'matmul.py'), 'x = {{ offset_aptrs }}\n');
    assert.deepEqual(await c.request('textDocument/definition', at(6, 45)), [
      { uri: pathToFileURL(join(c.workspace, 'templates', 'matmul.py')).href, range: R(0, 0, 0, 0) },
    ]);
  });

  test('references with and without the declaration', async () => {
    const withDecl = await c.request('textDocument/references', { ...at(3, 21), context: { includeDeclaration: true } });
    assert.deepEqual(withDecl, [R(2, 6, 2, 8), R(3, 20, 3, 22), R(4, 42, 4, 44), R(4, 56, 4, 58)].map((range) => ({ uri, range })));
    const uses = await c.request('textDocument/references', { ...at(2, 6), context: { includeDeclaration: false } });
    assert.deepEqual(uses, [R(3, 20, 3, 22), R(4, 42, 4, 44), R(4, 56, 4, 58)].map((range) => ({ uri, range })));
  });

  test('document highlights mark the declaration as a write', async () => {
    assert.deepEqual(await c.request('textDocument/documentHighlight', at(5, 29)), [
      { range: R(5, 17, 5, 18), kind: 3 },
      { range: R(5, 28, 5, 29), kind: 2 },
      { range: R(5, 43, 5, 44), kind: 2 },
    ]);
    assert.deepEqual(await c.request('textDocument/documentHighlight', at(0, 3)), []); // in a comment
  });

  test('free index symbols: the first use stands as the declaration', async () => {
    const u = c.uri('free.layout');
    const { text, at: m } = markers('layout L = OrderBy(Row(4, 4))\nkernel k target triton template "t" {\n  a = L[$1i, 0]\n  b = L[0, $2i]\n}\n');
    await c.open(u, text);
    const p = pos(text, m['2']);
    assert.deepEqual(await c.request('textDocument/references', { textDocument: { uri: u }, position: p, context: { includeDeclaration: true } }), [
      { uri: u, range: { start: pos(text, m['1']), end: pos(text, m['1'] + 1) } },
      { uri: u, range: { start: p, end: { line: p.line, character: p.character + 1 } } },
    ]);
  });
});

describe('rename', () => {
  test('prepareRename gives the name and its range', async () => {
    assert.deepEqual(await c.request('textDocument/prepareRename', at(3, 21)), { range: R(3, 20, 3, 22), placeholder: 'BM' });
  });

  test('prepareRename refuses keywords, built-ins and plain text', async () => {
    const refused = async (line: number, ch: number) => {
      try {
        await c.request('textDocument/prepareRename', at(line, ch));
        return 'accepted';
      } catch (e) {
        return (e as Error).message;
      }
    };
    assert.equal(await refused(1, 2), "'param' is a keyword and cannot be renamed");
    assert.equal(await refused(4, 13), "'OrderBy' is built in and cannot be renamed");
    assert.equal(await refused(11, 3), "'tile' is built in and cannot be renamed");
    assert.equal(await refused(4, 32), "'TileBy' is built in and cannot be renamed");
    assert.equal(await refused(1, 11), 'there is no name to rename here');
  });

  test('rename edits every use', async () => {
    const r = await c.request('textDocument/rename', { ...at(1, 6), newName: 'rows' });
    assert.deepEqual(r, {
      changes: { [uri]: [R(1, 6, 1, 7), R(3, 16, 3, 17), R(4, 23, 4, 24), R(4, 38, 4, 39), R(9, 32, 9, 33)].map((range) => ({ range, newText: 'rows' })) },
    });
  });

  test('rename refuses clashes, keywords, built-ins and bad names', async () => {
    const msg = async (newName: string, line = 1, ch = 6) => {
      try {
        await c.request('textDocument/rename', { ...at(line, ch), newName });
        return 'accepted';
      } catch (e) {
        return (e as Error).message;
      }
    };
    assert.equal(await msg('N'), "'N' is already declared: a param at 2:17");
    assert.equal(await msg('layout'), "'layout' is a keyword");
    assert.equal(await msg('Row'), "'Row' is a built-in name");
    assert.equal(await msg('2x'), "'2x' is not a valid name: use letters, digits and '_', not starting with a digit");
    assert.equal(await msg('n', 5, 20), "'n' is already declared: a perm size parameter at 6:15"); // j -> n inside the perm
  });
});

describe('rename and kernel templates', () => {
  // a kernel's binding names are its template's placeholders, and a param fills `{{ param_NAME }}` by
  // its name: renaming either would leave the template's placeholder unfilled (the kernel stops
  // generating), so the rename is refused before the editor asks for a new name
  test('prepareRename refuses a binding the template uses and a param a template reads by its name; a param bound explicitly renames', async () => {
    const u = c.uri('kernel-rename.layout');
    const { text, at: m } = markers(`param $1M = 256, N = 256, K = 256, BM = 64, BN = 64, BK = 32, GM = 8
let tiles = $3M / BM
layout P = OrderBy(Row(4, 4)).GroupBy([4, 4])
layout A = OrderBy(Row(M, K)).TileBy([M / BM, K / BK], [BM, BK])
kernel mm target triton builtin matmul {
  pid_m, pid_n = P.inv(pid)
  $2offset_aptrs = A[pid_m, k, :, :]
  offset_bptrs = P[pid_m, k]
  offset_cptrs = P[pid_m, pid_n]
}
`);
    await c.open(u, text);
    const refused = async (offset: number) => {
      try {
        return await c.request('textDocument/prepareRename', { textDocument: { uri: u }, position: pos(text, offset) });
      } catch (e) {
        return (e as Error).message;
      }
    };
    assert.equal(await refused(m['1']), "param 'M' fills {{ param_M }} in builtin matmul of kernel mm by its name: renaming it would leave the placeholder unfilled; bind it in the kernel first (param_M = M)");
    assert.equal(await refused(m['3']), "param 'M' fills {{ param_M }} in builtin matmul of kernel mm by its name: renaming it would leave the placeholder unfilled; bind it in the kernel first (param_M = M)");
    assert.equal(await refused(m['2']), "'offset_aptrs' fills {{ offset_aptrs }} in builtin matmul of kernel mm: the template names it, so renaming it here would leave the placeholder unfilled");
    // bound explicitly, the param still keeps its name in the built-in's code, which defines `M` itself:
    // renamed, `offset_aptrs` would name `Rows` there (kernel/name-not-in-template)
    const bound = text.replace('  pid_m, pid_n', '  param_M = M\n  pid_m, pid_n');
    c.change(u, 2, [{ text: bound }]);
    assert.equal(await refused(m['1']), "a param 'M' keeps its name in the code of builtin matmul (kernel mm), whose code defines 'M' itself: renamed, the kernel's bindings would name something its code does not define");
    // a const is folded into the code: bound explicitly, it renames (the binding's value is renamed with it)
    const folded = bound.replace('param M = 256, N', 'const M = 256\nparam N');
    c.change(u, 3, [{ text: folded }]);
    const r = (await c.request('textDocument/rename', { textDocument: { uri: u }, position: pos(folded, m['1']), newName: 'Rows' })) as { changes: Record<string, { newText: string }[]> };
    assert.equal(r.changes[u].length, 5);
  });
});

describe('semantic tokens', () => {
  const decode = async (u: string, text: string) => {
    const st = await c.request<{ data: number[] }>('textDocument/semanticTokens/full', { textDocument: { uri: u } });
    const legend = (c.initializeResult.capabilities as { semanticTokensProvider: { legend: { tokenTypes: string[]; tokenModifiers: string[] } } }).semanticTokensProvider.legend;
    const lines = text.split('\n');
    const got: string[] = [];
    let line = 0;
    let ch = 0;
    for (let i = 0; i < st.data.length; i += 5) {
      const [dl, dc, len, ty, mods] = st.data.slice(i, i + 5);
      line += dl;
      ch = dl ? dc : ch + dc;
      const m = legend.tokenModifiers.filter((_, k) => mods & (1 << k));
      got.push(`${lines[line].slice(ch, ch + len)}:${legend.tokenTypes[ty]}${m.map((x) => '.' + x).join('')}`);
    }
    return got;
  };

  test('every token of a small file, classified by what it refers to', async () => {
    const text = [
      'param M = 4',
      'const T = 2',
      'let h = M / T',
      'perm p(n)[i] = n - 1 - i inverse(x) = [n - 1 - x]',
      'layout A = OrderBy(GenP([M], p(M))).TileBy([M])',
      'kernel k target cuda builtin gemm_tile {',
      '  a = A.inv(q)',
      '}',
      'schedule s for linalg.matmul(M, M, M) on sm_80 {',
      '  mm = findOp("linalg.matmul")',
      '  vectorize(mm)',
      '}',
      '',
    ].join('\n');
    const u = c.uri('tokens.layout');
    await c.open(u, text);
    assert.deepEqual(await decode(u, text), [
      'param:keyword', 'M:variable.declaration.readonly', '=:operator', '4:number',
      'const:keyword', 'T:variable.declaration.readonly', '=:operator', '2:number',
      'let:keyword', 'h:variable.declaration', '=:operator', 'M:variable.readonly', '/:operator', 'T:variable.readonly',
      'perm:keyword', 'p:function.declaration', 'n:parameter.declaration', 'i:parameter.declaration', '=:operator',
      'n:parameter', '-:operator', '1:number', '-:operator', 'i:parameter', 'inverse:keyword', 'x:parameter.declaration', '=:operator',
      'n:parameter', '-:operator', '1:number', '-:operator', 'x:parameter',
      'layout:keyword', 'A:type.declaration', '=:operator', 'OrderBy:class.defaultLibrary', 'GenP:class.defaultLibrary',
      'M:variable.readonly', 'p:function', 'M:variable.readonly', 'TileBy:method.defaultLibrary', 'M:variable.readonly',
      'kernel:keyword', 'k:function.declaration', 'target:keyword', 'cuda:enumMember.defaultLibrary', 'builtin:keyword', 'gemm_tile:function.defaultLibrary',
      'a:variable.declaration', '=:operator', 'A:type', 'inv:method.defaultLibrary', 'q:parameter.declaration',
      'schedule:keyword', 's:namespace.declaration', 'for:keyword', 'linalg:type.defaultLibrary', 'matmul:type.defaultLibrary',
      'M:variable.readonly', 'M:variable.readonly', 'M:variable.readonly', 'on:keyword', 'sm_80:enumMember.defaultLibrary',
      'mm:variable.declaration', '=:operator', 'findOp:function.defaultLibrary', '"linalg.matmul":string',
      'vectorize:function.defaultLibrary', 'mm:variable',
    ]);
  });

  test('full/delta over the protocol: an edit inside one declaration sends that declaration\'s tokens, and the edited result is the full one', async () => {
    const caps = c.initializeResult.capabilities as { semanticTokensProvider: { full: { delta?: boolean }; range?: boolean } };
    assert.deepEqual([caps.semanticTokensProvider.full, caps.semanticTokensProvider.range], [{ delta: true }, true]);
    const decls = Array.from({ length: 30 }, (_, k) => `param P${k} = ${k + 1}\nlayout L${k} = OrderBy(Row(P${k}, 4))\n`);
    let text = decls.join('');
    const u = c.uri('delta.layout');
    await c.open(u, text);
    const full = await c.request<{ resultId: string; data: number[] }>('textDocument/semanticTokens/full', { textDocument: { uri: u } });
    // `P7` renamed to `Q7` in its declaration: its uses now refer to nothing (a variable, not readonly)
    text = text.replace('param P7 =', 'param Q7 =');
    c.change(u, 2, [{ text }]);
    const d = await c.request<{ resultId: string; edits: { start: number; deleteCount: number; data: number[] }[] }>('textDocument/semanticTokens/full/delta', { textDocument: { uri: u }, previousResultId: full.resultId });
    assert.equal(d.edits.length, 1);
    const e = d.edits[0];
    assert.ok(e.start > 0 && e.start + e.deleteCount < full.data.length, JSON.stringify(e));
    // the edited declaration's 4 tokens, the 7 of the layout whose use of `P7` now resolves differently
    // (punctuation has none), and the token after them (its deltas start at the one before it)
    assert.deepEqual([e.deleteCount, e.data.length], [5 * 12, 5 * 12]);
    const data = full.data.slice();
    data.splice(e.start, e.deleteCount, ...e.data);
    const again = await c.request<{ resultId: string; data: number[] }>('textDocument/semanticTokens/full', { textDocument: { uri: u } });
    assert.deepEqual(data, again.data);
    // an unknown previous result: the full tokens
    const unknown = await c.request<{ data: number[] }>('textDocument/semanticTokens/full/delta', { textDocument: { uri: u }, previousResultId: 'none' });
    assert.deepEqual(unknown.data, again.data);
    // lines 4 and 5 (param P2, layout L2): those two declarations' tokens, encoded from the document's start
    const r = await c.request<{ data: number[] }>('textDocument/semanticTokens/range', { textDocument: { uri: u }, range: R(4, 0, 6, 0) });
    assert.deepEqual(r.data.length, 5 * (4 + 7));
    assert.deepEqual(r.data.slice(0, 2), [4, 0]);
  });

  test('the fixture: comments, free index symbols, handles', async () => {
    const got = await decode(uri, matmul);
    assert.equal(got[0], '# Grouped matmul:comment');
    assert.deepEqual(got.filter((g) => /^(pid_m|k|offset_aptrs|mm):/.test(g)), [
      'offset_aptrs:variable.declaration', 'pid_m:parameter.declaration', 'k:parameter.declaration', 'mm:variable.declaration', 'mm:variable',
    ]);
  });
});

describe('formatting', () => {
  test('whitespace edits over the protocol; none for a canonical file', async () => {
    const u = c.uri('fmt.layout');
    await c.open(u, 'param M=1\nlet  x = M\n');
    assert.deepEqual(await c.request('textDocument/formatting', { textDocument: { uri: u }, options: { tabSize: 4, insertSpaces: true } }), [
      { range: R(0, 7, 0, 7), newText: ' ' },
      { range: R(0, 8, 0, 8), newText: ' ' },
      { range: R(1, 3, 1, 5), newText: ' ' },
    ]);
    assert.deepEqual(await c.request('textDocument/formatting', { ...td(), options: { tabSize: 2, insertSpaces: true } }), []);
  });

  test('no edits for a file with a syntax error', async () => {
    const u = c.uri('broken-fmt.layout');
    await c.open(u, 'param M=1\nlayout A = OrderBy(Row(M, 4)\n');
    assert.deepEqual(await c.request('textDocument/formatting', { textDocument: { uri: u }, options: { tabSize: 2, insertSpaces: true } }), []);
  });
});

describe('completion and signature help', () => {
  const labels = async (u: string, text: string) => {
    const { text: t, offset } = markers(text);
    await c.open(u, t);
    const r = await c.request<{ items: { label: string; kind: number; insertTextFormat: number; textEdit: { newText: string; range: unknown } }[] }>('textDocument/completion', { textDocument: { uri: u }, position: pos(t, offset) });
    return r.items;
  };

  test('methods after a dot, as snippets replacing the typed prefix', async () => {
    const items = await labels(c.uri('c1.layout'), 'param M = 4\nlayout A = OrderBy(Row(M, M)).Ti$0\n');
    assert.deepEqual(items.map((i) => i.label), ['OrderBy', 'GroupBy', 'TileBy', 'ExpandBy', 'TileOrderBy', 'apply', 'inv']);
    const tile = items.find((i) => i.label === 'TileBy')!;
    assert.deepEqual(tile.textEdit, { range: R(1, 30, 1, 32), newText: 'TileBy([${1:outer}], [${2:inner}])' });
    assert.equal(tile.insertTextFormat, 2);
    assert.equal(tile.kind, 2);
  });

  test('expression position: names in scope, constructors, functions, keywords', async () => {
    const items = await labels(c.uri('c2.layout'), 'param M = 4, N = 8\nlet half = M / 2\nlayout A = $0\nlet later = 1\n');
    assert.deepEqual(items.map((i) => i.label), ['M', 'N', 'half', 'Row', 'Col', 'RegP', 'GenP', 'OrderBy', 'GroupBy', 'min', 'max', 'if', 'then', 'else', 'and', 'or', 'not']);
    assert.equal(items.find((i) => i.label === 'RegP')!.textEdit.newText, 'RegP([${1:dims}], [${2:perm}])');
    assert.equal(items.find((i) => i.label === 'RegP')!.insertTextFormat, 2);
    // plain text, the protocol's default format, is not said
    const m = items.find((i) => i.label === 'M')!;
    assert.deepEqual([m.textEdit.newText, m.insertTextFormat, 'insertTextFormat' in m], ['M', undefined, false]);
  });

  test('line start at top level: declaration keywords first', async () => {
    const items = await labels(c.uri('c3.layout'), 'param M = 4\nla$0');
    assert.deepEqual(items.slice(0, 7).map((i) => i.label), ['param', 'const', 'let', 'layout', 'perm', 'kernel', 'schedule']);
    assert.equal(items[3].textEdit.newText, 'layout ${1:A} = OrderBy(${2:Row(M, N)})');
  });

  test('schedule statements: PEAK primitives; arguments: handles and params', async () => {
    const items = await labels(c.uri('c4.layout'), 'param BK = 8\nschedule s for linalg.matmul(8, 8, 8) on sm_90 {\n  mm = findOp("linalg.matmul")\n  $0\n}\n');
    assert.deepEqual(items.map((i) => i.label), ['findOp', 'tileForGrids', 'tile', 'fuse', 'promote', 'parallelizeForThreads', 'parallelizeForBlocks', 'vectorize', 'unroll', 'bufferize',
      'parallelizeForWarps', 'mma', 'asyncCopy', 'multibuffer', 'pipeline', 'swizzleShared']);
    assert.equal(items.find((i) => i.label === 'tile')!.textEdit.newText, 'tile(${1:mm}, [${2}])');
    assert.equal(items.find((i) => i.label === 'mma')!.textEdit.newText, 'mma(${1:mm}, [${2:16, 8, 16}])');
    assert.equal(items.find((i) => i.label === 'pipeline')!.textEdit.newText, 'pipeline(${1:mm}, ${2:3})');
    assert.equal(items.find((i) => i.label === 'asyncCopy')!.textEdit.newText, 'asyncCopy()');
    const args = await labels(c.uri('c5.layout'), 'param BK = 8\nschedule s for linalg.matmul(8, 8, 8) on sm_90 {\n  mm = findOp("linalg.matmul")\n  tile($0)\n}\n');
    assert.deepEqual(args.map((i) => i.label), ['mm', 'BK']);
  });

  test('element types after the colon, the x and the arrow of a schedule header; not in slices', async () => {
    for (const [i, src] of ['schedule s for linalg.matmul(8, 8, 8) : $0', 'schedule s for linalg.matmul(8, 8, 8) : f16 x $0', 'schedule s for linalg.matmul(8, 8, 8) : f16 x f16 -> $0'].entries()) {
      const items = await labels(c.uri(`et${i}.layout`), `${src}\n`);
      assert.deepEqual(items.map((x) => x.label), ['f16', 'f32', 'bf16'], src);
    }
    const slice = await labels(c.uri('et3.layout'), 'param N = 4\nlayout L = OrderBy(Row(N, N))\nkernel k target cuda builtin copy {\n  a = L[0 : $0]\n}\n');
    assert.ok(!slice.some((x) => x.label === 'f16'));
  });

  test('kernel targets, GPUs, and nothing in comments', async () => {
    assert.deepEqual((await labels(c.uri('c6.layout'), 'kernel k target $0')).map((i) => i.label), ['cuda', 'triton', 'mlir']);
    assert.deepEqual((await labels(c.uri('c7.layout'), 'schedule s for linalg.matmul(1, 1, 1) on s$0')).map((i) => i.label), ['sm_80', 'sm_86', 'sm_89', 'sm_90', 'cpu']);
    assert.deepEqual(await labels(c.uri('c8.layout'), 'param M = 4 # M$0'), []);
  });

  test('a client that takes a default edit range (LSP 3.17) gets it once with each item\'s text: the same edits', async () => {
    const d = await LspClient.start({ completionItemDefaults: ['commitCharacters', 'editRange', 'insertTextFormat', 'insertTextMode', 'data'] });
    try {
      const sources = ['param M = 4, N = 8\nlet half = M / 2\nlayout A = OrderBy($0\nlet later = 1\n', 'param M = 4\nlayout A = OrderBy(Row(M, M)).Ti$0\n',
        'param BK = 8\nschedule s for linalg.matmul(8, 8, 8) on sm_90 {\n  mm = findOp("linalg.matmul")\n  $0\n}\n', 'param M = 4\nla$0'];
      const kinds = new Set<string>();
      for (const [k, src] of sources.entries()) {
        const { text: t, offset } = markers(src);
        const [u1, u2] = [c.uri(`dr${k}.layout`), d.uri(`dr${k}.layout`)];
        await Promise.all([c.open(u1, t), d.open(u2, t)]);
        type Item = { label: string; textEdit?: { range: unknown; newText: string }; textEditText?: string };
        const plain = await c.request<{ items: Item[]; itemDefaults?: unknown }>('textDocument/completion', { textDocument: { uri: u1 }, position: pos(t, offset) });
        const dflt = await d.request<{ items: Item[]; itemDefaults: { editRange: unknown } }>('textDocument/completion', { textDocument: { uri: u2 }, position: pos(t, offset) });
        assert.ok(plain.items.length > 3 && plain.itemDefaults === undefined, src);
        assert.deepEqual(dflt.itemDefaults, { editRange: plain.items[0].textEdit!.range }, src);
        assert.ok(dflt.items.every((i) => i.textEdit === undefined && i.textEditText !== i.label), src);
        for (const i of dflt.items) kinds.add(i.textEditText === undefined ? 'label' : 'text');
        // the edit each item makes is the plain client's, field for field otherwise
        const asPlain = dflt.items.map(({ textEditText, ...rest }) => ({ ...rest, textEdit: { range: dflt.itemDefaults.editRange, newText: textEditText ?? rest.label } }));
        assert.deepEqual(asPlain, plain.items, src);
      }
      assert.deepEqual([...kinds].sort(), ['label', 'text']);
    } finally {
      await d.stop();
    }
  });

  test('a client that resolves detail and documentation lazily gets them from completionItem/resolve: the same items', async () => {
    const vscodeLike = ['documentation', 'detail', 'additionalTextEdits'];
    const d = await LspClient.start({ completionItemDefaults: ['editRange', 'data'], completionResolve: vscodeLike });
    // without default data: resolved against the last list
    const e = await LspClient.start({ completionItemDefaults: ['editRange'], completionResolve: vscodeLike });
    type Item = { label: string; detail?: string; documentation?: unknown; data?: unknown; textEditText?: string };
    type List = { items: Item[]; itemDefaults: { editRange: unknown; data?: unknown } };
    try {
      assert.equal((d.initializeResult as { capabilities: { completionProvider: { resolveProvider: boolean } } }).capabilities.completionProvider.resolveProvider, true);
      const sources = ['param M = 4, N = 8\nlet half = M / 2\nlayout A = OrderBy($0\nlet later = 1\n', 'param M = 4\nlayout A = OrderBy(Row(M, M)).Ti$0\n',
        'param BK = 8\nschedule s for linalg.matmul(8, 8, 8) on sm_90 {\n  mm = findOp("linalg.matmul")\n  $0\n}\n', 'param M = 4\nla$0'];
      const ids: unknown[] = [];
      const lists: List[] = [];
      for (const [k, src] of sources.entries()) {
        const { text: t, offset } = markers(src);
        const [u1, u2, u3] = [c.uri(`lz${k}.layout`), d.uri(`lz${k}.layout`), e.uri(`lz${k}.layout`)];
        await Promise.all([c.open(u1, t), d.open(u2, t), e.open(u3, t)]);
        const at = (u: string) => ({ textDocument: { uri: u }, position: pos(t, offset) });
        const eager = await c.request<{ items: Item[] }>('textDocument/completion', at(u1));
        const lazy = await d.request<List>('textDocument/completion', at(u2));
        const last = await e.request<List>('textDocument/completion', at(u3));
        assert.ok(eager.items.some((i) => i.detail !== undefined) && eager.items.some((i) => i.documentation !== undefined), src);
        assert.ok(lazy.items.every((i) => i.detail === undefined && i.documentation === undefined && i.data === undefined), src);
        assert.equal(typeof lazy.itemDefaults.data, 'number', src);
        assert.equal(last.itemDefaults.data, undefined, src);
        ids.push(lazy.itemDefaults.data);
        lists.push(lazy);
        // each item resolved (as the client sends it: with the list's data) is the eager client's item
        const detailsOf = (i: Item) => ({ label: i.label, detail: i.detail, documentation: i.documentation });
        const resolved = await Promise.all(lazy.items.map((i) => d.request<Item>('completionItem/resolve', { ...i, data: lazy.itemDefaults.data })));
        assert.deepEqual(resolved.map(detailsOf), eager.items.map(detailsOf), src);
        const resolvedLast = await Promise.all(last.items.map((i) => e.request<Item>('completionItem/resolve', i)));
        assert.deepEqual(resolvedLast.map(detailsOf), eager.items.map(detailsOf), src);
      }
      assert.equal(new Set(ids).size, sources.length);
      // the first list is no longer kept once four newer ones are: its items come back as they went
      const { text: t, offset } = markers(sources[0]);
      await d.request('textDocument/completion', { textDocument: { uri: d.uri('lz0.layout') }, position: pos(t, offset) });
      const m = lists[0].items.find((i) => i.label === 'M')!;
      assert.deepEqual(await d.request('completionItem/resolve', { ...m, data: ids[0] }), { ...m, data: ids[0] });
      assert.equal((await d.request<Item>('completionItem/resolve', { ...m, data: ids[1] })).detail, undefined, 'M is not offered in the second list');
    } finally {
      await d.stop();
      await e.stop();
    }
  });

  test('signature help: constructor, rest parameter, method, primitive, user perm', async () => {
    const sig = async (text: string) => {
      const { text: t, offset } = markers(text);
      const u = c.uri('sig.layout');
      c.close(u);
      await c.open(u, t);
      return c.request<{ signatures: { label: string; parameters: { label: [number, number] }[] }[]; activeParameter: number } | null>('textDocument/signatureHelp', { textDocument: { uri: u }, position: pos(t, offset) });
    };
    let s = await sig('layout A = OrderBy(RegP([2, 2], $0');
    assert.deepEqual([s!.signatures[0].label, s!.signatures[0].parameters.map((p) => p.label), s!.activeParameter], ['RegP(dims, perm)', [[5, 9], [11, 15]], 1]);
    s = await sig('layout A = OrderBy(Row(4, 4, $0');
    assert.deepEqual([s!.signatures[0].label, s!.activeParameter], ['Row(d, ...)', 0]);
    s = await sig('layout A = OrderBy(Row(4, 4)).TileBy([2, 2], $0');
    assert.deepEqual([s!.signatures[0].label, s!.activeParameter], ['.TileBy(level, ...)', 0]);
    s = await sig('schedule s for linalg.matmul(8, 8, 8) {\n  mm = findOp("linalg.matmul")\n  unroll(mm, $0');
    assert.deepEqual([s!.signatures[0].label, s!.activeParameter], ['unroll(handle, factor)', 1]);
    s = await sig('perm p(n, m)[i] = i\nlayout A = OrderBy(GenP([4], p(4, $0');
    assert.deepEqual([s!.signatures[0].label, s!.activeParameter], ['p(n, m)[i]', 1]);
    assert.equal(await sig('param M = $0'), null);
  });
});

describe('code lenses and actions', () => {
  test('show lenses above layouts carry the name and position; emit lenses above kernels and schedules the block and version', async () => {
    assert.deepEqual(await c.request('textDocument/codeLens', td()), [
      { range: R(4, 7, 4, 8), command: { title: 'Show layout', command: 'layout.showLayout', arguments: [{ uri, name: 'A', position: { line: 4, character: 7 } }] } },
      { range: R(6, 7, 6, 13), command: { title: 'Emit Triton', command: 'layout.emit', arguments: [{ uri, target: 'triton', block: 'matmul', version: 1 }] } },
      { range: R(9, 9, 9, 13), command: { title: 'Emit MLIR', command: 'layout.emit', arguments: [{ uri, target: 'mlir', block: 'gemm', version: 1 }] } },
    ]);
  });

  test('a show lens above a linear declaration too; layout/picture draws it by name', async () => {
    const u = c.uri('lin.layout');
    await c.open(u, 'linear S = swizzled(shape=[4, 8], vec=2, perPhase=1, maxPhase=4, order=[1, 0])\n');
    assert.deepEqual(await c.request('textDocument/codeLens', { textDocument: { uri: u } }), [
      { range: R(0, 7, 0, 8), command: { title: 'Show layout', command: 'layout.showLayout', arguments: [{ uri: u, name: 'S', position: { line: 0, character: 7 } }] } },
    ]);
    const p = await c.request('layout/picture', { uri: u, position: { line: 0, character: 7 }, name: 'S' }) as { colorBy: string; cells: { physical: number; bank: number }[] };
    assert.equal(p.colorBy, 'bank');
    assert.deepEqual(p.cells.slice(8, 12).map((x) => [x.physical, x.bank]), [[10, 10], [11, 11], [8, 8], [9, 9]]);
  });

  test('source actions emit the file for each target it has', async () => {
    const actions = await c.request('textDocument/codeAction', { ...td(), range: R(0, 0, 0, 0), context: { diagnostics: [], only: ['source'] } });
    assert.deepEqual(actions, [
      { title: 'Emit Triton for this file', kind: 'source.emit.triton', command: { title: 'Emit Triton', command: 'layout.emit', arguments: [{ uri, target: 'triton', version: 1 }] } },
      { title: 'Emit MLIR for this file', kind: 'source.emit.mlir', command: { title: 'Emit MLIR', command: 'layout.emit', arguments: [{ uri, target: 'mlir', version: 1 }] } },
    ]);
    assert.deepEqual(await c.request('textDocument/codeAction', { ...td(), range: R(0, 0, 0, 0), context: { diagnostics: [], only: ['quickfix'] } }), []);
  });
});
