// One answer to "is this file right?": what `layout emit` refuses, `layout check` and the editor
// report. Emission evaluates every binding a kernel's template uses, and only that evaluation shows a
// built-in's constraints (`kernel/not-constant`, `kernel/name-not-in-template`), index width
// (`emit/index-overflow`), param values beyond CUDA's `int` (`emit/value-too-large`) and bindings
// that cannot be evaluated; the checks run the same evaluation (codegen/emit-kernel.ts
// `evaluateKernel`) and report it once the file has no other error (codegen/gate.ts `withEmission`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { analyze } from '../../server/src/check/index.js';
import { buildEmitModel, emitFile, type EmitTarget } from '../../server/src/codegen/index.js';
import { fileDiagnostics } from '../../server/src/service/kernel-checks.js';
import { IncrementalAnalysis } from '../../server/src/service/incremental.js';
import { runCheck } from '../../server/src/cli/check.js';
import { layoutFile } from '../../bench/support/lsp-files.js';
import { WARM_UP_UNITS } from '../../server/src/lsp/warm-up.js';
import type { Diagnostic } from '../../grammar/src/diagnostic.js';

const root = resolve(import.meta.dirname, '../..');
const TARGETS: EmitTarget[] = ['cuda', 'triton', 'mlir'];

/** the editor's whole-file diagnostics (the worker's fallback, `diagnose`) */
function checked(text: string): Diagnostic[] {
  return fileDiagnostics(analyze(text, { slow: true, budget: 1e6 }), text, undefined);
}

/** every error `layout emit` gives for any target, as `code line:col-ish offset` */
function emitErrors(text: string): string[] {
  const m = buildEmitModel(text, '/untitled.layout');
  const out: string[] = [];
  for (const t of TARGETS) for (const d of emitFile(m, t).diagnostics) if (d.severity === 'error') out.push(`${t} ${d.code} ${d.range.start}`);
  return out;
}

const plain = (ds: readonly Diagnostic[]) => ds.map((d) => ({ code: d.code, severity: d.severity, message: d.message, start: d.range.start, end: d.range.end, ...(d.fixes ? { fixes: d.fixes } : {}) }));

const SKEW = [
  'param W = 16',
  'perm antidiag(n)[i, j] =',
  '  if i + j < n then (i + j + 1) * (i + j) / 2 + i',
  '  else n * n - n + i - (2 * n - i - j - 1) * (2 * n - i - j - 2) / 2',
  'layout S = GenP([4, 4], antidiag(4))',
  'kernel skew target cuda builtin nw_antidiag {',
  '  block_size = W',
  '  expr = S[i, j]',
  '}',
  '',
].join('\n');

test('a built-in constant bound to a param: check, the editor and emit all say kernel/not-constant, at the binding', () => {
  const at = SKEW.indexOf('W\n  expr');
  const fix = { title: 'Declare `W` with `const` (folded into the generated code)', edits: [{ range: { start: 0, end: 5 }, newText: 'const' }] };
  const expected = [{
    code: 'kernel/not-constant',
    severity: 'error',
    message: 'builtin nw_antidiag needs `block_size` to be a constant, but it depends on `W`: declare it with `const`',
    start: at,
    end: at + 1,
    fixes: [fix],
  }];
  assert.deepEqual(plain(checked(SKEW)), expected);
  const inc = new IncrementalAnalysis().diagnose(SKEW, { budget: 1e6 });
  assert.deepEqual(plain(inc.diagnostics), expected);
  assert.deepEqual(emitErrors(SKEW), [`cuda kernel/not-constant ${at}`]);
  // the quick fix declares W with `const`, which fixes it everywhere
  const fixed = 'const' + SKEW.slice(5);
  assert.deepEqual(checked(fixed), []);
  assert.deepEqual(emitErrors(fixed), []);
  // no fix where `const` would not do: a param with tuning candidates (a const takes none)
  const tuned = SKEW.replace('param W = 16', 'param W = 16 in [8, 16]');
  assert.deepEqual(checked(tuned).map((d) => [d.code, d.fixes]), [['kernel/not-constant', undefined]]);
});

test('layout check (the CLI) reports what emit refuses, with its exit status', () => {
  const out: string[] = [];
  const err: string[] = [];
  const status = runCheck(['-'], { stdinName: 'skew.layout' }, { out: (t) => out.push(t), err: (l) => err.push(l), stdin: () => SKEW, cwd: root });
  assert.equal(status, 1);
  assert.deepEqual(out.join('').trim().split('\n'), [
    'skew.layout:7:16: error: builtin nw_antidiag needs `block_size` to be a constant, but it depends on `W`: declare it with `const` [kernel/not-constant]',
  ]);
  assert.deepEqual(err, ['checked 1 file: 1 error, 0 warnings, 0 infos, 0 hints']);
});

test('emission\'s diagnostics wait until nothing else is an error (no repeat of a broken declaration\'s error)', () => {
  // a query with the wrong number of indices "cannot be evaluated" too: only query/arity is reported
  const broken = SKEW.replace('expr = S[i, j]', 'expr = S[i, j, 0]');
  assert.deepEqual(checked(broken).map((d) => d.code), ['query/arity']);
  assert.deepEqual(new IncrementalAnalysis().diagnose(broken, { budget: 1e6 }).diagnostics.map((d) => d.code), ['query/arity']);
  // a warning does not hold them back
  const warned = SKEW + 'layout Unused = OrderBy(Row(2, 2))\n';
  assert.deepEqual(checked(warned).map((d) => d.code).sort(), ['kernel/not-constant', 'unused/layout']);
  // nor an error in a declaration the kernel does not depend on (typing elsewhere does not hide them);
  // an error in a param does (templates read every param), as does one in what the kernel uses
  const elsewhere = SKEW + 'layout Other = OrderBy(Row(2, 2)).GroupBy([3, 3])\n';
  for (const t of [elsewhere]) {
    assert.deepEqual(checked(t).map((d) => d.code).sort(), ['kernel/not-constant', 'size/groupby-mismatch', 'unused/layout']);
    assert.deepEqual(plain(new IncrementalAnalysis().diagnose(t, { budget: 1e6 }).diagnostics), plain(checked(t)));
  }
  const a = new IncrementalAnalysis();
  a.diagnose(SKEW, { budget: 1e6 });
  assert.deepEqual(plain(a.diagnose(elsewhere, { budget: 1e6 }).diagnostics), plain(checked(elsewhere)));
  for (const t of [SKEW + 'param Q = 1 / 0\n', SKEW.replace('GenP([4, 4], antidiag(4))', 'GenP([4, 4], antidiag(4)).GroupBy([3, 3])')]) {
    assert.ok(!checked(t).some((d) => d.code === 'kernel/not-constant'), JSON.stringify(checked(t).map((d) => d.code)));
    assert.deepEqual(plain(a.diagnose(t, { budget: 1e6 }).diagnostics), plain(checked(t)));
  }
});

const TRANSPOSE = [
  'param n = 64',
  'const T = 32, R = 8',
  'layout In = OrderBy(Row(64, 64)).TileBy([2, 2], [T, T])',
  'kernel t target cuda builtin transpose_naive {',
  '  tile = T',
  '  rows = R',
  '  in_index = In[by, bx, ty + jj, tx]',
  '  out_index = In[bx, by, ty + jj, tx]',
  '}',
  '',
].join('\n');

test('a param the template reads only through {{ param_n }}: editing its value re-checks the kernel (incremental = whole file)', () => {
  const a = new IncrementalAnalysis();
  const big = TRANSPOSE.replace('param n = 64', 'param n = 3000000000');
  const kernelName = big.indexOf('t target');
  // (`n` is read by the template only: the unused hint on it is left out here)
  const errors = (ds: readonly Diagnostic[]) => plain(ds.filter((d) => d.severity === 'error'));
  const tooLarge = {
    code: 'emit/value-too-large',
    severity: 'error',
    message: "param n = 3000000000 does not fit CUDA's 32-bit int (at most 2^31 - 1 = 2147483647), which the generated code declares it as ({{ param_n }}); use a smaller value",
    start: kernelName,
    end: kernelName + 1,
  };
  assert.deepEqual(errors(a.diagnose(TRANSPOSE, { budget: 1e6 }).diagnostics), []);
  const r = a.diagnose(big, { budget: 1e6 });
  assert.equal(r.stats.full, false);
  assert.deepEqual(errors(r.diagnostics), [tooLarge]);
  assert.deepEqual(plain(r.diagnostics), plain(checked(big)));
  assert.deepEqual(errors(checked(big)), [tooLarge]);
  assert.deepEqual(emitErrors(big), [`cuda emit/value-too-large ${kernelName}`]);
  // an edit elsewhere keeps it (moved with its block), and the value set back clears it
  const moved = '# a comment\n' + big;
  assert.deepEqual(errors(a.diagnose(moved, { budget: 1e6 }).diagnostics), [{ ...tooLarge, start: kernelName + 12, end: kernelName + 13 }]);
  assert.deepEqual(errors(a.diagnose('# a comment\n' + TRANSPOSE, { budget: 1e6 }).diagnostics), []);
});

test('the benchmark\'s generated file and the worker\'s warm-up sample check clean and emit for every target', () => {
  for (const text of [layoutFile(400), WARM_UP_UNITS.join('\n')]) {
    assert.deepEqual(checked(text).filter((d) => d.severity !== 'hint'), []);
    assert.deepEqual(emitErrors(text), []);
  }
});

test('every tracked .layout file: when the checks find no error, emit finds none for any target', () => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name.startsWith('.') || e.name === 'zz') continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.layout')) files.push(p);
    }
  };
  walk('.');
  assert.ok(files.length >= 40, `${files.length} files`);
  let clean = 0;
  for (const f of files) {
    const text = readFileSync(join(root, f), 'utf8');
    if (checked(text).some((d) => d.severity === 'error')) continue;
    clean++;
    assert.deepEqual(emitErrors(text), [], f);
  }
  assert.ok(clean >= 12, `${clean} clean files`);
});

/** examples with kernels and schedules, mutated where emission's own checks bite: numbers, `param` <-> `const` */
const kernelExamples = ['matmul', 'nw', 'transpose', 'softmax', 'swizzle', 'gemm-schedule', 'gemm-tensorcore'].map((n) => readFileSync(join(root, 'examples', `${n}.layout`), 'utf8'));
const VALUES = ['1', '2', '3', '16', '64', '100', '4096', '65536', '1048576', '2147483648', '8589934592'];
const mutated = fc.tuple(
  fc.constantFrom(...kernelExamples),
  fc.array(fc.tuple(fc.nat(), fc.oneof(fc.constantFrom(...VALUES), fc.constant('swap'))), { minLength: 1, maxLength: 3 }),
).map(([text, ms]) => {
  for (const [k, m] of ms) {
    if (m === 'swap') {
      const at = [...text.matchAll(/^(param|const) /gm)];
      if (!at.length) continue;
      const hit = at[k % at.length];
      const word = hit[1] === 'param' ? 'const' : 'param';
      text = text.slice(0, hit.index) + word + text.slice(hit.index! + hit[1].length);
      continue;
    }
    const nums = [...text.matchAll(/(?<![\w.])\d+(?![\w.])/g)].filter((x) => !/#[^\n]*$/.test(text.slice(text.lastIndexOf('\n', x.index) + 1, x.index)));
    if (!nums.length) continue;
    const hit = nums[k % nums.length];
    text = text.slice(0, hit.index) + m + text.slice(hit.index! + hit[0].length);
  }
  return text;
});

test('property: a file the checks pass is one emit accepts, and the editor\'s incremental analysis finds what the whole-file check finds', () => {
  let clean = 0;
  let emissionOnly = 0;
  fc.assert(fc.property(mutated, (text) => {
    const whole = checked(text);
    const a = new IncrementalAnalysis();
    a.diagnose(kernelExamples[0], { budget: 1e6 });
    assert.deepEqual(plain(a.diagnose(text, { budget: 1e6 }).diagnostics), plain(whole));
    if (whole.some((d) => d.severity === 'error')) {
      if (whole.every((d) => d.severity !== 'error' || /^(kernel|emit)\//.test(d.code))) emissionOnly++;
      return;
    }
    clean++;
    assert.deepEqual(emitErrors(text), []);
  }), { numRuns: 120, seed: 20261124 });
  assert.ok(clean >= 20, `${clean} clean`);
  assert.ok(emissionOnly >= 5, `${emissionOnly} with emission's errors only`);
});

test('stopped anywhere, during the kernels\' evaluation too, the next run gives exactly the whole-file diagnostics', () => {
  // kernels with emission errors, so that a result thrown away or kept wrongly would show; more than a
  // few, so that the rest is offered first (onFast) and the test knows when the evaluation runs
  const skews = [0, 1, 2, 3, 4].map((k) => SKEW.replace(/\b(W|S|antidiag|skew)\b/g, `$1${k}`));
  const text = [...skews, TRANSPOSE.replace('param n = 64', 'param n = 3000000000').replace('const T', 'const T2').replace(/\bT\b/g, 'T2')].join('\n');
  const whole = plain(checked(text));
  assert.ok(whole.some((d) => d.code === 'kernel/not-constant') && whole.some((d) => d.code === 'emit/value-too-large'), JSON.stringify(whole));
  let stoppedInEvaluation = 0;
  for (let after = 1; after < 2000; after += 7) {
    const a = new IncrementalAnalysis();
    let polls = 0;
    let evaluating = false;
    const r = a.diagnose(text, { budget: 1e6, onFast: () => { evaluating = true; }, shouldStop: () => ++polls > after });
    if (!r.cancelled) break;
    if (evaluating) stoppedInEvaluation++;
    assert.deepEqual(plain(a.diagnose(text, { budget: 1e6 }).diagnostics), whole, `stopped after ${after} polls`);
  }
  assert.ok(stoppedInEvaluation >= 3, `${stoppedInEvaluation} runs stopped during the evaluation`);
});

test('withInterrupt: a symbolic computation polls and stops as an over-budget one does; outside it nothing is polled', async () => {
  const { withInterrupt, withBudget, spend, BudgetError } = await import('../../server/src/expr/index.js');
  let polls = 0;
  assert.throws(() => withInterrupt(() => ++polls > 3, () => withBudget(1e9, () => { for (let i = 0; i < 1e6; i++) spend(1); })), BudgetError);
  assert.equal(polls, 4);
  let asked = 0;
  withBudget(1e9, () => { for (let i = 0; i < 1e4; i++) spend(1); });
  assert.equal(withInterrupt(() => { asked++; return false; }, () => 7), 7);
  assert.equal(asked, 0);
});

test('a file-level assume simplifies the kernels\' queries: editing it re-evaluates them (incremental = whole file)', () => {
  // `i < N` makes `min(i, N)` just `i`; without it the expression names `N`, which the built-in's code does not define
  const text = [
    'param N = 64',
    'const T = 16',
    'assume i < N',
    'layout S = OrderBy(Row(64, 64))',
    'kernel skew target cuda builtin nw_antidiag {',
    '  block_size = T',
    '  expr = S[min(i, N), j]',
    '}',
    '',
  ].join('\n');
  const a = new IncrementalAnalysis();
  assert.deepEqual(a.diagnose(text, { budget: 1e6 }).diagnostics, []);
  assert.deepEqual(checked(text), []);
  const other = text.replace('assume i < N', 'assume j < N');
  const at = other.indexOf('S[min');
  const expected = [{
    code: 'kernel/name-not-in-template',
    severity: 'error',
    message: 'builtin nw_antidiag does not define `N` where {{ expr }} goes; its code defines n, i, j (make other sizes `const`, or rename them)',
    start: at,
    end: at + 'S[min(i, N), j]'.length,
  }];
  assert.deepEqual(plain(checked(other)), expected);
  assert.deepEqual(plain(a.diagnose(other, { budget: 1e6 }).diagnostics), expected);
  // an edit elsewhere keeps the file's facts in the kernels' evaluation; removing the fact re-evaluates too
  assert.deepEqual(a.diagnose(text, { budget: 1e6 }).diagnostics, []);
  assert.deepEqual(a.diagnose(text.replace('const T = 16', 'const T = 32'), { budget: 1e6 }).diagnostics, []);
  const gone = text.replace('assume i < N\n', '');
  assert.deepEqual(plain(a.diagnose(gone, { budget: 1e6 }).diagnostics), plain(checked(gone)));
  assert.equal(checked(gone).length, 1);
  assert.deepEqual(emitErrors(other), [`cuda kernel/name-not-in-template ${at}`]);
});

test('rename keeps emit working: a param, a let or a free index whose name a built-in\'s code defines is not renamed; a const is', async () => {
  const { LayoutDocument } = await import('../../server/src/service/document.js');
  const { prepareRename, rename } = await import('../../server/src/service/navigation.js');
  const text = SKEW.replace('param W = 16', 'const W = 16');
  const doc = new LayoutDocument('file:///r.layout', 1, text);
  // `i` is used once, as the free index of the binding: its only use stands for its declaration
  const i = text.indexOf('i, j]\n}');
  assert.deepEqual(prepareRename(doc, i), { error: "a free index symbol 'i' keeps its name in the code of builtin nw_antidiag (kernel skew), whose code defines 'i' itself: renamed, the kernel's bindings would name something its code does not define" });
  // a const is folded into the code: it renames, and the file still checks and emits clean
  const r = rename(doc, text.indexOf('W = 16'), 'Width');
  assert.ok('edits' in r && r.edits.length === 2, JSON.stringify(r));
  // the perm's own index `i` is another name: it renames
  assert.ok('range' in prepareRename(doc, text.indexOf('[i, j] =') + 1));
  // the matmul's `num_pid_m`, a let that the kernel's layout uses, is refused; with nothing of the kernel using it, it renames
  const mm = 'let num_pid_m = 4\nlayout P = OrderBy(Row(num_pid_m, 2))\nkernel k target triton builtin matmul {\n  pid_m, pid_n = P.inv(pid)\n}\n';
  const refused = prepareRename(new LayoutDocument('file:///m.layout', 1, mm), 4);
  assert.deepEqual(refused, { error: "a let 'num_pid_m' keeps its name in the code of builtin matmul (kernel k), whose code defines 'num_pid_m' itself: renamed, the kernel's bindings would name something its code does not define" });
  const unused = mm.replace('OrderBy(Row(num_pid_m, 2))', 'OrderBy(Row(4, 2))');
  assert.ok('range' in prepareRename(new LayoutDocument('file:///u.layout', 1, unused), 4));
});

test('layout emit lists the same errors as layout check: a broken file\'s own, without what evaluating its bindings repeats; else the evaluation\'s', async () => {
  const { runEmit } = await import('../../server/src/cli/emit.js');
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'layout-check-emit-'));
  const run = (name: string, text: string, target: string) => {
    writeFileSync(join(dir, name), text);
    const out: string[] = [];
    const err: string[] = [];
    const checkOut: string[] = [];
    const emitStatus = runEmit(name, { target, out: '-' }, { out: (l) => out.push(l), err: (l) => err.push(l), write: () => undefined, cwd: dir });
    const checkStatus = runCheck([name], {}, { out: (t) => checkOut.push(t), err: () => undefined, cwd: dir });
    return { emitStatus, checkStatus, emitted: err.filter((l) => l.startsWith(name)), checked: checkOut.join('').trim().split('\n') };
  };
  // a query with the wrong number of indices: emit said "cannot generate code for this binding" too
  const broken = SKEW.replace('param W', 'const W').replace('expr = S[i, j]', 'expr = S[i, j, 0]');
  const b = run('broken.layout', broken, 'cuda');
  assert.deepEqual([b.emitStatus, b.checkStatus], [1, 1]);
  assert.deepEqual(b.emitted, ['broken.layout:8:11: error: S takes 2 indices (its logical shape is [4, 4]) but 3 are given [query/arity]']);
  assert.deepEqual(b.emitted, b.checked);
  // nothing else broken: the evaluation's error, in both
  const s = run('skew.layout', SKEW, 'cuda');
  assert.deepEqual([s.emitStatus, s.checkStatus], [1, 1]);
  assert.deepEqual(s.emitted, ['skew.layout:7:16: error: builtin nw_antidiag needs `block_size` to be a constant, but it depends on `W`: declare it with `const` [kernel/not-constant]']);
  assert.deepEqual(s.emitted, s.checked);
});
