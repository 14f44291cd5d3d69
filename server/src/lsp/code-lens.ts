// textDocument/codeLens: "Emit Triton/CUDA/MLIR" above kernels and schedules (the server's `layout.emit`
// command, with the block and version) and "Show layout" above layouts (the client's `layout.showLayout`).
import type { CodeLens, CodeLensParams } from 'vscode-languageserver';
import { emitTargetsOf, targetOf } from '../service/emit.js';
import { EMIT_COMMAND, type EmitArgs } from './protocol.js';
import type { ServerContext } from './context.js';
import { toRange } from './convert.js';

const label = { triton: 'Emit Triton', cuda: 'Emit CUDA', mlir: 'Emit MLIR' } as const;

export function codeLenses(ctx: ServerContext, p: CodeLensParams): CodeLens[] | null {
  const s = ctx.snapshot(p.textDocument.uri);
  if (!s) return null;
  void emitTargetsOf;
  const out: CodeLens[] = [];
  for (const d of s.model.file.decls) {
    if (d.kind !== 'Kernel' && d.kind !== 'Schedule') continue;
    const target = targetOf(d);
    if (!target || !d.name?.name) continue;
    const args: EmitArgs = { uri: p.textDocument.uri, target, block: d.name.name, version: s.doc.version };
    out.push({ range: toRange(s.doc, d.name.range), command: { title: label[target], command: EMIT_COMMAND, arguments: [args] } });
  }
  return out;
}
