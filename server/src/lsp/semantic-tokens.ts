// textDocument/semanticTokens/full: names classified by what they refer to.
import { SemanticTokensBuilder, type SemanticTokens, type SemanticTokensLegend, type SemanticTokensParams } from 'vscode-languageserver';
import { forEachSemanticToken, tokenModifiers, tokenTypes } from '../service/semantic-tokens.js';
import type { ServerContext } from './context.js';

export const legend: SemanticTokensLegend = { tokenTypes: [...tokenTypes], tokenModifiers: [...tokenModifiers] };

/**
 * The tokens come in source order: a token's line is found by moving one pointer over the line starts
 * (not a search per token), and each is encoded as it comes (no object per token: a request at 20,000
 * lines has some 125,000).
 */
export function semanticTokens(ctx: ServerContext, p: SemanticTokensParams): SemanticTokens {
  const s = ctx.snapshot(p.textDocument.uri);
  const b = new SemanticTokensBuilder();
  if (!s) return b.build();
  const starts = s.model.lines.lineStarts();
  let line = 0;
  forEachSemanticToken(s.model, (start, length, type, mods) => {
    while (line + 1 < starts.length && starts[line + 1] <= start) line++;
    // tokens never span lines (one that would ends at or past the next line's start)
    if (length <= 0 || (line + 1 < starts.length && start + length >= starts[line + 1])) return;
    b.push(line, start - starts[line], length, type, mods);
  });
  return b.build();
}
