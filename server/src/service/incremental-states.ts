// The declaration states an incremental run starts from (service/incremental.ts): which of the
// previous version's states carry over to this version (the same declaration object keeps its
// state, with its results), which declarations are new, and the name indexes (who uses and who
// declares each name, the params, the noisy declarations) kept up to date as declarations come and
// go. The chunks the parser kept at the file's start and end keep their declarations' states as a
// whole; only those between (what the edit touched) are matched one by one.
import type * as ast from '../../../grammar/src/ast.js';
import type { Diagnostic } from '../../../grammar/src/diagnostic.js';
import type { Chunk } from './chunks.js';
import { spliced } from './chunk-lists.js';
import type { Emission, KernelResult } from './kernel-checks.js';
import { names } from './decl-names.js';

/** Per declaration: its names and its diagnostics. */
export interface DeclState {
  decl: ast.Decl;
  /** index of its chunk */
  chunk: number;
  /** the names it declares */
  defines: string[];
  /** the names it uses (any name or callee) */
  uses: ReadonlySet<string>;
  /** does it contain a `GenP(...)` call (work for the slow rules) */
  genp: boolean;
  elab?: Diagnostic[];
  /** per rule (index into `rules`); global rules keep nothing here */
  rules: (Diagnostic[] | undefined)[];
  /** the schedule checks (check/schedule/) of a schedule block; [] for other declarations */
  schedule?: Diagnostic[];
  /** the template checks of a kernel block (service/kernel-checks.ts) */
  kernel?: KernelResult;
  /** what evaluating a kernel block's bindings found (service/kernel-checks.ts) */
  emission?: Emission;
  /** its index in this version's list */
  index: number;
  /** the last run that listed it */
  seen: number;
}

export interface State {
  chunks: Chunk[];
  /** where each chunk started in this version (the Mover's old places: kept chunks move in place) */
  starts: readonly number[];
  decls: DeclState[];
  /** per chunk, the index of its first declaration in `decls` */
  firstDecl: number[];
  budget: number;
  gpuTarget: string | undefined;
  /** the document's URI (where template files are read from) */
  uri: string | undefined;
  /** name -> the declarations that use it / declare it (kept up to date as declarations come and go) */
  users: Map<string, Set<DeclState>>;
  definers: Map<string, Set<DeclState>>;
  /** param names (what the kernels' implicit `{{ param_NAME }}` placeholders ask about), counted */
  params: Map<string, number>;
  /** the run was stopped or cancelled: some declarations may lack results (the next run looks at every one) */
  partial: boolean;
  /** the declarations with diagnostics of their own (what `combine` lists) */
  noisy: Set<DeclState>;
  /** the kernel blocks' states, in order */
  kernels: DeclState[];
  /** how many `linear` declarations the file has */
  linears: number;
  /** the file-level `assume` declarations (their facts simplify every query: the kernels' evaluation reads them) */
  assumes: Set<DeclState>;
}

/** This version's declaration states and what changed since the previous version's (`old`). */
export interface Carried {
  decls: DeclState[];
  /** per chunk, the index of its first declaration in `decls` */
  firstDecl: number[];
  /** the kernel blocks' states, in order */
  kernels: DeclState[];
  /** kept states whose results move to this version */
  moved: DeclState[];
  /** indexes of the new declarations */
  dirty: number[];
  /** names declared by declarations that came or went */
  changed: string[];
  users: Map<string, Set<DeclState>>;
  definers: Map<string, Set<DeclState>>;
  params: Map<string, number>;
  noisy: Set<DeclState>;
  assumes: Set<DeclState>;
  /** an `assume` declaration came or went (was edited) */
  assumesChanged: boolean;
  /** a param name came or went */
  paramsChanged: boolean;
  linears: number;
}

/**
 * The states of this version's declarations (`chunks`, each copied from the previous version's chunk
 * `from[k]` where it was), carried from `old` where a declaration is the same object; `run` marks
 * the states this run lists. Moves the kept trailing states' indexes in place.
 */
export function carryStates(old: State | undefined, chunks: readonly Chunk[], from: readonly (number | undefined)[], sameSettings: boolean, run: number): Carried {
  // ---- declarations, and which old ones they are: the same declaration object (unchanged, moved
  // in place or not) keeps its state, with its results moved when its chunk moved or the settings
  // changed (below). The leading and trailing chunks that the parser kept as they were (the same
  // chunk objects, in the same order at both ends of the file) keep their declarations' states as
  // a whole: copied in bulk, their indexes shifted only when the chunks between changed in number;
  // the chunks between (what the edit touched) are matched declaration by declaration.
  const nNew = chunks.length;
  const nOld = old ? old.chunks.length : 0;
  let lead = 0;
  let trail = 0;
  if (old && sameSettings) {
    while (lead < nNew && lead < nOld && from[lead] === lead && chunks[lead] === old.chunks[lead]) lead++;
    while (trail < nNew - lead && trail < nOld - lead && from[nNew - 1 - trail] === nOld - 1 - trail && chunks[nNew - 1 - trail] === old.chunks[nOld - 1 - trail]) trail++;
  }
  /** the old declarations before and after the middle chunks */
  const leadDecls = old && lead > 0 ? (lead < nOld ? old.firstDecl[lead] : old.decls.length) : 0;
  const tailFrom = old && trail > 0 ? old.firstDecl[nOld - trail] : old ? old.decls.length : 0;
  // the old kernel blocks' states before and after the middle (by their old indexes, read before the loop below moves any)
  const leadKernels: DeclState[] = [];
  const tailKernels: DeclState[] = [];
  if (old) {
    for (const d of old.kernels) {
      if (d.index < leadDecls) leadKernels.push(d);
      else if (d.index >= tailFrom) tailKernels.push(d);
    }
  }
  const middle: DeclState[] = [];
  const middleFirst: number[] = [];
  /** kept states whose results move to this version */
  const moved: DeclState[] = [];
  const added: DeclState[] = [];
  /** old chunks (of the middle) that a new chunk was copied from */
  const matchedOld = new Uint8Array(nOld);
  const dirty: number[] = [];
  const changed: string[] = [];
  for (let k = lead; k < nNew - trail; k++) {
    const c = chunks[k];
    middleFirst.push(leadDecls + middle.length);
    const o = old && from[k] !== undefined ? from[k]! : undefined;
    if (o !== undefined) matchedOld[o] = 1;
    for (let i = 0; i < c.decls.length; i++) {
      const d = c.decls[i];
      const was = o !== undefined ? old!.decls[old!.firstDecl[o] + i] : undefined;
      const index = leadDecls + middle.length;
      if (was && was.decl === d) {
        was.chunk = k;
        was.index = index;
        was.seen = run;
        middle.push(was);
        if (!sameSettings || old!.starts[o!] !== c.start) moved.push(was);
        continue;
      }
      const s: DeclState = { decl: d, chunk: k, ...names(d), rules: [], index, seen: run };
      middle.push(s);
      added.push(s);
      dirty.push(index);
      for (const n of s.defines) changed.push(n);
    }
  }
  // the kernel blocks' states, in order: the kept leading ones, the middle's, the kept trailing ones
  const kernelStates = leadKernels;
  for (const d of middle) if (d.decl.kind === 'Kernel') kernelStates.push(d);
  for (const d of tailKernels) kernelStates.push(d);
  let decls: DeclState[] = middle;
  let firstDecl: number[] = middleFirst;
  if (old && (lead > 0 || trail > 0)) {
    const declShift = leadDecls + middle.length - tailFrom;
    const chunkShift = nNew - nOld;
    if (declShift !== 0 || chunkShift !== 0) {
      for (let j = tailFrom; j < old.decls.length; j++) {
        old.decls[j].index += declShift;
        old.decls[j].chunk += chunkShift;
      }
    }
    decls = spliced(old.decls, leadDecls, middle, tailFrom);
    firstDecl = spliced(old.firstDecl, lead, middleFirst, nOld - trail, declShift);
    // the trailing chunks moved when the edit changed the text's length: the results of their states
    // that have diagnostics move (those in `noisy` are moved below; a kernel block's own are not
    // listed there); the others hold no position
    if (trail > 0 && old.starts[nOld - trail] !== chunks[nNew - trail].start) {
      for (const d of tailKernels) if (d.kernel?.diagnostics.length || d.emission?.diagnostics.length) moved.push(d);
    }
  }
  // the names of the declarations that went: what used them is checked again
  const users = old?.users ?? new Map<string, Set<DeclState>>();
  const definers = old?.definers ?? new Map<string, Set<DeclState>>();
  const params = old?.params ?? new Map<string, number>();
  const noisy = old?.noisy ?? new Set<DeclState>();
  let paramsChanged = !old;
  /** `linear` declarations in the file */
  let linears = old?.linears ?? 0;
  const assumes = old?.assumes ?? new Set<DeclState>();
  let assumesChanged = !old;
  if (old) {
    // only the middle's old declarations can have gone (the leading and trailing ones are kept)
    for (let x = leadDecls; x < tailFrom; x++) {
      const d = old.decls[x];
      if (d.seen === run) continue;
      if (!matchedOld[d.chunk]) for (const n of d.defines) changed.push(n);
      for (const n of d.uses) users.get(n)?.delete(d);
      for (const n of d.defines) definers.get(n)?.delete(d);
      noisy.delete(d);
      if (d.decl.kind === 'Linear') linears--;
      if (d.decl.kind === 'Assume') assumesChanged = assumes.delete(d) || assumesChanged;
      if (d.decl.kind === 'Param') for (const n of d.defines) if (count(params, n, -1) === 0) paramsChanged = true;
    }
  }
  for (const d of added) {
    for (const n of d.uses) add(users, n, d);
    for (const n of d.defines) add(definers, n, d);
    if (d.decl.kind === 'Linear') linears++;
    if (d.decl.kind === 'Assume') {
      assumes.add(d);
      assumesChanged = true;
    }
    if (d.decl.kind === 'Param') for (const n of d.defines) if (count(params, n, 1) === 1) paramsChanged = true;
  }
  return { decls, firstDecl, kernels: kernelStates, moved, dirty, changed, users, definers, params, noisy, paramsChanged, linears, assumes, assumesChanged };
}

function add<T>(m: Map<string, Set<T>>, k: string, v: T): void {
  let s = m.get(k);
  if (!s) m.set(k, (s = new Set()));
  s.add(v);
}

/** adds `by` to the count of `k`; the new count */
function count(m: Map<string, number>, k: string, by: number): number {
  const n = (m.get(k) ?? 0) + by;
  if (n === 0) m.delete(k);
  else m.set(k, n);
  return n;
}
