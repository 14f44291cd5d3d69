// The script of the layout picture webview (bundled to dist/webview.js, runs in the webview, no Node).
// It draws what server/src/picture/ computes (the same model as `layout show`), shows a tooltip per cell
// (kept inside the panel), offers the colourings, a zoom, and a control per param to draw at other
// (small) values, and talks to the extension through postMessage (see client/src/picture/messages.ts).
import { buildModel, clampView, colorOf, describe, initialView, isTiled, levelsOf, SCALES, tipPosition, zoom } from '../../../server/src/picture/model.js';
import { checkPicture } from '../../../server/src/picture/payload.js';
import type { ColorBy, DrawModel, ViewState } from '../../../server/src/picture/model.js';
import { toSvg } from '../../../server/src/picture/svg.js';
import type { ToExtension, ToWebview } from '../picture/messages.js';
import type { LayoutPicture } from '../../../server/src/lsp/protocol.js';

declare function acquireVsCodeApi(): { postMessage(m: ToExtension): void; getState(): unknown; setState(s: unknown): void };

const vscode = acquireVsCodeApi();
const $ = (id: string) => document.getElementById(id)!;
let picture: LayoutPicture | undefined;
let model: DrawModel | undefined;
let view: ViewState = { ...initialView, ...((vscode.getState() as { view?: ViewState } | undefined)?.view ?? {}) };

function post(m: ToExtension) {
  vscode.postMessage(m);
}

function setStatus(text: string) {
  $('status').textContent = text;
  $('status').hidden = text === '';
}

/** One input per param (its tuning candidates as suggestions), "Draw" and "Declared values". */
function renderParams(p: LayoutPicture) {
  const box = $('params');
  const params = p.params ?? [];
  box.hidden = params.length === 0;
  box.replaceChildren();
  if (!params.length) return;
  const inputs: { name: string; el: HTMLInputElement }[] = [];
  for (const q of params) {
    const label = document.createElement('label');
    label.textContent = q.name;
    const el = document.createElement('input');
    el.type = 'number';
    el.step = '1';
    if (q.choices?.length) {
      // the tuning candidates as suggestions; any integer may be typed (small sizes for the picture)
      const list = document.createElement('datalist');
      list.id = `choices-${q.name}`;
      for (const c of q.choices) {
        const o = document.createElement('option');
        o.value = String(c);
        list.append(o);
      }
      box.append(list);
      el.setAttribute('list', list.id);
    }
    el.value = String(q.value);
    el.id = `param-${q.name}`;
    el.title = `declared: ${q.declared}`;
    el.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') draw.click();
    });
    label.append(el);
    box.append(label);
    inputs.push({ name: q.name, el });
  }
  const draw = document.createElement('button');
  draw.id = 'drawParams';
  draw.textContent = 'Draw';
  draw.title = 'Draw the layout with these values';
  draw.addEventListener('click', () => {
    const overrides: Record<string, number> = {};
    for (const { name, el } of inputs) {
      const v = Number(el.value);
      const q = params.find((x) => x.name === name)!;
      if (Number.isSafeInteger(v) && v !== q.declared) overrides[name] = v;
    }
    post({ type: 'params', overrides });
  });
  const reset = document.createElement('button');
  reset.id = 'resetParams';
  reset.textContent = 'Declared values';
  reset.disabled = params.every((q) => q.value === q.declared);
  reset.addEventListener('click', () => post({ type: 'params', overrides: {} }));
  box.append(draw, reset);
}

function render() {
  if (!picture) return;
  view = clampView(picture, view);
  vscode.setState({ view });
  const m = buildModel(picture, view);
  model = m;
  $('title').textContent = m.title;
  $('caption').textContent = m.caption;
  $('expr').textContent = picture.exprs.apply ? `apply: ${picture.exprs.apply}` : '';
  $('legend').textContent = m.legend;
  $('problems').textContent = m.problems.join('\n');
  $('mode').textContent = view.mode === 'logical' ? 'Show physical order' : 'Show logical order';
  ($('mode') as HTMLButtonElement).disabled = m.kind === 'tiles';
  $('grid').innerHTML = toSvg(m, picture, { cellTitles: false });
  const scale = view.scale ?? 1;
  ($('zoomIn') as HTMLButtonElement).disabled = scale === SCALES[SCALES.length - 1];
  ($('zoomOut') as HTMLButtonElement).disabled = scale === SCALES[0];
  const color = $('color') as HTMLSelectElement;
  color.value = colorOf(picture, view);
  for (const o of Array.from(color.options)) o.disabled = !isTiled(picture) && (o.value === 'tile' || o.value === 'level');
  color.disabled = m.kind === 'tiles';
  const levels = levelsOf(picture).length;
  $('levelBox').hidden = colorOf(picture, view) !== 'level';
  const level = $('level') as HTMLSelectElement;
  if (level.options.length !== levels - 1) {
    level.replaceChildren(...Array.from({ length: Math.max(0, levels - 1) }, (_, k) => {
      const o = document.createElement('option');
      o.value = String(k);
      o.textContent = k === 0 ? '0 (outermost)' : String(k);
      return o;
    }));
  }
  level.value = String(view.level ?? 0);
  const pannable = m.viewRows < m.rows || m.viewCols < m.cols;
  for (const id of ['left', 'right', 'up', 'down']) ($(id) as HTMLButtonElement).disabled = !pannable;
  post({ type: 'rendered', drawn: m.cells.length, view, title: m.title, caption: m.caption, legend: m.legend, problems: m.problems });
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
    renderParams(checked);
    render();
  } else if (msg.type === 'status') {
    setStatus(msg.text);
  }
});

$('mode').addEventListener('click', () => update({ mode: view.mode === 'logical' ? 'physical' : 'logical', row0: 0, col0: 0 }));
$('zoomIn').addEventListener('click', () => update(zoom(view, 1)));
$('zoomOut').addEventListener('click', () => update(zoom(view, -1)));
$('color').addEventListener('change', () => update({ colorBy: ($('color') as HTMLSelectElement).value as ColorBy }));
$('level').addEventListener('change', () => update({ level: Number(($('level') as HTMLSelectElement).value) }));
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
  const cell = model && i != null ? model.cells[Number(i)] : undefined;
  if (!picture || !model || !cell) {
    tip.hidden = true;
    return;
  }
  tip.textContent = describe(picture, model, cell, view);
  tip.hidden = false;
  const at = tipPosition({ x: e.clientX, y: e.clientY }, { width: tip.offsetWidth, height: tip.offsetHeight }, { width: window.innerWidth, height: window.innerHeight });
  tip.style.left = `${at.left}px`;
  tip.style.top = `${at.top}px`;
});
$('grid').addEventListener('mouseleave', () => (tip.hidden = true));

post({ type: 'ready' });
