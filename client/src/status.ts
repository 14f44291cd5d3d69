// The status bar item that shows the language server's state.
import * as vscode from 'vscode';

export type ServerState = 'starting' | 'ready' | 'error' | 'stopped';

const look: Record<ServerState, { text: string; tooltip: string; command?: string }> = {
  starting: { text: '$(sync~spin) Layout', tooltip: 'Layout language server: starting', command: 'layout.showOutput' },
  ready: { text: '$(check) Layout', tooltip: 'Layout language server: ready', command: 'layout.showOutput' },
  error: { text: '$(error) Layout', tooltip: 'Layout language server: stopped after an error. Click to restart.', command: 'layout.restartServer' },
  stopped: { text: '$(circle-slash) Layout', tooltip: 'Layout language server: stopped. Click to restart.', command: 'layout.restartServer' },
};

export class ServerStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('layout.server', vscode.StatusBarAlignment.Right, 100);
  state: ServerState = 'stopped';

  constructor() {
    this.item.name = 'Layout language server';
    this.set('starting');
    this.item.show();
  }

  set(state: ServerState, detail?: string): void {
    this.state = state;
    const l = look[state];
    this.item.text = l.text;
    this.item.tooltip = detail ? `${l.tooltip}\n${detail}` : l.tooltip;
    this.item.command = l.command;
    this.item.backgroundColor = state === 'error' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
  }

  dispose(): void {
    this.item.dispose();
  }
}
