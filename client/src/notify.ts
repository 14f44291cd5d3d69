// The extension's notifications (information, warning, error messages), recorded so that the real-VS-Code
// suite can check what a person was told. Every message the extension shows goes through here.
import * as vscode from 'vscode';

export type MessageLevel = 'info' | 'warning' | 'error';

export interface ShownMessage {
  level: MessageLevel;
  text: string;
}

/** The most recent messages, oldest first (at most MAX_KEPT). */
const shown: ShownMessage[] = [];
const MAX_KEPT = 50;

export function shownMessages(): readonly ShownMessage[] {
  return shown;
}

/** Shows `text` at `level` with optional buttons; resolves to the button chosen. */
export function notify(level: MessageLevel, text: string, ...buttons: string[]): Thenable<string | undefined> {
  shown.push({ level, text });
  if (shown.length > MAX_KEPT) shown.splice(0, shown.length - MAX_KEPT);
  if (level === 'error') return vscode.window.showErrorMessage(text, ...buttons);
  if (level === 'warning') return vscode.window.showWarningMessage(text, ...buttons);
  return vscode.window.showInformationMessage(text, ...buttons);
}
