// "Layout: Show Layout": one webview panel that draws the layout at the cursor (server request
// `layout/picture`), follows edits of its document (debounced re-request), and exports SVG.
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { PICTURE_REQUEST } from '../../../server/src/lsp/protocol.js';
import type { LayoutPicture, PictureParams } from '../../../server/src/lsp/protocol.js';
import { buildModel, clampView, initialView } from '../../../server/src/picture/model.js';
import { checkPicture } from '../../../server/src/picture/payload.js';
import type { ViewState } from '../../../server/src/picture/model.js';
import { toSvg } from '../../../server/src/picture/svg.js';
import { pictureHtml } from './html.js';
import type { ToExtension, ToWebview } from './messages.js';
import { notify } from '../notify.js';

export const PICTURE_VIEW_TYPE = 'layout.picture';
/** Re-request this long after the last edit. */
export const REFRESH_DELAY_MS = 300;
/** JSON-RPC "method not found": the server has no `layout/picture` yet. */
const METHOD_NOT_FOUND = -32601;

export type PictureRequester = (method: string, params: PictureParams) => Promise<unknown>;

/** What the panel shows now (for tests and the status line). */
export interface PictureState {
  title: string;
  /** what the webview last reported drawing */
  rendered?: { drawn: number; view: ViewState; title: string; caption: string; legend: string; problems: string[] };
  /** the last status text sent to the webview */
  status: string;
  picture?: LayoutPicture;
  requests: number;
  /** the params of the last `layout/picture` request */
  lastRequest?: PictureParams;
}

interface Target {
  uri: vscode.Uri;
  /** offset of the cursor in the document, moved along with edits */
  offset: number;
  /** the layout's name once the server told it */
  name?: string;
  /** params' values to draw with instead of the declared ones */
  overrides?: Record<string, number>;
}

export class PicturePanel implements vscode.Disposable {
  static current: PicturePanel | undefined;

  private readonly disposables: vscode.Disposable[] = [];
  private target: Target | undefined;
  private picture: LayoutPicture | undefined;
  private stale = false;
  private view: ViewState = initialView;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private seq = 0;
  private readonly renderedEmitter = new vscode.EventEmitter<PictureState>();
  readonly onDidRender = this.renderedEmitter.event;
  readonly state: PictureState = { title: '', status: '', requests: 0 };

  /**
   * Shows (or retargets) the panel for the layout `name` (when given) or else the one at `position` of `doc`;
   * `overrides`: params' values to draw with.
   */
  static show(ext: vscode.Uri, request: PictureRequester, log: vscode.LogOutputChannel, doc: vscode.TextDocument, position: vscode.Position, name?: string, overrides?: Record<string, number>): PicturePanel {
    const p = PicturePanel.current ?? new PicturePanel(ext, request, log);
    p.target = { uri: doc.uri, offset: doc.offsetAt(position), ...(name ? { name } : {}), ...(overrides ? { overrides } : {}) };
    p.picture = undefined;
    p.panel.reveal(vscode.ViewColumn.Beside, true);
    void p.refresh();
    return p;
  }

  /** Shows a given payload (tests, and a server that answered elsewhere); no document is followed. */
  static showPayload(ext: vscode.Uri, request: PictureRequester, log: vscode.LogOutputChannel, payload: unknown): PicturePanel {
    const p = PicturePanel.current ?? new PicturePanel(ext, request, log);
    p.target = undefined;
    p.panel.reveal(vscode.ViewColumn.Beside, true);
    p.accept(payload);
    return p;
  }

  private readonly panel: vscode.WebviewPanel;

  private constructor(private readonly ext: vscode.Uri, private readonly request: PictureRequester, private readonly log: vscode.LogOutputChannel) {
    const dist = vscode.Uri.joinPath(ext, 'dist');
    this.panel = vscode.window.createWebviewPanel(PICTURE_VIEW_TYPE, 'Layout', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
      enableScripts: true,
      localResourceRoots: [dist],
      retainContextWhenHidden: false,
    });
    const nonce = randomBytes(18).toString('base64');
    const scriptUri = this.panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString();
    this.panel.webview.html = pictureHtml({ cspSource: this.panel.webview.cspSource, nonce, scriptUri });
    PicturePanel.current = this;
    this.disposables.push(
      this.panel.onDidDispose(() => this.dispose()),
      this.panel.webview.onDidReceiveMessage((m: ToExtension) => this.onMessage(m)),
      vscode.workspace.onDidChangeTextDocument((e) => this.onEdit(e)),
      this.renderedEmitter,
    );
  }

  dispose(): void {
    if (PicturePanel.current === this) PicturePanel.current = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.panel.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }

  private post(m: ToWebview) {
    void this.panel.webview.postMessage(m);
  }

  private setStatus(text: string) {
    this.state.status = text;
    this.post({ type: 'status', text });
  }

  private onMessage(m: ToExtension) {
    if (m.type === 'ready') {
      if (this.picture) this.post({ type: 'picture', picture: this.picture, view: this.view, stale: this.stale });
      else if (this.state.status) this.post({ type: 'status', text: this.state.status });
    } else if (m.type === 'view') {
      this.view = m.view;
    } else if (m.type === 'rendered') {
      this.view = m.view;
      this.state.rendered = { drawn: m.drawn, view: m.view, title: m.title, caption: m.caption, legend: m.legend, problems: m.problems };
      this.renderedEmitter.fire(this.state);
    } else if (m.type === 'params') {
      if (this.target) {
        this.target.overrides = m.overrides;
        void this.refresh();
      }
    } else if (m.type === 'exportSvg') {
      this.view = m.view;
      void this.exportSvg();
    }
  }

  /** Moves the tracked cursor along with an edit and schedules a re-request. */
  private onEdit(e: vscode.TextDocumentChangeEvent) {
    const t = this.target;
    if (!t || e.document.uri.toString() !== t.uri.toString() || e.contentChanges.length === 0) return;
    for (const c of e.contentChanges) {
      if (c.rangeOffset + c.rangeLength <= t.offset) t.offset += c.text.length - c.rangeLength;
      else if (c.rangeOffset < t.offset) t.offset = c.rangeOffset;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), REFRESH_DELAY_MS);
  }

  /** Asks the server for the picture of the target. */
  async refresh(): Promise<void> {
    const t = this.target;
    if (!t) return;
    const seq = ++this.seq;
    this.state.requests++;
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === t.uri.toString());
    const pos = doc ? doc.positionAt(t.offset) : new vscode.Position(0, 0);
    const over = t.overrides && Object.keys(t.overrides).length ? { overrides: t.overrides } : {};
    const params: PictureParams = { uri: t.uri.toString(), position: { line: pos.line, character: pos.character }, ...(t.name ? { name: t.name } : {}), ...over };
    this.state.lastRequest = params;
    let result: unknown;
    try {
      result = await this.request(PICTURE_REQUEST, params);
    } catch (err) {
      if (seq !== this.seq) return;
      const code = (err as { code?: unknown }).code;
      if (code === METHOD_NOT_FOUND) this.setStatus('The language server cannot draw layouts yet (it does not answer layout/picture).');
      else {
        this.log.error(`layout/picture failed: ${String((err as Error)?.message ?? err)}`);
        this.setStatus(`The language server could not draw the layout: ${String((err as Error)?.message ?? err)}`);
      }
      return;
    }
    if (seq !== this.seq) return; // a newer request is under way
    if (result === null || result === undefined) {
      if (this.picture) this.keepStale('There is no layout here any more; showing the last picture.');
      else this.setStatus('Put the cursor on a layout declaration or a use of a layout, then run "Layout: Show Layout".');
      return;
    }
    this.accept(result);
  }

  private keepStale(text: string) {
    this.stale = true;
    this.setStatus(text);
  }

  private accept(payload: unknown) {
    const checked = checkPicture(payload);
    if (typeof checked === 'string') {
      if (this.picture) this.keepStale(`${checked} (showing the last picture)`);
      else this.setStatus(checked);
      return;
    }
    const first = !this.picture || this.picture.name !== checked.name;
    this.picture = checked;
    this.stale = false;
    if (this.target) this.target.name = checked.name;
    if (first) this.view = initialView;
    this.state.picture = checked;
    this.state.title = checked.name;
    this.state.status = '';
    this.panel.title = `Layout ${checked.name}`;
    this.post({ type: 'picture', picture: checked, view: this.view });
  }

  /** The current picture as SVG, or undefined when there is none. */
  svg(): string | undefined {
    if (!this.picture) return undefined;
    const view = clampView(this.picture, this.view);
    return toSvg(buildModel(this.picture, view), this.picture, { heading: true, view });
  }

  /** Writes the SVG to `dest`, or asks where (a save dialog) when it is not given. Returns the file written. */
  async exportSvg(dest?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const svg = this.svg();
    if (!svg || !this.picture) {
      void notify('warning', 'Layout: there is no picture to export yet.');
      return undefined;
    }
    if (!dest) {
      const safe = this.picture.name.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 80) || 'layout';
      const base = this.target ? vscode.Uri.joinPath(this.target.uri, '..') : vscode.workspace.workspaceFolders?.[0]?.uri;
      dest = await vscode.window.showSaveDialog({
        defaultUri: base ? vscode.Uri.joinPath(base, `${safe}.svg`) : undefined,
        filters: { SVG: ['svg'] },
        saveLabel: 'Export SVG',
      });
      if (!dest) return undefined;
    }
    await vscode.workspace.fs.writeFile(dest, new TextEncoder().encode(svg));
    this.log.info(`picture of ${this.picture.name} written to ${dest.toString()}`);
    return dest;
  }
}
