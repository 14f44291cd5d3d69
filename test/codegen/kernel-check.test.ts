// Kernel-block checks (server/src/check/kernel.ts): placeholders vs bindings, at the right ranges.
// The ASTs are built by hand here so that these tests do not depend on the parser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Binding, Ident, KernelDecl } from '../../grammar/src/ast.js';
import { parse } from '../../grammar/src/parse.js';
import { checkKernel, type TemplateLookup } from '../../server/src/check/kernel.js';
import { scanTemplate } from '../../server/src/codegen/template.js';

/** A kernel block from `text`: `kernel NAME target T template "P" { a = x \n b, c = y }` (one binding per line). */
function kernel(text: string): KernelDecl {
  const m = /kernel (\w+) target (\w+) (?:template "([^"]*)"|builtin (\w+)) \{/.exec(text)!;
  const at = (s: string, from = 0): number => {
    const i = text.indexOf(s, from);
    assert.ok(i >= 0, s);
    return i;
  };
  const id = (name: string, start: number): Ident => ({ kind: 'Ident', name, range: { start, end: start + name.length } });
  const nameStart = at(m[1], 7);
  const targetStart = at(` ${m[2]} `, nameStart + m[1].length) + 1;
  const open = at('{');
  const close = text.lastIndexOf('}');
  const bindings: Binding[] = [];
  let pos = open + 1;
  for (const line of text.slice(open + 1, close).split('\n')) {
    const lm = /^(\s*)([\w, ]+?)\s*=\s*(.+?)\s*$/.exec(line);
    if (lm) {
      const start = pos + lm[1].length;
      let p = start;
      const names: Ident[] = [];
      for (const n of lm[2].split(',').map((s) => s.trim())) {
        const s = text.indexOf(n, p);
        names.push(id(n, s));
        p = s + n.length;
      }
      const vStart = text.indexOf(lm[3], p);
      const value = { kind: 'Name' as const, name: lm[3], range: { start: vStart, end: vStart + lm[3].length } };
      bindings.push({ kind: 'Binding', names, value, range: { start, end: value.range.end } });
    }
    pos += line.length + 1;
  }
  const template = m[3] !== undefined
    ? { kind: 'file' as const, path: { kind: 'String' as const, value: m[3], range: { start: at(`"${m[3]}"`), end: at(`"${m[3]}"`) + m[3].length + 2 } } }
    : { kind: 'builtin' as const, name: id(m[4], at(m[4], targetStart + m[2].length)) };
  return {
    kind: 'Kernel',
    name: id(m[1], nameStart),
    target: { value: m[2], range: { start: targetStart, end: targetStart + m[2].length } },
    template,
    bindings,
    bodyRange: { start: open, end: close + 1 },
    range: { start: 0, end: close + 1 },
  };
}

const found = (tmpl: string, label = 'template "t.py"', target?: 'cuda' | 'triton'): TemplateLookup => ({ kind: 'found', info: scanTemplate(tmpl), label, ...(target ? { target } : {}) });
const ctx = { implicit: new Set(['kernel_name', 'param_M']) };
const slice = (text: string, r: { start: number; end: number }) => text.slice(r.start, r.end);

test('matching placeholders and bindings: no diagnostics', () => {
  const src = 'kernel mm target triton template "t.py" {\n  a = x\n  b, c = y\n}';
  assert.deepEqual(checkKernel(kernel(src), found('{{ a }} {{ b }}\n{{ c }} {{ a }} {{ kernel_name }} {{ param_M }}'), ctx), []);
});

test('a placeholder without a binding: an error at the kernel name, naming the template line(s)', () => {
  const src = 'kernel mm target triton template "t.py" {\n  a = x\n}';
  const d = checkKernel(kernel(src), found('{{ a }}\nx = {{ pid_k }}\n\ny = {{ pid_k }} + {{ q }}'), ctx);
  assert.deepEqual(d.map((x) => [x.code, x.severity, slice(src, x.range), x.message]), [
    ['kernel/missing-binding', 'error', 'mm', 'template "t.py" uses `{{ pid_k }}` (lines 2, 4), which kernel mm does not bind'],
    ['kernel/missing-binding', 'error', 'mm', 'template "t.py" uses `{{ q }}` (line 4), which kernel mm does not bind'],
  ]);
});

test('a missing param_NAME says which param to declare', () => {
  const src = 'kernel mm target triton template "t.py" {\n}';
  const d = checkKernel(kernel(src), found('{{ param_BK }}'), ctx);
  assert.equal(d[0].message, 'template "t.py" uses `{{ param_BK }}` (line 1), which kernel mm does not bind; declare `param BK` or `const BK` to fill it');
});

test('a binding the template never uses: a warning at the bound name, with a fix removing its line', () => {
  const src = 'kernel mm target triton template "t.py" {\n  a = x\n  extra = y\n  b, unused2 = z\n}';
  const d = checkKernel(kernel(src), found('{{ a }} {{ b }}'), { ...ctx, text: src });
  assert.deepEqual(d.map((x) => [x.code, x.severity, slice(src, x.range), x.message, x.tags]), [
    ['kernel/unused-binding', 'warning', 'extra', 'template "t.py" never uses `{{ extra }}`: the binding of `extra` has no effect', ['unnecessary']],
    ['kernel/unused-binding', 'warning', 'unused2', 'template "t.py" never uses `{{ unused2 }}`: the binding of `unused2` has no effect', ['unnecessary']],
  ]);
  // Only a binding none of whose names is used can be removed whole.
  assert.equal(d[0].fixes?.length, 1);
  assert.equal(d[1].fixes, undefined);
  const e = d[0].fixes![0].edits[0];
  assert.equal(src.slice(0, e.range.start) + e.newText + src.slice(e.range.end), 'kernel mm target triton template "t.py" {\n  a = x\n  b, unused2 = z\n}');
});

test('a name bound twice: an error at the second, related to the first', () => {
  const src = 'kernel mm target triton template "t.py" {\n  a = x\n  a = y\n}';
  const d = checkKernel(kernel(src), found('{{ a }}'), ctx);
  assert.equal(d.length, 1);
  assert.equal(d[0].code, 'kernel/duplicate-binding');
  assert.equal(d[0].range.start, src.lastIndexOf('a = y'));
  assert.equal(d[0].related?.[0].range.start, src.indexOf('a = x'));
});

test('a slice or a range in a CUDA kernel binding: kernel/range-in-cuda at the value; a Triton kernel takes them', () => {
  // (the values parsed: this file's `kernel` helper gives them no syntax)
  const parsed = (text: string) => parse(text).file.decls[0] as KernelDecl;
  const src = 'kernel k target cuda template "t.cu" {\n  a = A[i, :]\n  b, c = (0:4) + 1, j\n  d = A[i, j]\n}';
  const d = checkKernel(parsed(src), found('{{ a }} {{ b }} {{ c }} {{ d }}'), ctx);
  assert.deepEqual(d.map((x) => [x.code, src.slice(x.range.start, x.range.end), x.message]), [
    ['kernel/range-in-cuda', 'A[i, :]', '`a` is a range of indices (a slice `:` or `a:b`): a CUDA kernel computes one index per thread, so index every dimension with a single value (slices are for Triton kernels)'],
    ['kernel/range-in-cuda', '(0:4) + 1', 'the values of `b`, `c` hold a range of indices (a slice `:` or `a:b`): a CUDA kernel computes one index per thread, so index every dimension with a single value (slices are for Triton kernels)'],
  ]);
  assert.deepEqual(checkKernel(parsed(src.replace('target cuda', 'target triton')), found('{{ a }} {{ b }} {{ c }} {{ d }}'), ctx), []);
});

test('target mlir on a kernel: kernel/unsupported-target at the target; a built-in of another target says target-mismatch instead', () => {
  const src = 'kernel k target mlir template "t.mlir" {\n  a = x\n}';
  const d = checkKernel(kernel(src), found('{{ a }}'), ctx);
  assert.deepEqual(d.map((x) => [x.code, slice(src, x.range), x.message]), [
    ['kernel/unsupported-target', 'mlir', 'kernel k: templates emit CUDA or Triton; MLIR is generated from `schedule` blocks'],
  ]);
  const builtin: TemplateLookup = { kind: 'found', info: scanTemplate('{{ a }}'), label: 'builtin matmul', target: 'triton' };
  assert.deepEqual(checkKernel(kernel(src), builtin, ctx).map((x) => x.code), ['kernel/target-mismatch']);
});

test('template syntax problems: errors at the template path, naming the line; no unused-binding noise', () => {
  const src = 'kernel mm target triton template "t.py" {\n  a = x\n}';
  const d = checkKernel(kernel(src), found('ok\n{{#a}}x{{/a}}'), ctx);
  assert.deepEqual(d.map((x) => [x.code, slice(src, x.range), x.message]), [
    ['kernel/template-syntax', '"t.py"', 'template "t.py", line 2: `{{#a}}` is a section; templates take only plain `{{ name }}` placeholders'],
  ]);
});

test('lookup errors land on the template clause', () => {
  const src = 'kernel mm target cuda builtin nope {\n  a = x\n}';
  const d = checkKernel(kernel(src), { kind: 'error', code: 'kernel/unknown-builtin', message: 'no built-in nope' }, ctx);
  assert.deepEqual(d.map((x) => [x.code, slice(src, x.range)]), [['kernel/unknown-builtin', 'nope']]);
});

test('a built-in for another target: an error at the target with a fix', () => {
  const src = 'kernel mm target cuda builtin matmul {\n  a = x\n}';
  const d = checkKernel(kernel(src), found('{{ a }}', 'builtin matmul', 'triton'), ctx);
  assert.deepEqual(d.map((x) => [x.code, slice(src, x.range), x.message]), [
    ['kernel/target-mismatch', 'cuda', 'builtin matmul is a triton kernel, but kernel mm says `target cuda`'],
  ]);
  assert.deepEqual(d[0].fixes?.[0].edits, [{ range: d[0].range, newText: 'triton' }]);
});

test('no template clause: only binding-level checks run', () => {
  const src = 'kernel mm target triton template "t.py" {\n  a = x\n}';
  assert.deepEqual(checkKernel(kernel(src), { kind: 'none' }, ctx), []);
});
