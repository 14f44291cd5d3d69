// Hovers, inlay hints and the picture through the elaborator (server/src/service/layout-info.ts,
// elaboration.ts), in process: a query's hover and inlay hint show exactly what `layout expr`
// prints for it (one source of truth), in every language; a layout hover's apply and inv are the
// queries `L[coordinates]` and `L.inv(x)`; the model is elaborated per declaration (with what it
// depends on) and kept per document version, and gives what the whole-file elaboration gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as ast from '../../grammar/src/ast.js';
import { elaborate, queryText, type Lang } from '../../server/src/check/elaborate.js';
import { runExpr } from '../../server/src/cli/expr.js';
import { LayoutDocument } from '../../server/src/service/document.js';
import { modelOfDecl } from '../../server/src/service/elaboration.js';
import { hover } from '../../server/src/service/hover.js';
import { queryHover } from '../../server/src/service/layout-info.js';
import { inlayHints, LINE_BUDGET, queriesIn, shortLabel } from '../../server/src/service/inlay-hints.js';
import { defaultSettings, type Settings } from '../../server/src/service/settings.js';
import { picture } from '../../server/src/service/picture.js';
import { generate } from '../../bench/parse.js';

const LANGS: Lang[] = ['c', 'python', 'triton', 'mlir'];
const examples = join(import.meta.dirname, '../../examples');
const dir = mkdtempSync(join(tmpdir(), 'layout-info-'));

const settingsIn = (lang: Lang): Settings => ({ ...defaultSettings, hover: { ...defaultSettings.hover, language: lang } });

/** What `layout expr FILE QUERY --lang LANG` prints: its stdout, or `error: <message>`. */
function cli(file: string, query: string, lang: Lang): string {
  let out = '';
  const err: string[] = [];
  const code = runExpr(file, query, { lang }, { out: (t) => (out += t), err: (l) => err.push(l) });
  return code === 0 ? out.replace(/\n$/, '') : `error: ${err.join('\n').replace(/^layout: /, '')}`;
}

/** The bodies of the fenced code blocks of a markdown text. */
function fenced(md: string): string[] {
  return [...md.matchAll(/```[a-z]*\n([\s\S]*?)\n```/g)].map((m) => m[1]);
}

/** Every query of every kernel binding, with its source text. */
function queries(doc: LayoutDocument): { q: ast.IndexExpr | ast.MethodCall; kernel: ast.KernelDecl; binding: ast.Binding; src: string }[] {
  const out: { q: ast.IndexExpr | ast.MethodCall; kernel: ast.KernelDecl; binding: ast.Binding; src: string }[] = [];
  for (const d of doc.file.decls) {
    if (d.kind !== 'Kernel') continue;
    for (const b of d.bindings) for (const q of queriesIn(b.value)) out.push({ q, kernel: d, binding: b, src: doc.text.slice(q.range.start, q.range.end) });
  }
  return out;
}


const small = [
  'param M = 64, K = 32',
  'param BM = 16, BK = 16',
  'let nb = M / BM',
  'layout A = OrderBy(Row(M, K)).TileBy([nb, K / BK], [BM, BK])',
  'layout R = OrderBy(Row(2, 3))',
  'layout P = OrderBy(Col(nb, 4))',
  'kernel copy target triton template "copy_template.py" {',
  '  offs = A[pid_m, k, :, :]',
  '  r, c = R.inv(pid)',
  '  t = A.inv(pid)',
  '  u = P[i, j]',
  '}',
  'kernel cc target cuda template "k.cu" {',
  '  o = R[i, j] + 1',
  '  p = A.apply(1, 0, i, j)',
  '}',
  '',
].join('\n');
writeFileSync(join(dir, 'small.layout'), small);

const files = [join(dir, 'small.layout'), ...readdirSync(examples).filter((f) => f.endsWith('.layout')).map((f) => join(examples, f))];

test('a query hover shows exactly what `layout expr` prints, in its kernel\'s language (else the setting\'s)', () => {
  let compared = 0;
  for (const file of files) {
    const doc = new LayoutDocument('file:///x.layout', 1, readFileSync(file, 'utf8'));
    for (const { q, src, kernel } of queries(doc)) {
      for (const setting of LANGS) {
        // C in a CUDA kernel, Triton in a Triton kernel: what the generated file holds
        const lang = kernel.target?.value === 'cuda' ? 'c' : kernel.target?.value === 'triton' ? 'triton' : setting;
        const md = queryHover(doc, q, settingsIn(setting)) ?? '';
        const want = cli(file, src, lang);
        const where = `${file}: ${src} in ${lang} (setting ${setting})`;
        assert.ok(md.startsWith(`**query** \`${src}\``), `${where}: ${md}`);
        if (want.startsWith('error: ')) assert.equal(md, `**query** \`${src}\`\n\ncannot generate code: ${want.slice(7)}`, where);
        else assert.deepEqual(fenced(md), [want], where);
        compared++;
      }
    }
  }
  assert.ok(compared >= 4 * 15, `only ${compared} hovers compared`);
});

test('a bound name shows its own result; the header names the bindings', () => {
  const doc = new LayoutDocument('file:///x.layout', 1, small);
  const file = join(dir, 'small.layout');
  const at = (s: string, k = 0) => small.indexOf(s) + k;
  // 4 results, one name: the hover on the name shows them all, unnamed (in the kernel's Triton, whatever the setting)
  assert.equal(hover(doc, at('t = A.inv'), settingsIn('python'))!.markdown,
    `**query** \`A.inv(pid)\` (8 ops, triton):\n\n\`\`\`python\n${cli(file, 'A.inv(pid)', 'triton')}\n\`\`\``);
  assert.equal(hover(doc, at('A.inv(pid)', 2), settingsIn('c'))!.markdown.split('\n')[0], '**query** `A.inv(pid)` (8 ops, triton):');
  assert.equal(hover(doc, at('r, c'), settingsIn('triton'))!.markdown,
    '**query** `R.inv(pid)` → `r` (result 1 of 2, 1 op, triton):\n\n```python\n((pid)//(3))\n```');
  // in a CUDA kernel: C, whatever the setting (issue 10 §6: not Triton's tl.where or Python's //)
  assert.equal(hover(doc, at('R[i, j] + 1', 1), settingsIn('mlir'))!.markdown, `**query** \`R[i, j]\` (2 ops, c):\n\n\`\`\`c\n${cli(file, 'R[i, j]', 'c')}\n\`\`\``);
});

test('lets stay by name as in `layout expr`; the hover says what the kernel does with them', () => {
  const doc = new LayoutDocument('file:///x.layout', 1, small);
  const md = hover(doc, small.indexOf(':, :]') + 3, settingsIn('triton'))!.markdown;
  assert.equal(md, '**query** `A[pid_m, k, :, :]` → `offs` (6 ops, triton):\n\n```python\n'
    + 'BK*k + K*(BM*pid_m + ((tl.arange(0, BM))[:, None])) + ((tl.arange(0, BK))[None, :])\n```');
  assert.equal(hover(doc, small.indexOf('u = P'), settingsIn('python'))!.markdown,
    '**query** `P[i, j]` → `u` (2 ops, triton):\n\n```python\ni + j*nb\n```\n\n`nb`: a let that the generated kernel inlines (`layout expr` keeps it by name)');
  assert.equal(cli(join(dir, 'small.layout'), 'P[i, j]', 'triton'), 'i + j*nb');
  // a built-in template that defines the lets keeps them by name, as the hover shows them
  const mm = readFileSync(join(examples, 'matmul.layout'), 'utf8');
  const mdoc = new LayoutDocument('file:///m.layout', 1, mm);
  const pid = hover(mdoc, mm.indexOf('inv(pid)'), settingsIn('triton'))!.markdown;
  assert.match(pid, /\n\n`num_pid_m`, `num_pid_n`: lets that the `matmul` template defines, by name in the generated kernel too$/);
  // a layout hover: the generic note, once
  const lay = hover(mdoc, mm.indexOf('layout Pid') + 8, settingsIn('triton'))!.markdown;
  assert.equal(lay.split('lets, kept by name as `layout expr` prints them; the generated kernel inlines them unless its template defines them').length, 2);
});

test('a layout hover\'s apply and inv are `layout expr` of L[coordinates] and L.inv(x)', () => {
  const file = join(examples, 'matmul.layout');
  const text = readFileSync(file, 'utf8');
  const doc = new LayoutDocument('file:///m.layout', 1, text);
  for (const [name, coords] of [['Pid', 'i, j'], ['A', 'ti, tj, i, j'], ['C', 'ti, tj, i, j']] as const) {
    for (const lang of LANGS) {
      const md = hover(doc, text.indexOf(`layout ${name} `) + 7, settingsIn(lang))!.markdown;
      assert.ok(md.includes(`\napply \`${name}[${coords}]\` (`), md);
      assert.ok(md.includes(`\ninv \`${name}.inv(x)\` → ${coords.split(', ').map((c) => `\`${c}\``).join(', ')} (`), md);
      assert.deepEqual(fenced(md), [cli(file, `${name}[${coords}]`, lang), cli(file, `${name}.inv(x)`, lang)], `${name} in ${lang}`);
    }
  }
});

test('inlay hints: `layout expr` in the kernel target\'s language', () => {
  const file = join(dir, 'small.layout');
  const doc = new LayoutDocument('file:///x.layout', 1, small);
  const hints = inlayHints(doc, { start: 0, end: small.length }, { ...defaultSettings, inlayHints: { enabled: true, maxLength: 1000 } });
  const full = (q: string, lang: Lang, names?: string[]) => {
    const lines = cli(file, q, lang).split('\n');
    return names ? lines.map((l, k) => `${names[k]} = ${l}`).join('; ') : lines.join('; ');
  };
  // the whole text (the tooltip's first line) is `layout expr`'s, in the kernel target's language
  assert.deepEqual(hints.map((h) => h.tooltip!.split('\n')[0]), [
    full('A[pid_m, k, :, :]', 'triton'),
    full('R.inv(pid)', 'triton', ['r', 'c']),
    full('A.inv(pid)', 'triton'),
    full('P[i, j]', 'triton'),
    full('R[i, j]', 'c'),
    full('A.apply(1, 0, i, j)', 'c'),
  ]);
  // the label is that text where the line keeps within LINE_BUDGET columns, else cut
  hints.forEach((h) => {
    const text = `→ ${h.tooltip!.split('\n')[0]}`;
    const line = small.slice(small.lastIndexOf('\n', h.offset - 1) + 1).split('\n')[0];
    assert.equal(h.label, line.length + text.length <= LINE_BUDGET ? text : text.slice(0, LINE_BUDGET - line.length - 1) + '…', h.tooltip);
  });
  assert.equal(hints[0].label, '→ BK*k + K*(BM*pid_m + ((tl.arange(0, BM))[:, None])) + ((tl.arange(0, BK…');
  assert.equal(hints[5].label, '→ K*(BM + i) + j');
  assert.equal(hints[5].tooltip, 'K*(BM + i) + j\n(3 ops)');
});

test('inlay hints stay short: the line\'s comment stays within LINE_BUDGET columns; else an op count', () => {
  assert.equal(shortLabel('i + j', 1, 40), '→ i + j');
  assert.equal(shortLabel('BK*k + K*(BM*pid_m + i) + j', 7, 26), '→ BK*k + K*(BM*pid_m + i)…');
  assert.equal(shortLabel('BK*k + K*(BM*pid_m + i) + j', 7, 23), '→ 7 ops');
  assert.equal(shortLabel('x', 1, 0), '→ 1 op');
  const text = readFileSync(join(examples, 'matmul.layout'), 'utf8');
  const doc = new LayoutDocument('file:///m.layout', 1, text);
  const hints = inlayHints(doc, { start: 0, end: text.length }, defaultSettings);
  // the matmul kernel's lines carry comments: 'pid_m, pid_n = Pid.inv(pid)    # pid: the program id ...'
  const lineOf = (o: number) => text.slice(text.lastIndexOf('\n', o - 1) + 1).split('\n')[0];
  assert.deepEqual(hints.map((h) => [lineOf(h.offset).trim().split(' ')[0], h.label]), [
    ['pid_m,', '→ 16 ops'],
    ['offset_aptrs', '→ 6 ops'],
    ['offset_bptrs', '→ BN*pid_n + N*(BK*k + ((tl.arange(0, BK))[:, None])) + ((t…'],
    ['offset_cptrs', '→ BN*pid_n + N*(BM*pid_m + ((tl.arange(0, BM))[:, None])) +…'],
  ]);
  for (const h of hints) assert.ok(lineOf(h.offset).length + h.label.length <= LINE_BUDGET || /ops?$/.test(h.label));
});

test('the picture uses the same model: its apply is `layout expr`\'s in Python', () => {
  const file = join(examples, 'matmul.layout');
  const text = readFileSync(file, 'utf8');
  const doc = new LayoutDocument('file:///m.layout', 1, text);
  const p = picture(doc, 0, 'Pid');
  assert.ok(p && !('error' in p));
  assert.equal(p.exprs.apply, cli(file, 'Pid[i, j]', 'python'));
  assert.equal(p.exprs.inv, cli(file, 'Pid.inv(x)', 'python').split('\n').map((l, k) => `${['i', 'j'][k]} = ${l}`).join('; '));
  assert.deepEqual(p.logicalDims, [32, 16]);
});

test('the model: per declaration with what it depends on, kept per version, equal to the whole-file elaboration', () => {
  const text = generate(2000);
  const doc = new LayoutDocument('file:///bench.layout', 1, text);
  const kernel = doc.file.decls.find((d): d is ast.KernelDecl => d.kind === 'Kernel' && d.name.name === 'matmul7')!;
  const dm = modelOfDecl(doc, kernel);
  assert.equal(modelOfDecl(doc, kernel), dm, 'kept for the version');
  assert.deepEqual([...dm.model.layouts.keys()], ['Pid7', 'A7', 'B7', 'C7']);
  assert.deepEqual([...dm.model.kernels.keys()], ['matmul7']);
  assert.deepEqual([...dm.model.lets.keys()], ['num_pid_m7', 'num_pid_n7']);
  assert.deepEqual(dm.diagnostics, []);
  const next = new LayoutDocument('file:///bench.layout', 2, text);
  assert.notEqual(modelOfDecl(next, next.file.decls.find((d) => d.kind === 'Kernel' && d.name.name === 'matmul7')!), dm, 'a new version, a new model');
  // the same texts as the whole-file model, for every query of every example and of the bench file's first blocks
  for (const [name, t] of [...files.map((f) => [f, readFileSync(f, 'utf8')] as const), ['bench', text.slice(0, text.indexOf('# ---- block 3:'))] as const]) {
    const d = new LayoutDocument('file:///y.layout', 1, t);
    const whole = elaborate(d.file, d.symbols.resolution).model;
    for (const { q, kernel: k } of queries(d)) {
      for (const lang of LANGS) {
        assert.deepEqual(queryText(modelOfDecl(d, k).model, q, lang), queryText(whole, q, lang), `${name}: ${t.slice(q.range.start, q.range.end)} in ${lang}`);
      }
    }
  }
});

test('bad input: no crash, a reason', () => {
  const src = 'param N = 4\nlayout L = OrderBy(Row(N, N))\nkernel k target triton template "t.py" {\n  a = L[i]\n  b = L.inv(1, 2)\n  c = Nope[i, j]\n  e = L.inv(3)\n  f = L[(i, ]\n}\n';
  const doc = new LayoutDocument('file:///b.layout', 1, src);
  assert.deepEqual(queries(doc).map(({ q }) => queryHover(doc, q, defaultSettings)), [
    '**query** `L[i]`\n\ncannot generate code: the layout has 2 dimensions, the key 1 items',
    // the check rules (query/arity) report this one; the hover points there
    '**query** `L.inv(1, 2)`\n\ncannot generate code: this query has an error (see the problem reported on it)',
    "**query** `Nope[i, j]`\n\ncannot generate code: unknown name 'Nope'",
    '**query** `L.inv(3)` (2 ops, triton):\n\n```python\n((3)//(N))\n3 % N\n```',
    '**query** `L[(i, ]`\n\ncannot generate code: expected a number, found a tuple',
  ]);
});
