// textDocument/codeLens: "Show layout" above each named layout (the client's `layout.showLayout`, with the
// layout's name and position; only for a client that declared that command in its initializationOptions,
// protocol.ts LayoutInitializationOptions, as the VS Code extension does) and "Emit Triton/CUDA/MLIR" above kernels and schedules (the server's
// `layout.emit` command, with the block and version).
import type { CodeLens, CodeLensParams } from 'vscode-languageserver';
import { targetOf } from '../service/emit.js';
import { EMIT_COMMAND, SHOW_LAYOUT_COMMAND, type EmitArgs, type ShowLayoutArgs } from './protocol.js';
import type { ServerContext } from './context.js';
import { toRange } from './convert.js';

const label = { triton: 'Emit Triton', cuda: 'Emit CUDA', mlir: 'Emit MLIR' } as const;

export function codeLenses(ctx: ServerContext, p: CodeLensParams): CodeLens[] | null {
  const s = ctx.snapshot(p.textDocument.uri);
  if (!s) return null;
  const out: CodeLens[] = [];
  const canShow = ctx.client.clientCommands?.has(SHOW_LAYOUT_COMMAND) === true;
  for (const d of s.model.file.decls) {
    if (d.kind === 'Layout' || d.kind === 'Linear') {
      if (!d.name?.name || !canShow) continue;
      const range = toRange(s.doc, d.name.range);
      const args: ShowLayoutArgs = { uri: p.textDocument.uri, name: d.name.name, position: range.start };
      out.push({ range, command: { title: 'Show layout', command: SHOW_LAYOUT_COMMAND, arguments: [args] } });
      continue;
    }
    if (d.kind !== 'Kernel' && d.kind !== 'Schedule') continue;
    const target = targetOf(d);
    if (!target || !d.name?.name) continue;
    const args: EmitArgs = { uri: p.textDocument.uri, target, block: d.name.name, version: s.doc.version };
    out.push({ range: toRange(s.doc, d.name.range), command: { title: label[target], command: EMIT_COMMAND, arguments: [args] } });
  }
  return out;
}
