// Elaboration: AST (+ name resolution) -> a model of the file: param values (with candidates),
// lets (symbolic definitions and values), perms (GenP parts per application), layouts as
// algebra values, and queries (`L[...]`, `L.apply(...)`, `L.inv(...)`) as {layout, key}.
// Diagnostics `elab/...` (docs/diagnostics.md) sit on the offending node. Never throws.
//
// Names in symbolic values: a `param` stays a symbol, a `const` is folded to its value, a `let`
// is folded when its definition is a constant and stays a symbol (with its definition in
// `model.defs`) otherwise, so that generated expressions read like LEGO's (`num_pid_m`).
// Perm locals, kernel binding names and free index names are symbols.
import type * as ast from '../../../grammar/src/ast.js';
import type { Diagnostic } from '../../../grammar/src/diagnostic.js';
import type { Definition, Resolution } from '../../../grammar/src/resolve.js';
import * as A from '../algebra/index.js';
import * as X from '../expr/index.js';
import { callValue, indexValue, methodValue, oversize } from './elaborate-calls.js';
import { elaborateAssume, elaborateWhere } from './assume.js';
import { rangeValue } from './ranges.js';
import { BAD, describe, emptyModel, layoutOfVal, type DivisionRole, type KernelModel, type Origin, type LayoutModel, type LetModel, type Model, type ParamModel, type PermModel, type Query, type Val } from './elaborate-model.js';

export * from './elaborate-model.js';
export { queryExpr, queryText, printExprs, inline, type QueryResult, type QueryOptions, type Lang } from './elaborate-query.js';

export interface ElaborateOptions {
  /** param values that replace the declared ones (`--set NAME=VALUE`) */
  overrides?: ReadonlyMap<string, bigint>;
}

export interface Elaboration {
  model: Model;
  diagnostics: Diagnostic[];
}


/** Elaborates a resolved file. Never throws. */
export function elaborate(file: ast.File, resolution: Resolution, options: ElaborateOptions = {}): Elaboration {
  const el = new Elaborator(resolution, options);
  for (const d of file.decls) el.guardedDecl(d);
  return { model: el.model, diagnostics: el.diagnostics };
}

export class Elaborator {
  readonly diagnostics: Diagnostic[] = [];
  readonly model: Model = emptyModel();
  /** the declaration being elaborated */
  current!: ast.Decl;
  /** the role of a division met now (see DivisionRole) */
  role: DivisionRole = 'other';
  /** > 0: diagnostics are not reported (schedule arguments: the schedule checks report) */
  private quiet = 0;
  /** perm-local names in scope (perm params, indices, inverse argument) */
  private locals: ReadonlySet<string> = new Set();
  private depth = 0;

  constructor(readonly res: Resolution, private readonly options: ElaborateOptions) {}

  /** `fixes`: the diagnostic's quick fixes (nothing is reported, fixes included, while quiet) */
  report(code: string, range: ast.Range, message: string, severity: Diagnostic['severity'] = 'error', fixes?: Diagnostic['fixes']): void {
    if (this.quiet > 0) return;
    this.diagnostics.push(fixes ? { code, severity, message, range, fixes } : { code, severity, message, range });
  }

  // ------------------------------------------------------------------ declarations

  /** Elaborates one declaration. A name declared twice keeps its first definition (as name resolution binds uses). */
  /** `decl(d)`, where an internal error (a bug) becomes an `elab/internal-error` warning on `d` instead of a crash */
  guardedDecl(d: ast.Decl): void {
    try {
      this.decl(d);
    } catch (e) {
      this.report('elab/internal-error', d.range, `internal error while elaborating: ${e instanceof Error ? e.message : String(e)}`, 'warning');
    }
  }

  decl(d: ast.Decl): void {
    this.current = d;
    this.role = d.kind === 'Perm' ? 'perm' : d.kind === 'Kernel' || d.kind === 'Schedule' ? 'other' : 'size';
    const first = d.kind === 'Param' || d.kind === 'Assume' || this.isFirst(d.name.name);
    switch (d.kind) {
      case 'Param':
        for (const item of d.items) this.param(item, d.isConst);
        break;
      case 'Let': {
        const v = this.int(d.value);
        if (!first) break;
        const m: LetModel = { name: d.name.name, decl: d };
        if (v) {
          m.def = v;
          m.value = this.evalAt(v, d.value.range);
          if (m.value !== undefined) this.model.env.set(m.name, m.value);
          if (v.kind !== 'int') this.model.defs.set(m.name, v);
          this.model.order.push({ kind: 'let', name: m.name });
        }
        this.model.lets.set(m.name, m);
        break;
      }
      case 'Perm': {
        const m: PermModel = { name: d.name.name, decl: d, params: d.params.map((p) => p.name), indices: d.indices.map((i) => i.name) };
        const saved = this.locals;
        this.locals = new Set([...m.params, ...m.indices]);
        m.body = this.int(d.body);
        if (d.inverse) {
          this.locals = new Set([...m.params, d.inverse.arg.name]);
          const results = d.inverse.results.map((r) => this.int(r));
          if (results.every((r): r is X.Expr => r !== undefined)) m.inverse = { argName: d.inverse.arg.name, results };
        }
        this.locals = saved;
        if (first) this.model.perms.set(m.name, m);
        break;
      }
      case 'Layout': {
        const v = this.ev(d.value);
        const m: LayoutModel = { name: d.name.name, decl: d };
        if (v.k !== 'bad') {
          const L = layoutOfVal(v);
          if (typeof L === 'string') this.report('elab/expected-layout', d.value.range, L);
          else {
            m.layout = L;
            const n = oversize(L, this.model.env);
            if (n !== undefined) this.report('elab/bad-size', d.value.range, `${m.name} has ${n} elements; a layout must have fewer than 2^53 (values are exact only up to 2^53)`);
          }
        }
        if (first) this.model.layouts.set(m.name, m);
        if (d.where) elaborateWhere(this, d.where, { layout: m.name });
        break;
      }
      case 'Assume':
        elaborateAssume(this, d);
        break;
      case 'Kernel': {
        const m: KernelModel = { name: d.name.name, decl: d, bindings: [] };
        if (d.where) elaborateWhere(this, d.where, { kernel: d });
        for (const b of d.bindings) m.bindings.push({ binding: b, names: b.names.map((n) => n.name), value: this.ev(b.value) });
        if (first) this.model.kernels.set(m.name, m);
        break;
      }
      case 'Linear': {
        // the attributes' values, for check/linear.ts, which reports their problems
        this.quiet++;
        try {
          for (const a of d.args) this.ev(a.value);
        } finally {
          this.quiet--;
        }
        break;
      }
      case 'Schedule': {
        // the integer arguments, for the schedule checks (check/schedule/), which report their problems
        this.quiet++;
        try {
          for (const a of d.op?.args ?? []) this.ev(a);
          for (const st of d.steps) for (const a of st.args) this.ev(a);
        } finally {
          this.quiet--;
        }
        if (first) this.model.schedules.set(d.name.name, { name: d.name.name, decl: d });
        break;
      }
    }
  }

  /** No declaration of `name` was elaborated before (params, lets, perms, layouts, kernels, schedules share one namespace). */
  private isFirst(name: string): boolean {
    const m = this.model;
    return !(m.params.has(name) || m.lets.has(name) || m.perms.has(name) || m.layouts.has(name) || m.kernels.has(name) || m.schedules.has(name));
  }

  private param(item: ast.ParamItem, isConst: boolean): void {
    const name = item.name.name;
    const first = this.isFirst(name);
    const m: ParamModel = { name, isConst, candidates: [], candidateNodes: [], item };
    const over = this.options.overrides?.get(name);
    this.role = 'size';
    const def = over === undefined ? this.int(item.value) : undefined;
    if (over !== undefined && (over > 2n ** 53n || over < -(2n ** 53n))) {
      this.report('elab/eval-error', item.value.range, `${name} is set to ${over}, which exceeds 2^53 in magnitude; values are exact only up to 2^53`);
    } else if (over !== undefined) {
      m.value = over;
    } else if (def) {
      m.def = def;
      m.value = this.evalAt(def, item.value.range, 'a param value');
    }
    this.role = 'other';
    for (const c of item.candidates?.items ?? []) {
      const v = this.constant(c, 'a tuning candidate');
      if (v !== undefined) {
        m.candidates.push(v);
        m.candidateNodes.push(c);
      }
    }
    if (!first) return; // a second declaration of the name (name/duplicate): the first one counts
    if (m.value !== undefined) {
      this.model.env.set(name, m.value);
      this.model.order.push({ kind: 'param', name });
    }
    this.model.params.set(name, m);
  }

  /** A concrete integer (params and lets evaluated); reports `elab/not-constant`. */
  private constant(e: ast.Expr, what: string): bigint | undefined {
    const v = this.int(e);
    if (!v) return undefined;
    return this.evalAt(v, e.range, what);
  }

  /** Evaluates at the param values; reports evaluation errors and unknown names. */
  private evalAt(v: X.Expr, range: ast.Range, what?: string): bigint | undefined {
    try {
      return X.evaluate(v, this.model.env);
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      if (/unbound symbol/.test(msg) || /arange/.test(msg)) {
        if (what) this.report('elab/not-constant', range, `${what} must be an integer constant; ${msg.replace(/^unbound symbol/, 'it depends on')}`);
        return undefined;
      }
      this.report('elab/eval-error', range, /exceeds 2\^53/.test(msg)
        ? 'this value exceeds 2^53 in magnitude; values are exact only up to 2^53'
        : `cannot evaluate: ${msg}`);
      return undefined;
    }
  }

  // ------------------------------------------------------------------ expressions

  /** The integer expression of `e`, or undefined (reported). */
  int(e: ast.Expr): X.Expr | undefined {
    const v = this.ev(e);
    return this.asInt(v, e);
  }

  asInt(v: Val, e: ast.Expr | ast.Slice): X.Expr | undefined {
    if (v.k === 'int') return v.e;
    if (v.k === 'bad') return undefined;
    if (v.k === 'query' && v.q.kind === 'apply') {
      if (A.dims(v.q.layout).length !== v.q.key.length) return undefined; // query/arity reports it
      try {
        return A.applySym(v.q.layout, v.q.key, { env: this.model.env, defs: this.model.defs });
      } catch (err) {
        this.report('elab/eval-error', e.range, `cannot apply the layout: ${err instanceof Error ? err.message : String(err)}`);
        return undefined;
      }
    }
    this.report('elab/expected-number', e.range, `expected a number, found ${describe(v)}`);
    return undefined;
  }

  ev(e: ast.Expr): Val {
    if (this.depth > 200) {
      this.report('elab/recursion', e.range, 'this expression nests too deeply to elaborate');
      return BAD;
    }
    this.depth++;
    let v: Val;
    try {
      v = this.evInner(e);
    } finally {
      this.depth--;
    }
    this.model.values.set(e, v);
    return v;
  }

  private evInner(e: ast.Expr): Val {
    switch (e.kind) {
      case 'Int': return { k: 'int', e: X.int(e.value) };
      case 'String': return { k: 'string', s: e.value };
      case 'Error': return BAD;
      case 'Name': return this.name(e);
      case 'Unary': {
        const a = this.int(e.operand);
        if (!a) return BAD;
        return { k: 'int', e: e.op === '-' ? X.neg(a) : e.op === 'not' ? X.not(a) : a };
      }
      case 'Binary': return this.binary(e);
      case 'If': {
        const [c, t, o] = [this.int(e.cond), this.int(e.then), this.int(e.else)];
        return c && t && o ? { k: 'int', e: X.select(c, t, o) } : BAD;
      }
      case 'List': case 'Tuple': return { k: 'list', items: e.items.map((i) => this.ev(i)), tuple: e.kind === 'Tuple' };
      case 'Call': return callValue(this, e);
      case 'MethodCall': return methodValue(this, e);
      case 'Index': return indexValue(this, e);
      case 'Range': return rangeValue(this, e);
    }
  }

  private name(e: ast.NameRef): Val {
    const def: Definition | undefined = this.res.refs.get(e);
    if (!def) return this.locals.has(e.name) ? { k: 'int', e: X.sym(e.name) } : BAD;
    switch (def.kind) {
      case 'param': return { k: 'int', e: X.sym(e.name) };
      case 'const': {
        const v = this.model.params.get(e.name)?.value;
        return v === undefined ? BAD : { k: 'int', e: X.int(v) };
      }
      case 'let': {
        const m = this.model.lets.get(e.name);
        if (!m?.def) return BAD;
        return { k: 'int', e: m.def.kind === 'int' ? m.def : X.sym(e.name) };
      }
      case 'layout': {
        const m = this.model.layouts.get(e.name);
        return m?.layout ? { k: 'layout', L: m.layout } : BAD;
      }
      case 'perm': {
        const m = this.model.perms.get(e.name);
        if (!m) return BAD;
        if (m.params.length) {
          this.report('elab/arity', e.range, `perm ${m.name} takes ${m.params.length} size argument${m.params.length > 1 ? 's' : ''}: write ${m.name}(${m.params.join(', ')})`);
          return BAD;
        }
        return { k: 'perm', perm: m, args: [] };
      }
      case 'permParam': case 'permIndex': case 'inverseArg': case 'binding': case 'free': case 'stepResult':
        return { k: 'int', e: X.sym(e.name) };
      case 'constructor': case 'function':
        this.report('elab/argument-kind', e.range, `${e.name} is a built-in ${def.kind}: call it, e.g. ${e.name}(...)`);
        return BAD;
      default:
        this.report('elab/argument-kind', e.range, `${def.kind} ${e.name} has no value here`);
        return BAD;
    }
  }

  private binary(e: ast.Binary): Val {
    const a = this.int(e.left);
    const b = this.int(e.right);
    if (!a || !b) return BAD;
    switch (e.op) {
      case '+': return { k: 'int', e: X.add(a, b) };
      case '-': return { k: 'int', e: X.sub(a, b) };
      case '*': return { k: 'int', e: X.mul(a, b) };
      case '/': case '//': case '%': {
        if (this.isZeroHere(b)) {
          this.report('elab/eval-error', e.right.range, `division by zero: this evaluates to 0 at the param values`);
          return BAD;
        }
        if (e.op !== '%') this.model.divisions.push({ node: e, floor: e.op === '//', role: this.role, decl: this.current, left: a, right: b });
        return { k: 'int', e: e.op !== '%' ? X.floorDiv(a, b) : X.mod(a, b) };
      }
      case 'and': return { k: 'int', e: X.and(a, b) };
      case 'or': return { k: 'int', e: X.or(a, b) };
      case '^': return { k: 'int', e: X.bit('xor', a, b) };
      case '&': return { k: 'int', e: X.bit('and', a, b) };
      case '|': return { k: 'int', e: X.bit('or', a, b) };
      case '<<': case '>>': {
        if (this.isNegativeHere(b)) {
          this.report('elab/eval-error', e.right.range, `negative shift amount: this is below 0 at the param values`);
          return BAD;
        }
        return { k: 'int', e: X.bit(e.op === '<<' ? 'shl' : 'shr', a, b) };
      }
      default: return { k: 'int', e: X.cmp(e.op, a, b) };
    }
  }

  private isNegativeHere(b: X.Expr): boolean {
    try {
      return X.evaluate(b, this.model.env) < 0n;
    } catch {
      return false;
    }
  }

  private isZeroHere(b: X.Expr): boolean {
    try {
      return X.evaluate(b, this.model.env) === 0n;
    } catch {
      return false;
    }
  }

  /** Elaborates with `role` as the role of divisions met, then restores the previous one. */
  inRole<T>(role: DivisionRole, f: () => T): T {
    const saved = this.role;
    this.role = role;
    try {
      return f();
    } finally {
      this.role = saved;
    }
  }

  /** Records where a layout value came from; returns it. */
  origin<L extends A.Layout>(L: L, o: Origin): L {
    this.model.origins.set(L, o);
    return L;
  }

  /** Records a query for codegen/hover. */
  query(q: Query): Val {
    this.model.queries.set(q.node, q);
    return { k: 'query', q };
  }
}
