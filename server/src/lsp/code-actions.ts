// textDocument/codeAction: every quick fix the diagnostics carry (`Diagnostic.fixes`), and `source`
// actions that emit the file's kernels and schedules through the `layout.emit` command.
import { CodeActionKind, type CodeAction, type CodeActionParams, type Diagnostic as LspDiagnostic } from 'vscode-languageserver';
import type { Diagnostic } from '../../../grammar/src/diagnostic.js';
import { emitTargetsOf } from '../service/emit.js';
import { EMIT_COMMAND, type EmitArgs } from './protocol.js';
import type { ServerContext } from './context.js';
import { diagnosticSource, fromRange, toDiagnostic, toEdit } from './convert.js';

const targetLabel = { triton: 'Triton', cuda: 'CUDA', mlir: 'MLIR' } as const;

export function codeActions(ctx: ServerContext, p: CodeActionParams): CodeAction[] | null {
  const s = ctx.snapshot(p.textDocument.uri);
  if (!s) return null;
  const uri = p.textDocument.uri;
  const only = p.context.only;
  const wants = (kind: string) => !only || only.some((k) => kind === k || kind.startsWith(k + '.'));
  const out: CodeAction[] = [];
  if (wants(CodeActionKind.QuickFix)) {
    const data = ctx.scheduler.published(uri, s.doc.version) ?? [];
    const req = fromRange(s.doc, p.range);
    for (const d of data) {
      if (!d.fixes?.length) continue;
      const sent = p.context.diagnostics.find((x) => matches(s.doc, x, d));
      // fixes of the diagnostics the client sent, or of any diagnostic touching the requested range
      if (!sent && !(d.range.start <= req.end && req.start <= d.range.end)) continue;
      const lspDiag = sent ?? toDiagnostic(s.doc, d, uri);
      for (const f of d.fixes) {
        out.push({
          title: f.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [lspDiag],
          isPreferred: d.fixes.length === 1,
          edit: { changes: { [uri]: f.edits.map((e) => toEdit(s.doc, e)) } },
        });
      }
    }
  }
  for (const target of emitTargetsOf(s.model.file)) {
    const kind = `${CodeActionKind.Source}.emit.${target}`;
    if (!wants(kind)) continue;
    const args: EmitArgs = { uri, target, version: s.doc.version };
    out.push({ title: `Emit ${targetLabel[target]} for this file`, kind, command: { title: `Emit ${targetLabel[target]}`, command: EMIT_COMMAND, arguments: [args] } });
  }
  return out;
}

function matches(doc: Parameters<typeof fromRange>[0], x: LspDiagnostic, d: Diagnostic): boolean {
  if (x.source !== undefined && x.source !== diagnosticSource) return false;
  if (x.code !== d.code) return false;
  const r = fromRange(doc, x.range);
  return r.start === d.range.start && r.end === d.range.end;
}
