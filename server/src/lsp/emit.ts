// workspace/executeCommand `layout.emit`: generates code for a file or one block and writes it.
import type { ExecuteCommandParams } from 'vscode-languageserver';
import { EMIT_COMMAND, type EmitResult } from './protocol.js';
import type { ServerContext } from './context.js';

export async function executeEmit(_ctx: ServerContext, p: ExecuteCommandParams): Promise<EmitResult | null> {
  if (p.command !== EMIT_COMMAND) return null;
  return { written: [], messages: ['code generation is not available in this build'] };
}
