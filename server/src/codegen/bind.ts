// NOTE: code generation no longer uses this file: it evaluates bindings through the elaborator
// (server/src/check/elaborate.ts, see model.ts). It stays only because server/src/service/
// layout-info.ts still imports `Binder`; move that to the elaborator and delete this file.
//
// Kernel bindings -> expressions: the layouts a kernel queries are built as algebra values
// (server/src/algebra), each query (`A[pid_m, k, :, :]`, `Pid.inv(pid)`, `L.apply(i, j)`) is
// applied symbolically and simplified there, and plain integer bindings (`tile = T`) are folded.
//
// This is the part of elaboration that code generation needs (AST layout expressions and
// queries to algebra values and Exprs). It is written against the algebra's public API only and
// never throws: what it cannot build comes back as a diagnostic at the offending node.
//
// Naming rules of the generated text (docs/codegen.md):
// - `param`s stay symbols (kernel arguments), `const`s are folded into numbers;
// - `let`s are inlined, except those the template's code defines itself (a built-in's scope,
//   e.g. `num_pid_m` in the matmul), which stay by name;
// - free index names and earlier binding names are symbols.
import type * as ast from '../../../grammar/src/ast.js';
import type { Diagnostic } from '../../../grammar/src/diagnostic.js';
import type { Definition, Resolution } from '../../../grammar/src/resolve.js';
import * as A from '../algebra/index.js';
import * as X from '../expr/index.js';
import type { BindingValue } from './emit-kernel.js';

class BindError extends Error {
  constructor(message: string, readonly range: ast.Range) {
    super(message);
  }
}

/** One chain of OrderBys still open for `.OrderBy(...)`, `.GroupBy(...)`, `.TileBy(...)`. */
type Chain = { kind: 'chain'; chain: A.OrderBy[] };
type Value = A.Layout | Chain;

const LOCAL = '_perm_';

export interface BinderInput {
  file: ast.File;
  resolution: Resolution;
  /** every param's and const's value */
  paramValues: ReadonlyMap<string, bigint>;
}

export class Binder {
  private readonly lets = new Map<string, ast.LetDecl>();
  private readonly layouts = new Map<string, ast.LayoutDecl>();
  private readonly perms = new Map<string, ast.PermDecl>();
  private readonly consts = new Set<string>();
  private readonly built = new Map<string, A.Layout | BindError>();
  private readonly building = new Set<string>();
  /** names kept as symbols although they are lets (the template defines them) */
  private keep: ReadonlySet<string> = new Set();

  constructor(private readonly input: BinderInput) {
    for (const d of input.file.decls) {
      if (d.kind === 'Let') this.lets.set(d.name.name, d);
      else if (d.kind === 'Layout') this.layouts.set(d.name.name, d);
      else if (d.kind === 'Perm') this.perms.set(d.name.name, d);
      else if (d.kind === 'Param' && d.isConst) for (const it of d.items) this.consts.add(it.name.name);
    }
  }

  /** Evaluates one binding; `scope`: names the template defines (lets among them stay symbols). */
  evaluate(binding: ast.Binding, scope: readonly string[] = []): BindingValue {
    this.keep = new Set(scope.filter((s) => this.lets.has(s)));
    try {
      return { ok: true, exprs: this.query(binding.value) };
    } catch (e) {
      const range = e instanceof BindError ? e.range : binding.value.range;
      const message = e instanceof BindError ? e.message : `cannot generate code for this binding: ${e instanceof Error ? e.message : String(e)}`;
      const d: Diagnostic = { code: 'kernel/cannot-evaluate', severity: 'error', message, range };
      return { ok: false, diagnostics: [d] };
    }
  }

  /**
   * The algebra value of a layout expression (a layout's name or its constructor chain), for the
   * editor's hovers and pictures. Never throws.
   */
  layoutValue(e: ast.Expr): { ok: true; layout: A.Layout } | { ok: false; message: string; range: ast.Range } {
    this.keep = new Set();
    try {
      return { ok: true, layout: this.layoutOf(e) };
    } catch (err) {
      if (err instanceof BindError) return { ok: false, message: err.message, range: err.range };
      return { ok: false, message: err instanceof Error ? err.message : String(err), range: e.range };
    }
  }

  // ------------------------------------------------------------------ queries

  private ctx(): A.SymContext {
    const defs = new Map<string, X.Expr>();
    for (const k of this.keep) defs.set(k, this.int(this.lets.get(k)!.value, new Map(), true));
    return { env: this.input.paramValues, defs };
  }

  private query(e: ast.Expr): X.Expr[] {
    if (e.kind === 'Index') {
      const L = this.layoutOf(e.receiver);
      return [this.finish(A.applySym(L, e.indices.map((k) => this.key(k)), this.ctx()))];
    }
    if (e.kind === 'MethodCall' && (e.method.name === 'inv' || e.method.name === 'apply')) {
      const L = this.layoutOf(e.receiver);
      if (e.method.name === 'apply') return [this.finish(A.applySym(L, e.args.map((k) => this.key(k)), this.ctx()))];
      if (e.args.length !== 1) throw new BindError(`inv takes one flat index, got ${e.args.length}`, e.argsRange);
      const arg = e.args[0];
      const x = arg.kind === 'Name' && this.isFree(arg) ? arg.name : this.int(arg);
      return A.invSym(L, x, this.ctx()).map((r) => this.finish(r));
    }
    return [this.finish(this.int(e))];
  }

  /** Folds const symbols the algebra may have introduced through defs. */
  private finish(e: X.Expr): X.Expr {
    return e;
  }

  private key(k: ast.Expr | ast.Slice): A.KeyItem {
    if (k.kind === 'Slice') return A.slice(k.start ? this.int(k.start) : undefined, k.stop ? this.int(k.stop) : undefined);
    if (k.kind === 'Name' && this.isFree(k)) return k.name;
    return this.int(k);
  }

  private def(n: ast.NameRef | ast.Ident): Definition | undefined {
    return this.input.resolution.refs.get(n);
  }

  private isFree(n: ast.NameRef): boolean {
    const d = this.def(n);
    return d?.kind === 'free' || d?.kind === 'binding';
  }

  // ------------------------------------------------------------ integer expressions

  /**
   * An integer expression. `locals` maps perm-local names to their symbols/values; `inLet` keeps
   * nested lets symbolic when they are kept.
   */
  private int(e: ast.Expr, locals: ReadonlyMap<string, X.Expr> = new Map(), _inLet = false, depth = 0): X.Expr {
    if (depth > 200) throw new BindError('expression nested too deeply', e.range);
    const go = (y: ast.Expr) => this.int(y, locals, _inLet, depth + 1);
    switch (e.kind) {
      case 'Int':
        return X.int(e.value);
      case 'Name': {
        const local = locals.get(e.name);
        const d = this.def(e);
        if (local && (!d || d.kind === 'permParam' || d.kind === 'permIndex' || d.kind === 'inverseArg')) return local;
        if (!d) throw new BindError(`\`${e.name}\` is not defined`, e.range);
        switch (d.kind) {
          case 'const': {
            const v = this.input.paramValues.get(d.name);
            if (v === undefined) throw new BindError(`const \`${d.name}\` has no value`, e.range);
            return X.int(v);
          }
          case 'param': case 'free': case 'binding':
            return X.sym(d.name);
          case 'let': {
            if (this.keep.has(d.name)) return X.sym(d.name);
            const decl = this.lets.get(d.name);
            if (!decl) throw new BindError(`unknown let \`${d.name}\``, e.range);
            return this.int(decl.value, new Map(), true, depth + 1);
          }
          default:
            throw new BindError(`\`${e.name}\` is a ${d.kind}, not an integer`, e.range);
        }
      }
      case 'Unary': {
        const v = go(e.operand);
        return e.op === '-' ? X.neg(v) : e.op === '+' ? v : X.not(v);
      }
      case 'Binary': {
        const a = go(e.left);
        const b = go(e.right);
        switch (e.op) {
          case '+': return X.add(a, b);
          case '-': return X.sub(a, b);
          case '*': return X.mul(a, b);
          case '/': return X.floorDiv(a, b);
          case '%': return X.mod(a, b);
          case 'and': return X.and(a, b);
          case 'or': return X.or(a, b);
          default: return X.cmp(e.op, a, b);
        }
      }
      case 'If':
        return X.select(go(e.cond), go(e.then), go(e.else));
      case 'Call': {
        const d = this.def(e.callee);
        if (d?.kind === 'function' && e.args.length > 0) {
          const args = e.args.map(go);
          return e.callee.name === 'min' ? X.min(...args) : X.max(...args);
        }
        throw new BindError(`${e.callee.name}(...) is not an integer expression`, e.range);
      }
      case 'Index':
      case 'MethodCall': {
        const r = this.query(e);
        if (r.length !== 1) throw new BindError(`this query has ${r.length} results, not one integer`, e.range);
        return r[0];
      }
      default:
        throw new BindError('not an integer expression', e.range);
    }
  }

  private dimList(e: ast.Expr): X.Expr[] {
    if (e.kind !== 'List' && e.kind !== 'Tuple') throw new BindError('expected a list of sizes, e.g. [M, K]', e.range);
    return e.items.map((i) => this.int(i));
  }

  private intList(e: ast.Expr): number[] {
    return this.dimList(e).map((x, k) => {
      if (x.kind !== 'int') throw new BindError('expected integer constants', (e as ast.ListExpr).items[k].range);
      return Number(x.value);
    });
  }

  // ------------------------------------------------------------------ layouts

  private layoutOf(e: ast.Expr): A.Layout {
    const v = this.value(e);
    if (v.kind === 'chain') {
      if (v.chain.length === 1) return v.chain[0];
      throw new BindError('a chain of several OrderBys needs .GroupBy(...) or .TileBy(...) before it can be queried', e.range);
    }
    return v;
  }

  private chainOf(e: ast.Expr): A.OrderBy[] {
    const v = this.value(e);
    if (v.kind === 'chain') return v.chain;
    if (v.kind === 'OrderBy') return [v];
    throw new BindError('expected an OrderBy (a chain of reorderings)', e.range);
  }

  private block(e: ast.Expr): A.Block {
    const v = this.value(e);
    if (v.kind === 'RegP' || v.kind === 'GenP') return v;
    throw new BindError('expected a block: Row, Col, RegP or GenP', e.range);
  }

  private value(e: ast.Expr): Value {
    if (e.kind === 'Name') {
      const d = this.def(e);
      if (d?.kind !== 'layout') throw new BindError(`\`${e.name}\` is not a layout`, e.range);
      const cached = this.built.get(d.name);
      if (cached instanceof BindError) throw new BindError(`layout \`${d.name}\` cannot be built: ${cached.message}`, e.range);
      if (cached) return cached;
      if (this.building.has(d.name)) throw new BindError(`layout \`${d.name}\` is defined in terms of itself`, e.range);
      this.building.add(d.name);
      try {
        const L = this.layoutOf(this.layouts.get(d.name)!.value);
        this.built.set(d.name, L);
        return L;
      } catch (err) {
        if (err instanceof BindError) this.built.set(d.name, err);
        throw err;
      } finally {
        this.building.delete(d.name);
      }
    }
    if (e.kind === 'Call') {
      const name = e.callee.name;
      const args = e.args;
      const d = this.def(e.callee);
      if (d?.kind !== 'constructor') throw new BindError(`${name}(...) is not a layout constructor`, e.callee.range);
      switch (name) {
        case 'Row': return A.Row(...args.map((a) => this.int(a)));
        case 'Col': return A.Col(...args.map((a) => this.int(a)));
        case 'RegP':
          if (args.length !== 2) throw new BindError('RegP takes the dims and a permutation: RegP([2, 3], [1, 0])', e.argsRange);
          return A.RegP(this.dimList(args[0]), this.intList(args[1]));
        case 'GenP':
          if (args.length !== 2) throw new BindError('GenP takes the dims and a perm: GenP([n, n], antidiag(n))', e.argsRange);
          return this.genp(this.dimList(args[0]), args[1]);
        case 'OrderBy':
          return A.OrderBy(...args.map((a) => this.block(a)));
        case 'TileOrderBy':
          return A.TileOrderBy(...args.map((a) => this.dimList(a)));
        case 'GroupBy':
          if (args.length !== 2) throw new BindError('GroupBy takes the dims and the chain', e.argsRange);
          return A.GroupBy(this.groupDims(args[0]), this.chainOf(args[1]));
        default:
          throw new BindError(`${name}(...) is not supported in generated code`, e.callee.range);
      }
    }
    if (e.kind === 'MethodCall') {
      const m = e.method.name;
      if (m === 'OrderBy') {
        return { kind: 'chain', chain: [...this.chainOf(e.receiver), A.OrderBy(...e.args.map((a) => this.block(a)))] };
      }
      if (m === 'GroupBy') {
        if (e.args.length !== 1) throw new BindError('.GroupBy takes one list of dims', e.argsRange);
        return A.GroupBy(this.groupDims(e.args[0]), this.chainOf(e.receiver));
      }
      if (m === 'TileBy') {
        return A.TileBy(this.chainOf(e.receiver), e.args.map((a) => this.dimList(a)));
      }
      if (m === 'ExpandBy') {
        const inner = this.layoutOf(e.receiver);
        if (e.args.length < 1 || e.args.length > 2) throw new BindError('.ExpandBy takes the original dims (and the expanded dims)', e.argsRange);
        return A.ExpandBy(inner, this.dimList(e.args[0]), e.args[1] ? this.dimList(e.args[1]) : undefined);
      }
      throw new BindError(`.${m}(...) does not make a layout`, e.method.range);
    }
    throw new BindError('not a layout expression', e.range);
  }

  /** `[6, 6]` is one level; `[(6, 6)]` or `[(2, 3), (2, 3)]` are levels. */
  private groupDims(e: ast.Expr): X.Expr[][] {
    if (e.kind !== 'List' && e.kind !== 'Tuple') throw new BindError('expected a list of dims', e.range);
    if (e.items.length > 0 && e.items.every((i) => i.kind === 'Tuple' || i.kind === 'List')) return e.items.map((i) => this.dimList(i));
    return [this.dimList(e)];
  }

  /** `GenP(dims, perm(args))`: the perm's body with its size parameters bound to the arguments. */
  private genp(dims: X.Expr[], app: ast.Expr): A.GenP {
    if (app.kind !== 'Call') throw new BindError('expected a perm application, e.g. antidiag(n)', app.range);
    const d = this.def(app.callee);
    const perm = d?.kind === 'perm' ? this.perms.get(d.name) : undefined;
    if (!perm) throw new BindError(`\`${app.callee.name}\` is not a perm`, app.callee.range);
    if (app.args.length !== perm.params.length) {
      throw new BindError(`perm ${perm.name.name} takes ${perm.params.length} argument(s), got ${app.args.length}`, app.argsRange);
    }
    const locals = new Map<string, X.Expr>();
    perm.params.forEach((p, k) => locals.set(p.name, this.int(app.args[k])));
    for (const i of perm.indices) locals.set(i.name, X.sym(LOCAL + i.name));
    const body = this.int(perm.body, locals);
    let inverse: A.GenPInverse | undefined;
    if (perm.inverse) {
      const inv = perm.inverse;
      const il = new Map(locals);
      il.set(inv.arg.name, X.sym(LOCAL + inv.arg.name));
      inverse = { argName: LOCAL + inv.arg.name, results: inv.results.map((r) => this.int(r, il)) };
    }
    return A.GenP(dims, { indexNames: perm.indices.map((i) => LOCAL + i.name), body }, inverse, perm.name.name);
  }
}
