// ```layout fences in VS Code's Markdown preview. The preview highlights code with highlight.js, which
// knows no `layout`: the extension contributes a markdown-it plugin (package.json
// `markdown.markdownItPlugins`; `extendMarkdownIt` is returned by `activate`) that highlights layout fences
// itself, with highlight.js's class names so the preview's theme colours them, and hands every other
// language to the preview's own highlighter. The categories follow the TextMate grammar
// (syntaxes/layout.tmLanguage.json); the Markdown editor uses the injection grammar
// (syntaxes/layout.markdown.tmLanguage.json) instead.

/** The part of markdown-it's instance this plugin uses. */
export interface MarkdownItLike {
  options: { highlight?: ((code: string, lang: string, attrs: string) => string) | null };
}

const declarations = new Set(['param', 'const', 'let', 'layout', 'perm', 'kernel', 'schedule']);
const keywords = new Set(['target', 'template', 'builtin', 'assume', 'where', 'for', 'on', 'inverse', 'in', 'if', 'then', 'else', 'and', 'or', 'not']);
const constructors = new Set(['GroupBy', 'OrderBy', 'TileBy', 'ExpandBy', 'TileOrderBy', 'RegP', 'GenP', 'Row', 'Col']);
const functions = new Set(['min', 'max', 'findOp', 'tileForGrids', 'tile', 'fuse', 'parallelizeForBlocks', 'parallelizeForThreads', 'bufferize', 'promote', 'unroll', 'vectorize', 'apply', 'inv']);
const literals = new Set(['cuda', 'triton', 'mlir']);

const token = /(#[^\n]*)|("(?:[^"\\\n]|\\.)*"?)|([A-Za-z_][A-Za-z0-9_]*)|([0-9]+(?:_[0-9]+)*)|(\s+)|([^\sA-Za-z0-9_#"]+)/g;

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const span = (cls: string, text: string) => `<span class="hljs-${cls}">${escapeHtml(text)}</span>`;

/** The HTML of a layout fence's body: highlight.js class names, everything else escaped. */
export function highlightLayout(code: string): string {
  let out = '';
  let previousWord = '';
  for (const m of code.matchAll(token)) {
    const [text, comment, string, word, number] = m;
    if (comment !== undefined) out += span('comment', text);
    else if (string !== undefined) out += span('string', text);
    else if (number !== undefined) out += span('number', text);
    else if (word !== undefined) {
      if (declarations.has(word)) out += span('keyword', word);
      else if (keywords.has(word)) out += span('keyword', word);
      else if (constructors.has(word)) out += span('type', word);
      else if (literals.has(word) || /^sm_[0-9]+[a-z]?$/.test(word)) out += span('literal', word);
      else if (functions.has(word) && /^\s*\(/.test(code.slice(m.index! + word.length))) out += span('built_in', word);
      else if (['let', 'layout', 'perm', 'kernel', 'schedule'].includes(previousWord)) out += span('title', word);
      else out += escapeHtml(word);
      previousWord = word;
      continue;
    } else out += escapeHtml(text);
    if (!/^\s+$/.test(text)) previousWord = '';
  }
  return out;
}

/** Is a fence's info string (` ```layout {attrs}`) the layout language? */
export function isLayoutFence(lang: string): boolean {
  return /^layout$/i.test(lang.trim().split(/[\s{:,]/)[0] ?? '');
}

/** The markdown-it plugin: layout fences highlighted here, other languages as before. */
export function extendMarkdownIt<T extends MarkdownItLike>(md: T): T {
  const previous = md.options.highlight;
  md.options.highlight = (code, lang, attrs) => (isLayoutFence(lang ?? '') ? highlightLayout(code) : previous ? previous(code, lang, attrs) : '');
  return md;
}
