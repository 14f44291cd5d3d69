// The script of the layout picture webview (bundled to dist/webview.js, runs in the webview, no Node).
// It draws what client/src/picture/model.ts computes, shows a tooltip per cell, and talks to the
// extension through postMessage (see client/src/picture/messages.ts).
import { buildModel, checkPicture, clampView, describeCell, initialView, toSvg, WINDOW_SIZES } from '../picture/model.js';
import type { ViewState } from '../picture/model.js';
import type { ToExtension, ToWebview } from '../picture/messages.js';
import type { LayoutPicture } from '../../../server/src/lsp/protocol.js';

declare function acquireVsCodeApi(): { postMessage(m: ToExtension): void; getState(): unknown; setState(s: unknown): void };

const vscode = acquireVsCodeApi();
const $ = (id: string) => document.getElementById(id)!;
let picture: LayoutPicture | undefined;
let view: ViewState = { ...initialView, ...((vscode.getState() as { view?: ViewState } | undefined)?.view ?? {}) };

function post(m: ToExtension) {
  vscode.postMessage(m);
}

function setStatus(text: string) {
  $('status').textContent = text;
  $('status').hidden = text === '';
}

function render() {
  if (!picture) return;
  view = clampView(picture, view);
  vscode.setState({ view });
  const m = buildModel(picture, view);
  $('title').textContent = m.title;
  $('caption').textContent = m.caption;
  $('expr').textContent = picture.exprs.apply ? `apply: ${picture.exprs.apply}` : '';
  $('mode').textContent = view.mode === 'logical' ? 'Show physical order' : 'Show logical order';
  $('grid').innerHTML = toSvg(m, picture, { cellTitles: false });
  (($('zoomIn') as HTMLButtonElement).disabled = view.size === WINDOW_SIZES[0]);
  (($('zoomOut') as HTMLButtonElement).disabled = view.size === WINDOW_SIZES[WINDOW_SIZES.length - 1]);
  const pannable = m.viewRows < m.rows || m.viewCols < m.cols;
  for (const id of ['left', 'right', 'up', 'down']) ($(id) as HTMLButtonElement).disabled = !pannable;
  post({ type: 'rendered', drawn: m.cells.length, view, title: m.title });
}

function update(change: Partial<ViewState>) {
  view = { ...view, ...change };
  render();
  post({ type: 'view', view });
}

window.addEventListener('message', (e: MessageEvent<ToWebview>) => {
  const msg = e.data;
  if (msg.type === 'picture') {
    const checked = checkPicture(msg.picture);
    if (typeof checked === 'string') {
      setStatus(checked);
      return;
    }
    setStatus(msg.stale ? 'The file has errors; showing the last picture that could be drawn.' : '');
    picture = checked;
    if (msg.view) view = msg.view;
    render();
  } else if (msg.type === 'status') {
    setStatus(msg.text);
  }
});

$('mode').addEventListener('click', () => update({ mode: view.mode === 'logical' ? 'physical' : 'logical', row0: 0, col0: 0 }));
$('zoomIn').addEventListener('click', () => {
  const k = WINDOW_SIZES.indexOf(view.size as (typeof WINDOW_SIZES)[number]);
  update({ size: WINDOW_SIZES[Math.max(0, k - 1)] });
});
$('zoomOut').addEventListener('click', () => {
  const k = WINDOW_SIZES.indexOf(view.size as (typeof WINDOW_SIZES)[number]);
  update({ size: WINDOW_SIZES[Math.min(WINDOW_SIZES.length - 1, k + 1)] });
});
const pan = (dr: number, dc: number) => () => update({ row0: view.row0 + dr * (view.size / 2), col0: view.col0 + dc * (view.size / 2) });
$('left').addEventListener('click', pan(0, -1));
$('right').addEventListener('click', pan(0, 1));
$('up').addEventListener('click', pan(-1, 0));
$('down').addEventListener('click', pan(1, 0));
$('export').addEventListener('click', () => post({ type: 'exportSvg', view }));

const tip = $('tip');
$('grid').addEventListener('mousemove', (e: MouseEvent) => {
  const target = e.target as Element | null;
  const i = target?.getAttribute?.('data-i');
  const cell = picture && i != null ? picture.cells[Number(i)] : undefined;
  if (!picture || !cell) {
    tip.hidden = true;
    return;
  }
  tip.textContent = describeCell(picture, cell);
  tip.hidden = false;
  tip.style.left = `${e.clientX + 12}px`;
  tip.style.top = `${e.clientY + 12}px`;
});
$('grid').addEventListener('mouseleave', () => (tip.hidden = true));

post({ type: 'ready' });
