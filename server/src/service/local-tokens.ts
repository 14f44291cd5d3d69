// The tokens of a part of a text, for requests that look at the few tokens around the cursor
// (hover outside a name, completion) without the document's whole-file token list (lexing a
// 10,000-line file takes about 100 ms, on the first such request of every version).
//
// No token spans a line break (comments and strings end at the line end: grammar/src/tokens.ts)
// and whitespace is skipped, so the tokens of whole lines lexed alone are exactly the whole
// file's tokens of those lines (chunks.ts relies on the same property). test/lsp/local-tokens.test.ts
// checks it at every line of the test files.
import { tokenInfos, type TokenInfo } from '../../../grammar/src/token-info.js';

/** The start of the line containing `offset` (after the previous `\n` or `\r`). */
export function lineStartOf(text: string, offset: number): number {
  let i = Math.min(offset, text.length);
  while (i > 0 && text[i - 1] !== '\n' && text[i - 1] !== '\r') i--;
  return i;
}

/** The end of the line containing `offset` (its `\n` or `\r`, or the end of the text). */
export function lineEndOf(text: string, offset: number): number {
  let i = Math.max(0, offset);
  while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
  return i;
}

/** The tokens (comments included) of the whole lines from the one containing `from` to the one containing `to`, in file offsets. */
export function tokensOfLines(text: string, from: number, to: number): TokenInfo[] {
  const start = lineStartOf(text, from);
  const end = lineEndOf(text, to);
  const out = tokenInfos(text.slice(start, end));
  if (start > 0) for (const t of out) t.range = { start: t.range.start + start, end: t.range.end + start };
  return out;
}

/** The tokens of the line containing `offset`. */
export function lineTokens(text: string, offset: number): TokenInfo[] {
  return tokensOfLines(text, offset, offset);
}
