// `layout show FILE LAYOUT [--set P=V]... [--physical] [--color-by tile|level|order|thread|bank]
// [--level K] [--threads N] [--window N] [--at R,C] [--svg OUT]`: draws a layout the way the editor's picture does (the same
// model, server/src/picture/): a Unicode grid with the tile boundaries, ANSI colours when standard output
// is a terminal, and with --svg the same picture as an SVG file. A big tiled layout is summarised (one
// cell per tile with the positions it takes); --set draws it at small sizes instead. A `linear` declaration is drawn
// too (service/linear-picture.ts: offsets coloured by bank, or t<thread>:r<register> coloured by thread).
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { parse, resolve } from '../../../grammar/src/index.js';
import * as A from '../algebra/index.js';
import { elaborate } from '../check/elaborate.js';
import { checkLinear } from '../check/linear.js';
import type { LayoutPicture } from '../lsp/protocol.js';
import { linearPicture } from '../service/linear-picture.js';
import { layoutPicture, paramsOf } from '../service/picture.js';
import { buildModel, COLOR_MODES, initialView, WINDOW_MAX, WINDOW_SIZES, type ColorBy, type ViewState } from '../picture/model.js';
import { toSvg } from '../picture/svg.js';
import { toText } from '../picture/text.js';
import { CliFailure, firstError, guarded, loadModel, type CliIo } from './load-model.js';

export interface ShowOptions {
  set?: string[];
  svg?: string;
  physical?: boolean;
  colorBy?: string;
  level?: string;
  threads?: string;
  /** ANSI colours; default: when standard output is a terminal */
  color?: boolean;
  /** cells per side of the window drawn (8, 16, 32, 64); default 64, or what fits a terminal's width */
  window?: string;
  /** the window's first row and column, `R,C` */
  at?: string;
}

function positive(s: string | undefined, what: string, min: number): number | undefined {
  if (s === undefined) return undefined;
  if (!/^[0-9]+$/.test(s) || Number(s) < min) throw new CliFailure(`${what} expects an integer >= ${min}, got '${s}'`, 2);
  return Number(s);
}

/** Runs `layout show`; returns the exit status. */
export function runShow(file: string, name: string, opts: ShowOptions, io: CliIo & { tty?: boolean; columns?: number }): number {
  return guarded(io, () => {
    if (opts.colorBy !== undefined && !COLOR_MODES.includes(opts.colorBy as ColorBy)) {
      throw new CliFailure(`--color-by expects one of ${COLOR_MODES.join(', ')}, got '${opts.colorBy}'`, 2);
    }
    const level = positive(opts.level, '--level', 0);
    const window = positive(opts.window, '--window', 1);
    if (window !== undefined && !(WINDOW_SIZES as readonly number[]).includes(window)) throw new CliFailure(`--window expects one of ${WINDOW_SIZES.join(', ')}, got '${opts.window}'`, 2);
    const at = opts.at === undefined ? [0, 0] : /^\d+,\d+$/.test(opts.at) ? opts.at.split(',').map(Number) : undefined;
    if (!at) throw new CliFailure(`--at expects ROW,COLUMN, got '${opts.at}'`, 2);
    const threads = positive(opts.threads, '--threads', 1);
    const l = loadModel(file, opts.set);
    const m = l.model.layouts.get(name);
    let p: ReturnType<typeof layoutPicture>;
    if (!m) {
      const lin = linearOf(l.text, name, opts.set);
      if (lin) p = lin;
      else {
        const names = [...l.model.layouts.keys(), ...linearNames(l.text)];
        throw new CliFailure(`'${file}' declares no layout ${name}${names.length ? `; its layouts are ${names.join(', ')}` : ''}`, 1);
      }
    } else {
      if (!m.layout) throw new CliFailure(firstError(l, file, m.decl.range.start, m.decl.range.end) ?? `layout ${name} could not be built`, 1);
      const base = opts.set?.length ? loadModel(file, []).model : l.model;
      p = layoutPicture(name, m.layout, l.model, coordinateVars(m.layout, l.model), paramsOf(base, l.model));
    }
    if (!p) throw new CliFailure(`layout ${name} cannot be drawn`, 1);
    if ('error' in p) throw new CliFailure(p.error, 1);
    const view: ViewState = {
      ...initialView, size: window ?? WINDOW_MAX, row0: at[0], col0: at[1], mode: opts.physical ? 'physical' : 'logical',
      ...(opts.colorBy ? { colorBy: opts.colorBy as ColorBy } : {}),
      ...(level !== undefined ? { level } : {}),
      ...(threads !== undefined ? { threads } : {}),
    };
    const color = opts.color ?? io.tty === true;
    let model = buildModel(p, view);
    // on a terminal, without --window: the largest window whose lines fit its width
    if (window === undefined && io.tty && io.columns) {
      for (const size of [...WINDOW_SIZES].reverse()) {
        model = buildModel(p, { ...view, size });
        if (Math.max(...toText(model).split('\n').slice(2).map((l) => l.length)) <= io.columns) break;
      }
    }
    if (opts.svg !== undefined) {
      try {
        writeFileSync(opts.svg, toSvg(model, p, { heading: true, view }) + '\n');
      } catch (e) {
        throw new CliFailure(`cannot write '${opts.svg}': ${(e as NodeJS.ErrnoException).code ?? String(e)}`, 1);
      }
    }
    io.out(toText(model, { color }));
    if (model.viewRows < model.rows || model.viewCols < model.cols) io.out(`(a window of the grid: --window and --at ROW,COLUMN move it; --set NAME=VALUE draws it smaller)\n`);
    if (p.truncated && !p.tiles) io.out(`(the first ${p.cells.length} of ${p.totalCells} cells; draw it smaller with --set NAME=VALUE)\n`);
    return model.problems.length ? 1 : 0;
  });
}

/** The `linear` declarations of a text. */
function linearNames(text: string): string[] {
  return parse(text).file.decls.flatMap((d) => (d.kind === 'Linear' ? [d.name.name] : []));
}

/** The picture of the `linear` declaration `name` (undefined: there is none), or a CliFailure with its first error. */
function linearOf(text: string, name: string, sets: readonly string[] | undefined): LayoutPicture | { error: string } | undefined {
  if (!linearNames(text).includes(name)) return undefined;
  if (sets?.length) throw new CliFailure(`--set draws a LEGO layout at other param values; '${name}' is a linear layout`, 2);
  const p = parse(text);
  const r = resolve(p.file, p.lines);
  const { model } = elaborate(p.file, r);
  const analysis = checkLinear(p.file, r, model);
  const m = analysis.linears.get(name);
  if (!m) {
    const d = analysis.diagnostics.find((x) => x.severity === 'error' && p.file.decls.some((k) => k.kind === 'Linear' && k.name.name === name && x.range.start >= k.range.start && x.range.start <= k.range.end));
    return { error: d ? `linear layout ${name}: ${d.message}` : `linear layout ${name} has errors` };
  }
  return linearPicture(m);
}

/** Names for the coordinates (as the editor's hover and picture call them, without a file's names to avoid). */
function coordinateVars(L: A.Layout, model: { params: Map<string, unknown>; lets: Map<string, unknown>; layouts: Map<string, unknown>; perms: Map<string, unknown> }): string[] {
  const rank = A.dims(L).length;
  const base = rank === 1 ? ['i'] : rank === 2 ? ['i', 'j'] : rank === 3 ? ['i', 'j', 'k']
    : L.kind === 'TileBy' && rank === 4 ? ['ti', 'tj', 'i', 'j'] : Array.from({ length: rank }, (_, k) => `i${k}`);
  const taken = (n: string) => model.params.has(n) || model.lets.has(n) || model.layouts.has(n) || model.perms.has(n);
  return base.map((n) => {
    let v = n;
    while (taken(v)) v += '_';
    return v;
  });
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** Adds `show` to the CLI. */
export function registerShow(program: Command): void {
  program
    .command('show')
    .description('draw a layout: a Unicode grid with its tiles (colours on a terminal), and optionally an SVG file')
    .argument('<file>', 'the .layout file')
    .argument('<layout>', 'the layout name')
    .option('--set <name=value>', 'draw with another value of a param, e.g. --set M=8 (repeatable)', collect)
    .option('--svg <out>', 'also write the picture as an SVG file')
    .option('--physical', 'place the cells in physical order (labelled with their logical coordinates)')
    .option('--color-by <mode>', `what the colours say: ${COLOR_MODES.join(', ')}`)
    .option('--level <k>', "the tiling level of --color-by level (0: the outermost)")
    .option('--threads <n>', 'threads of --color-by thread (default 32)')
    .option('--window <n>', `cells per side of the window drawn: ${WINDOW_SIZES.join(', ')} (default 64, or what fits the terminal)`)
    .option('--at <row,col>', 'the first row and column of the window')
    .option('--color', 'ANSI colours even when standard output is not a terminal')
    .option('--no-color', 'no ANSI colours')
    .action((file: string, layout: string, opts: ShowOptions) => {
      process.exitCode = runShow(file, layout, opts, {
        out: (text) => process.stdout.write(text),
        err: (line) => process.stderr.write(line + '\n'),
        tty: process.stdout.isTTY === true,
        columns: process.stdout.columns,
      });
    });
}
