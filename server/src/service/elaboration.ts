// The elaborated model (check/elaborate.ts) behind hovers, inlay hints and the layout picture:
// the same elaborator, query evaluation and printers as `layout expr` and code generation.
//
// Per document version (a LayoutDocument), a declaration is elaborated on first use together
// with the declarations it depends on (those that declare a name it uses, transitively), in
// source order: the way the incremental analysis elaborates a re-checked declaration, so that
// what the elaborator knows of each name there is what the whole-file elaboration knows. A
// kernel of the 2,000-line bench file needs about ten declarations, not the file's 585 (the
// whole-file elaboration takes 30-100 ms there). The result is kept for the version, and (with the
// document's history) for later versions while those declarations and their names' meanings are
// unchanged: the first hover after an edit elaborates only what the edit touched.
import type * as ast from '../../../grammar/src/ast.js';
import type { Diagnostic } from '../../../grammar/src/diagnostic.js';
import { Elaborator, type Model } from '../check/elaborate.js';
import { scheduleEnvOf, type ScheduleEnv } from '../check/schedule/index.js';
import type { LayoutDocument } from './document.js';
import { names } from './decl-names.js';

export interface DeclModel {
  /** the model of the declaration and of everything it depends on */
  model: Model;
  /** the elaborator's diagnostics for those declarations */
  diagnostics: Diagnostic[];
}

interface DocModels {
  /** global name -> indices (into file.decls) of the declarations that declare it; built on first need */
  definers?: Map<string, number[]>;
  /** indices of the `assume` declarations; found on first need */
  assumes?: number[];
  byDecl: Map<ast.Decl, DeclModel>;
}

const docs = new WeakMap<LayoutDocument, DocModels>();
/** a declaration's (or a param item's) names; unchanged declarations are the same objects in the next version */
const namesOf = new WeakMap<ast.Decl | ast.ParamItem, { defines: string[]; uses: ReadonlySet<string> }>();

function declNames(d: ast.Decl | ast.ParamItem): { defines: string[]; uses: ReadonlySet<string> } {
  let n = namesOf.get(d);
  // (`names` walks any node: an item's are its value's and candidates' names, and its own)
  if (!n) namesOf.set(d, (n = names(d as ast.Decl)));
  return n;
}

// Nothing here is built per version up front: a hover on a file of 150,000 one-line params elaborates one
// declaration, which uses no name, so it needs neither the map of every name's definers nor an index of every
// declaration (built eagerly, they took about 100 ms per version there).
function docModels(doc: LayoutDocument): DocModels {
  let m = docs.get(doc);
  if (!m) docs.set(doc, (m = { byDecl: new Map() }));
  return m;
}

function definersOf(doc: LayoutDocument, m: DocModels): Map<string, number[]> {
  if (!m.definers) {
    const definers = new Map<string, number[]>();
    const add = (n: string, j: number) => {
      const l = definers.get(n);
      if (l) l.push(j);
      else definers.set(n, [j]);
    };
    const decls = doc.file.decls;
    for (let j = 0; j < decls.length; j++) {
      const d = decls[j];
      if (d.kind === 'Param') for (const it of d.items) add(it.name.name, j);
      else if (d.kind !== 'Assume') add(d.name.name, j);
    }
    m.definers = definers;
  }
  return m.definers;
}

function assumesOf(doc: LayoutDocument, m: DocModels): number[] {
  if (!m.assumes) {
    const decls = doc.file.decls;
    m.assumes = doc.rareDecls.filter((j) => decls[j].kind === 'Assume');
  }
  return m.assumes;
}

/** The index of `decl` in `decls` (in source order: a binary search by start offset), or undefined. */
function indexOfDecl(decls: readonly ast.Decl[], decl: ast.Decl): number | undefined {
  let lo = 0;
  let hi = decls.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = decls[mid].range.start;
    if (s === decl.range.start) {
      if (decls[mid] === decl) return mid;
      break;
    }
    if (s < decl.range.start) lo = mid + 1;
    else hi = mid - 1;
  }
  const j = decls.indexOf(decl); // not sorted as expected (never seen): look everywhere
  return j >= 0 ? j : undefined;
}

/** The elaborated model of `decl` (a declaration of `doc.file`) and what it depends on. Never throws. */
export function modelOfDecl(doc: LayoutDocument, decl: ast.Decl): DeclModel {
  const m = docModels(doc);
  let r = m.byDecl.get(decl) ?? scratch?.get(decl);
  if (!r) {
    r = elaborateClosure(doc, m, decl, undefined, doc.history?.models as WeakMap<ast.Decl, Carried> | undefined, scratch === undefined);
    (scratch ?? m.byDecl).set(decl, r);
  }
  return r;
}

/** the models elaborated inside `transientModels`, dropped after it */
let scratch: Map<ast.Decl, DeclModel> | undefined;

/**
 * `f()` with the models it elaborates dropped afterwards: neither kept for the version nor carried
 * to later ones (nor are the symbolic results layout-info.ts keeps: `modelsKept`). For work ahead
 * of requests (hover-prime.ts), whose product is a hover text kept on its own: the models of the
 * hundreds of layouts it computes would otherwise stay as long as their declarations are unchanged.
 */
export function transientModels<T>(f: () => T): T {
  const was = scratch;
  scratch = new Map();
  try {
    return f();
  } finally {
    scratch = was;
  }
}

/** false inside `transientModels` */
export function modelsKept(): boolean {
  return scratch === undefined;
}

/**
 * A declaration's model as an earlier version built it: valid in a later version when the
 * declarations elaborated for it are the same (unchanged) declarations and each resolves its names
 * exactly as then (the same resolution unit): the elaborator then computes the same model.
 */
interface Carried {
  decls: ast.Decl[];
  /** where they started: a model holds ranges of its own (a query's), so a moved declaration is elaborated again */
  starts: number[];
  units: (object | undefined)[];
  result: DeclModel;
}

/**
 * The model of `decl` with some params set to other values than the declared ones (the picture drawn at
 * small sizes). Not kept: every call elaborates again.
 */
export function modelWithOverrides(doc: LayoutDocument, decl: ast.Decl, overrides: ReadonlyMap<string, bigint>): DeclModel {
  return elaborateClosure(doc, docModels(doc), decl, overrides);
}

/**
 * The declarations that `decl` is elaborated with (itself, those that declare a name it uses,
 * transitively, and the file's `assume`s), in source order: together with their order, their
 * texts decide its model (the cross-version hover cache of layout-info.ts is keyed on them).
 */
export function closureOf(doc: LayoutDocument, decl: ast.Decl): ast.Decl[] {
  const decls = doc.file.decls;
  return closureIndices(doc, docModels(doc), decl).map((j) => decls[j]);
}

/**
 * What the texts kept across versions for `decl` (hover-cache.ts `acrossVersions`) are keyed on:
 * the text of each declaration of its closure (`closureOf`), but of a `param`/`const` declaration
 * with several items (not `decl` itself) only its items up to the last one `decl` needs: one whose
 * name the closure's other declarations use, or an item they need uses, transitively. A
 * declaration's items are elaborated in order, each with what the items before it defined, so the
 * items after the last one needed change nothing `decl` is elaborated to (a later item of the same
 * name as a needed one is needed itself); the items before it are kept in the key whether needed or
 * not. So an edit of `GM` in `const BM = 128, BN = 128, BK = 32, GM = 8` leaves the texts kept for
 * the layouts that use only `BM`, `BN` and `BK`, and every layout that uses `GM` is computed again.
 */
export function closureKeyTexts(doc: LayoutDocument, decl: ast.Decl, closure: readonly ast.Decl[] = closureOf(doc, decl)): string[] {
  const text = doc.text;
  const whole = (d: ast.Node) => text.slice(d.range.start, d.range.end);
  const split = (d: ast.Decl): d is ast.ParamDecl => d.kind === 'Param' && d !== decl && d.items.length > 1;
  if (!closure.some(split)) return closure.map(whole);
  const byName = new Map<string, ast.ParamItem[]>();
  for (const d of closure) {
    if (!split(d)) continue;
    for (const it of d.items) {
      const list = byName.get(it.name.name);
      if (list) list.push(it);
      else byName.set(it.name.name, [it]);
    }
  }
  const needed = new Set<ast.ParamItem>();
  const seen = new Set<string>();
  const stack: string[] = [];
  for (const d of closure) if (!split(d)) for (const n of declNames(d).uses) stack.push(n);
  while (stack.length) {
    const n = stack.pop()!;
    if (seen.has(n)) continue;
    seen.add(n);
    for (const it of byName.get(n) ?? []) {
      needed.add(it);
      for (const m of declNames(it).uses) stack.push(m);
    }
  }
  return closure.map((d) => {
    if (!split(d)) return whole(d);
    let last = -1;
    d.items.forEach((it, k) => { if (needed.has(it)) last = k; });
    return `${d.isConst ? 'const' : 'param'} ${d.items.slice(0, last + 1).map(whole).join('\u0002')}`;
  });
}

function elaborateClosure(doc: LayoutDocument, m: DocModels, decl: ast.Decl, overrides?: ReadonlyMap<string, bigint>, carried?: WeakMap<ast.Decl, Carried>, carry = true): DeclModel {
  const decls = doc.file.decls;
  const resolution = doc.symbols.resolution;
  const closure = closureIndices(doc, m, decl);
  if (closure.length === 0) return { model: new Elaborator(resolution, overrides ? { overrides } : {}).model, diagnostics: [] };
  const order = closure.map((j) => decls[j]);
  const units = carried ? order.map((d) => resolution.unitOf(d)) : [];
  const starts = carried ? order.map((d) => d.range.start) : [];
  const kept = carried?.get(decl);
  if (kept && same(kept.decls, order) && same(kept.starts, starts) && same(kept.units, units)) return kept.result;
  const el = new Elaborator(resolution, overrides ? { overrides } : {});
  for (const d of order) el.guardedDecl(d);
  const result = { model: el.model, diagnostics: el.diagnostics };
  if (carry) carried?.set(decl, { decls: order, starts, units, result });
  return result;
}

function same<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The indices of the declarations that declare `name`: from name resolution's table of declarers where it
 * keeps one across versions (nothing built per version), else from a map of the whole file's.
 */
function definers(doc: LayoutDocument, m: DocModels, name: string): number[] {
  const r = doc.symbols.resolution;
  const ds = r.declarersOf(name);
  if (!ds) return definersOf(doc, m).get(name) ?? [];
  const decls = doc.file.decls;
  const out: number[] = [];
  for (const d of ds) {
    const j = indexOfDecl(decls, d);
    if (j !== undefined) out.push(j);
  }
  return out;
}

/** the indices of `closureOf`, sorted; none when `decl` is not one of the file's */
function closureIndices(doc: LayoutDocument, m: DocModels, decl: ast.Decl): number[] {
  const decls = doc.file.decls;
  const start = indexOfDecl(decls, decl);
  if (start === undefined) return [];
  const closure = new Set<number>([start]);
  const stack = [start];
  // file-level facts (`assume`) cover every query: elaborate them with the declaration
  for (const j of assumesOf(doc, m)) {
    if (!closure.has(j)) {
      closure.add(j);
      stack.push(j);
    }
  }
  while (stack.length) {
    const j = stack.pop()!;
    for (const n of declNames(decls[j]).uses) {
      for (const k of definers(doc, m, n)) {
        if (!closure.has(k)) {
          closure.add(k);
          stack.push(k);
        }
      }
    }
  }
  return [...closure].sort((a, b) => a - b);
}

/** The first error the elaborator reported inside `range`, if any. */
export function errorIn(dm: DeclModel, range: ast.Range): Diagnostic | undefined {
  return dm.diagnostics.find((d) => d.severity === 'error' && d.range.start >= range.start && d.range.end <= range.end);
}

/**
 * The value of a param/const item or a let at the params' values, as the model has it (nothing
 * for a second declaration of a name, which the model ignores, or for a let that uses a name
 * before its declaration). Never throws.
 */
export function declaredValue(doc: LayoutDocument, decl: ast.ParamDecl | ast.LetDecl, item?: ast.ParamItem): bigint | undefined {
  try {
    const { model } = modelOfDecl(doc, decl);
    if (decl.kind === 'Let') {
      const m = model.lets.get(decl.name.name);
      return m?.decl === decl ? m.value : undefined;
    }
    const p = item && model.params.get(item.name.name);
    return p && p.item === item ? p.value : undefined;
  } catch {
    return undefined;
  }
}

/** The schedule checks' view of a schedule block: its model (and what it depends on). */
export function scheduleEnvOfDecl(doc: LayoutDocument, decl: ast.ScheduleDecl): ScheduleEnv {
  return scheduleEnvOf(modelOfDecl(doc, decl).model, doc.symbols.resolution);
}
