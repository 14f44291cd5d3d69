// The same answer everywhere (issue 10 §6): for every query of every example kernel, the hover,
// the inlay hint and `layout expr` in the kernel's language print the same expression, and the
// generated file holds that expression (with the lets the kernel inlines inlined, as the hover's
// note says). In a CUDA kernel that language is C, with C's semantics: no Triton `tl.where`, no
// Python `//`, whatever the hover setting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as ast from '../../grammar/src/ast.js';
import { runExpr } from '../../server/src/cli/expr.js';
import { findBuiltin } from '../../server/src/codegen/builtins.js';
import { buildEmitModel } from '../../server/src/codegen/model.js';
import { queryExpr, type Model } from '../../server/src/check/elaborate.js';
import * as X from '../../server/src/expr/index.js';
import { LayoutDocument } from '../../server/src/service/document.js';
import { modelOfDecl } from '../../server/src/service/elaboration.js';
import { inlayHints, queriesIn } from '../../server/src/service/inlay-hints.js';
import { queryHover } from '../../server/src/service/layout-info.js';
import { defaultSettings, type Settings } from '../../server/src/service/settings.js';

const examples = join(import.meta.dirname, '../../examples');
const files = readdirSync(examples).filter((f) => f.endsWith('.layout')).map((f) => join(examples, f));

function cli(file: string, query: string, lang: 'c' | 'triton', inlineLets = false): string {
  let out = '';
  const err: string[] = [];
  const code = runExpr(file, query, { lang, inlineLets }, { out: (t) => (out += t), err: (l) => err.push(l) });
  assert.equal(code, 0, `layout expr ${query}: ${err.join('\n')}`);
  return out.replace(/\n$/, '');
}

const fenced = (md: string): string[] => [...md.matchAll(/```[a-z]*\n([\s\S]*?)\n```/g)].map((m) => m[1]);

for (const setting of ['python', 'mlir', 'triton', 'c'] as const) {
  test(`hover = inlay hint = layout expr = generated file, for every example query (hover setting ${setting})`, () => {
    const settings: Settings = { ...defaultSettings, hover: { language: setting }, inlayHints: { enabled: true, maxLength: 100_000 } };
    let compared = 0, emitted = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const doc = new LayoutDocument('file:///x.layout', 1, text);
      const hints = inlayHints(doc, { start: 0, end: text.length }, settings);
      const emit = buildEmitModel(text, file);
      for (const d of doc.file.decls) {
        if (d.kind !== 'Kernel') continue;
        const target = d.target?.value;
        if (target !== 'cuda' && target !== 'triton') continue;
        const lang = target === 'cuda' ? 'c' : 'triton';
        for (const b of d.bindings) {
          for (const q of queriesIn(b.value)) {
            const src = text.slice(q.range.start, q.range.end);
            const want = cli(file, src, lang);
            const where = `${file}: ${src}`;
            // hover
            const md = queryHover(doc, q, settings)!;
            assert.match(md.split('\n')[0], new RegExp(`, ${lang}\\):$`), where);
            assert.deepEqual(fenced(md), [want], where);
            // inlay hint (results joined by '; ', named when the binding names them)
            const hint = hints.find((h) => h.offset === q.range.end);
            const lines = want.split('\n');
            const named = b.value === q && b.names.length === lines.length && lines.length > 1 ? lines.map((l, k) => `${b.names[k].name} = ${l}`) : lines;
            // the tooltip holds the whole text; the label is it, cut to fit the line
            assert.equal(hint?.tooltip?.split('\n(')[0], named.join('; '), where);
            assert.ok(hint!.label === `→ ${named.join('; ')}` || hint!.label.endsWith('…') || / ops?$/.test(hint!.label), where);
            if (lang === 'c') assert.ok(!/tl\.where|\/\/|tl\.arange/.test(want), `${where}: not C: ${want}`);
            compared++;
            // the generated file: the binding's expression, with the lets the kernel inlines inlined
            if (b.value !== q) continue;
            const ed = emit.file.decls[doc.file.decls.indexOf(d)] as ast.KernelDecl;
            const r = emit.evaluate(ed, ed.bindings[d.bindings.indexOf(b)]);
            if (!r.ok) assert.fail(`${where}: ${JSON.stringify(r.diagnostics)}`);
            const printed: string = r.exprs.map((e: X.Expr) => emit.print(e, target)).join('\n');
            const model: Model = modelOfDecl(doc, d).model;
            const scope = new Set(d.template?.kind === 'builtin' ? findBuiltin(d.template.name.name)?.scope ?? [] : []);
            const raw = queryExpr(model, q);
            if (!raw.ok) assert.fail(`${where}: ${raw.message}`);
            const lets = [...new Set(raw.exprs.flatMap((e) => [...X.freeSymbols(e)]))].filter((s) => model.defs.has(s));
            const inlines = lets.some((l) => !scope.has(l));
            assert.equal(printed, inlines ? cli(file, src, lang, true) : want, where);
            emitted++;
          }
        }
      }
    }
    assert.ok(compared >= 10, `only ${compared} queries compared`);
    assert.ok(emitted >= 8, `only ${emitted} generated expressions compared`);
  });
}

test('a CUDA kernel\'s query hover is C: division and select in C syntax (nw.layout)', () => {
  const file = join(examples, 'nw.layout');
  const text = readFileSync(file, 'utf8');
  const doc = new LayoutDocument('file:///nw.layout', 1, text);
  const k = doc.file.decls.find((d): d is ast.KernelDecl => d.kind === 'Kernel')!;
  const q = queriesIn(k.bindings[1].value)[0];
  const md = queryHover(doc, q, { ...defaultSettings, hover: { language: 'triton' } })!;
  const body = fenced(md)[0];
  assert.match(md, /^\*\*query\*\* `anti_diag\[i, j\]` → `expr` \(\d+ ops, c\):\n\n```c\n/);
  assert.ok(body.includes('?') && body.includes(':') && body.includes('/'), body);
  assert.ok(!body.includes('tl.where') && !body.includes('//'), body);
  assert.equal(body, cli(file, 'anti_diag[i, j]', 'c'));
});
