// ```layout fences in VS Code's Markdown preview (client/src/markdown-fences.ts): the exact HTML of a
// fence, with highlight.js class names and everything escaped; other languages go to the preview's own
// highlighter; and through markdown-it itself (the engine VS Code's preview uses, installed here with
// @vscode/vsce), set up as VS Code sets it up (highlight returns the inner HTML) then extended.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { extendMarkdownIt, highlightLayout, isLayoutFence } from '../../client/src/markdown-fences.js';

test('highlightLayout: keywords, names, constructors, functions, numbers, targets, strings, comments; HTML escaped', () => {
  const code = 'param M = 4   # rows < 8 & more\nlayout A = OrderBy(Row(M, M)).TileBy([2, 2])\nkernel k target triton template "t<1>.py" on sm_90 {\n  x = min(A.inv(p), 2)\n}\n';
  assert.equal(highlightLayout(code), [
    '<span class="hljs-keyword">param</span> M = <span class="hljs-number">4</span>   <span class="hljs-comment"># rows &lt; 8 &amp; more</span>',
    '<span class="hljs-keyword">layout</span> <span class="hljs-title">A</span> = <span class="hljs-type">OrderBy</span>(<span class="hljs-type">Row</span>(M, M)).<span class="hljs-type">TileBy</span>([<span class="hljs-number">2</span>, <span class="hljs-number">2</span>])',
    '<span class="hljs-keyword">kernel</span> <span class="hljs-title">k</span> <span class="hljs-keyword">target</span> <span class="hljs-literal">triton</span> <span class="hljs-keyword">template</span> <span class="hljs-string">&quot;t&lt;1&gt;.py&quot;</span> <span class="hljs-keyword">on</span> <span class="hljs-literal">sm_90</span> {',
    '  x = <span class="hljs-built_in">min</span>(A.<span class="hljs-built_in">inv</span>(p), <span class="hljs-number">2</span>)',
    '}',
    '',
  ].join('\n'));
  // nothing is lost: the text content is the code
  const text = highlightLayout(code).replace(/<[^>]+>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  assert.equal(text, code);
  assert.equal(highlightLayout('<script>alert(1)</script>'), '&lt;script&gt;alert(<span class="hljs-number">1</span>)&lt;/script&gt;');
});

test('isLayoutFence: the info string names layout (any case, with attributes)', () => {
  assert.deepEqual(['layout', 'Layout', ' layout {.x}', 'layout:demo', 'layouts', 'python', ''].map(isLayoutFence), [true, true, true, true, false, false, false]);
});

test('extendMarkdownIt: layout fences highlighted here, other languages by the previous highlighter', () => {
  const md = { options: { highlight: (code: string, lang: string, _attrs: string) => `[${lang}:${code}]` } };
  extendMarkdownIt(md);
  assert.equal(md.options.highlight('param M = 1', 'layout', ''), '<span class="hljs-keyword">param</span> M = <span class="hljs-number">1</span>');
  assert.equal(md.options.highlight('x = 1', 'python', ''), '[python:x = 1]');
  const bare = { options: { highlight: null as ((code: string, lang: string, attrs: string) => string) | null } };
  extendMarkdownIt(bare);
  assert.equal(bare.options.highlight!('x', 'python', ''), '');
});

test('through markdown-it, as VS Code\'s preview renders a document', () => {
  const require = createRequire(import.meta.url);
  const MarkdownIt = require('markdown-it') as new (o: object) => { render(s: string): string; options: { highlight: unknown }; utils: { escapeHtml(s: string): string } };
  const md = new MarkdownIt({ html: true, highlight: (code: string) => md.utils.escapeHtml(code) });
  extendMarkdownIt(md as never);
  assert.equal(md.render('# T\n\n```layout\nlet x = 2 # c\n```\n\n```js\nlet x = 2\n```\n'), [
    '<h1>T</h1>',
    '<pre><code class="language-layout"><span class="hljs-keyword">let</span> <span class="hljs-title">x</span> = <span class="hljs-number">2</span> <span class="hljs-comment"># c</span>',
    '</code></pre>',
    '<pre><code class="language-js">let x = 2',
    '</code></pre>',
    '',
  ].join('\n'));
});

test('package.json contributes the markdown-it plugin, and activate returns it', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
  assert.equal(pkg.contributes['markdown.markdownItPlugins'], true);
  assert.match(readFileSync('client/src/extension.ts', 'utf8'), /\n {4}extendMarkdownIt,\n {2}\};/);
});
