// Named temporaries in emitted kernels (codegen/shared-lines.ts): inserted only in statement
// positions, and the emitted NW function computes the anti-diagonal numbering through them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildEmitModel, emitFile } from '../../server/src/codegen/index.js';
import { planShared } from '../../server/src/codegen/shared-lines.js';
import { scanTemplate } from '../../server/src/codegen/template.js';
import { add, floorDiv, int, mod, mul, sym } from '../../server/src/expr/index.js';
import { evalText } from '../expr/mini-eval.js';

const root = resolve(import.meta.dirname, '../..');
const [a, b] = [sym('a'), sym('b')];
const y = add(mul(int(3), a), b);
const binding = { names: ['q', 'r'], exprs: [floorDiv(y, int(4)), mod(y, int(4))] };

test('temporaries go before the first placeholder line of the binding, with its indentation', () => {
  const cu = 'void f(int a, int b) {\n  int x = 0;\n    int q = {{ q }};\n    int r = {{ r }};\n}\n';
  const p = planShared(scanTemplate(cu), [binding], 'cuda');
  assert.equal(p.text, 'void f(int a, int b) {\n  int x = 0;\n    const auto lx0_0 = 3*a + b;\n    int q = {{ q }};\n    int r = {{ r }};\n}\n');
  assert.deepEqual({ ...p.values }, { q: '(((lx0_0) - ((((lx0_0) % (4)) + (4)) % (4)))/(4))', r: '((((lx0_0) % (4)) + (4)) % (4))' });
  const py = 'def f(a, b):\n    q = {{ q }}\n    r = {{ r }}\n';
  const pp = planShared(scanTemplate(py), [binding], 'triton');
  assert.equal(pp.text, 'def f(a, b):\n    lx0_0 = 3*a + b\n    q = {{ q }}\n    r = {{ r }}\n');
  // a template that already uses the name: the prefix changes
  const taken = planShared(scanTemplate('def f(a, b, lx0_0):\n    q = {{ q }}\n    r = {{ r }}\n'), [binding], 'triton');
  assert.ok(taken.text.includes('    lx0__0 = 3*a + b\n'));
});

test('no temporaries outside statement positions: inline as before', () => {
  const cases: [string, 'cuda' | 'triton'][] = [
    ['#define Q ({{ q }})\n#define R ({{ r }})\n', 'cuda'], // preprocessor
    ['int q = {{ q }};\nint r = {{ r }};\n', 'cuda'], // file scope
    ['void f() {\n  g(1,\n    {{ q }}, {{ r }});\n}\n', 'cuda'], // inside a call
    ['void f() {\n  if (c) x = 1;\n  else { q = {{ q }}; r = {{ r }}; }\n}\n', 'cuda'], // an else line
    ['void f() {\n  { int q = {{ q }}; }\n  { int r = {{ r }}; }\n}\n', 'cuda'], // different blocks
    ['def f():\n    x = g(1,\n          {{ q }})\n    r = {{ r }}\n', 'triton'], // continuation
    ['def f():\n    if c:\n        q = {{ q }}\n    r = {{ r }}\n', 'triton'], // r outside q's block
  ];
  for (const [t, target] of cases) {
    const p = planShared(scanTemplate(t), [binding], target);
    assert.equal(p.text, t, t);
    assert.deepEqual({ ...p.values }, {});
  }
});

test('the emitted NW function, statements and all, numbers the tile along its anti-diagonals', () => {
  const text = readFileSync(resolve(root, 'examples/nw.layout'), 'utf8');
  const m = buildEmitModel(text, resolve(root, 'examples/nw.layout'), { sourceLabel: 'examples/nw.layout' });
  const cu = emitFile(m, 'cuda').files[0].content;
  const body = /antiDiagPermLEGO\(int n, int i, int j\) \{\n([^}]*)\n\}/.exec(cu)![1].split('\n').map((l) => l.trim());
  const temps = body.slice(0, -1).map((l) => /^const auto (\w+) = (.+);$/.exec(l)!);
  const ret = /^return (.+);$/.exec(body[body.length - 1])![1];
  assert.ok(temps.length >= 1);
  for (const n of [3, 4, 17]) {
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      const vars = new Map<string, bigint>([['n', BigInt(n)], ['i', BigInt(i)], ['j', BigInt(j)]]);
      for (const [, name, e] of temps) vars.set(name, evalText(e, 'c', { vars }));
      const s = i + j + 1;
      const want = s <= n ? (s * (s - 1)) / 2 + i : n * n - n + i - ((2 * n - s) * (2 * n - s - 1)) / 2;
      assert.equal(evalText(ret, 'c', { vars }), BigInt(want), `n=${n} (${i}, ${j})`);
    }
  }
});
