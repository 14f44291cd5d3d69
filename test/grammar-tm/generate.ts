// Writes the vscode-tmgrammar-test assertion files for cases.ts into test/grammar-tm/generated/.
// `npx tsx test/grammar-tm/generate.ts` after changing cases.ts; grammar.test.ts fails while they are stale.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cases } from './cases.js';
import type { Case } from './cases.js';

export const generatedDir = join(dirname(fileURLToPath(import.meta.url)), 'generated');

/**
 * Column of the n-th (1-based) occurrence of `text` in `line`; a word-like text only counts as a whole word
 * (so `n` is not found inside `antidiag`). Throws when there is none.
 */
export function columnOf(line: string, text: string, occurrence = 1): number {
  const esc = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(/^\w+$/.test(text) ? `(?<![A-Za-z0-9_])${esc}(?![A-Za-z0-9_])` : esc, 'g');
  let m: RegExpExecArray | null = null;
  for (let k = 0; k < occurrence; k++) {
    m = re.exec(line);
    if (!m) throw new Error(`"${text}" (occurrence ${occurrence}) is not in: ${line}`);
  }
  return m!.index;
}

/** One assertion line: `#` at column 0, carets under the token (or `<---` for a token at column 0). */
export function caretLine(col: number, length: number, scopes: string): string {
  if (col === 0) return `# <${'-'.repeat(length)} ${scopes}`;
  return `#${' '.repeat(col - 1)}${'^'.repeat(length)} ${scopes}`;
}

export function render(c: Case): string {
  const out = [`# SYNTAX TEST "source.layout" "${c.description}"`];
  for (const l of c.lines) {
    out.push(l.src);
    for (const [text, scopes, occurrence] of l.expect) out.push(caretLine(columnOf(l.src, text, occurrence), text.length, scopes));
  }
  return out.join('\n') + '\n';
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  mkdirSync(generatedDir, { recursive: true });
  for (const c of cases) {
    const file = join(generatedDir, `${c.name}.layout`);
    writeFileSync(file, render(c));
    console.log(`wrote ${file}`);
  }
}
