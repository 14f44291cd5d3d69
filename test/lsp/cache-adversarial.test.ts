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
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from '../../grammar/src/diagnostic.js';
import type { Definition, Resolution } from '../../grammar/src/resolve.js';
import { analyze } from '../../server/src/check/index.js';
import { SnapshotCache } from '../../server/src/lsp/context.js';
import { completion } from '../../server/src/service/completion.js';
import { modelOfDecl } from '../../server/src/service/elaboration.js';
import { DocumentHistory, LayoutDocument } from '../../server/src/service/document.js';
import { ChunkedParser } from '../../server/src/service/chunks.js';
import { hover } from '../../server/src/service/hover.js';
import { clearHoverCache, hoverCacheStats, withoutHoverCache } from '../../server/src/service/hover-cache.js';
import { IncrementalAnalysis } from '../../server/src/service/incremental.js';
import { inlayHints } from '../../server/src/service/inlay-hints.js';
import { definition, references } from '../../server/src/service/navigation.js';
import { picture } from '../../server/src/service/picture.js';
import { semanticTokens } from '../../server/src/service/semantic-tokens.js';
import { signatureHelp } from '../../server/src/service/signature-help.js';
import { fileDiagnostics } from '../../server/src/service/kernel-checks.js';
import { defaultSettings, type Settings } from '../../server/src/service/settings.js';
import { apply, edit, type Edit } from './edits.js';
import { root } from './harness.js';

const BUDGET = 4096;
const examples = readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.layout')).sort()
  .map((f) => readFileSync(join(root, 'examples', f), 'utf8'));

function plain(x: unknown): unknown {
  return JSON.parse(JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)));
}

/** what the server publishes for the whole file, nothing kept */
function full(text: string, gpuTarget = 'sm_90', budget = BUDGET): Diagnostic[] {
  const a = analyze(text, { slow: true, budget, gpuTarget });
  return fileDiagnostics(a, text, undefined);
}

/** the offsets worth a hover: every character of every word, every bracket */
function offsets(text: string): number[] {
  const out: number[] = [];
  for (let o = 0; o < text.length; o++) if (/[A-Za-z0-9_[\].]/.test(text[o])) out.push(o);
  return out;
}

/** everything a name resolution says, as plain data (definitions by what they name and where) */
function resolutionFacts(r: Resolution, at: number[]): unknown {
  const where = (d: Definition | undefined) => (d ? `${d.kind}:${d.name}@${d.ident?.range.start ?? '-'}/${d.decl?.range.start ?? '-'}` : 'none');
  return {
    diagnostics: r.diagnostics,
    globals: [...r.globals].map(([k, d]) => `${k}=${where(d)}`),
    definitions: r.definitions.map((d) => `${where(d)} used=${r.isUsed(d)} refs=${r.references(d).map((u) => u.range.start).join(',')}`),
    refs: [...r.refs].map(([u, d]) => `${u.range.start}-${u.range.end}=${where(d)}`),
    free: r.freeSymbols.map(where),
    unused: r.unusedGlobals().map(where),
    symbols: at.map((o) => {
      const s = r.symbolAt(o);
      return s ? `${s.node.range.start}:${where(s.definition)}` : '';
    }),
  };
}

/**
 * everything the main thread answers for a snapshot (hovers, inlay hints, completion, names); each
 * answer made plain data at once, and `between` called before each (another version read meanwhile)
 */
function answers(doc: LayoutDocument, settings: Settings, at: number[], between: () => void = () => {}): unknown {
  const text = doc.text;
  const lineEnds = [...text.matchAll(/\n/g)].map((m) => m.index!);
  const starts = at.filter((o) => o === 0 || !/[A-Za-z0-9_]/.test(text[o - 1]));
  const ask = (f: () => unknown): unknown => {
    between();
    return plain(f());
  };
  return {
    hovers: at.map((o) => ask(() => `${o}: ${hover(doc, o, settings)?.markdown ?? '-'}`)),
    hints: ask(() => inlayHints(doc, { start: 0, end: text.length }, settings)),
    completion: [...lineEnds, ...at].map((o) => ask(() => completion(doc, o).items.map((i) => `${i.label}:${i.kind}:${i.detail ?? ''}`).join(','))),
    names: ask(() => resolutionFacts(doc.symbols.resolution, at)),
    navigation: starts.map((o) => ask(() => [definition(doc, o), references(doc, o, true), signatureHelp(doc, o)])),
    pictures: starts.map((o) => ask(() => (doc.symbols.at(o)?.def.kind === 'layout' ? picture(doc, o) : null))),
    tokens: ask(() => semanticTokens(doc)),
  };
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

test('a declaration\'s model carried to a later version is that version\'s: a moved declaration is elaborated again (its queries hold offsets of their own)', () => {
  const uri = 'file:///carried-model.layout';
  const versions = [base, '# moved\n' + base, '# moved\n' + base.replace('param BM = 16', 'param BM = 16 '), '# moved\n' + base, base];
  const snapshots = new SnapshotCache();
  const facts = (doc: LayoutDocument, j: number) => {
    const m = modelOfDecl(doc, doc.file.decls[j]);
    return plain({ diagnostics: m.diagnostics, queries: m.model.queryUses.map((q) => [q.kind, q.node.range, q.indicesRange]) });
  };
  let queries = 0;
  versions.forEach((text, k) => {
    const doc = snapshots.get(TextDocument.create(uri, 'layout', k + 1, text));
    const fresh = new LayoutDocument(uri, k + 1, text);
    for (let j = 0; j < doc.file.decls.length; j++) {
      assert.deepEqual(facts(doc, j), facts(fresh, j), `version ${k}, declaration ${j}`);
      queries += modelOfDecl(doc, doc.file.decls[j]).model.queryUses.length;
    }
  });
  assert.ok(queries >= 10, String(queries));
});

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

/**
 * Random edits of whole declarations, the classes the character edits of edits.ts rarely reach:
 * a declaration inserted (a duplicate of a name before or after the original, an `assume`, a
 * `linear`, a global `i`, a param only a kernel's template asks about), deleted, swapped with
 * another, renamed (a declared or a used name), a number changed, a blank or comment line added.
 */
const units = [
  'param M = 64, N = 32', 'param BM = 16', 'let half = M / 2', 'layout A = OrderBy(Row(M, N)).TileBy([M / BM, 2], [BM, N / 2])',
  'layout B = OrderBy(Col(half, 4))', 'kernel kern target triton builtin matmul {\n  offset_aptrs = A[pid_m, k, :, :]\n  pm, pn = B.inv(pid)\n}',
];
const extra = [
  'param M = 128', 'assume M % 32 == 0', 'assume N == 16', 'linear L = blocked(shape=[16, 16])', 'param i = 1', 'let half = M / 4', 'layout B = OrderBy(Row(2, 2))',
  'layout A = B', 'param BM = 8', 'const K = 64', 'param K = 32', 'param BN = 64, BK = 32', 'let j = 2', 'const BN = 16, GM = 4, W = GM * 2', 'param G = 2, BN = 8, H = G', 'layout Y = A.OrderBy(Col(2, 2))', 'layout Z = A',
  'perm sw(n)[i, j] = j * n + i', 'layout G = OrderBy(GenP([4, 4], sw(4)))', '# a comment', '', 'kernel kc target cuda builtin matmul {\n  offset_aptrs = A[pid_m, k, :, :]\n}',
  'schedule s for linalg.matmul(M, N, 64) {\n  mm = findOp("linalg.matmul")\n  tileForGrids(mm, [BM, 16])\n  bufferize()\n}',
  'layout C = D', 'layout D = C', 'const M = 32', 'let k = 3', 'let pid_m = 1', 'linear L2 = blocked(shape=[M, 64], sizePerThread=[1, 8], threadsPerWarp=[4, 8], warpsPerCTA=[1, 1], order=[1, 0])', 'assume BM <= M',
  'kernel kern target triton builtin matmul {\n  offset_aptrs = B[pid_m, k]\n}', 'perm xs(m)[i, j] = m * i + (j ^ i) inverse(x) = [x / m, (x % m) ^ (x / m)]',
  'layout R = OrderBy(GenP([BM, BM], xs(BM))).GroupBy([BM, BM])', 'param T = 32\nlayout Smem = OrderBy(GenP([T, T], xs(T))).GroupBy([T, T])',
  'linear Ld = bases(shape=[32, 32], register=[[0, 8], [0, 16]], lane=[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp=[[0, 1], [0, 2], [0, 4]], load=Smem, elemBytes=4)',
  'linear Blk = blocked(shape=[16, 64], sizePerThread=[1, 8], threadsPerWarp=[4, 8], warpsPerCTA=[1, 1], order=[1, 0])', 'schedule s2 for linalg.matmul(M, N, K) on sm_80 {\n  mm = findOp("linalg.matmul")\n  parallelizeForThreads(mm, [32, BM])\n}',
];
const words = ['M', 'N', 'BM', 'half', 'A', 'B', 'K', 'i', 'L', 'sw', 'kern', 'pid_m', 'Row', 'Col', 'Smem', 'T', 'xs', 'C'];
type Step = { kind: 'insert'; at: number; which: number } | { kind: 'delete'; at: number } | { kind: 'swap'; a: number; b: number }
  | { kind: 'rename'; at: number; from: number; to: number } | { kind: 'number'; at: number; value: number } | { kind: 'chars'; at: number; edit: Edit };
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(20), which: fc.nat(extra.length - 1) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(20) }),
  fc.record({ kind: fc.constant('swap' as const), a: fc.nat(20), b: fc.nat(20) }),
  fc.record({ kind: fc.constant('rename' as const), at: fc.nat(20), from: fc.nat(words.length - 1), to: fc.nat(words.length - 1) }),
  fc.record({ kind: fc.constant('number' as const), at: fc.nat(20), value: fc.constantFrom(1, 2, 4, 8, 16, 32, 64, 128) }),
  fc.record({ kind: fc.constant('chars' as const), at: fc.nat(20), edit }),
);
function applyStep(us: string[], s: Step): string[] {
  const out = [...us];
  const k = (n: number) => n % Math.max(1, out.length);
  switch (s.kind) {
    case 'insert': out.splice(s.at % (out.length + 1), 0, extra[s.which]); break;
    case 'delete': if (out.length) out.splice(k(s.at), 1); break;
    case 'swap': if (out.length) [out[k(s.a)], out[k(s.b)]] = [out[k(s.b)], out[k(s.a)]]; break;
    case 'rename': if (out.length) out[k(s.at)] = out[k(s.at)].replace(new RegExp(`\\b${words[s.from]}\\b`), words[s.to]); break;
    case 'number': if (out.length) out[k(s.at)] = out[k(s.at)].replace(/\b\d+\b/, String(s.value)); break;
    case 'chars': if (out.length) out[k(s.at)] = apply(out[k(s.at)], s.edit); break;
  }
  return out;
}

test('random edits of whole declarations: every answer equals the answer with nothing kept (property)', () => {
  const settings: Settings[] = [defaultSettings, { ...defaultSettings, hover: { language: 'c' } }, { ...defaultSettings, gpuTarget: 'sm_80' }, { ...defaultSettings, genp: { checkBudget: 10 } }];
  const hits0 = hoverCacheStats().hits;
  fc.assert(fc.property(fc.array(fc.tuple(stepArb, fc.nat(settings.length - 1)), { minLength: 1, maxLength: Number(process.env.STEPS ?? 6) }), (steps) => {
    let us = units;
    const versions: [string, Settings][] = [[us.join('\n') + '\n', defaultSettings]];
    for (const [s, k] of steps) {
      us = applyStep(us, s);
      versions.push([us.join('\n') + '\n', settings[k]]);
    }
    sequence('random declarations', versions);
  }), { numRuns: Number(process.env.RUNS ?? 60), seed: process.env.RUNS ? undefined : 2611 });
  // the texts kept across versions were used (the comparisons above are not all of fresh texts)
  assert.ok(hoverCacheStats().hits - hits0 > 1000, String(hoverCacheStats().hits - hits0));
});

test('two declarations with the same closure (a kernel named like a param: each uses a name the other declares) keep their own hovers', () => {
  // found by the property above: the kernel `M` uses A and B, and A and B use M, so A's closure and
  // B's closure are the same declarations; B's hover was A's kept text
  const t0 = units.join('\n') + '\n';
  const t1 = t0.replace('kernel kern', 'kernel M');
  sequence('same closure', [t0, t1, t1]);
  const doc = new LayoutDocument('file:///same-closure.layout', 1, t1);
  const onA = t1.indexOf('layout A') + 7, onB = t1.indexOf('layout B') + 7;
  assert.match(hover(doc, onA, defaultSettings)!.markdown, /^\*\*layout\*\* `A` = /);
  assert.match(hover(new LayoutDocument('file:///same-closure.layout', 2, t1), onB, defaultSettings)!.markdown, /^\*\*layout\*\* `B` = /);
});

test('a snapshot read after another version was read: its name index answers for its own text', () => {
  // the symbol index of a snapshot reads the parse's ranges, which the other version's parse moved
  // (kept chunks move in place): reading it claims the parse back, as every other read does
  const t0 = 'param M = 64\nlayout A = OrderBy(Row(M, 4))\nlayout B = A\n';
  const t1 = '# a comment\n' + t0;
  const parser = new ChunkedParser();
  const history = new DocumentHistory();
  const d0 = new LayoutDocument('file:///claim.layout', 1, t0, parser, history);
  const d1 = new LayoutDocument('file:///claim.layout', 2, t1, parser, history);
  void d0.symbols;
  void d1.file; // d0's declarations, the same objects, are now at d1's offsets
  const onA = t0.indexOf('= A') + 2;
  assert.equal(d0.symbols.at(onA)?.def.name, 'A');
  assert.equal(d0.symbols.resolution.symbolAt(onA)?.node.range.start, onA);
  void d1.symbols;
  assert.deepEqual(plain(hover(d0, onA, defaultSettings)), plain(hover(new LayoutDocument('file:///claim.layout', 1, t0), onA, defaultSettings)));
  assert.match(hover(d0, onA, defaultSettings)!.markdown, /^\*\*layout\*\* `A`/);
});

test('snapshots of one document answered out of order (an older snapshot after a newer one), another version read before each answer: each equals a fresh one (property)', () => {
  const touch = [(d: LayoutDocument) => d.file, (d: LayoutDocument) => d.symbols, (d: LayoutDocument) => hover(d, d.text.length >> 1, defaultSettings)];
  fc.assert(fc.property(fc.array(stepArb, { minLength: 1, maxLength: 5 }), fc.array(fc.nat(), { minLength: 12, maxLength: 12 }), fc.array(fc.nat(), { minLength: 1, maxLength: 40 }), (steps, order, others) => {
    let us = units;
    const texts = [us.join('\n') + '\n'];
    for (const s of steps) texts.push((us = applyStep(us, s)).join('\n') + '\n');
    const parser = new ChunkedParser();
    const history = new DocumentHistory();
    const docs = texts.map((t, k) => new LayoutDocument('file:///order.layout', k + 1, t, parser, history));
    // a random order, each snapshot visited twice at most
    const visits = order.map((n) => n % docs.length);
    for (const k of visits) {
      const doc = docs[k];
      const at = offsets(doc.text);
      const fresh = withoutHoverCache(() => answers(new LayoutDocument('file:///order.layout', k + 1, doc.text), defaultSettings, at));
      let n = 0;
      const between = () => {
        const x = others[n++ % others.length];
        touch[x % touch.length](docs[(x >> 2) % docs.length]);
      };
      assert.deepEqual(answers(doc, defaultSettings, at, between), fresh, `version ${k} after ${JSON.stringify(visits)}:\n${doc.text}`);
    }
  }), { numRuns: Number(process.env.RUNS ?? 30), seed: process.env.RUNS ? undefined : 77 });
});

test('the incremental analysis stopped midway, then given another version: the whole-file analysis (property)', () => {
  const gpus = ['sm_90', 'sm_80', 'cpu'];
  fc.assert(fc.property(fc.array(fc.tuple(stepArb, fc.option(fc.nat(40)), fc.nat(2), fc.constantFrom(BUDGET, 10)), { minLength: 1, maxLength: 8 }), (steps) => {
    const a = new IncrementalAnalysis();
    let us = units;
    a.diagnose(us.join('\n') + '\n', { budget: BUDGET, gpuTarget: 'sm_90' });
    for (const [s, stopAfter, gpu, budget] of steps) {
      us = applyStep(us, s);
      const text = us.join('\n') + '\n';
      const options = { budget, gpuTarget: gpus[gpu] };
      if (stopAfter !== null) {
        let polls = 0;
        const r = a.diagnose(text, { ...options, shouldStop: () => ++polls > stopAfter });
        if (!r.cancelled) assert.deepEqual(plain(r.diagnostics), plain(full(text, gpus[gpu], budget)), text);
        continue; // the next version comes before this one is finished
      }
      const r = a.diagnose(text, options);
      assert.equal(r.cancelled, false);
      assert.deepEqual(plain(r.diagnostics), plain(full(text, gpus[gpu], budget)), text);
    }
  }), { numRuns: Number(process.env.RUNS ?? 60), seed: process.env.RUNS ? undefined : 1123 });
});

test('the example files: character edits, stops midway and settings changes between versions (property)', () => {
  const gpus = ['sm_90', 'sm_80', 'cpu'];
  fc.assert(fc.property(fc.constantFrom(...examples.keys()), fc.array(fc.tuple(edit, fc.option(fc.nat(60)), fc.nat(2), fc.constantFrom(BUDGET, 10)), { minLength: 1, maxLength: 6 }), (k, steps) => {
    const a = new IncrementalAnalysis();
    let text = examples[k];
    a.diagnose(text, { budget: BUDGET, gpuTarget: 'sm_90' });
    for (const [e, stopAfter, gpu, budget] of steps) {
      text = apply(text, e);
      const options = { budget, gpuTarget: gpus[gpu] };
      let polls = 0;
      const r = a.diagnose(text, stopAfter === null ? options : { ...options, shouldStop: () => ++polls > stopAfter });
      if (!r.cancelled) assert.deepEqual(plain(r.diagnostics), plain(full(text, gpus[gpu], budget)), JSON.stringify(text));
    }
    const last = a.diagnose(text, { budget: BUDGET, gpuTarget: 'sm_90' });
    assert.deepEqual(plain(last.diagnostics), plain(full(text)), JSON.stringify(text));
  }), { numRuns: Number(process.env.RUNS ?? 40), seed: process.env.RUNS ? undefined : 4242 });
});

test('a run stopped after moving declarations, then the same text again: the moved declarations keep their diagnostics', () => {
  // found by the property above: the stopped run moved the schedule's results to its moved copy but
  // never listed that copy among the declarations with diagnostics; the next run of the same text
  // looks at neither again, and the schedule's error was lost
  const t0 = examples[1].replace(/\b[0-9]+\b/, '0'); // gemm-schedule.layout: param M = 0
  const t1 = ' ' + t0; // every declaration moves along its line
  for (const stopAfter of [0, 1, 2, 3]) {
    const a = new IncrementalAnalysis();
    a.diagnose(t0, { budget: BUDGET, gpuTarget: 'sm_90' });
    let polls = 0;
    assert.equal(a.diagnose(t1, { budget: BUDGET, gpuTarget: 'sm_90', shouldStop: () => ++polls > stopAfter }).cancelled, true);
    const r = a.diagnose(t1, { budget: BUDGET, gpuTarget: 'sm_90' });
    assert.deepEqual(plain(r.diagnostics), plain(full(t1)), `stopped after ${stopAfter} polls`);
    assert.deepEqual(r.diagnostics.filter((d) => d.code === 'schedule/size-not-positive').map((d) => d.message), ['size M of linalg.matmul must be at least 1, got 0']);
  }
});

test('a run stopped before the slow checks, then a settings change: the slow check runs with what it depends on elaborated', () => {
  // found by the property above: the stopped run left the re-checked GenP layout without a slow
  // result (its list of rule results one short), which `some` does not see: the next run (another
  // GPU) ran the GenP check without elaborating the layout, and its note was lost
  const t0 = examples[4]; // nw.layout: a GenP of size n
  const t1 = t0.replace('param n = 17', 'param n = 0');
  const want = plain(full(t1));
  assert.ok(full(t1).some((d) => d.code === 'genp/partially-checked'));
  let stopped = 0;
  for (let stopAfter = 0; stopAfter < 40; stopAfter++) {
    const a = new IncrementalAnalysis();
    a.diagnose(t0, { budget: BUDGET, gpuTarget: 'sm_90' });
    let polls = 0;
    if (a.diagnose(t1, { budget: BUDGET, gpuTarget: 'sm_80', shouldStop: () => ++polls > stopAfter }).cancelled) stopped++;
    assert.deepEqual(plain(a.diagnose(t1, { budget: BUDGET, gpuTarget: 'sm_90' }).diagnostics), want, `stopped after ${stopAfter} polls`);
  }
  assert.ok(stopped >= 5, String(stopped));
});

test('a declaration\'s param items: a hover is kept across an edit of items after those it needs, computed again otherwise, and equals a fresh one', () => {
  const t = [
    'const M = 64, N = 32, BM = 16, GM = 8, H = GM * 2',
    'param Z = 4, K = N / 2, W = 3',
    'layout A = OrderBy(Row(M, N)).TileBy([M / BM, 2], [BM, N / 2])',
    'layout P = OrderBy(Col(GM, K))',
    'kernel kern target triton builtin matmul {\n  offset_aptrs = A[pid_m, k, :, :]\n  pm, pn = P.inv(pid)\n}',
    '',
  ].join('\n');
  const versions = [
    t,
    t.replace('GM = 8', 'GM = 4'), // after BM, the last item A needs; P needs it
    t.replace('H = GM * 2', 'H = 1 / 0'), // an error in an item nothing needs
    t.replace('W = 3', 'W = M'),
    t.replace('Z = 4', 'Z = 5'), // before K, which P needs
    t.replace('GM = 8, H', 'GM = 8, M = 1, H'), // a second item named M, after the first
    t.replace('const M = 64, N = 32', 'const M2 = 1, M = 64, N = 32'), // an item before those A needs
    t.replace(', GM = 8, H = GM * 2', '').replace('Col(GM, K)', 'Col(2, K)'), // items removed
    t.replace('N = 32, BM = 16', 'N = 32, BM = N / 2'), // a needed item that uses another
  ];
  sequence('param items', versions);
  // what A's and P's hovers cost on each version after the first: kept texts, or computed again
  const doc = (k: number) => new SnapshotCache().get(TextDocument.create('file:///param-items.layout', 'layout', k + 1, versions[k]));
  const at = (k: number, name: string) => versions[k].indexOf(`layout ${name} `) + 7;
  const cost = (k: number, name: string): string => {
    const before = hoverCacheStats();
    assert.ok(hover(doc(k), at(k, name), defaultSettings));
    const after = hoverCacheStats();
    return after.hits > before.hits ? 'kept' : 'computed';
  };
  clearHoverCache();
  assert.deepEqual([cost(0, 'A'), cost(0, 'P')], ['computed', 'computed']);
  assert.deepEqual(versions.slice(1).map((_, j) => `${cost(j + 1, 'A')}/${cost(j + 1, 'P')}`), [
    'kept/computed', 'kept/kept', 'kept/kept', 'kept/computed', 'computed/kept', 'computed/computed', 'kept/computed', 'computed/computed',
  ]);
});

test('a param\'s candidates change (the same layout text, checked at other sizes)', () => {
  const t = base.replace('param BM = 16', 'param BM = 16 in [8, 16]');
  sequence('candidates', [
    t,
    t.replace('in [8, 16]', 'in [8, 16, 32]'),
    t.replace('in [8, 16]', 'in [3, 16]'),
    base,
    t.replace('param M = 64, N = 32', 'param M = 64 in [64, 96], N = 32'),
    t.replace('param M = 64, N = 32', 'param M = 64 in [64, 96], N = 32') + 'assume M % 64 == 0\n',
    t,
  ]);
});
