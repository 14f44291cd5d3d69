// Elaboration of calls, method calls and index expressions: LEGO's constructors and chain
// methods to algebra values, perm applications, and queries (see elaborate.ts).
import type * as ast from '../../../grammar/src/ast.js';
import { editDistance } from '../../../grammar/src/parse.js';
import * as A from '../algebra/index.js';
import * as X from '../expr/index.js';
import type { Elaborator } from './elaborate.js';
import { BAD, describe, layoutOfVal, type Val } from './elaborate-model.js';

const METHODS = ['OrderBy', 'TileOrderBy', 'GroupBy', 'TileBy', 'ExpandBy', 'apply', 'inv'];

function arity(el: Elaborator, e: ast.Call | ast.MethodCall, what: string, min: number, max: number): boolean {
  const n = e.args.length;
  if (n >= min && n <= max) return true;
  const want = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
  el.report('elab/arity', e.argsRange, `${what} takes ${want} argument${min === 1 && max === 1 ? '' : 's'}, got ${n}`);
  return false;
}

function isListNode(e: ast.Expr): e is ast.ListExpr | ast.TupleExpr {
  return e.kind === 'List' || e.kind === 'Tuple';
}

/** A list of sizes: `[M, K]` or `(M, K)`. */
function intList(el: Elaborator, e: ast.Expr, what: string, sizes = true): X.Expr[] | undefined {
  if (!isListNode(e)) {
    const v = el.ev(e);
    if (v.k !== 'bad') el.report('elab/argument-kind', e.range, `${what} must be a list, e.g. [M, K]; found ${describe(v)}`);
    return undefined;
  }
  const out = e.items.map((i) => el.int(i));
  for (const [k, x] of out.entries()) {
    el.model.values.set(e.items[k], x ? { k: 'int', e: x } : BAD);
    if (x && sizes) checkDim(el, x, e.items[k]);
  }
  return out.every((x): x is X.Expr => x !== undefined) ? out : undefined;
}

const SIZE_LIMIT = 2n ** 53n;

/** A dimension must be positive and below 2^53 at the param values (one that cannot be evaluated is left alone). */
function checkDim(el: Elaborator, x: X.Expr, at: ast.Expr): void {
  let v: bigint;
  try {
    v = X.evaluate(x, el.model.env);
  } catch {
    return;
  }
  if (v < 1n) el.report('elab/bad-size', at.range, `this dimension is ${v} at the param values; dimensions must be positive`);
  else if (v >= SIZE_LIMIT) el.report('elab/bad-size', at.range, `this dimension is ${v} at the param values; dimensions must be below 2^53`);
}

/**
 * The number of elements of `L` at the param values when it is 2^53 or more (every dimension
 * positive and evaluable), else undefined: such a layout cannot be evaluated exactly.
 */
export function oversize(L: A.Layout, env: ReadonlyMap<string, bigint>): bigint | undefined {
  let p = 1n;
  for (const d of A.dims(L)) {
    let v: bigint;
    try {
      v = X.evaluate(d, env);
    } catch {
      return undefined;
    }
    if (v < 1n || v >= SIZE_LIMIT) return undefined; // reported at the dimension
    p *= v;
  }
  return p >= SIZE_LIMIT ? p : undefined;
}

/** A list of integer constants (a RegP permutation). */
function constList(el: Elaborator, e: ast.Expr, what: string): number[] | undefined {
  const xs = intList(el, e, what, false);
  if (!xs) return undefined;
  const out: number[] = [];
  for (const [k, x] of xs.entries()) {
    if (x.kind !== 'int' || x.value < 0n || x.value > 1000n) {
      el.report('elab/not-constant', (e as ast.ListExpr).items[k].range, `${what} entries must be integer constants (0-based dimension positions)`);
      return undefined;
    }
    out.push(Number(x.value));
  }
  return out;
}

/** `[6, 6]` is one level; `[(6, 6)]` or `[[2, 2], [3, 3]]` are levels. */
function levels(el: Elaborator, e: ast.Expr, what: string): X.Expr[][] | undefined {
  if (isListNode(e) && e.items.length > 0 && e.items.every(isListNode)) {
    const out = e.items.map((i) => intList(el, i, what));
    return out.every((x): x is X.Expr[] => x !== undefined) ? out : undefined;
  }
  const one = intList(el, e, what);
  return one ? [one] : undefined;
}

function block(el: Elaborator, e: ast.Expr, what: string): A.Block | undefined {
  const v = el.ev(e);
  if (v.k === 'layout' && (v.L.kind === 'RegP' || v.L.kind === 'GenP')) return v.L;
  if (v.k !== 'bad') el.report('elab/argument-kind', e.range, `${what} takes blocks (RegP, GenP, Row, Col); found ${describe(v)}`);
  return undefined;
}

function layoutArg(el: Elaborator, e: ast.Expr): A.Layout | undefined {
  const v = el.ev(e);
  if (v.k === 'bad') return undefined;
  const L = layoutOfVal(v);
  if (typeof L === 'string') {
    el.report('elab/expected-layout', e.range, L);
    return undefined;
  }
  return L;
}

function chainOf(el: Elaborator, v: Val, at: ast.Range, method: string): A.OrderBy[] | undefined {
  if (v.k === 'chain') return v.chain;
  if (v.k === 'layout' && v.L.kind === 'OrderBy') return [v.L];
  if (v.k !== 'bad') el.report('elab/argument-kind', at, `.${method}(...) applies to OrderBy(...) or a chain of OrderBys, not to ${describe(v)}`);
  return undefined;
}

function all<T>(xs: (T | undefined)[]): xs is T[] {
  return xs.every((x) => x !== undefined);
}

/** The dimension nodes of a list argument (`[M, K]`), or of the arguments themselves (`Row(M, K)`). */
function dimNodes(args: ast.Expr[]): ast.Expr[] {
  return args.length === 1 && isListNode(args[0]) ? args[0].items : args;
}

/** A GroupBy's dimension nodes: `[6, 6]` or per-level tuples `[(2, 3), (2, 3)]`, flattened. */
function levelNodes(e: ast.Expr): ast.Expr[] {
  if (!isListNode(e)) return [];
  return e.items.flatMap((i) => (isListNode(i) ? i.items : [i]));
}

/** The block origins of an OrderBy's blocks (a block without one, e.g. built elsewhere, gives no dims). */
function blockOrigins(el: Elaborator, blocks: readonly A.Block[]): { node: ast.Expr; dims: ast.Expr[] }[] | undefined {
  const out: { node: ast.Expr; dims: ast.Expr[] }[] = [];
  for (const b of blocks) {
    const o = el.model.origins.get(b);
    if (!o || o.kind !== 'block') return undefined;
    out.push({ node: o.node, dims: o.dims });
  }
  return out;
}

function orderOrigin(el: Elaborator, o: A.OrderBy, node: ast.Call | ast.MethodCall): A.OrderBy {
  const blocks = blockOrigins(el, o.blocks);
  return blocks ? el.origin(o, { kind: 'order', node, decl: el.current, blocks, tileOrder: false }) : o;
}

function genp(el: Elaborator, c: ast.Call): Val {
  if (!arity(el, c, 'GenP', 2, 2)) return BAD;
  const dims = intList(el, c.args[0], "GenP's tile shape");
  const p = el.ev(c.args[1]);
  if (p.k !== 'perm') {
    if (p.k !== 'bad') el.report('elab/argument-kind', c.args[1].range, `GenP's second argument is a perm applied to its sizes, e.g. antidiag(3); found ${describe(p)}`);
    return BAD;
  }
  if (!dims || !p.perm.body) return BAD;
  const m = new Map(p.perm.params.map((n, k) => [n, p.args[k]]));
  const inv = p.perm.inverse;
  const L = A.GenP(dims, { indexNames: p.perm.indices, body: X.substitute(p.perm.body, m) },
    inv ? { argName: inv.argName, results: inv.results.map((r) => X.substitute(r, m)) } : undefined, p.perm.name);
  el.model.genps.push({ node: c, decl: el.current, perm: p.perm, dims, args: p.args, use: c.args[1] as ast.Call | ast.NameRef });
  return { k: 'layout', L: el.origin(L, { kind: 'block', node: c, decl: el.current, dims: dimNodes([c.args[0]]) }) };
}

export function callValue(el: Elaborator, c: ast.Call): Val {
  const name = c.callee.name;
  const def = el.res.refs.get(c.callee);
  if (!def) return BAD;
  if (def.kind === 'perm') {
    const perm = el.model.perms.get(name);
    if (!perm || !arity(el, c, `perm ${name}`, perm.params.length, perm.params.length)) return BAD;
    const args = el.inRole('other', () => c.args.map((a) => el.int(a)));
    return all(args) ? { k: 'perm', perm, args } : BAD;
  }
  if (def.kind === 'function') {
    if (!arity(el, c, name, 1, Infinity)) return BAD;
    const args = el.inRole(el.role === 'size' ? 'clamp' : el.role, () => c.args.map((a) => el.int(a)));
    if (!all(args)) return BAD;
    return { k: 'int', e: name === 'min' ? X.min(...args) : X.max(...args) };
  }
  if (def.kind !== 'constructor') {
    el.report('elab/argument-kind', c.callee.range, `${def.kind} ${name} cannot be called`);
    return BAD;
  }
  switch (name) {
    case 'Row': case 'Col': {
      if (!arity(el, c, name, 1, Infinity)) return BAD;
      const dims = c.args.length === 1 && isListNode(c.args[0]) ? intList(el, c.args[0], `${name}'s dims`) : c.args.map((a) => el.int(a));
      if (!dims || !all(dims)) return BAD;
      if (!(c.args.length === 1 && isListNode(c.args[0]))) dims.forEach((x, k) => checkDim(el, x, c.args[k]));
      const L = name === 'Row' ? A.Row(...dims) : A.Col(...dims);
      return { k: 'layout', L: el.origin(L, { kind: 'block', node: c, decl: el.current, dims: dimNodes(c.args) }) };
    }
    case 'RegP': {
      if (!arity(el, c, 'RegP (a list of dims and a permutation)', 2, 2)) return BAD;
      const dims = intList(el, c.args[0], "RegP's dims");
      const perm = constList(el, c.args[1], "RegP's permutation");
      return dims && perm ? { k: 'layout', L: el.origin(A.RegP(dims, perm), { kind: 'block', node: c, decl: el.current, dims: dimNodes([c.args[0]]) }) } : BAD;
    }
    case 'GenP': return genp(el, c);
    case 'OrderBy': {
      if (!arity(el, c, 'OrderBy', 1, Infinity)) return BAD;
      const blocks = c.args.map((a) => block(el, a, 'OrderBy'));
      return all(blocks) ? { k: 'chain', chain: [orderOrigin(el, A.OrderBy(...blocks), c)] } : BAD;
    }
    case 'TileOrderBy': {
      const o = tileOrderBy(el, c);
      return o ? { k: 'chain', chain: [o] } : BAD;
    }
    case 'GroupBy': {
      if (!arity(el, c, 'GroupBy (the logical shape and the chain of OrderBys)', 2, 2)) return BAD;
      const lv = levels(el, c.args[0], "GroupBy's shape");
      const chain = chainArg(el, c.args[1]);
      return lv && chain ? { k: 'layout', L: groupBy(el, lv, chain, c, c.args[0]) } : BAD;
    }
    case 'TileBy': {
      if (!arity(el, c, 'TileBy (a chain, then the levels)', 2, Infinity)) return BAD;
      const chain = chainArg(el, c.args[0]);
      const lv = c.args.slice(1).map((a) => intList(el, a, 'a TileBy level'));
      return chain && all(lv) ? { k: 'layout', L: tileBy(el, chain, lv, c, c.args.slice(1)) } : BAD;
    }
    case 'ExpandBy': {
      if (!arity(el, c, 'ExpandBy (a layout, the original shape, optionally the expanded shape)', 2, 3)) return BAD;
      const L = layoutArg(el, c.args[0]);
      return L ? expandBy(el, c, L, c.args.slice(1)) : BAD;
    }
  }
  return BAD;
}

function groupBy(el: Elaborator, lv: X.Expr[][], chain: A.OrderBy[], node: ast.Call | ast.MethodCall, dimsNode: ast.Expr): A.GroupBy {
  return el.origin(A.GroupBy(lv, chain), { kind: 'group', node, decl: el.current, dimsNode, dims: levelNodes(dimsNode) });
}

function tileBy(el: Elaborator, chain: A.OrderBy[], lv: X.Expr[][], node: ast.Call | ast.MethodCall, levelArgs: ast.Expr[]): A.TileBy {
  const levels = levelArgs.map((a) => ({ node: a, items: isListNode(a) ? a.items : [] }));
  // a division that is an item of the outermost level: the tile rule offers to pad it with ExpandBy
  const divs = el.model.divisions;
  (levels[0]?.items ?? []).forEach((item, k) => {
    if (item.kind !== 'Binary' || item.op !== '/') return;
    for (let j = divs.length - 1; j >= 0; j--) {
      if (divs[j].node === item) {
        divs[j].tileBy = { call: node, dim: k };
        break;
      }
    }
  });
  return el.origin(A.TileBy(chain, lv), { kind: 'tile', node, decl: el.current, levels });
}

function chainArg(el: Elaborator, e: ast.Expr): A.OrderBy[] | undefined {
  if (e.kind === 'List') {
    const parts = e.items.map((i) => chainOf(el, el.ev(i), i.range, 'GroupBy'));
    return all(parts) ? parts.flat() : undefined;
  }
  return chainOf(el, el.ev(e), e.range, 'GroupBy');
}

function tileOrderBy(el: Elaborator, c: ast.Call | ast.MethodCall): A.OrderBy | undefined {
  if (!arity(el, c, 'TileOrderBy', 1, Infinity)) return undefined;
  const lv = c.args.map((a) => intList(el, a, 'a TileOrderBy level'));
  if (!all(lv)) return undefined;
  const bad = lv.findIndex((l) => l.length !== lv[0].length);
  if (bad >= 0) {
    el.report('elab/argument-kind', c.args[bad].range, `every TileOrderBy level must have rank ${lv[0].length} (the first level's), this one has ${lv[bad].length}`);
    return undefined;
  }
  const o = A.TileOrderBy(...lv);
  const dims = c.args.flatMap((a) => (isListNode(a) ? a.items : []));
  return el.origin(o, { kind: 'order', node: c, decl: el.current, blocks: [{ node: c, dims }], tileOrder: true });
}

function expandBy(el: Elaborator, c: ast.Call | ast.MethodCall, L: A.Layout, args: ast.Expr[]): Val {
  const orig = intList(el, args[0], "ExpandBy's original shape");
  const exp = args[1] ? intList(el, args[1], "ExpandBy's expanded shape") : undefined;
  if (!orig || (args[1] && !exp)) return BAD;
  try {
    return { k: 'layout', L: el.origin(A.ExpandBy(L, orig, exp), { kind: 'expand', node: c, decl: el.current, original: isListNode(args[0]) ? args[0].items : [] }) };
  } catch (err) {
    el.report('elab/argument-kind', c.argsRange, err instanceof Error ? err.message : String(err));
    return BAD;
  }
}

export function methodValue(el: Elaborator, m: ast.MethodCall): Val {
  const recv = el.ev(m.receiver);
  const name = m.method.name;
  if (!METHODS.includes(name)) {
    const near = METHODS.filter((x) => editDistance(x.toLowerCase(), name.toLowerCase()) <= 2);
    el.report('elab/unknown-method', m.method.range,
      `.${name}(...) is not a layout method${near.length ? ` (did you mean .${near[0]}?)` : ''}; the methods are ${METHODS.map((x) => `.${x}`).join(', ')}`,
      'error', near.length ? [{ title: `Change to '${near[0]}'`, edits: [{ range: m.method.range, newText: near[0] }] }] : undefined);
    return BAD;
  }
  if (recv.k === 'bad') {
    for (const a of m.args) el.ev(a);
    return BAD;
  }
  switch (name) {
    case 'OrderBy': {
      const chain = chainOf(el, recv, m.receiver.range, name);
      if (!chain || !arity(el, m, '.OrderBy', 1, Infinity)) return BAD;
      const blocks = m.args.map((a) => block(el, a, '.OrderBy'));
      return all(blocks) ? { k: 'chain', chain: [...chain, orderOrigin(el, A.OrderBy(...blocks), m)] } : BAD;
    }
    case 'TileOrderBy': {
      const chain = chainOf(el, recv, m.receiver.range, name);
      const o = chain && tileOrderBy(el, m);
      return chain && o ? { k: 'chain', chain: [...chain, o] } : BAD;
    }
    case 'GroupBy': {
      const chain = chainOf(el, recv, m.receiver.range, name);
      if (!chain || !arity(el, m, '.GroupBy (the logical shape)', 1, 1)) return BAD;
      const lv = levels(el, m.args[0], "GroupBy's shape");
      return lv ? { k: 'layout', L: groupBy(el, lv, chain, m, m.args[0]) } : BAD;
    }
    case 'TileBy': {
      const chain = chainOf(el, recv, m.receiver.range, name);
      if (!chain || !arity(el, m, '.TileBy (one list of extents per level)', 1, Infinity)) return BAD;
      const lv = m.args.map((a) => intList(el, a, 'a TileBy level'));
      return all(lv) ? { k: 'layout', L: tileBy(el, chain, lv, m, m.args) } : BAD;
    }
    case 'ExpandBy': {
      const L = receiverLayout(el, recv, m);
      if (!L || !arity(el, m, '.ExpandBy (the original shape, optionally the expanded shape)', 1, 2)) return BAD;
      return expandBy(el, m, L, m.args);
    }
    case 'apply': {
      const L = receiverLayout(el, recv, m);
      const key = m.args.map((a) => keyItem(el, a));
      if (L) useQuery(el, m, 'apply', L, m.args, m.argsRange);
      if (!L || !all(key)) return BAD;
      return el.query({ node: m, kind: 'apply', layout: L, layoutName: nameOf(m.receiver), key });
    }
    case 'inv': {
      const L = receiverLayout(el, recv, m);
      if (L) useQuery(el, m, 'inv', L, m.args, m.argsRange);
      if (m.args.length !== 1) return BAD; // query/arity reports it
      const x = m.args[0].kind === 'Name' && isFree(el, m.args[0]) ? m.args[0].name : el.inRole('index', () => el.int(m.args[0]));
      if (m.args[0].kind === 'Name' && typeof x === 'string') el.model.values.set(m.args[0], { k: 'int', e: X.sym(x) });
      if (!L || x === undefined) return BAD;
      return el.query({ node: m, kind: 'inv', layout: L, layoutName: nameOf(m.receiver), key: [], x });
    }
  }
  return BAD;
}

function receiverLayout(el: Elaborator, v: Val, m: ast.MethodCall): A.Layout | undefined {
  const L = layoutOfVal(v);
  if (typeof L !== 'string') return L;
  el.report('elab/expected-layout', m.receiver.range, `.${m.method.name}(...) needs a layout: ${L}`);
  return undefined;
}

function nameOf(e: ast.Expr): string | undefined {
  return e.kind === 'Name' ? e.name : undefined;
}

function isFree(el: Elaborator, n: ast.NameRef): boolean {
  const d = el.res.refs.get(n);
  return d?.kind === 'free' || d?.kind === 'binding';
}

function useQuery(el: Elaborator, node: ast.IndexExpr | ast.MethodCall, kind: 'apply' | 'inv', layout: A.Layout, indices: (ast.Expr | ast.Slice)[], indicesRange: ast.Range): void {
  el.model.queryUses.push({ node, kind, layout, layoutName: nameOf(node.receiver), indices, indicesRange, decl: el.current });
}

import { stepOf } from './ranges.js';

function keyItem(el: Elaborator, k: ast.Expr | ast.Slice): A.KeyItem | undefined {
  return el.inRole('index', () => keyItemInner(el, k));
}

function keyItemInner(el: Elaborator, k: ast.Expr | ast.Slice): A.KeyItem | undefined {
  if (k.kind === 'Slice') {
    const start = k.start ? el.int(k.start) : undefined;
    const stop = k.stop ? el.int(k.stop) : undefined;
    const step = k.step ? stepOf(el, k.step) : undefined;
    if ((k.start && !start) || (k.stop && !stop) || (k.step && !step)) return undefined;
    return A.slice(start, stop, step);
  }
  if (k.kind === 'Name' && isFree(el, k)) {
    el.model.values.set(k, { k: 'int', e: X.sym(k.name) });
    return k.name;
  }
  return el.int(k);
}

export function indexValue(el: Elaborator, e: ast.IndexExpr): Val {
  const recv = el.ev(e.receiver);
  const key = e.indices.map((k) => keyItem(el, k));
  if (recv.k === 'bad') return BAD;
  const L = layoutOfVal(recv);
  if (typeof L === 'string') {
    el.report('elab/expected-layout', e.receiver.range, `indexing needs a layout: ${L}`);
    return BAD;
  }
  useQuery(el, e, 'apply', L, e.indices, { start: e.receiver.range.end, end: e.range.end });
  if (!all(key)) return BAD;
  return el.query({ node: e, kind: 'apply', layout: L, layoutName: nameOf(e.receiver), key });
}
