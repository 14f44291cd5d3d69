// MLIR printer: SSA lines of `arith` ops computing expressions on `index` (or i32/i64) values.
// Floor division / modulo use `arith.divui` / `arith.remui` where the simplifier proved the
// operands non-negative (the `nonneg` hint), else `arith.floordivsi` and, for the remainder,
// `remsi(remsi(a, b) + b, b)` (exact for any non-zero b). Comparisons are signed `arith.cmpi`
// producing i1; a 0/1 value is materialised with `arith.select`. Repeated subexpressions
// (identical op and operands) are emitted once per call.
import { type Expr } from './node.js';
import { type PT, PrintError, PrintTreeBuilder, checkPrintDepth } from './ptree.js';

export interface MlirOptions {
  /** SSA value (e.g. `%arg0`) of each symbol */
  readonly symbols: ReadonlyMap<string, string>;
  readonly type?: 'index' | 'i32' | 'i64';
  /** prefix of generated SSA names (default `e`): `%e0`, `%e1`, ... */
  readonly prefix?: string;
}

const PRED = { '<=': 'sle', '>=': 'sge', '==': 'eq', '!=': 'ne' } as const;

class Emitter {
  readonly lines: string[] = [];
  private cse = new Map<string, string>();
  private n = 0;
  constructor(
    private readonly opts: MlirOptions,
    private readonly ty: string,
    private readonly prefix: string,
  ) {}

  private op(rhs: string): string {
    const hit = this.cse.get(rhs);
    if (hit) return hit;
    const name = `%${this.prefix}${this.n++}`;
    this.lines.push(`${name} = ${rhs}`);
    this.cse.set(rhs, name);
    return name;
  }

  const(v: bigint): string {
    return this.op(`arith.constant ${v} : ${this.ty}`);
  }

  private bin(op: string, a: string, b: string): string {
    return this.op(`arith.${op} ${a}, ${b} : ${this.ty}`);
  }

  value(p: PT): string {
    switch (p.k) {
      case 'num':
        return this.const(p.v);
      case 'sym': {
        const v = this.opts.symbols.get(p.name);
        if (v === undefined) throw new PrintError(`printMlir: no SSA value given for symbol '${p.name}'`);
        return v;
      }
      case 'arange':
        throw new PrintError('tl.arange(...) has no MLIR arith form');
      case 'sum': {
        // start from the first positive term so that no negation is needed
        const first = p.terms.findIndex((t) => !t.neg);
        const order = first < 0 ? p.terms : [p.terms[first], ...p.terms.filter((_, i) => i !== first)];
        let acc = first < 0 ? this.const(0n) : this.value(order[0].t);
        for (const t of first < 0 ? order : order.slice(1)) acc = this.bin(t.neg ? 'subi' : 'addi', acc, this.value(t.t));
        return acc;
      }
      case 'prod':
        return p.factors.map((f) => this.value(f)).reduce((a, b) => this.bin('muli', a, b));
      case 'fdiv': {
        const a = this.value(p.a);
        const b = this.value(p.b);
        return this.bin(p.nonneg ? 'divui' : 'floordivsi', a, b);
      }
      case 'mod': {
        const a = this.value(p.a);
        const b = this.value(p.b);
        if (p.nonneg) return this.bin('remui', a, b);
        return this.bin('remsi', this.bin('addi', this.bin('remsi', a, b), b), b);
      }
      case 'min':
      case 'max': {
        const op = p.k === 'min' ? 'minsi' : 'maxsi';
        return p.args.map((x) => this.value(x)).reduce((a, b) => this.bin(op, a, b));
      }
      case 'sel': {
        const c = this.cond(p.c);
        const a = this.value(p.a);
        const b = this.value(p.b);
        return this.op(`arith.select ${c}, ${a}, ${b} : ${this.ty}`);
      }
      case 'bit': {
        // arith.shrsi: an arithmetic shift is the floor division `>>` means (exact for negative values too)
        const op = { xor: 'xori', and: 'andi', or: 'ori', shl: 'shli', shr: 'shrsi' }[p.op];
        return this.bin(op, this.value(p.a), this.value(p.b));
      }
      case 'cmp':
      case 'and':
      case 'or':
      case 'not': {
        const c = this.cond(p);
        return this.op(`arith.select ${c}, ${this.const(1n)}, ${this.const(0n)} : ${this.ty}`);
      }
    }
  }

  /** an i1 value: true where p is non-zero */
  cond(p: PT): string {
    switch (p.k) {
      case 'cmp': {
        const a = this.value(p.a);
        const b = this.value(p.b);
        return this.op(`arith.cmpi ${PRED[p.op]}, ${a}, ${b} : ${this.ty}`);
      }
      case 'and':
      case 'or': {
        const op = p.k === 'and' ? 'andi' : 'ori';
        return p.args.map((x) => this.cond(x)).reduce((a, b) => this.op(`arith.${op} ${a}, ${b} : i1`));
      }
      case 'not': {
        const c = this.cond(p.a);
        return this.op(`arith.xori ${c}, ${this.op('arith.constant true')} : i1`);
      }
      default: {
        const v = this.value(p);
        return this.op(`arith.cmpi ne, ${v}, ${this.const(0n)} : ${this.ty}`);
      }
    }
  }
}

/** SSA lines computing each expression; `results[i]` is the SSA value of `es[i]` */
export function printMlir(
  es: Expr[],
  opts: { symbols: ReadonlyMap<string, string>; type?: 'index' | 'i32' | 'i64'; prefix?: string },
): { lines: string[]; results: string[] } {
  const em = new Emitter(opts, opts.type ?? 'index', opts.prefix ?? 'e');
  const b = new PrintTreeBuilder();
  es.forEach(checkPrintDepth);
  const results = es.map((e) => em.value(b.build(e)));
  return { lines: em.lines, results };
}
