// What the extension's commands are called with, and what they tell the user. Pure: no VS Code import,
// so it is unit-tested without VS Code (test/client/client-logic.test.ts).
import { EMIT_COMMAND, EMIT_TARGETS } from '../../server/src/lsp/protocol.js';
import type { EmitArgs, EmitResult, EmitTarget, ProtocolPosition } from '../../server/src/lsp/protocol.js';

export const EMIT_LABEL: Record<EmitTarget, string> = { triton: 'Triton', cuda: 'CUDA', mlir: 'MLIR' };

/** What emitting says in a workspace that is not trusted (emitting writes files). */
export const UNTRUSTED_EMIT = 'Layout: emitting writes files, so it is off until you trust this workspace.';

/** Code lenses as the client shows them: none when turned off; without the emit lenses in an untrusted workspace. */
export function visibleLenses<T extends { command?: { command: string } }>(lenses: readonly T[] | null | undefined, enabled: boolean, trusted: boolean): T[] {
  if (!enabled || !lenses) return [];
  return trusted ? [...lenses] : lenses.filter((l) => l.command?.command !== EMIT_COMMAND);
}

const isPosition = (p: unknown): p is ProtocolPosition => {
  const q = p as ProtocolPosition | null;
  return typeof q === 'object' && q !== null && Number.isInteger(q.line) && q.line >= 0 && Number.isInteger(q.character) && q.character >= 0;
};

/** The `EmitArgs` of a `layout.emit` call (a code lens or source action of the server), or undefined. */
export function checkEmitArgs(x: unknown): EmitArgs | undefined {
  if (typeof x !== 'object' || x === null) return undefined;
  const a = x as Record<string, unknown>;
  if (typeof a.uri !== 'string' || !EMIT_TARGETS.includes(a.target as EmitTarget)) return undefined;
  if (a.block !== undefined && typeof a.block !== 'string') return undefined;
  return {
    uri: a.uri,
    target: a.target as EmitTarget,
    version: typeof a.version === 'number' ? a.version : -1,
    ...(typeof a.block === 'string' ? { block: a.block } : {}),
  };
}

/** Most written files named in one message; the rest are counted. */
export const MAX_FILES_NAMED = 5;

/**
 * The message shown after an emit: what was written (information), or that nothing was and why (warning).
 * `what` names the block or file and the target, e.g. `copy (Triton)`; `relative` turns a written file
 * URI into the path shown (workspace-relative).
 */
export function emitSummary(result: EmitResult, what: string, relative: (uri: string) => string): { level: 'info' | 'warning'; text: string } {
  // the server's messages: its diagnostics (`error CODE (line N): MESSAGE`) and notes; the message shown is
  // short and whole: the first error in full and how many there are (every message is in the output)
  const diags: { severity: string; line: string; message: string }[] = [];
  const notes: string[] = [];
  for (const m of result.messages) {
    const d = /^(error|warning|info|hint) \S+ \(line (\d+)\): (.*)$/s.exec(m);
    if (d) diags.push({ severity: d[1], line: d[2], message: d[3] });
    else if (m !== 'nothing was written') notes.push(m.replace(/; nothing was written$/, ''));
  }
  const errors = diags.filter((d) => d.severity === 'error');
  const warnings = diags.filter((d) => d.severity === 'warning');
  const count = (n: number, w: string) => (n === 1 ? `1 ${w}` : `${n} ${w}s`);
  const parts: string[] = [];
  if (errors.length) parts.push(`${errors.length === 1 ? 'an error' : `${errors.length} errors, the first`} at line ${errors[0].line}: ${errors[0].message}`);
  parts.push(...notes);
  if (warnings.length) parts.push(`${count(warnings.length, 'warning')} (see the Layout output)`);
  if (result.written.length === 0) {
    return { level: 'warning', text: `Layout: nothing written for ${what}${parts.length ? `: ${parts.join('; ')}` : '.'}` };
  }
  const named = result.written.slice(0, MAX_FILES_NAMED).map(relative);
  const more = result.written.length - named.length;
  const files = more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ');
  return { level: 'info', text: `Layout: wrote ${files} for ${what}.${parts.length ? ` ${parts.join('; ')}.` : ''}` };
}

/** What "Layout: Show Layout" was asked to draw. */
export type ShowLayoutRequest =
  /** a given payload (the tests) */
  | { kind: 'payload'; picture: unknown }
  /** a named layout of a document (the server's "Show layout" code lens: `ShowLayoutArgs`) */
  | { kind: 'layout'; uri: string; name?: string; position?: ProtocolPosition }
  /** the layout at the cursor of the active editor (the palette, the editor title and context menus) */
  | { kind: 'cursor' };

export function parseShowLayoutArg(arg: unknown): ShowLayoutRequest {
  if (typeof arg !== 'object' || arg === null) return { kind: 'cursor' };
  const a = arg as Record<string, unknown>;
  if ('picture' in a) return { kind: 'payload', picture: a.picture };
  const name = typeof a.name === 'string' && a.name !== '' ? a.name : undefined;
  const position = isPosition(a.position) ? { line: a.position.line, character: a.position.character } : undefined;
  if (typeof a.uri === 'string' && (name || position)) {
    return { kind: 'layout', uri: a.uri, ...(name ? { name } : {}), ...(position ? { position } : {}) };
  }
  return { kind: 'cursor' };
}

/** A document symbol with its detail (the server's outline: a kernel's is `target triton ...`). */
export interface SymbolWithDetail {
  name: string;
  detail?: string;
  kind?: number;
}

/** The target a block symbol emits: a kernel's detail is `target T ...`, a schedule's `for linalg.OP(...) ...` (MLIR). */
function symbolTarget(s: SymbolWithDetail): EmitTarget | undefined {
  const d = typeof s.detail === 'string' ? s.detail : '';
  const m = /^target (triton|cuda|mlir)\b/.exec(d);
  if (m) return m[1] as EmitTarget;
  return /^for [\w.]+\(/.test(d) ? 'mlir' : undefined;
}

/** The targets the file's blocks emit, from the server's document symbols. */
export function emitTargetsOfSymbols(symbols: readonly SymbolWithDetail[] | undefined): EmitTarget[] {
  const set = new Set<EmitTarget>();
  for (const s of symbols ?? []) {
    const t = symbolTarget(s);
    if (t) set.add(t);
  }
  return EMIT_TARGETS.filter((t) => set.has(t));
}

/**
 * Why "Emit <target>" does nothing for the block `block` (the cursor's): it declares another target. A short
 * message naming the command that works, or undefined when the block emits `target` (or is not known).
 */
export function wrongTargetMessage(symbols: readonly SymbolWithDetail[] | undefined, block: string, target: EmitTarget): string | undefined {
  const s = (symbols ?? []).find((x) => x.name === block && symbolTarget(x) !== undefined);
  const t = s && symbolTarget(s);
  if (!t || t === target) return undefined;
  return `Layout: ${block} emits ${EMIT_LABEL[t]}, not ${EMIT_LABEL[target]}; run "Layout: Emit ${EMIT_LABEL[t]}".`;
}
