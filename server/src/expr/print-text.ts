// Text printers for C/CUDA, Python and Triton, over the shared print tree (ptree.ts).
//
// Floor division and modulo: Python's `//` and `%` are floor operations, so the Python printer
// writes them directly. C's `/` and `%` (and Triton's, which follow C on integer tensors)
// truncate toward zero; they agree with floor semantics only for a >= 0, b > 0. Where the
// simplifier proved that (the node's `nonneg` hint), C prints `((a)/(b))` and `a % b`, Triton
// `((a)//(b))` and `a % b`. Otherwise both print a form exact under either semantics, for any
// non-zero b:  mod(a, b) = `((((a) % (b)) + (b)) % (b))`,
//              floorDiv(a, b) = `(((a) - ((((a) % (b)) + (b)) % (b))) / (b))` (an exact division).
// (Triton: https://triton-lang.org/main/python-api/triton-semantics.html, "C rounding in
// integer division".)
import { type Expr } from './node.js';
import { type PT, PrintError, printTree } from './ptree.js';

export { PrintError };


export type Lang = 'c' | 'python' | 'triton';

// precedence: 0 conditional/comparison/logical, 1 additive, 2 multiplicative, 3 atom
const P_LOW = 0;
const P_ADD = 1;
const P_MUL = 2;
const P_ATOM = 3;

interface Out {
  s: string;
  p: number;
}

function wrap(o: Out, min: number): string {
  return o.p < min ? `(${o.s})` : o.s;
}

function hasTensor(p: PT): boolean {
  switch (p.k) {
    case 'num':
    case 'sym':
      return false;
    case 'arange':
      return true;
    case 'sum':
      return p.terms.some((t) => hasTensor(t.t));
    case 'prod':
      return p.factors.some(hasTensor);
    case 'fdiv':
    case 'mod':
    case 'cmp':
      return hasTensor(p.a) || hasTensor(p.b);
    case 'min':
    case 'max':
    case 'and':
    case 'or':
      return p.args.some(hasTensor);
    case 'not':
      return hasTensor(p.a);
    case 'sel':
      return hasTensor(p.c) || hasTensor(p.a) || hasTensor(p.b);
    case 'bit':
      return hasTensor(p.a) || hasTensor(p.b);
  }
}

/** names of shared subtrees (printShared): a node whose structural key is named prints as that name */
export interface Names {
  readonly key: (p: PT) => string;
  readonly names: ReadonlyMap<string, string>;
  /** the node being defined (printed in full even though it is named) */
  readonly self?: PT;
}

export function pr(p: PT, lang: Lang, names?: Names): Out {
  if (names && p !== names.self && p.ops > 0) {
    const n = names.names.get(names.key(p));
    if (n !== undefined) return { s: n, p: P_ATOM };
  }
  const go = (x: PT, min: number) => wrap(pr(x, lang, names), min);
  const top = (x: PT) => pr(x, lang, names).s;
  switch (p.k) {
    case 'num':
      return { s: p.v.toString(), p: p.v < 0n ? P_ADD : P_ATOM };
    case 'sym':
      return { s: p.name, p: P_ATOM };
    case 'arange': {
      if (lang === 'c') throw new PrintError('tl.arange(...) has no C form');
      const base = `tl.arange(${top(p.start)}, ${top(p.stop)})`;
      if (lang === 'python' || !p.bcast) return { s: base, p: P_ATOM };
      const idx = Array.from({ length: p.bcast.rank }, (_, i) => (i === p.bcast!.axis ? ':' : 'None')).join(', ');
      return { s: `((${base})[${idx}])`, p: P_ATOM };
    }
    case 'sum': {
      const parts = p.terms.map((t, i) => {
        const body = go(t.t, P_MUL);
        // a unary minus binds tighter than `%`: -(a % b) needs its parentheses
        if (i === 0) return t.neg ? (t.t.k === 'mod' ? `-(${body})` : `-${body}`) : body;
        return t.neg ? ` - ${body}` : ` + ${body}`;
      });
      return { s: parts.join(''), p: P_ADD };
    }
    case 'prod':
      return { s: p.factors.map((f) => go(f, P_ATOM)).join('*'), p: P_MUL };
    case 'fdiv': {
      const a = top(p.a);
      const b = top(p.b);
      if (lang === 'python' || p.nonneg) return { s: `((${a})${lang === 'c' ? '/' : '//'}(${b}))`, p: P_ATOM };
      const div = lang === 'c' ? '/' : '//';
      return { s: `(((${a}) - ((((${a}) % (${b})) + (${b})) % (${b})))${div}(${b}))`, p: P_ATOM };
    }
    case 'mod': {
      if (lang === 'python' || p.nonneg) return { s: `${go(p.a, p.a.k === 'mod' ? P_ATOM : P_MUL)} % ${go(p.b, P_ATOM)}`, p: P_MUL };
      const a = top(p.a);
      const b = top(p.b);
      return { s: `((((${a}) % (${b})) + (${b})) % (${b}))`, p: P_ATOM };
    }
    case 'min':
    case 'max': {
      const args = p.args.map(top);
      if (lang === 'python' || (lang === 'triton' && !hasTensor(p))) return { s: `${p.k}(${args.join(', ')})`, p: P_ATOM };
      if (lang === 'triton') {
        const fn = p.k === 'min' ? 'tl.minimum' : 'tl.maximum';
        return { s: args.reduce((acc, x) => `${fn}(${acc}, ${x})`), p: P_ATOM };
      }
      const op = p.k === 'min' ? '<' : '>';
      return { s: args.reduce((acc, x) => `(((${acc}) ${op} (${x})) ? (${acc}) : (${x}))`), p: P_ATOM };
    }
    case 'cmp':
      return { s: `${go(p.a, P_ADD)} ${p.op} ${go(p.b, P_ADD)}`, p: P_LOW };
    case 'and':
    case 'or': {
      const op = lang === 'c' ? (p.k === 'and' ? ' && ' : ' || ') : p.k === 'and' ? ' & ' : ' | ';
      return { s: p.args.map((x) => go(x, P_ATOM)).join(op), p: P_LOW };
    }
    case 'not':
      if (lang === 'c') return { s: `!${go(p.a, P_ATOM)}`, p: P_ATOM };
      return { s: `${go(p.a, P_ATOM)} == 0`, p: P_LOW };
    case 'sel': {
      const c = top(p.c);
      const a = top(p.a);
      const b = top(p.b);
      if (lang === 'c') return { s: `((${c}) ? (${a}) : (${b}))`, p: P_ATOM };
      if (lang === 'triton') return { s: `tl.where(${c}, ${a}, ${b})`, p: P_ATOM };
      return { s: `((${a}) if (${c}) else (${b}))`, p: P_ATOM };
    }
    case 'bit': {
      // always parenthesised: C, Python and Triton rank these below + (and C's & ^ | below ==)
      const op = { xor: '^', and: '&', or: '|', shl: '<<', shr: '>>' }[p.op];
      return { s: `(${go(p.a, P_ATOM)} ${op} ${go(p.b, P_ATOM)})`, p: P_ATOM };
    }
  }
}

/** C99/CUDA expression text (throws PrintError for tl.arange) */
export function printC(e: Expr): string {
  return pr(printTree(e), 'c').s;
}

/** Python expression text: `((a)//(b))`, `%`, min()/max(), `(a if c else b)`, bare tl.arange */
export function printPython(e: Expr): string {
  return pr(printTree(e), 'python').s;
}

/** Triton expression text: broadcast aranges, tl.where, tl.minimum/maximum on tensors */
export function printTriton(e: Expr): string {
  return pr(printTree(e), 'triton').s;
}
