// Markdown as plain text, for clients that cannot render Markdown (an editor that did not list
// 'markdown' among its hover formats, e.g. Emacs eglot without markdown-mode): code fences dropped
// (their code kept), `code` and **bold** markers removed, backslash escapes resolved.
export function markdownToPlain(markdown: string): string {
  return markdown
    .split('\n')
    .filter((line) => !/^\s*```/.test(line))
    .join('\n')
    .replace(/\*\*([^*\n]+)\*\*/g, '$1')
    .replace(/`([^`\n]*)`/g, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>])/g, '$1');
}
