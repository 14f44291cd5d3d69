// The layout picture as SVG (in the spirit of CuTe's print_latex): the webview shows this markup, the
// extension exports it, `layout show --svg` writes it. Only presentation attributes, no `style`
// attributes, so it renders under the webview's strict Content-Security-Policy.
import type { LayoutPicture } from '../lsp/protocol.js';
import { describe, initialView, type DrawModel, type ViewState } from './model.js';

export const MARGIN = 28;
const LINE = 16;

/** Cell width and height in the drawing (before zoom). */
export function cellBox(m: DrawModel): { w: number; h: number } {
  if (!m.labels) return { w: 12, h: 12 };
  const longest = m.cells.reduce((n, c) => Math.max(n, c.label.length), 1);
  const w = Math.max(24, longest * 7 + 8);
  return { w, h: m.kind === 'tiles' ? 24 : w > 40 ? 24 : w };
}

export interface SvgOptions {
  /** a <title> per cell (its hover text); default true */
  cellTitles?: boolean;
  /** the name, caption, legend and problems as text above the grid (a standalone file); default false */
  heading?: boolean;
  /** the view (for the hover texts' colour key) */
  view?: ViewState;
}

/** The picture as a standalone SVG document. */
export function toSvg(m: DrawModel, p: LayoutPicture, opts: SvgOptions = {}): string {
  const titles = opts.cellTitles ?? true;
  const { w, h } = cellBox(m);
  const head = opts.heading ? [`${m.title}: ${m.caption}`, m.legend, ...m.problems] : [];
  const top = head.length * LINE + (head.length ? 6 : 0);
  const gw = m.viewCols * w;
  const gh = m.viewRows * h;
  const textWidth = head.reduce((n, l) => Math.max(n, l.length * 7 + 8), 0);
  const width = Math.max(MARGIN + gw + 2, textWidth);
  const height = top + MARGIN + gh + 2;
  const s = m.scale;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${Math.round(width * s)}" height="${Math.round(height * s)}" viewBox="0 0 ${width} ${height}" font-family="monospace" font-size="11">`);
  out.push(`<title>${escapeXml(`${m.title} (${m.kind === 'tiles' ? 'tile summary' : `${m.mode} order`})`)}</title>`);
  out.push(`<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`);
  head.forEach((line, k) => {
    out.push(`<text x="4" y="${(k + 1) * LINE - 3}" fill="${k >= 2 ? '#c0392b' : '#1a1a1a'}">${escapeXml(line)}</text>`);
  });
  const x0 = MARGIN;
  const y0 = top + MARGIN;
  const stepC = Math.max(1, Math.ceil(16 / w));
  for (let c = 0; c < m.viewCols; c += stepC) {
    out.push(`<text x="${x0 + c * w + w / 2}" y="${y0 - 8}" text-anchor="middle" fill="#666666">${m.col0 + c}</text>`);
  }
  const stepR = Math.max(1, Math.ceil(12 / h));
  for (let r = 0; r < m.viewRows; r += stepR) {
    out.push(`<text x="${x0 - 4}" y="${y0 + r * h + h / 2 + 4}" text-anchor="end" fill="#666666">${m.row0 + r}</text>`);
  }
  const view = opts.view ?? initialView;
  m.cells.forEach((c, k) => {
    const x = x0 + (c.col - m.col0) * w;
    const y = y0 + (c.row - m.row0) * h;
    const stroke = c.problem === 'missing' ? ' stroke="#c0392b" stroke-width="1.5" stroke-dasharray="3 2"'
      : c.problem ? ' stroke="#c0392b" stroke-width="2"' : ' stroke="#ffffff" stroke-width="1"';
    out.push(`<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${c.color}"${stroke} data-i="${k}">${titles ? `<title>${escapeXml(describe(p, m, c, view))}</title>` : ''}</rect>`);
    if (m.labels) {
      out.push(`<text x="${x + w / 2}" y="${y + h / 2 + 4}" text-anchor="middle" fill="#1a1a1a" pointer-events="none">${escapeXml(c.label)}</text>`);
    }
  });
  // tile boundaries, heavier between outer tiles, and a frame around the window
  for (const b of m.rowLines) {
    const y = y0 + (b.at - m.row0) * h;
    out.push(`<line x1="${x0}" y1="${y}" x2="${x0 + gw}" y2="${y}" stroke="#202020" stroke-width="${b.depth === 0 ? 2.5 : 1.5}" pointer-events="none"/>`);
  }
  for (const b of m.colLines) {
    const x = x0 + (b.at - m.col0) * w;
    out.push(`<line x1="${x}" y1="${y0}" x2="${x}" y2="${y0 + gh}" stroke="#202020" stroke-width="${b.depth === 0 ? 2.5 : 1.5}" pointer-events="none"/>`);
  }
  if (m.rowLines.length || m.colLines.length) {
    out.push(`<rect x="${x0}" y="${y0}" width="${gw}" height="${gh}" fill="none" stroke="#202020" stroke-width="2.5" pointer-events="none"/>`);
  }
  out.push('</svg>');
  return out.join('\n');
}

function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch]!);
}
