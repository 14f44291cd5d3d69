// Incremental diagnostics: `IncrementalAnalysis.diagnose(text)` gives exactly what
// `diagnose(text)` (the check layer's `analyze`, every rule) gives, re-using the previous
// version's work. The analysis worker keeps one per open document.
//
// - Parsing: chunk by chunk (chunks.ts); an edit re-parses only the chunks whose text changed.
// - Name resolution keeps each declaration's resolution while what its names mean is unchanged
//   (grammar/src/resolve.ts's ResolveCache); the file-wide facts (duplicates, which names are used)
//   come from small per-declaration parts.
// - Per declaration, the elaborator's diagnostics and each rule's diagnostics are kept. A
//   declaration is re-checked when its chunk changed, or when it names (directly or through
//   other re-checked declarations) something an edited declaration declares, before or after
//   the edit; every other declaration keeps its results, moved with its text. An unchanged
//   declaration (the same object, moved in place or not: chunks.ts) keeps its state object; who uses and who declares each name is kept up to
//   date as declarations come and go (no map of the whole file per edit), and after a complete run
//   only the re-checked declarations are looked at (every one after a stopped run or a settings
//   change). A kept kernel result is looked at again only when the file's param names changed.
// - A re-checked declaration is elaborated after the declarations it depends on (those that
//   declare a name it uses, transitively), in source order: what the elaborator knows of each
//   name there is what the whole-file elaboration knows.
// - Rules see the whole file for lookups and check one declaration at a time (RuleContext.decls);
//   `global` rules (unused, lego/mutated-receiver) run on the whole file every time, from name
//   resolution's per-declaration parts (use counts, the unused first declarations, per-unit summaries). Schedule blocks are checked
//   (check/schedule/) against the whole file's params and lets, one block at a time.
// - Results are combined in the whole-file order (parse, names, elaboration, then rule by rule,
//   declaration by declaration, then schedules) and sorted by position the same stable way.
// Anything unusual (a rule or the elaborator failing, more syntax errors than the parser
// reports) falls back to the whole-file analysis for that version.
import type * as ast from '../../../grammar/src/ast.js';
import type { Diagnostic } from '../../../grammar/src/diagnostic.js';
import { ResolveCache, resolve, type Resolution } from '../../../grammar/src/resolve.js';
import { analyze } from '../check/index.js';
import { Elaborator, elaborate } from '../check/elaborate.js';
import { linearDiagnostics } from '../check/linear.js';
import { checkSchedule, scheduleEnvOf, type ScheduleEnv } from '../check/schedule/index.js';
import { DEFAULT_BUDGET, ruleContext, rules, type RuleContext } from '../check/rules/index.js';
import { ChunkedParser, type Chunk, type ChunkedParse } from './chunks.js';
import { fileDiagnostics, KernelChecker, Placeholders, placeholderParams, type Emission } from './kernel-checks.js';
import { bindingEvaluator, type EvaluationContext } from '../codegen/index.js';
import { withEmission, type KernelEmission } from '../codegen/gate.js';
import { combine, detached, firstStage, kept, Mover, withKernels } from './incremental-move.js';
import { carryStates, type DeclState, type State } from './incremental-states.js';
import { closureByName } from './decl-names.js';

export interface IncrementalOptions {
  /** most points a GenP check enumerates (the `layout.genp.checkBudget` setting) */
  budget?: number;
  /** GPU for schedules without an `on` clause (the `layout.gpuTarget` setting) */
  gpuTarget?: string;
  /**
   * polled before each declaration's elaboration, rules, schedule and kernel checks and during the
   * slow rules; true stops the analysis and the result is `cancelled` (what was not finished is
   * done by the next call)
   */
  shouldStop?: () => boolean;
  /**
   * Called once with every diagnostic but those of slow checks still to run (syntax, names,
   * elaboration, fast rules, template checks, and the slow results kept from earlier versions), before
   * those checks run (emission's evaluation of kernels, the GenP enumeration); only when there are some to run. Like `onSyntax`'s and the result's, the list is the
   * caller's: later versions move none of its ranges.
   */
  onFast?: (diagnostics: Diagnostic[]) => void;
  /**
   * Called once, as soon as the file is parsed and its names resolved (before any elaboration),
   * with the syntax and name diagnostics, sorted: exactly those of the result (complete for what
   * they cover; the result adds the others). Not called when the whole file is analysed the plain
   * way (`stats.full`) or the parse was stopped.
   */
  onSyntax?: (diagnostics: Diagnostic[]) => void;
  /** the document's URI, for the kernel checks' template files */
  uri?: string;
  /**
   * This version's parse, from a parser the caller shares (the main thread's snapshots: one parse
   * per version), with its objects at this version's offsets while the run reads them (the caller
   * claims it again before each step when other versions are read meanwhile). Without it the
   * analysis parses with its own parser.
   */
  parsed?: ChunkedParse;
  /** with `parsed`: its name resolution, from the same caller (its own cache of the document's versions) */
  resolution?: Resolution;
  /**
   * polled during a GenP enumeration (with `shouldStop`): true ends the enumeration early, keeping
   * where it was, and the run yields (`steps`); the next step goes on from there. For a caller that
   * runs the analysis in slices on a thread that must keep answering requests.
   */
  shouldPause?: () => boolean;
}

/** `IncrementalAnalysis.steps`: yields where it can stop; `next(true)` stops it. */
export type AnalysisSteps = Generator<void, IncrementalResult, boolean | undefined>;

export interface IncrementalResult {
  diagnostics: Diagnostic[];
  /** stopped by `shouldStop`: the diagnostics are partial */
  cancelled: boolean;
  stats: IncrementalStats;
}

/** What one call did (for tests and benchmarks). */
export interface IncrementalStats {
  /** declarations in the file */
  decls: number;
  /** chunks parsed for this version (the others were copied) */
  chunksParsed: number;
  /** declarations re-checked because they or what they use changed */
  rechecked: number;
  /** declarations elaborated (the re-checked ones and what they depend on) */
  elaborated: number;
  /** the whole file was analysed the plain way */
  full: boolean;
}

class Fallback extends Error {}

const SLOW = rules.map((r) => r.category === 'slow');

/**
 * Kernels to evaluate beyond which the rest is offered first (`onFast`): an edit's one or two take a
 * millisecond or two (its result comes as soon), an open's hundreds take seconds.
 */
const EVALUATIONS_STAGED = 4;

export class IncrementalAnalysis {
  private readonly parser = new ChunkedParser();
  private runs = 0;
  private resolveCache = new ResolveCache();
  private state?: State;

  /** Forgets every earlier version. */
  reset(): void {
    this.state = undefined;
    this.parser.reset();
    this.resolveCache = new ResolveCache();
  }

  diagnose(text: string, options: IncrementalOptions = {}): IncrementalResult {
    const steps = this.steps(text, options);
    const stop = options.shouldStop;
    let r = steps.next(false);
    while (!r.done) r = steps.next(stop ? stop() : false);
    return r.value;
  }

  /**
   * `diagnose` in steps, for a caller that runs it a slice at a time (lsp/analysis-runner.ts): each
   * `next(stop)` runs to the next point where the analysis can stop (before each declaration's work,
   * each kernel, each slow rule's use; inside a GenP enumeration when `shouldPause` says so) and
   * yields; `next(true)` there stops it as `shouldStop` does (the result is `cancelled`), `next(false)`
   * goes on. The state it works on is this object's: one run at a time, and every run that was
   * started (a first `next`) must be run to its end or stopped before the next one starts (a run
   * updates the kept state in place as it goes; stopping it leaves that state consistent). One never
   * started has done nothing and may be dropped.
   */
  *steps(text: string, options: IncrementalOptions = {}): AnalysisSteps {
    const budget = options.budget ?? DEFAULT_BUDGET;
    try {
      return yield* this.run(text, budget, options);
    } catch (e) {
      // a failure inside a rule or the elaborator (reported the whole-file way), or a bug here
      this.reset();
      const a = analyze(text, { slow: true, budget, gpuTarget: options.gpuTarget, ...(options.shouldStop ? { shouldStop: options.shouldStop } : {}) });
      const decls = a.file.decls.length;
      if (!(e instanceof Fallback) && process.env.LAYOUT_DEBUG_INCREMENTAL) console.error(e);
      const diagnostics = fileDiagnostics(a, text, options.uri);
      return { diagnostics, cancelled: a.cancelled, stats: { decls, chunksParsed: 0, rechecked: decls, elaborated: decls, full: true } };
    }
  }

  private *run(text: string, budget: number, options: IncrementalOptions): AnalysisSteps {
    const previous = this.parser.previous;
    const shared = options.parsed;
    const p = shared ?? (options.shouldStop ? this.parser.parse(text, options.shouldStop) : this.parser.parse(text));
    if (!p) return { diagnostics: [], cancelled: true, stats: { decls: 0, chunksParsed: 0, rechecked: 0, elaborated: 0, full: false } };
    if (!p.chunks || !p.from) throw new Fallback('too many syntax errors');
    const resolution = shared && options.resolution ? options.resolution : resolve(p.file, p.lines, this.resolveCache);
    if (options.onSyntax) options.onSyntax(firstStage(p.diagnostics, resolution.diagnostics));
    // the kept results are those of the chunks the parser compared with; a parse given by the caller
    // compared with whatever version its parser read last: its chunks are matched to the kept ones by
    // identity (a chunk kept from the last analysed version is the same object)
    const old = this.state && (shared || this.state.chunks === previous) ? this.state : undefined;
    const from = shared ? fromByIdentity(old?.chunks, p.chunks) : p.from;
    const run = ++this.runs;
    const sameSettings = !!old && budget === old.budget && options.gpuTarget === old.gpuTarget && options.uri === old.uri;

    // ---- declarations, and which old ones they are (incremental-states.ts); who uses and who
    // declares each name, kept up to date as declarations come and go
    const { decls, firstDecl, kernels: kernelStates, moved, dirty, changed, users, definers, params, noisy, paramsChanged, linears, assumes, assumesChanged } = carryStates(old, p.chunks, from, sameSettings, run);

    // ---- what must be re-checked: edited declarations, and what uses their names (transitively)
    const isDirty = new Uint8Array(decls.length);
    for (const j of dirty) isDirty[j] = 1;
    const seenName = new Set<string>();
    while (changed.length) {
      const n = changed.pop()!;
      if (seenName.has(n)) continue;
      seenName.add(n);
      for (const u of users.get(n) ?? []) {
        if (isDirty[u.index]) continue;
        isDirty[u.index] = 1;
        dirty.push(u.index);
        for (const m of u.defines) changed.push(m);
      }
    }

    // ---- moved declarations keep their results, moved with their chunks. A kept declaration whose
    // own chunk stayed may hold ranges in other chunks (a fix that edits a param, related information
    // at a first declaration) that moved or changed: every kept one with diagnostics is moved too
    // (the Mover moves each range with the chunk that holds it, or finds it points outside what was kept)
    if (old && noisy.size) {
      const listed = new Set(moved);
      // (every state in `noisy` is kept now: those that went were taken out above)
      for (const d of noisy) if (!listed.has(d)) moved.push(d);
    }
    if (old && moved.length) {
      const oldToNew = new Map<number, number>();
      from.forEach((o, k) => { if (o !== undefined) oldToNew.set(o, k); });
      const mover = new Mover(old.chunks, old.starts, p.chunks, oldToNew, SLOW);
      for (const d of moved) {
        const m = isDirty[d.index] ? undefined : mover.moveResults(d, budget === old.budget, options.gpuTarget === old.gpuTarget, options.uri === old.uri);
        d.elab = m?.elab;
        d.rules = m?.rules ?? [];
        d.schedule = m?.schedule;
        d.kernel = m?.kernel;
        d.emission = m?.emission;
        if (!m && !isDirty[d.index]) {
          isDirty[d.index] = 1; // a result that points outside the unchanged text: check again
          dirty.push(d.index);
        }
      }
    }
    // every declaration is looked at after a partial run or a settings change; otherwise the others
    // have all their results
    const full = !old || old.partial || !sameSettings;
    const todoOf = (d: DeclState): boolean => isDirty[d.index] === 1 || d.elab === undefined
      || lacks(d, false);
    const isTodo = new Uint8Array(decls.length);
    /** the declarations to look at this run, in order */
    let work: number[];
    if (full) {
      work = [];
      for (const d of decls) {
        if (todoOf(d)) isTodo[d.index] = 1;
        if (isTodo[d.index] || lacks(d, true) || d.schedule === undefined) work.push(d.index);
      }
    } else {
      work = dirty.sort((x, y) => x - y);
      for (const j of work) isTodo[j] = 1;
    }
    const todo = (j: number): boolean => isTodo[j] === 1;
    /** the declarations with diagnostics, in order: those whose results this run set are looked at again */
    const markNoisy = (): void => {
      const mark = (d: DeclState) => {
        if (d.elab?.length || d.schedule?.length || d.rules.some((r) => r?.length)) noisy.add(d);
        else noisy.delete(d);
      };
      for (const j of work) mark(decls[j]);
      for (const d of moved) mark(d);
    };
    const noisyNow = (): DeclState[] => {
      markNoisy();
      return [...noisy].sort((x, y) => x.index - y.index);
    };

    // cancellation is cooperative: polled before each declaration's work (the worker is never
    // terminated for typing); what was not finished is marked so and done by the next version
    const stop = options.shouldStop;
    const chunks = p.chunks;
    const starts = p.starts!;
    const next = (partial: boolean): State => ({ chunks, starts, decls, firstDecl, budget, gpuTarget: options.gpuTarget, uri: options.uri, users, definers, params, partial, noisy, kernels: kernelStates, linears, assumes });
    /** re-checked declarations whose elaboration, fast rules and schedule checks are all done */
    const done: boolean[] = [];
    const abandon = (): IncrementalResult => {
      // finished declarations keep their results (the next run does not repeat them)
      for (const j of work) {
        const d = decls[j];
        if (!todo(j) || done[j]) continue;
        d.elab = undefined;
        d.rules = [];
        d.schedule = undefined;
        d.kernel = undefined;
      }
      // the moved declarations and the finished ones are listed by their diagnostics now: the next
      // run (of this text) looks at neither again
      markNoisy();
      this.state = next(true);
      return { diagnostics: [], cancelled: true, stats: { decls: decls.length, chunksParsed: p.parsed, rechecked: 0, elaborated: 0, full: false } };
    };

    // ---- kernel blocks: template vs bindings (names only), kept while the block, the params' names it
    // asked about and (for template files, read again every time) the template stay the same; and
    // which kernels' bindings are evaluated again (emission's own diagnostics): those re-checked, those
    // whose template changed, those whose `{{ param_NAME }}` params were edited, and all of them when
    // an `assume` was (its facts simplify every query)
    let kernelChecker: KernelChecker | undefined;
    /** the checker of this version's kernels, made when first needed */
    const checker = (): KernelChecker => (kernelChecker ??= new KernelChecker(p.file, text, options.uri, new Placeholders(params, p.file)));
    const evaluate: DeclState[] = [];
    for (const d of kernelStates) {
      const k = d.decl as ast.KernelDecl;
      // a kept result that asked about param names stays valid while the file's param names are the same
      const keep = d.kernel && !todo(d.index) && d.kernel.asked && (paramsChanged || full ? checker().valid(d.kernel) : true);
      if (!keep) {
        if (yield) return abandon();
        try {
          const r = checker().check(k);
          d.kernel = { ...r, diagnostics: kept(r.diagnostics) };
        } catch {
          throw new Fallback('a kernel check failed');
        }
      }
      const ev = d.kernel!.evaluable;
      const e = d.emission;
      if (!ev) d.emission = undefined;
      else if (!e || assumesChanged || todo(d.index) || e.template !== ev.template.text || [...e.paramsRead.keys()].some((n) => seenName.has(n))) {
        d.emission = undefined; // (a stopped run leaves it so: the next run evaluates it)
        evaluate.push(d);
      }
    }

    // ---- elaboration of the re-checked declarations, after what they depend on
    // the re-checked declarations, and those whose slow results must be computed again
    const needs = (j: number): boolean => todo(j) || lacks(decls[j], true)
      || (decls[j].decl.kind === 'Schedule' && decls[j].schedule === undefined);
    const roots: DeclState[] = [];
    for (const j of work) if (needs(j)) roots.push(decls[j]);
    // a kernel evaluated again, the params its template names, and the file's facts
    if (evaluate.length) for (const d of assumes) roots.push(d);
    for (const d of evaluate) {
      roots.push(d);
      for (const n of placeholderParams(d.kernel!.evaluable!)) for (const k of definers.get(n) ?? []) roots.push(k);
    }
    const closure = new Set([...closureByName(roots, (d) => d.uses, (n) => definers.get(n))].map((d) => d.index));
    if (yield) return abandon();
    const el = new Elaborator(resolution, {});
    for (const j of [...closure].sort((a, b) => a - b)) {
      if (yield) return abandon();
      const d = decls[j].decl;
      const before = el.diagnostics.length;
      el.guardedDecl(d);
      if (todo(j)) decls[j].elab = kept(el.diagnostics.slice(before));
    }

    // ---- rules: the fast ones per re-checked declaration, the global ones on the whole file
    const ctx = ruleContext({ text, file: p.file, resolution, model: el.model }, { budget, ...(options.shouldStop ? { shouldStop: options.shouldStop } : {}) });
    const global: (Diagnostic[] | undefined)[] = rules.map(() => undefined);
    for (let ri = 0; ri < rules.length; ri++) {
      if (SLOW[ri] || !rules[ri].global) continue;
      if (yield) return abandon();
      global[ri] = runRule(rules[ri].run, ctx).diagnostics;
    }
    // per declaration (declaration by declaration, so that a cancelled run keeps what it finished):
    // the fast rules, then the schedule checks of a schedule block, against the file's params and
    // lets (as `analyze` checks them)
    let env: ScheduleEnv | undefined;
    for (const j of work) {
      const d = decls[j];
      if (!todo(j) && d.schedule !== undefined && !lacks(d, false)) continue;
      if (yield) return abandon();
      const one: RuleContext = { ...ctx, decls: [d.decl] };
      for (let ri = 0; ri < rules.length; ri++) {
        if (SLOW[ri] || rules[ri].global) continue;
        if (todo(j) || d.rules[ri] === undefined) d.rules[ri] = kept(runRule(rules[ri].run, one).diagnostics);
      }
      if (todo(j) || d.schedule === undefined) {
        const s = d.decl;
        if (s.kind !== 'Schedule') d.schedule = kept([]);
        else {
          env ??= scheduleEnvOf(el.model, resolution, undefined, ctx.scenarios);
          try {
            d.schedule = kept(checkSchedule(s, env, { defaultTarget: options.gpuTarget }));
          } catch (e) {
            d.schedule = kept([{ code: 'check/internal-error', severity: 'error', message: `internal error while checking schedule '${s.name.name}': ${(e as Error).message}`, range: s.name.range }]);
          }
        }
      }
      done[j] = true;
    }
    const kernels: Diagnostic[] = [];
    for (const d of kernelStates) for (const x of d.kernel!.diagnostics) kernels.push(x);
    // linear layouts (whole file, cheap; only files that declare one): as `analyze` does
    if (linears > 0) kernels.push(...linearDiagnostics(p.file, resolution, elaborate(p.file, resolution).model));
    this.state = next(false);

    // ---- the slow stages, after the rest has been offered: emission's evaluation of the kernels'
    // bindings (checked above, elaborated with the rest), then the slow rules (GenP enumeration)
    const slowWork = work.some((j) => (todo(j) || rules.some((_, ri) => SLOW[ri] && decls[j].rules[ri] === undefined)) && decls[j].genp);
    if ((slowWork || evaluate.length > EVALUATIONS_STAGED) && options.onFast) options.onFast(detached(withKernels(combine(p.diagnostics, resolution.diagnostics, noisyNow(), global), kernels)));
    let evaluator: EvaluationContext | undefined;
    for (const d of evaluate) {
      if (yield) return abandon();
      evaluator ??= { ...bindingEvaluator(el.model, []), file: p.file };
      // a binding at a time: the analysis can yield between two
      const bindings = checker().evaluate(d.decl as ast.KernelDecl, d.kernel!.evaluable!, evaluator, stop);
      let e: Emission | undefined;
      for (;;) {
        let r: IteratorResult<void, Emission | undefined>;
        try {
          r = bindings.next();
        } catch {
          throw new Fallback('a kernel evaluation failed');
        }
        if (r.done) {
          e = r.value;
          break;
        }
        if (yield) return abandon();
      }
      if (!e) return abandon();
      d.emission = { ...e, diagnostics: kept(e.diagnostics) };
    }
    const emission: KernelEmission[] = [];
    for (const d of kernelStates) if (d.emission?.diagnostics.length) emission.push({ kernel: d.decl as ast.KernelDecl, diagnostics: d.emission.diagnostics });
    // what a kernel depends on by name (as `dependsOnByName` finds it in the whole file), from the kept indexes
    const stateOf = new Map<ast.Decl, DeclState>();
    const dependsOn = (kernel: ast.KernelDecl): ReadonlySet<ast.Decl> => {
      if (stateOf.size === 0) for (const d of kernelStates) stateOf.set(d.decl, d);
      const seen = closureByName([stateOf.get(kernel)!], (d) => d.uses, (n) => definers.get(n));
      return new Set([...seen].map((d) => d.decl));
    };
    let cancelled = false;
    // a slow rule stopped by `shouldPause` keeps its progress in `ctx.index` (a GenP enumeration goes
    // on where it stopped) and runs again after the yield; stopped by `shouldStop`, the result is partial
    const pause = options.shouldPause;
    const slowCtx: RuleContext = pause ? { ...ctx, shouldStop: () => stop?.() === true || pause() } : ctx;
    for (let ri = 0; ri < rules.length && !cancelled; ri++) {
      const rule = rules[ri];
      if (!SLOW[ri]) continue;
      for (const j of work) {
        const d = decls[j];
        if (!todo(j) && d.rules[ri] !== undefined) continue;
        d.rules[ri] = undefined;
        if (!d.genp && !rule.global) {
          d.rules[ri] = kept([]);
          continue;
        }
        let r = runRule(rule.run, { ...slowCtx, decls: [d.decl] });
        while (r.cancelled && pause && !stop?.()) {
          if (yield) break;
          r = runRule(rule.run, { ...slowCtx, decls: [d.decl] });
        }
        if (r.cancelled) {
          cancelled = true;
          break;
        }
        d.rules[ri] = kept(r.diagnostics);
      }
    }
    if (cancelled) this.state.partial = true;
    return {
      // ranges of their own: the AST's (syntax and name diagnostics hold some) move with later versions
      // emission's own (evaluating the kernels' bindings) once nothing a kernel depends on is an error, as `fileDiagnostics`
      diagnostics: detached(withEmission(withKernels(combine(p.diagnostics, resolution.diagnostics, noisyNow(), global), kernels), emission, { decls: p.file.decls, dependsOn })),
      cancelled,
      stats: { decls: decls.length, chunksParsed: p.parsed, rechecked: work.filter(todo).length, elaborated: closure.size, full: false },
    };
  }
}

/**
 * For each of `now`'s chunks, the index of the same chunk object in `old` (undefined: a chunk not
 * kept). Both lists keep chunks in order, so the unchanged ends are matched first and only the
 * middle is looked up.
 */
function fromByIdentity(old: readonly Chunk[] | undefined, now: readonly Chunk[]): (number | undefined)[] {
  const from: (number | undefined)[] = new Array(now.length).fill(undefined);
  if (!old) return from;
  let lead = 0;
  while (lead < now.length && lead < old.length && now[lead] === old[lead]) from[lead] = lead++;
  let trail = 0;
  while (trail < now.length - lead && trail < old.length - lead && now[now.length - 1 - trail] === old[old.length - 1 - trail]) {
    from[now.length - 1 - trail] = old.length - 1 - trail;
    trail++;
  }
  if (lead + trail < now.length && lead + trail < old.length) {
    const at = new Map<Chunk, number>();
    for (let k = lead; k < old.length - trail; k++) at.set(old[k], k);
    for (let k = lead; k < now.length - trail; k++) from[k] = at.get(now[k]);
  }
  return from;
}

/**
 * Does `d` lack the result of a per-declaration rule (a slow one too when `slow`)? Looked up by
 * index: a stopped run leaves the lists short or with holes, which `some` and `map` skip.
 */
function lacks(d: DeclState, slow: boolean): boolean {
  for (let ri = 0; ri < rules.length; ri++) if (d.rules[ri] === undefined && !rules[ri].global && (slow || !SLOW[ri])) return true;
  return false;
}

/** Runs one rule; a failure makes the whole version fall back to the whole-file analysis. */
function runRule(run: (ctx: RuleContext) => { diagnostics: Diagnostic[]; cancelled?: boolean }, ctx: RuleContext): { diagnostics: Diagnostic[]; cancelled?: boolean } {
  try {
    return run(ctx);
  } catch {
    throw new Fallback('a rule failed');
  }
}
