// The layout picture as text for a terminal (`layout show`, in the spirit of CuTe's print_layout): a
// Unicode grid with the tile boundaries drawn as box lines, and, on a terminal, each cell's colour as an
// ANSI 24-bit background. Cells of a broken permutation (a position taken twice, outside, or missing)
// carry a `!`.
import type { DrawModel } from './model.js';

export interface TextOptions {
  /** ANSI colours (only for a terminal) */
  color?: boolean;
}

const RESET = '\x1b[0m';

/** The picture as lines of text (each ending in a newline). */
export function toText(m: DrawModel, opts: TextOptions = {}): string {
  const grid: (DrawModelCell | undefined)[][] = Array.from({ length: m.viewRows }, () => new Array(m.viewCols).fill(undefined));
  for (const c of m.cells) grid[c.row - m.row0][c.col - m.col0] = { label: c.problem && c.problem !== 'missing' ? `${c.label}!` : c.label, color: c.color };
  const w = Math.max(
    1,
    ...m.cells.map((c) => c.label.length + (c.problem && c.problem !== 'missing' ? 1 : 0)),
    String(m.col0 + m.viewCols - 1).length,
  );
  const rw = String(m.row0 + m.viewRows - 1).length;
  const colCut = new Set(m.colLines.map((b) => b.at - m.col0));
  const rowCut = new Set(m.rowLines.map((b) => b.at - m.row0));
  const framed = m.rowLines.length > 0 || m.colLines.length > 0;
  // segments of columns between boundaries
  const segs: number[] = [];
  for (let c = 0; c < m.viewCols; c++) {
    if (c === 0 || colCut.has(c)) segs.push(0);
    segs[segs.length - 1]++;
  }
  const segWidth = (n: number) => n * (w + 1) + 1;
  const rule = (l: string, j: string, r: string) => `${' '.repeat(rw + 1)}${l}${segs.map((n) => '─'.repeat(segWidth(n))).join(j)}${r}`;
  const lines: string[] = [];
  lines.push(`${m.title}: ${m.caption}`);
  lines.push(m.legend);
  // column numbers
  let head = ' '.repeat(rw + 1) + (framed ? ' ' : '');
  for (let c = 0; c < m.viewCols; c++) {
    if (framed && c > 0 && colCut.has(c)) head += '  ';
    head += ' ' + String(m.col0 + c).padStart(w);
  }
  lines.push(head.trimEnd());
  if (framed) lines.push(rule('┌', '┬', '┐'));
  for (let r = 0; r < m.viewRows; r++) {
    if (framed && r > 0 && rowCut.has(r)) lines.push(rule('├', '┼', '┤'));
    let line = String(m.row0 + r).padStart(rw) + ' ' + (framed ? '│' : '');
    for (let c = 0; c < m.viewCols; c++) {
      if (framed && c > 0 && colCut.has(c)) line += ' │';
      const cell = grid[r][c];
      const text = ' ' + (cell ? cell.label : '').padStart(w);
      if (opts.color && cell) {
        const [R, G, B] = rgbOf(cell.color);
        line += `\x1b[48;2;${R};${G};${B}m\x1b[38;2;26;26;26m${text}${RESET}`;
      } else line += text;
    }
    if (framed) line += ' │';
    lines.push(opts.color ? line : line.trimEnd());
  }
  if (framed) lines.push(rule('└', '┴', '┘'));
  lines.push(...m.problems);
  return lines.map((l) => l + '\n').join('');
}

interface DrawModelCell {
  label: string;
  color: string;
}

/** `hsl(h, s%, l%)` (as model.ts's groupColor and orderColor print it) or `#rrggbb` to [r, g, b]. */
export function rgbOf(color: string): [number, number, number] {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (hex) return [parseInt(hex[1], 16), parseInt(hex[2], 16), parseInt(hex[3], 16)];
  const m = /^hsl\((\d+(?:\.\d+)?), (\d+(?:\.\d+)?)%, (\d+(?:\.\d+)?)%\)$/.exec(color);
  if (!m) return [255, 255, 255];
  const h = Number(m[1]) / 360;
  const s = Number(m[2]) / 100;
  const l = Number(m[3]) / 100;
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const pp = 2 * l - q;
  const f = (t: number) => {
    t = ((t % 1) + 1) % 1;
    if (t < 1 / 6) return pp + (q - pp) * 6 * t;
    if (t < 1 / 2) return q;
    if (t < 2 / 3) return pp + (q - pp) * (2 / 3 - t) * 6;
    return pp;
  };
  return [f(h + 1 / 3), f(h), f(h - 1 / 3)].map((x) => Math.round(x * 255)) as [number, number, number];
}
