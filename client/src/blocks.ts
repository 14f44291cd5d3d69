// Which block the cursor is in, from the server's document symbols (the client parses nothing itself),
// and a check of what the server answers to `layout.emit`. Pure: no VS Code import.
import type { EmitResult } from '../../server/src/lsp/protocol.js';

/** The part of a DocumentSymbol / SymbolInformation this needs (lines are zero-based). */
export interface SymbolLike {
  name: string;
  range?: { start: { line: number }; end: { line: number } };
  location?: { range: { start: { line: number }; end: { line: number } } };
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The name of the `kernel` or `schedule` declaration whose range holds `line`, or undefined (then the whole
 * file is emitted). `lineText(n)` returns line n of the document.
 */
export function blockAt(symbols: readonly SymbolLike[] | undefined, line: number, lineText: (line: number) => string): string | undefined {
  for (const s of symbols ?? []) {
    const r = s.range ?? s.location?.range;
    if (!r || typeof s.name !== 'string' || line < r.start.line || line > r.end.line) continue;
    const head = new RegExp(`\\b(kernel|schedule)\\s+${escapeRe(s.name)}\\b`);
    if (head.test(lineText(r.start.line))) return s.name;
  }
  return undefined;
}

/** Checks the shape of a `layout.emit` answer; a malformed one becomes a message. */
export function checkEmitResult(x: unknown): EmitResult {
  if (typeof x !== 'object' || x === null) return { written: [], messages: ['The language server returned no result for layout.emit.'] };
  const r = x as Record<string, unknown>;
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
  const blockedBy = strings(r.blockedBy);
  return { written: strings(r.written), messages: strings(r.messages), ...(blockedBy.length > 0 ? { blockedBy } : {}) };
}
