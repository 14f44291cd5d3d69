// The fuzzer (issue 10, section 5): inputs from mutating examples/ and from a grammar-aware generator
// (fast-check arbitraries), driven through `analyze`, the service features (hover, inlay hints,
// completion, signature help, navigation and rename, semantic tokens, the outline, folding, the layout
// picture and its drawings, formatting, the quick fixes of code actions) and emit. Used by the short deterministic
// campaign of `npm test` (campaign.test.ts), the long one (`npm run fuzz -- --minutes N`, run.ts) and the
// benchmark (bench/fuzz.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { analyze } from '../../server/src/check/index.js';
import { buildEmitModel, emitFile } from '../../server/src/codegen/index.js';
import { fileDiagnostics } from '../../server/src/service/kernel-checks.js';
import { LayoutDocument } from '../../server/src/service/document.js';
import { IncrementalAnalysis } from '../../server/src/service/incremental.js';
import { SnapshotCache } from '../../server/src/lsp/context.js';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { hover } from '../../server/src/service/hover.js';
import { completion } from '../../server/src/service/completion.js';
import { inlayHints } from '../../server/src/service/inlay-hints.js';
import { applyEdits, format } from '../../server/src/service/format.js';
import { defaultSettings } from '../../server/src/service/settings.js';
import { signatureHelp } from '../../server/src/service/signature-help.js';
import { definition, highlights, references, rename } from '../../server/src/service/navigation.js';
import { semanticTokens } from '../../server/src/service/semantic-tokens.js';
import { flatSymbols, outline } from '../../server/src/service/outline.js';
import { foldingRanges } from '../../server/src/service/folding.js';
import { picture } from '../../server/src/service/picture.js';
import { buildModel, initialView } from '../../server/src/picture/model.js';
import { toSvg } from '../../server/src/picture/svg.js';
import { toText } from '../../server/src/picture/text.js';
import { parse } from '../../grammar/src/index.js';

const root = resolve(import.meta.dirname, '../..');
export const examples: string[] = readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.layout')).sort().map((f) => readFileSync(join(root, 'examples', f), 'utf8'));

// ------------------------------------------------------------------ mutation of the examples

const pieces = ['(', ')', '[', ']', '{', '}', ',', '.', ':', '=', '"', '#', '\n', ' ', 'x', '0', '1', '-', '/', '//', '*', '%', 'if', 'then', 'else',
  'layout ', 'param ', 'const ', 'let ', 'kernel ', 'schedule ', 'perm ', 'OrderBy(', 'Row(', 'Col(', 'GenP(', '.TileBy(', '.GroupBy(', '.OrderBy(',
  '.inv(', '.apply(', 'A[', 'findOp(', 'tile(', '4096', '2147483648', '9007199254740993', '-1', 'in [', '\u00e9', '\ud83d\ude00', '\t', '\r', '$', '\u0000'];

type Mutation = { kind: 'delete'; at: number; len: number } | { kind: 'insert'; at: number; text: string } | { kind: 'dup'; at: number; len: number } | { kind: 'swapLines'; a: number; b: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 16 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 4 }).map((a) => a.join('')) }),
  fc.record({ kind: fc.constant('dup' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 80 }) }),
  fc.record({ kind: fc.constant('swapLines' as const), a: fc.nat(), b: fc.nat() }),
);

export function mutate(text: string, ms: readonly Mutation[]): string {
  let t = text;
  for (const m of ms) {
    if (m.kind === 'swapLines') {
      const lines = t.split('\n');
      const a = m.a % lines.length;
      const b = m.b % lines.length;
      [lines[a], lines[b]] = [lines[b], lines[a]];
      t = lines.join('\n');
      continue;
    }
    const at = t.length ? m.at % (t.length + 1) : 0;
    if (m.kind === 'delete') t = t.slice(0, at) + t.slice(at + m.len);
    else if (m.kind === 'insert') t = t.slice(0, at) + m.text + t.slice(at);
    else t = t.slice(0, at) + t.slice(at, at + m.len) + t.slice(at);
  }
  return t;
}

export const mutatedExample: fc.Arbitrary<string> = fc
  .tuple(fc.nat({ max: examples.length - 1 }), fc.array(mutation, { minLength: 1, maxLength: 6 }))
  .map(([i, ms]) => mutate(examples[i], ms));

// ------------------------------------------------------------------ grammar-aware generation

const name = fc.constantFrom('M', 'N', 'K', 'BM', 'BK', 'T', 'n', 'a', 'b', 'i', 'j', 'x', 'pid', 'row', 'Q');
const layoutName = fc.constantFrom('A', 'B', 'L', 'P');
const intLit = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 70 }).map(String) },
  { weight: 1, arbitrary: fc.constantFrom('1024', '4096', '65536', '2147483648', '8589934592', '9007199254740993', '-1', '0') },
);
const { e: expr } = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    intLit,
    name,
    fc.tuple(tie('e'), fc.constantFrom('+', '-', '*', '/', '//', '%'), tie('e')).map(([a, op, b]) => `${a} ${op} ${b}`),
    tie('e').map((a) => `(${a})`),
    fc.tuple(fc.constantFrom('min', 'max'), tie('e'), tie('e')).map(([f, a, b]) => `${f}(${a}, ${b})`),
    fc.tuple(tie('e'), fc.constantFrom('<', '<=', '==', '!='), tie('e'), tie('e'), tie('e')).map(([a, c, b, t, f]) => `if ${a} ${c} ${b} then ${t} else ${f}`),
  ),
}));
const dims = fc.array(fc.oneof({ weight: 3, arbitrary: fc.oneof(name, intLit) }, { weight: 1, arbitrary: expr }), { minLength: 1, maxLength: 3 }).map((d) => d.join(', '));
const ctor = fc.oneof(
  dims.map((d) => `Row(${d})`),
  dims.map((d) => `Col(${d})`),
  fc.tuple(dims, expr).map(([d, e]) => `GenP([${d}], p(${e}))`),
);
const method = fc.oneof(
  dims.map((d) => `.GroupBy([${d}])`),
  fc.tuple(dims, dims).map(([a, b]) => `.TileBy([${a}], [${b}])`),
  ctor.map((c) => `.OrderBy(${c})`),
  fc.tuple(dims, dims).map(([a, b]) => `.ExpandBy([${a}], [${b}])`),
);
const layoutExpr = fc.tuple(ctor, fc.array(method, { maxLength: 3 })).map(([c, ms]) => `OrderBy(${c})${ms.join('')}`);
const index = fc.oneof(name, intLit, expr, fc.tuple(fc.option(intLit), fc.option(intLit)).map(([a, b]) => `${a ?? ''}:${b ?? ''}`));
const query = fc.oneof(
  fc.tuple(layoutName, fc.array(index, { minLength: 1, maxLength: 4 })).map(([l, ix]) => `${l}[${ix.join(', ')}]`),
  fc.tuple(layoutName, expr).map(([l, x]) => `${l}.inv(${x})`),
  fc.tuple(layoutName, fc.array(index, { minLength: 1, maxLength: 3 })).map(([l, ix]) => `${l}.apply(${ix.join(', ')})`),
);
const builtin = fc.constantFrom(['cuda', 'transpose_naive'], ['cuda', 'transpose_smem'], ['triton', 'matmul'], ['triton', 'softmax'], ['cuda', 'nw_antidiag'], ['cuda', 'nosuch']);
const placeholder = fc.constantFrom('tile', 'rows', 'in_index', 'out_index', 'smem_size', 'smem_store', 'smem_load', 'offset_aptrs', 'input_offset', 'idx', 'pid_m, pid_n');
const decl = fc.oneof(
  fc.tuple(fc.constantFrom('param', 'const'), name, intLit, fc.option(fc.array(intLit, { minLength: 1, maxLength: 3 }))).map(([k, n, v, c]) => `${k} ${n} = ${v}${c ? ` in [${c.join(', ')}]` : ''}`),
  fc.tuple(name, fc.oneof(expr, query)).map(([n, v]) => `let ${n} = ${v}`),
  fc.tuple(layoutName, layoutExpr).map(([n, l]) => `layout ${n} = ${l}`),
  fc.tuple(expr, fc.option(fc.tuple(expr, expr))).map(([b, inv]) => `perm p(n)[i, j] = ${b}${inv ? ` inverse(x) = [${inv[0]}, ${inv[1]}]` : ''}`),
  fc.tuple(builtin, fc.array(fc.tuple(placeholder, fc.oneof(query, expr)), { maxLength: 5 })).map(([[t, b], bs]) =>
    `kernel k${b.length} target ${t} builtin ${b} {\n${bs.map(([p, v]) => `  ${p} = ${v}`).join('\n')}\n}`),
  fc.tuple(expr, expr, expr, fc.array(fc.constantFrom('tileForGrids(mm, [64, 64])', 'tile(mm, [0, 0, 16])', 'parallelizeForThreads(mm, [16, 16])', 'promote(mm, [0, 1])', 'bufferize()', 'vectorize(mm)', 'unroll(mm, 2)'), { maxLength: 5 }))
    .map(([m, n, k, steps]) => `schedule s for linalg.matmul(${m}, ${n}, ${k}) on sm_90 {\n  mm = findOp("linalg.matmul")\n${steps.map((s) => `  ${s}`).join('\n')}\n}`),
);
/** Declares the names the generator uses, so that most programs get past name resolution. */
const prelude = fc.tuple(fc.constantFrom('64', '4096', '65536', '48', '7'), fc.constantFrom('32', '16', '8', '3'), layoutExpr).map(([m, t, l]) => [
  `param M = ${m}, N = ${m}, K = 32, n = ${m}`,
  `const T = ${t}, BM = 16, BK = 16, a = 2, b = 3`,
  'perm p(n)[i, j] = i * n + j inverse(x) = [x // n, x % n]',
  'layout A = OrderBy(Row(M, K)).TileBy([M / BM, K / BK], [BM, BK])',
  'layout B = OrderBy(Col(N, N)).GroupBy([N, N])',
  `layout L = ${l}`,
  'layout P = OrderBy(GenP([T, T], p(T))).GroupBy([T * T])',
].join('\n') + '\n');
export const generatedProgram: fc.Arbitrary<string> = fc
  .tuple(fc.option(prelude, { freq: 5 }), fc.array(decl, { minLength: 1, maxLength: 8 }))
  .map(([pre, ds]) => (pre ?? '') + ds.join('\n') + '\n');

/** One fuzz input: a mutated example or a generated program, and offsets to query the features at. */
export const fuzzInput = fc.tuple(fc.oneof(mutatedExample, generatedProgram), fc.array(fc.nat(), { minLength: 2, maxLength: 4 }));

// ------------------------------------------------------------------ driving

export interface Outcome {
  /** uncaught exceptions, `step: message` */
  exceptions: string[];
  /** diagnostics whose code ends in `internal-error`, `step: code: message` */
  internal: string[];
  /** milliseconds of `analyze` */
  analyzeMs: number;
}

/** The GenP budget the campaign analyses with: the editor's default (`layout.genp.checkBudget`). */
export const FUZZ_GENP_BUDGET = 1_000_000;

/** JSON.stringify's replacer for values that hold bigints */
const bigints = (_k: string, v: unknown): unknown => (typeof v === 'bigint' ? `${v}n` : v);

export function exercise(text: string, offsets: readonly number[]): Outcome {
  const out: Outcome = { exceptions: [], internal: [], analyzeMs: 0 };
  const step = (what: string, f: () => void) => {
    try {
      f();
    } catch (e) {
      out.exceptions.push(`${what}: ${e instanceof Error ? (e.stack ?? e.message).split('\n').slice(0, 4).join(' | ') : String(e)}`);
    }
  };
  const internal = (what: string, ds: readonly { code: string; message: string }[]) => {
    for (const d of ds) if (d.code.endsWith('internal-error')) out.internal.push(`${what}: ${d.code}: ${d.message}`);
  };
  let fixes: { edits: { range: { start: number; end: number }; newText: string }[] }[] = [];
  step('analyze', () => {
    const t0 = performance.now();
    const a = analyze(text, { budget: FUZZ_GENP_BUDGET });
    out.analyzeMs = performance.now() - t0;
    internal('analyze', a.diagnostics);
    fixes = a.diagnostics.flatMap((d) => d.fixes ?? []).slice(0, 4);
  });
  step('editor analysis', () => {
    // one answer: what the server publishes (the stepped analysis over the snapshot's parse and
    // names, every GenP enumeration paused at each poll) is `layout check`'s list
    const shared = new SnapshotCache().sharedParse(TextDocument.create('file:///fuzz/f.layout', 'layout', 1, text));
    const steps = new IncrementalAnalysis().steps(text, { budget: FUZZ_GENP_BUDGET, shouldPause: () => true, parsed: shared.parse, resolution: shared.resolution });
    let r = steps.next(false);
    while (!r.done) {
      shared.claim();
      r = steps.next(false);
    }
    const editor = JSON.stringify(r.value.diagnostics, bigints);
    const check = JSON.stringify(fileDiagnostics(analyze(text, { budget: FUZZ_GENP_BUDGET }), text, undefined), bigints);
    if (editor !== check) throw new Error(`the editor's diagnostics are not layout check's: ${editor.slice(0, 300)} against ${check.slice(0, 300)}`);
  });
  const doc = new LayoutDocument('file:///fuzz/f.layout', 1, text);
  step('inlayHints', () => void inlayHints(doc, { start: 0, end: text.length }, defaultSettings));
  for (const raw of offsets) {
    const o = text.length ? raw % (text.length + 1) : 0;
    step('hover', () => void hover(doc, o, defaultSettings));
    step('completion', () => void completion(doc, o));
    step('signatureHelp', () => void signatureHelp(doc, o));
    step('navigation', () => {
      definition(doc, o);
      references(doc, o, true);
      highlights(doc, o);
    });
    step('rename', () => {
      const r = rename(doc, o, 'fz_renamed');
      if (!('edits' in r) || r.edits.length === 0) return;
      // a rename changes names, not meaning: the same diagnostics (codes) after it, in a file without
      // errors (in one with errors the parts may disagree on what a name means: renaming one of two
      // declarations of a name fixes name/duplicate; a second `h = findOp(...)`, rejected by the
      // schedule checks, is the binding name resolution gives the later uses)
      const renamed = applyEdits(text, r.edits as never);
      const all = (t: string) => fileDiagnostics(analyze(t, { budget: FUZZ_GENP_BUDGET }), t, undefined);
      const first = all(text);
      if (first.some((d) => d.severity === 'error')) return;
      const before = first.map((d) => d.code).sort().join(' ');
      const after = all(renamed).map((d) => d.code).sort().join(' ');
      if (before !== after) throw new Error(`the rename at ${o} changed the diagnostics: ${before} -> ${after}`);
    });
    step('picture', () => {
      const p = picture(doc, o);
      if (p && !('error' in p)) {
        const m = buildModel(p, initialView);
        toSvg(m, p, { heading: true, view: initialView });
        toText(m);
      }
    });
  }
  step('semanticTokens', () => void semanticTokens(doc));
  step('outline', () => {
    outline(doc.file, text);
    flatSymbols(doc.file, text);
    foldingRanges(doc.file, text, doc.lines);
  });
  step('format', () => {
    const f = format(doc);
    if ('edits' in f) {
      const formatted = applyEdits(text, f.edits);
      if (formatted.replace(/\s+/g, '') !== text.replace(/\s+/g, '')) throw new Error('formatting changed more than whitespace');
    }
  });
  step('codeActions', () => {
    for (const f of fixes) void parse(applyEdits(text, f.edits.map((e) => ({ range: e.range, newText: e.newText })) as never));
  });
  step('emit', () => {
    const model = buildEmitModel(text, '/untitled.layout', { sourceLabel: 'f.layout' });
    // one answer: a file the checks pass (the editor's and `layout check`'s list) is one emit accepts
    const clean = !fileDiagnostics(analyze(text, { budget: FUZZ_GENP_BUDGET }), text, undefined).some((d) => d.severity === 'error');
    for (const target of ['triton', 'cuda', 'mlir'] as const) {
      const ds = emitFile(model, target).diagnostics;
      internal(`emit ${target}`, ds);
      const refused = ds.find((d) => d.severity === 'error');
      if (clean && refused) throw new Error(`the checks pass but emit ${target} refuses: ${refused.code}: ${refused.message}`);
    }
  });
  return out;
}

// ------------------------------------------------------------------ campaigns

export interface CampaignStats {
  inputs: number;
  exceptions: number;
  internalErrors: number;
  /** analyses that took more than 1 s */
  over1s: number;
  slowestMs: number;
  seconds: number;
}

export interface Failure {
  kind: 'exception' | 'internal-error' | 'slow';
  text: string;
  details: string[];
}

/**
 * Runs inputs for `seconds` (or `maxInputs`), in batches drawn from seeds `seed`, `seed + 1`, ...:
 * deterministic for a given seed and number of inputs. `onFailure` gets each failing input.
 */
export function campaign(opts: { seconds: number; seed: number; maxInputs?: number; onFailure?: (f: Failure) => void; onProgress?: (s: CampaignStats) => void }): CampaignStats {
  const s: CampaignStats = { inputs: 0, exceptions: 0, internalErrors: 0, over1s: 0, slowestMs: 0, seconds: 0 };
  const t0 = performance.now();
  const deadline = t0 + opts.seconds * 1000;
  let lastReport = t0;
  for (let batch = 0; performance.now() < deadline && (opts.maxInputs === undefined || s.inputs < opts.maxInputs); batch++) {
    for (const [text, offsets] of fc.sample(fuzzInput, { seed: opts.seed + batch, numRuns: 100 })) {
      if (performance.now() >= deadline || (opts.maxInputs !== undefined && s.inputs >= opts.maxInputs)) break;
      const o = exercise(text, offsets);
      s.inputs++;
      if (o.analyzeMs > s.slowestMs) s.slowestMs = o.analyzeMs;
      if (o.exceptions.length) {
        s.exceptions++;
        opts.onFailure?.({ kind: 'exception', text, details: o.exceptions });
      }
      if (o.internal.length) {
        s.internalErrors++;
        opts.onFailure?.({ kind: 'internal-error', text, details: o.internal });
      }
      if (o.analyzeMs > 1000) {
        s.over1s++;
        opts.onFailure?.({ kind: 'slow', text, details: [`analyze took ${Math.round(o.analyzeMs)} ms`] });
      }
    }
    const now = performance.now();
    if (opts.onProgress && now - lastReport > 10_000) {
      lastReport = now;
      opts.onProgress({ ...s, seconds: (now - t0) / 1000 });
    }
  }
  s.seconds = (performance.now() - t0) / 1000;
  return s;
}
