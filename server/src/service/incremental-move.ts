// The incremental analysis's kept results (service/incremental.ts): moving a kept declaration's
// results to a new version of the file (every range moves with the chunk, service/chunks.ts, that
// holds it), and combining them in the whole-file order. Kept results hold ranges of their own
// (`detached`), never the AST's: the AST's move with their chunks in place, and would be moved twice.
import type * as ast from '../../../grammar/src/ast.js';
import type { Diagnostic } from '../../../grammar/src/diagnostic.js';
import type { Chunk } from './chunks.js';
import type { Emission, KernelResult } from './kernel-checks.js';
import { rules } from '../check/rules/index.js';

/** What a declaration keeps: the elaborator's, each rule's, the schedule and kernel checks' diagnostics. */
export interface Results {
  elab?: Diagnostic[];
  rules: (Diagnostic[] | undefined)[];
  schedule?: Diagnostic[];
  kernel?: KernelResult;
  emission?: Emission;
}

/**
 * Moves a kept declaration's diagnostics to the new version: each range (the diagnostic's,
 * its related information's and its fixes' edits) moves with the chunk that holds it.
 */
export class Mover {
  /** no kept chunk moved: every result stays as it is */
  private readonly still: boolean;
  /** the old chunk of the last range looked up */
  private last = 0;
  constructor(
    private readonly old: readonly Chunk[],
    /** where the old chunks started in the old version (the chunks themselves may have moved since) */
    private readonly starts: readonly number[],
    private readonly now: readonly Chunk[],
    private readonly oldToNew: ReadonlyMap<number, number>,
    /** per rule: is it a slow one (its results are dropped when the budget changed) */
    private readonly slow: readonly boolean[],
  ) {
    let still = true;
    for (const [o, k] of oldToNew) if (starts[o] !== now[k].start) still = false;
    this.still = still;
  }

  moveResults(d: Results, sameBudget: boolean, sameTarget: boolean, sameUri: boolean): Results | undefined {
    if (!d.elab) return undefined;
    const schedule = d.schedule === undefined || !sameTarget ? undefined : this.moveAll(d.schedule);
    if (d.schedule !== undefined && sameTarget && !schedule) return undefined;
    let kernel: KernelResult | undefined;
    if (d.kernel?.asked && sameUri) {
      const diagnostics = this.moveAll(d.kernel.diagnostics);
      if (diagnostics) kernel = { ...d.kernel, diagnostics };
    }
    // (its template is compared when the kernel is checked again: a template file may change)
    let emission: Emission | undefined;
    if (d.emission) {
      const diagnostics = this.moveAll(d.emission.diagnostics);
      if (diagnostics) emission = { ...d.emission, diagnostics };
    }
    if (this.still && !d.elab.some((x) => this.outside(x))) {
      let ok = true;
      const rules = d.rules.map((r, ri) => {
        if (r === undefined || (this.slow[ri] && !sameBudget)) return undefined;
        if (r.some((x) => this.outside(x))) ok = false;
        return r;
      });
      if (ok) return { elab: d.elab, rules, schedule, kernel, emission };
    }
    const elab = this.moveAll(d.elab);
    if (!elab) return undefined;
    const out: (Diagnostic[] | undefined)[] = [];
    for (let ri = 0; ri < this.slow.length; ri++) {
      const r = d.rules[ri];
      if (r === undefined || (this.slow[ri] && !sameBudget)) {
        out.push(undefined);
        continue;
      }
      const m = this.moveAll(r);
      if (!m) return undefined;
      out.push(m);
    }
    return { elab, rules: out, schedule, kernel, emission };
  }

  private moveAll(ds: readonly Diagnostic[]): Diagnostic[] | undefined {
    if (ds.length === 0) return ds as Diagnostic[];
    const out: Diagnostic[] = [];
    let same = true;
    for (const d of ds) {
      const m = this.move(d);
      if (!m) return undefined;
      if (m !== d) same = false;
      out.push(m);
    }
    return same ? (ds as Diagnostic[]) : out;
  }

  /** `d` moved; `d` itself when nothing moves */
  private move(d: Diagnostic): Diagnostic | undefined {
    const range = this.range(d.range);
    if (!range) return undefined;
    if (range === d.range && !d.related && !d.fixes) return d;
    return withRanges(d, (r) => this.range(r));
  }

  /** does a range of `d` lie in an old chunk that is not kept (only when nothing moved) */
  private outside(d: Diagnostic): boolean {
    if (this.range(d.range) === undefined) return true;
    for (const r of d.related ?? []) if (this.range(r.range) === undefined) return true;
    for (const f of d.fixes ?? []) for (const e of f.edits) if (this.range(e.range) === undefined) return true;
    return false;
  }

  private range(r: ast.Range): ast.Range | undefined {
    // the chunk holding r.start: most often the one of the previous range (same declaration)
    let lo = this.last;
    if (!(lo < this.starts.length && this.starts[lo] <= r.start && (lo + 1 === this.starts.length || this.starts[lo + 1] > r.start))) {
      if (this.starts.length === 0 || r.start < this.starts[0]) return undefined;
      lo = 0;
      let hi = this.starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (this.starts[mid] <= r.start) lo = mid;
        else hi = mid - 1;
      }
      this.last = lo;
    }
    if (r.end > this.starts[lo] + this.old[lo].text.length) return undefined;
    const k = this.oldToNew.get(lo);
    if (k === undefined) return undefined;
    const delta = this.now[k].start - this.starts[lo];
    return delta === 0 ? r : { start: r.start + delta, end: r.end + delta };
  }

}

/**
 * `ds` with ranges of their own (the diagnostic's, its related information's, its fixes' edits'):
 * what a kept result or a returned list holds, so that moving a chunk in place moves neither.
 */
export function detached(ds: readonly Diagnostic[]): Diagnostic[] {
  return ds.map((d) => withRanges(d, (r) => ({ start: r.start, end: r.end }))!);
}

/**
 * A copy of `d` whose every range (the diagnostic's, its related information's, its fixes' edits') is
 * `f` of the original; undefined when `f` gives undefined for one.
 */
function withRanges(d: Diagnostic, f: (r: ast.Range) => ast.Range | undefined): Diagnostic | undefined {
  const range = f(d.range);
  if (!range) return undefined;
  const out: Diagnostic = { ...d, range };
  if (d.related) {
    const related: NonNullable<Diagnostic['related']> = [];
    for (const r of d.related) {
      const m = f(r.range);
      if (!m) return undefined;
      related.push({ ...r, range: m });
    }
    out.related = related;
  }
  if (d.fixes) {
    const fixes: NonNullable<Diagnostic['fixes']> = [];
    for (const x of d.fixes) {
      const edits: typeof x.edits = [];
      for (const e of x.edits) {
        const m = f(e.range);
        if (!m) return undefined;
        edits.push({ ...e, range: m });
      }
      fixes.push({ ...x, edits });
    }
    out.fixes = fixes;
  }
  return out;
}

const NONE: Diagnostic[] = Object.freeze([]) as unknown as Diagnostic[];

/**
 * What a declaration keeps of a result: `detached`, and one shared (frozen) empty list for the many
 * declarations without diagnostics (an empty array each cost about 1 MB per 20,000 lines).
 */
export function kept(ds: readonly Diagnostic[]): Diagnostic[] {
  return ds.length === 0 ? NONE : detached(ds);
}

/**
 * In the whole-file order: parse, names, elaboration, rule by rule, schedules; sorted by position (stable).
 * `decls`: the declarations with diagnostics of their own, in order (the others add nothing).
 */
export function combine(parse: Diagnostic[], names: Diagnostic[], decls: readonly Results[], global: readonly (Diagnostic[] | undefined)[]): Diagnostic[] {
  const out: Diagnostic[] = [...parse, ...names];
  for (const d of decls) if (d.elab) for (const x of d.elab) out.push(x);
  rules.forEach((rule, ri) => {
    if (rule.global) {
      for (const x of global[ri] ?? []) out.push(x);
      return;
    }
    for (const d of decls) for (const x of d.rules[ri] ?? []) out.push(x);
  });
  for (const d of decls) for (const x of d.schedule ?? []) out.push(x);
  out.sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end);
  return out;
}

/** `combined` (sorted) and the kernel checks, as the whole-file analysis orders them */
export function withKernels(combined: Diagnostic[], kernels: Diagnostic[]): Diagnostic[] {
  return kernels.length ? sorted([...combined, ...kernels]) : combined;
}

/**
 * The first stage of a version's diagnostics: its syntax and name diagnostics (a parse's and its
 * name resolution's), in order, their ranges copies. The worker's (incremental.ts) and the main
 * thread's, from its snapshot while the worker is not up yet (lsp/diagnostics.ts): one list.
 */
export function firstStage(parse: readonly Diagnostic[], names: readonly Diagnostic[]): Diagnostic[] {
  return detached(sorted([...parse, ...names]));
}

export function sorted(ds: Diagnostic[]): Diagnostic[] {
  return ds.sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end);
}
