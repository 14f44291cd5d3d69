// The main thread warms up its request path as soon as the server is initialized, as the analysis
// worker does (warm-up.ts): the first hover of a session otherwise runs cold code (the chunked
// parser, name resolution, elaboration, the symbolic apply/inv and the simplifier, the printers)
// and took 30-300 ms where a warm one takes under 1 ms. It works on the worker's sample program,
// one step per event-loop turn (a request waits at most one step), never on a user's document.
import { ChunkedParser } from '../service/chunks.js';
import { completion } from '../service/completion.js';
import { foldingRanges } from '../service/folding.js';
import { fullTokens } from './semantic-tokens.js';
import { symbolsOf } from './document-symbols.js';
import { DocumentHistory, LayoutDocument } from '../service/document.js';
import { hover } from '../service/hover.js';
import { withoutHoverCache } from '../service/hover-cache.js';
import { defaultSettings } from '../service/settings.js';
import { BROKEN_UNIT, FIRST_STAGE_STEPS, stepByStep, WARM_UP_UNITS, warmUpSample, warmUpUnit } from './warm-up.js';

/**
 * The main thread's first steps, as soon as `initialize` is answered and until a document is opened
 * (`stop`): the parse and name resolution of a just-opened small document, which this thread now
 * computes itself (diagnostics.ts `MAIN_FIRST_STAGE_WARM_MAX_CHARS`), and the outline, folding ranges
 * and semantic tokens an editor asks for with its didOpen, compiled before a client opens its first
 * document. `MAIN_FIRST_STAGE_SNAPSHOTS` snapshots of `MAIN_FIRST_STAGE_UNITS` units of the worker's
 * sample, each built as the server builds a document's (SnapshotCache: a chunked parser and a
 * history), each in `FIRST_STAGE_PARTS` steps (its parse, its name resolution, its outline, its
 * folding ranges, its semantic tokens), one step per timer: a didOpen that comes meanwhile waits for
 * the rest of one part, not of a whole snapshot. Fresh servers, didOpen 200 ms after `initialize`:
 * first diagnostics of 500 lines 8.4 -> 4.2 ms with whole snapshots as steps (p50 of 5-8; 12
 * snapshots 4.7, 48 snapshots 5.1: steps still running at the open compete with it); with the
 * editor's three requests, all answered: 500 lines 41 -> 22 ms, 2,000 lines 145 -> 90, 20,000 lines
 * 686 -> 586. A whole snapshot was 2-4 ms warm and 5-9 ms beside the worker loading its code (2
 * cores), and on a slower day the 24 of them still ran 200 ms after `initialize`: traced (client,
 * main thread, worker), the didOpen waited 2-9 ms for a step to end and the worker's job was posted
 * that much later. In parts (builds of both kinds side by side, interleaved, p50 of 9-11 fresh
 * servers): 500 lines 10.8-12.7 -> 8.2-8.3 ms, 2,000 lines 26.8-29.7 -> 17.6-18.8, 20,000 lines
 * 120-134 -> 111-113; the editor's three requests all answered at 2,000 lines 87-89 -> 88-95 (noise).
 * `onStep` is told each step's number (tests).
 */
export function warmMainFirstStage(stop: () => boolean, onStep?: (step: number) => void): () => void {
  const text = warmUpSample(MAIN_FIRST_STAGE_UNITS);
  let doc: LayoutDocument | undefined;
  return stepByStep(MAIN_FIRST_STAGE_RUNS, (i) => {
    onStep?.(i);
    switch (i % FIRST_STAGE_PARTS) {
      case 0:
        doc = new LayoutDocument('warm-up:first-stage', 1, text, new ChunkedParser(), new DocumentHistory());
        void doc.parseDiagnostics;
        break;
      case 1: void doc!.symbols.resolution.diagnostics; break;
      // what an editor asks for along with its didOpen (VS Code: symbols, folding, semantic tokens);
      // the symbols as the LSP adapter converts them (the positions of every item): at 10,000 lines
      // the first document symbols took 32-52 ms in process after a warm-up of the outline alone,
      // 19-36 after this one
      case 2: symbolsOf('warm-up:first-stage', doc!, true); break;
      case 3: foldingRanges(doc!.file, doc!.text, doc!.lines); break;
      default: fullTokens(doc!); doc = undefined;
    }
  }, { stop, afterIo: true });
}

/** Units of the sample in each of the main thread's first snapshots, how many snapshots, and steps per snapshot. */
const MAIN_FIRST_STAGE_UNITS = 4;
const MAIN_FIRST_STAGE_SNAPSHOTS = FIRST_STAGE_STEPS;
const FIRST_STAGE_PARTS = 5;
export const MAIN_FIRST_STAGE_RUNS = MAIN_FIRST_STAGE_SNAPSHOTS * FIRST_STAGE_PARTS;

/**
 * Starts warming up; returns a function that stops it. While `paused()` says so (diagnostics are
 * being computed: the main thread must be free to publish them), it waits and looks again later.
 * `onStep` is told each step's number before it runs (tests).
 */
export function warmUpMainThread(paused: () => boolean = () => false, onStep?: (step: number) => void): () => void {
  const parser = new ChunkedParser();
  const history = new DocumentHistory();
  let text = WARM_UP_UNITS.slice(0, 2).join('');
  let version = 1;
  let doc = new LayoutDocument('warm-up:sample', version, text, parser, history);
  const at = (s: string, plus = 0) => text.indexOf(s) + plus;
  const steps: (() => void)[] = [
    () => void doc.symbols,
    () => hover(doc, at('X0[pid_m'), defaultSettings),
    () => hover(doc, at('P0.inv', 3), defaultSettings),
    () => hover(doc, at('M0 = '), defaultSettings),
    () => hover(doc, at('D0[i, j]'), defaultSettings),
    () => completion(doc, at('  offset_bptrs')),
    // a new version: the snapshot re-uses the earlier one's work
    () => {
      const k = at('param_GM = 4', 11);
      text = text.slice(0, k) + '8' + text.slice(k + 1);
      doc = new LayoutDocument('warm-up:sample', ++version, text, parser, history);
      hover(doc, at('X1[pid_m'), defaultSettings);
    },
    // a piece with a syntax error: Chevrotain's parser, built on first use (grammar/src/parser.ts)
    () => new ChunkedParser().parse(BROKEN_UNIT),
  ];
  // then the layouts of the whole sample, computed afresh (nothing kept): elaboration, the symbolic
  // apply and inv and the simplifier run often enough to be compiled before a user's first hover of
  // a layout (a layout hovered for the first time took about twice as long without these)
  const all = WARM_UP_UNITS.join('');
  const sample = new LayoutDocument('warm-up:all', 1, all);
  for (let k = 0; k < WARM_UP_UNITS.length; k++) {
    for (const name of [`X${k}`, `Y${k}`, `P${k}`, `D${k}`]) steps.push(() => withoutHoverCache(() => hover(sample, all.indexOf(`layout ${name} `) + 7, defaultSettings)));
    steps.push(() => withoutHoverCache(() => hover(sample, all.indexOf(`P${k}.inv`) + 3 + String(k).length, defaultSettings)));
  }
  // then layouts met for the first time, as a user's first hovers of a file's layouts are (each a
  // closure not elaborated before, a structure not classified before, apply and inv simplified
  // afresh): FRESH_GROUPS documents of FRESH_UNITS units named apart from the sample's, each parsed
  // and resolved in a step of its own, then each of its layouts hovered once (5 per unit), the
  // document dropped after its last one
  for (let g = 0; g < FRESH_GROUPS; g++) {
    const ks = Array.from({ length: FRESH_UNITS }, (_, u) => WARM_UP_UNITS.length + g * FRESH_UNITS + u);
    let text = '';
    let fresh: LayoutDocument | undefined;
    steps.push(() => {
      text = ks.map(warmUpUnit).join('');
      fresh = new LayoutDocument(`warm-up:fresh-${g}`, 1, text);
      void fresh.symbols;
    });
    for (const k of ks) {
      for (const name of [`X${k}`, `Y${k}`, `Z${k}`, `P${k}`, `D${k}`]) steps.push(() => withoutHoverCache(() => hover(fresh!, text.indexOf(`layout ${name} `) + 7, defaultSettings)));
    }
    steps.push(() => {
      fresh = undefined;
      text = '';
    });
  }
  return stepByStep(steps.length, (i) => {
    onStep?.(i);
    steps[i]();
  }, { paused, pauseMs: PAUSE_MS, afterIo: true });
}

/** Documents of layouts met for the first time (see above), and units in each. */
const FRESH_GROUPS = 6;
const FRESH_UNITS = 6;

/** How long a paused warm-up waits before it looks again. */
const PAUSE_MS = 50;
