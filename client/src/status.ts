// The language status item (next to "Layout" in the status bar while a .layout file is open) that shows the
// language server's state; its command restarts a stopped server or shows the output.
import * as vscode from 'vscode';

export type ServerState = 'starting' | 'ready' | 'error' | 'stopped';

const look: Record<ServerState, { text: string; detail: string; command: vscode.Command; severity: vscode.LanguageStatusSeverity; busy: boolean }> = {
  starting: { text: 'Layout server starting', detail: 'checks will appear shortly', command: { title: 'Show Output', command: 'layout.showOutput' }, severity: vscode.LanguageStatusSeverity.Information, busy: true },
  ready: { text: 'Layout server ready', detail: 'checks, hovers and emit', command: { title: 'Show Output', command: 'layout.showOutput' }, severity: vscode.LanguageStatusSeverity.Information, busy: false },
  error: { text: 'Layout server stopped after an error', detail: '', command: { title: 'Restart', command: 'layout.restartServer' }, severity: vscode.LanguageStatusSeverity.Error, busy: false },
  stopped: { text: 'Layout server stopped', detail: '', command: { title: 'Restart', command: 'layout.restartServer' }, severity: vscode.LanguageStatusSeverity.Warning, busy: false },
};

export class ServerStatus implements vscode.Disposable {
  private readonly item = vscode.languages.createLanguageStatusItem('layout.server', { language: 'layout' });
  state: ServerState = 'stopped';

  constructor() {
    this.item.name = 'Layout language server';
    this.set('starting');
  }

  set(state: ServerState, detail?: string): void {
    this.state = state;
    const l = look[state];
    this.item.text = l.text;
    this.item.detail = detail ?? l.detail;
    this.item.command = l.command;
    this.item.severity = l.severity;
    this.item.busy = l.busy;
  }

  dispose(): void {
    this.item.dispose();
  }
}
