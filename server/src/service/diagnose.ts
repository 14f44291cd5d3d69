// The diagnostics of one document version, as data. `diagnose` runs every check (it may be slow:
// the LSP layer calls it in a worker); `quickDiagnostics` only the fast passes.
import type { Diagnostic } from '../../../grammar/src/diagnostic.js';
import { lex } from '../../../grammar/src/lexer.js';
import type { Settings } from './settings.js';

export function diagnose(text: string, _settings: Settings): Diagnostic[] {
  return quickDiagnostics(text);
}

export function quickDiagnostics(text: string): Diagnostic[] {
  return lex(text).diagnostics;
}
