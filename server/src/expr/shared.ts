// Common-subexpression sharing for the text printers: a subtree of the printed form (ptree.ts)
// that occurs two or more times across a list of expressions (e.g. the coordinates of one
// `inv`, whose permutation bodies repeat) is computed once into a named temporary, and every
// occurrence prints as its name. `countOpsShared` counts each temporary's operations once (the
// metric of countOps, over the shared form). MLIR needs no such step: printMlir already emits
// one SSA value per distinct operation.
//
// Deterministic: temporaries are found in print order (first occurrence, children before
// parents) and named `${prefix}0`, `${prefix}1`, ...; the prefix avoids every symbol of the input.
import { type Expr } from './node.js';
import { type PT, PrintTreeBuilder, checkPrintDepth } from './ptree.js';
import { type Lang, pr } from './print-text.js';
import { freeSymbols } from './eval.js';

export interface SharedText {
  /** the temporaries, in dependency order: `name = text` */
  readonly temps: readonly { name: string; text: string; ops: number }[];
  /** one text per input expression, temporaries by name */
  readonly results: readonly string[];
  /** operations of the shared form: each temporary once, plus the results */
  readonly ops: number;
  /** operations of the same expressions printed separately, without sharing (countOps each, summed) */
  readonly unsharedOps: number;
}

export interface SharedOptions {
  /** temporaries' name prefix (default `t`; extended with `_` until no symbol of the input starts with it) */
  readonly prefix?: string;
  /** names the temporaries must not take (e.g. template variables) */
  readonly reserved?: ReadonlySet<string>;
}

function children(p: PT): readonly PT[] {
  switch (p.k) {
    case 'num':
    case 'sym':
      return [];
    case 'arange':
      return [p.start, p.stop];
    case 'sum':
      return p.terms.map((t) => t.t);
    case 'prod':
      return p.factors;
    case 'fdiv':
    case 'mod':
    case 'cmp':
      return [p.a, p.b];
    case 'min':
    case 'max':
    case 'and':
    case 'or':
      return p.args;
    case 'not':
      return [p.a];
    case 'sel':
      return [p.c, p.a, p.b];
    case 'bit':
      return [p.a, p.b];
  }
}

/** structural keys of print-tree nodes (two nodes with the same key print the same text) */
class Keys {
  private memo = new WeakMap<PT, string>();
  private ids = new Map<string, string>();
  key = (p: PT): string => {
    let k = this.memo.get(p);
    if (k !== undefined) return k;
    let own: string;
    switch (p.k) {
      case 'num': own = `n${p.v}`; break;
      case 'sym': own = `s${p.name}`; break;
      case 'arange': own = `a${p.bcast ? `${p.bcast.axis},${p.bcast.rank}` : ''}`; break;
      case 'sum': own = `+${p.terms.map((t) => (t.neg ? '-' : '+')).join('')}`; break;
      case 'fdiv': case 'mod': own = `${p.k}${p.nonneg ? '!' : ''}`; break;
      case 'cmp': own = `c${p.op}`; break;
      case 'bit': own = `b${p.op}`; break;
      default: own = p.k;
    }
    const full = `${own}(${children(p).map(this.key).join(',')})`;
    // intern long keys as short ids so that keys stay linear in the tree size
    k = this.ids.get(full);
    if (k === undefined) this.ids.set(full, (k = `#${this.ids.size}`));
    this.memo.set(p, k);
    return k;
  };
}

/** the operations of p with named subtrees (other than p itself) counted as 0 */
function opsWith(p: PT, key: (p: PT) => string, named: ReadonlyMap<string, string>, self?: PT): number {
  if (p !== self && p.ops > 0 && named.has(key(p))) return 0;
  const kids = children(p);
  const local = p.ops - kids.reduce((s, c) => s + c.ops, 0);
  return local + kids.reduce((s, c) => s + opsWith(c, key, named), 0);
}

interface Analysis {
  trees: PT[];
  key: (p: PT) => string;
  /** the shared subtrees in dependency order, with their keys */
  shared: { key: string; node: PT }[];
}

function analyse(es: readonly Expr[]): Analysis {
  es.forEach(checkPrintDepth);
  const b = new PrintTreeBuilder();
  const trees = es.map((e) => b.build(e));
  const { key } = new Keys();
  const count = new Map<string, number>();
  const order: { key: string; node: PT }[] = [];
  // occurrences: a repeated subtree is counted at each use but not descended into again
  const visit = (p: PT): void => {
    if (p.ops === 0) return;
    const k = key(p);
    const n = count.get(k) ?? 0;
    count.set(k, n + 1);
    if (n > 0) return;
    children(p).forEach(visit);
    order.push({ key: k, node: p });
  };
  trees.forEach(visit);
  const shared = order.filter((x) => (count.get(x.key) ?? 0) >= 2);
  return { trees, key, shared };
}

/** Operations of `es` printed together with shared temporaries (each counted once). */
export function countOpsShared(es: readonly Expr[]): number {
  const a = analyse(es);
  const named = new Map(a.shared.map((s) => [s.key, s.key]));
  return a.shared.reduce((s, x) => s + opsWith(x.node, a.key, named, x.node), 0) + a.trees.reduce((s, t) => s + opsWith(t, a.key, named), 0);
}

/**
 * Prints `es` in `lang` with shared temporaries: `temps` (in order) then `results`. With no
 * repeated subexpression, `temps` is empty and each result is exactly the plain printer's text.
 */
export function printShared(es: readonly Expr[], lang: Lang, opts: SharedOptions = {}): SharedText {
  const a = analyse(es);
  let prefix = opts.prefix ?? 't';
  const syms = new Set<string>();
  for (const e of es) for (const s of freeSymbols(e)) syms.add(s);
  const clash = (p: string) => [...syms, ...(opts.reserved ?? [])].some((s) => s.startsWith(p) && /^\d*$/.test(s.slice(p.length)));
  while (clash(prefix)) prefix += '_';
  const names = new Map<string, string>();
  a.shared.forEach((s, i) => names.set(s.key, `${prefix}${i}`));
  const temps = a.shared.map((s) => ({
    name: names.get(s.key)!,
    text: pr(s.node, lang, { key: a.key, names, self: s.node }).s,
    ops: opsWith(s.node, a.key, names, s.node),
  }));
  const results = a.trees.map((t) => pr(t, lang, { key: a.key, names }).s);
  const ops = temps.reduce((s, t) => s + t.ops, 0) + a.trees.reduce((s, t) => s + opsWith(t, a.key, names), 0);
  return { temps, results, ops, unsharedOps: a.trees.reduce((s, t) => s + t.ops, 0) };
}

