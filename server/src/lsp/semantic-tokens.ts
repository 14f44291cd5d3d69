// textDocument/semanticTokens/full: names classified by what they refer to.
import { SemanticTokensBuilder, type SemanticTokens, type SemanticTokensLegend, type SemanticTokensParams } from 'vscode-languageserver';
import { semanticTokens as classify, tokenModifiers, tokenTypes } from '../service/semantic-tokens.js';
import type { ServerContext } from './context.js';

export const legend: SemanticTokensLegend = { tokenTypes: [...tokenTypes], tokenModifiers: [...tokenModifiers] };

export function semanticTokens(ctx: ServerContext, p: SemanticTokensParams): SemanticTokens {
  const s = ctx.snapshot(p.textDocument.uri);
  const b = new SemanticTokensBuilder();
  if (!s) return b.build();
  for (const t of classify(s.model)) {
    const start = s.doc.positionAt(t.range.start);
    const end = s.doc.positionAt(t.range.end);
    if (end.line !== start.line || t.range.end <= t.range.start) continue; // tokens never span lines
    let mods = 0;
    for (const m of t.modifiers) mods |= 1 << tokenModifiers.indexOf(m);
    b.push(start.line, start.character, t.range.end - t.range.start, tokenTypes.indexOf(t.type), mods);
  }
  return b.build();
}
