// Adversarial tests of what the language service keeps across document versions (name resolution
// per declaration, declaration states of the incremental analysis, the chunked parse, carried
// models, hover and inlay-hint texts kept across versions, completion): for each sequence of
// versions built to hit a case where the same declaration texts mean something else after an edit
// (a duplicate declared before the original, an `assume` added or removed, a `linear` declaration,
// a swap of declarations, a use that moves before its declaration, a rename, a param only a
// kernel's template uses, a global `i`, settings), every answer equals the answer computed from
// scratch, with nothing kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from '../../grammar/src/diagnostic.js';
import { analyze } from '../../server/src/check/index.js';
import { SnapshotCache } from '../../server/src/lsp/context.js';
import { completion } from '../../server/src/service/completion.js';
import { LayoutDocument } from '../../server/src/service/document.js';
import { hover } from '../../server/src/service/hover.js';
import { withoutHoverCache } from '../../server/src/service/hover-cache.js';
import { IncrementalAnalysis } from '../../server/src/service/incremental.js';
import { inlayHints } from '../../server/src/service/inlay-hints.js';
import { kernelChecks } from '../../server/src/service/kernel-checks.js';
import { defaultSettings, type Settings } from '../../server/src/service/settings.js';

const BUDGET = 4096;

function plain(x: unknown): unknown {
  return JSON.parse(JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)));
}

/** what the server publishes for the whole file, nothing kept */
function full(text: string, gpuTarget = 'sm_90', budget = BUDGET): Diagnostic[] {
  const a = analyze(text, { slow: true, budget, gpuTarget });
  const k = kernelChecks(a.file, text, undefined);
  return k.length ? [...a.diagnostics, ...k].sort((x, y) => x.range.start - y.range.start || x.range.end - y.range.end) : a.diagnostics;
}

/** the offsets worth a hover: every character of every word, every bracket */
function offsets(text: string): number[] {
  const out: number[] = [];
  for (let o = 0; o < text.length; o++) if (/[A-Za-z0-9_[\].]/.test(text[o])) out.push(o);
  return out;
}

/** everything the main thread answers for a snapshot (hovers, inlay hints, completion, names) */
function answers(doc: LayoutDocument, settings: Settings, at: number[]): unknown {
  const text = doc.text;
  const lineEnds = [...text.matchAll(/\n/g)].map((m) => m.index!);
  return plain({
    hovers: at.map((o) => `${o}: ${hover(doc, o, settings)?.markdown ?? '-'}`),
    hints: inlayHints(doc, { start: 0, end: text.length }, settings),
    completion: lineEnds.map((o) => completion(doc, o).items.map((i) => `${i.label}:${i.kind}:${i.detail ?? ''}`).join(',')),
    names: doc.symbols.resolution.diagnostics,
    unused: doc.symbols.resolution.unusedGlobals().map((d) => `${d.name}@${d.ident?.range.start}`),
  });
}

let uriCount = 0;
/**
 * Runs `versions` (texts, or [text, settings]) through one server-like pipeline (a snapshot cache
 * over one URI, an incremental analysis) and checks every answer against a fresh computation.
 */
function sequence(name: string, versions: (string | [string, Settings])[]): void {
  const uri = `file:///adversarial${++uriCount}.layout`;
  const snapshots = new SnapshotCache();
  const analysis = new IncrementalAnalysis();
  versions.forEach((v, k) => {
    const [text, settings] = typeof v === 'string' ? [v, defaultSettings] : v;
    const where = `${name}, version ${k}:\n${text}`;
    const doc = snapshots.get(TextDocument.create(uri, 'layout', k + 1, text));
    const at = offsets(text);
    const kept = answers(doc, settings, at);
    const fresh = withoutHoverCache(() => answers(new LayoutDocument(uri, k + 1, text), settings, at));
    assert.deepEqual(kept, fresh, where);
    const r = analysis.diagnose(text, { budget: settings.genp.checkBudget === defaultSettings.genp.checkBudget ? BUDGET : settings.genp.checkBudget, gpuTarget: settings.gpuTarget });
    assert.equal(r.cancelled, false);
    assert.deepEqual(plain(r.diagnostics), plain(full(text, settings.gpuTarget, settings.genp.checkBudget === defaultSettings.genp.checkBudget ? BUDGET : settings.genp.checkBudget)), where);
  });
}

const base = [
  'param M = 64, N = 32',
  'param BM = 16',
  'let half = M / 2',
  'layout A = OrderBy(Row(M, N)).TileBy([M / BM, 2], [BM, N / 2])',
  'layout B = OrderBy(Col(half, 4))',
  'kernel kern target triton builtin matmul {',
  '  offset_aptrs = A[pid_m, k, :, :]',
  '  pm, pn = B.inv(pid)',
  '}',
  '',
].join('\n');

test('a duplicate declaration added before the original (first definition wins), then removed', () => {
  sequence('duplicate', [
    base,
    'param M = 128\n' + base, // a new first M: every use of M means it
    'layout B = OrderBy(Row(2, 2))\n' + base, // a new first B
    base,
    base.replace('let half = M / 2', 'let half = M / 2\nlet half = M / 8'), // a second half: ignored
    base.replace('let half = M / 2', 'let half = M / 8\nlet half = M / 2'), // the first changes
    base,
  ]);
});

test('an assume added, changed and removed elsewhere', () => {
  sequence('assume', [
    base,
    base + 'assume M % 32 == 0\n',
    base + 'assume M % 64 == 0\n',
    'assume M > 0\n' + base,
    base,
    base + 'assume N == 32\n',
  ]);
});

test('a linear declaration added and removed; a layout and a linear of one name', () => {
  sequence('linear', [
    base,
    base + 'linear L = blocked(shape=[16, 16])\n',
    base + 'linear L = blocked(shape=[16, 32])\n',
    base,
    base + 'linear B = blocked(shape=[16, 16])\n',
    'linear B = blocked(shape=[16, 16])\n' + base,
    base,
  ]);
});

test('two declarations swapped; a use that moves before its declaration and back', () => {
  const swapped = base.replace('let half = M / 2\nlayout A', 'layout A').replace('layout B', 'let half = M / 2\nlayout B');
  const after = base.replace('let half = M / 2\n', '').replace('}\n', '}\nlet half = M / 2\n');
  sequence('swap', [
    base,
    swapped,
    base,
    after, // B uses half before its declaration: no value
    base,
    base.replace('param BM = 16\n', '').replace('let half', 'param BM = 16\nlet half'),
    base.replace('param BM = 16\n', '') + 'param BM = 16\n', // A uses BM before its declaration
    base,
  ]);
});

test('renames: a declaration renamed away and back, a use renamed, a kernel binding renamed', () => {
  sequence('rename', [
    base,
    base.replace('layout B', 'layout C'),
    base.replace('layout B', 'layout C').replace('B.inv', 'C.inv'),
    base.replace('let half', 'let halF'),
    base.replace('param BM', 'param BN'),
    base,
    base.replace('offset_aptrs', 'offset_bptrs'),
    base.replace('pm, pn', 'pn, pm'),
    base,
  ]);
});

test('shadowing: a perm parameter, a schedule handle and a global of the same name', () => {
  const t = [
    'param n = 4',
    'perm sw(n)[i, j] = j * n + i',
    'layout G = OrderBy(GenP([4, 4], sw(4)))',
    'layout H = OrderBy(Row(n, n))',
    'kernel k target triton builtin matmul {',
    '  x = G[pid, 0]',
    '  y = H[pid_m, k]',
    '}',
    '',
  ].join('\n');
  sequence('shadow', [
    t,
    t.replace('param n = 4', 'param n = 8'),
    t.replace('param n = 4', 'param m = 4'),
    t.replace('perm sw(n)', 'perm sw(m)').replace('j * n', 'j * m'),
    'param i = 2\n' + t,
    'param j = 2\nparam pid = 3\n' + t,
    t,
  ]);
});

test('the global `i` and `j` (a hover\'s coordinate names) come and go', () => {
  sequence('coordinates', [
    base,
    'param i = 1\n' + base,
    'param i = 1\nparam i_ = 2\n' + base,
    'param i_ = 2\n' + base,
    base + 'let j = 3\n',
    base,
  ]);
});

test('settings: hover language, GPU and budget change between versions of one text', () => {
  const sched = base + [
    'schedule s for linalg.matmul(M, N, 64) {',
    '  mm = findOp("linalg.matmul")',
    '  tileForGrids(mm, [BM, 16])',
    '  parallelizeForThreads(mm, [32, 64])',
    '  bufferize()',
    '}',
    'perm sw(n)[i, j] = j * n + i',
    'layout P = OrderBy(GenP([M, M], sw(M)))',
    '',
  ].join('\n');
  const c: Settings = { ...defaultSettings, hover: { language: 'c' } };
  const mlir: Settings = { ...defaultSettings, hover: { language: 'mlir' } };
  const sm80: Settings = { ...defaultSettings, gpuTarget: 'sm_80' };
  const cpu: Settings = { ...defaultSettings, gpuTarget: 'cpu' };
  const small: Settings = { ...defaultSettings, genp: { checkBudget: 10 } };
  sequence('settings', [sched, [sched, c], [sched, mlir], [sched, sm80], [sched, cpu], [sched, small], sched, [sched, c]]);
});

test('the kernel\'s target language changes; a CUDA kernel and a Triton kernel share a layout', () => {
  const two = base + 'kernel kc target cuda builtin matmul {\n  offset_aptrs = A[pid_m, k, :, :]\n  pm, pn = B.inv(pid)\n}\n';
  sequence('target', [
    base,
    base.replace('target triton', 'target cuda'),
    base.replace('target triton', 'target mlir'),
    base,
    two,
    two.replace('kernel kc target cuda', 'kernel kc target triton'),
    two,
  ]);
});

test('a param used only by a kernel\'s template: renamed, removed, added back', () => {
  const t = 'param n_rows = 4096\nparam n_cols = 1024\nparam BLOCK_SIZE = 1024\n\nlayout X = OrderBy(Row(n_rows, 1024)).TileBy([n_rows, 1024])\n\n'
    + 'kernel softmax target triton builtin softmax {\n  input_offset = X[row_idx, 0:BLOCK_SIZE]\n  output_offset = X[row_idx, 0:BLOCK_SIZE]\n}\n';
  sequence('template params', [
    t,
    t.replace('param n_cols = 1024\n', ''),
    t,
    t.replace('param n_cols = 1024', 'const n_cols = 1024'),
    t.replace('param n_cols = 1024', 'param n_cols = 1024, n_cols = 512'),
    t.replace('param n_cols = 1024\n', '').replace('kernel softmax', 'param n_cols = 1024\nkernel softmax'),
    t.replace('param n_cols = 1024\n', '') + 'param n_cols = 1024\n',
    t,
  ]);
});

test('edits that break and mend a declaration: its names vanish and come back', () => {
  sequence('broken', [
    base,
    base.replace('let half = M / 2', 'let half = M /'),
    base.replace('let half = M / 2', 'let half = '),
    base.replace('layout A = OrderBy(Row(M, N))', 'layout A = OrderBy(Row(M, N)'),
    base.replace('param M = 64, N = 32', 'param M = 64 N = 32'),
    base,
    base.replace('param M = 64, N = 32', 'param M = 64, N = 32, M = 8'),
    base.replace('param M = 64, N = 32', 'param N = 32, M = 64'),
    base,
  ]);
});

test('messages that quote another declaration\'s position: the quoted declaration moves, the quoting one does not', () => {
  sequence('quoted positions', [
    'let x = 1\nlet x = 2\nlet y = x\n',
    '#\nlet x = 1\nlet x = 2\nlet y = x\n', // both move: "already declared at 2:5"
    '#\nlet x = 1\n\nlet x = 2\nlet y = x\n',
    'let y = x\nlet x = 1\n',
    'let y = x\n\nlet x = 1\n', // the use stays, its declaration moves a line down
    'let y = x\n#c\n\nlet x = 1\n',
    'let y = x\r\n\r\nlet x = 1\r\n',
  ]);
});

test('LEGO\'s mutated receiver: the extension and its uses move, the quoted line changes', () => {
  const t = 'layout X = OrderBy(Row(4, 4))\nlayout Y = X.OrderBy(Col(2, 2))\nlayout Z = X\n';
  sequence('lego mutation', [
    t,
    '#\n' + t, // everything moves a line down
    '#\n#\n' + t,
    t.replace('layout Z', '\nlayout Z'), // only the use moves
    t.replace('layout Y', '\nlayout Y'),
    t.replace('layout Y', '# a longer comment line\nlayout Y'),
    'layout X = OrderBy(Row(4, 4))\nlayout Z = X\nlayout Y = X.OrderBy(Col(2, 2))\n', // the use before the extension
    t,
    t.replace('layout X = OrderBy(Row(4, 4))', 'layout X = OrderBy(Row(4, 4))\nlayout X = OrderBy(Row(2, 2))'),
    t,
  ]);
});

test('a kernel binding the template does not use (a fix that removes its line) moves with its block', () => {
  const t = base.replace('  pm, pn = B.inv(pid)\n', '  pm, pn = B.inv(pid)\n  bogus = A[pid_m, k, :, :]\n');
  sequence('kernel fix', [
    t,
    '# c\n' + t,
    '# c\n\n' + t,
    t.replace('  bogus', '\tbogus'),
    t.replace('  bogus = A[pid_m, k, :, :]\n', '  bogus = A[pid_m, k, :, :]  \n'),
    t.replace(/\n/g, '\r\n'),
    t,
  ]);
});
