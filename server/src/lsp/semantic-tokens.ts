// textDocument/semanticTokens/full: names classified by what they refer to.
import type { SemanticTokens, SemanticTokensLegend, SemanticTokensParams } from 'vscode-languageserver';
import { semanticTokenRuns, tokenModifiers, tokenTypes } from '../service/semantic-tokens.js';
import type { ServerContext } from './context.js';

export const legend: SemanticTokensLegend = { tokenTypes: [...tokenTypes], tokenModifiers: [...tokenModifiers] };

/**
 * The tokens come in source order, in runs (one per chunk of the parse, kept across versions:
 * service/semantic-tokens.ts): a token's line is found by moving one pointer over the line starts (not
 * a search per token), and each is encoded as it comes, into one array (no object per token: a
 * request at 20,000 lines has some 125,000).
 */
export function semanticTokens(ctx: ServerContext, p: SemanticTokensParams): SemanticTokens {
  const s = ctx.snapshot(p.textDocument.uri);
  if (!s) return { data: [] };
  const starts = s.model.lines.lineStarts();
  const data: number[] = [];
  let line = 0;
  let prevLine = 0;
  let prevChar = 0;
  for (const { base, data: t } of semanticTokenRuns(s.model)) {
    for (let i = 0; i < t.length; i += 2) {
      const start = base + t[i];
      const length = t[i + 1] >>> 8;
      while (line + 1 < starts.length && starts[line + 1] <= start) line++;
      // tokens never span lines (one that would ends at or past the next line's start)
      if (length <= 0 || (line + 1 < starts.length && start + length >= starts[line + 1])) continue;
      const char = start - starts[line];
      data.push(line - prevLine, line === prevLine ? char - prevChar : char, length, t[i + 1] & 15, (t[i + 1] >>> 4) & 15);
      prevLine = line;
      prevChar = char;
    }
  }
  return { data };
}
