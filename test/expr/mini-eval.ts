// Test-only parser and evaluator for the expression text our printers emit (C, Python, Triton
// subsets), with exact bigint arithmetic. Never eval/Function. Also counts the arithmetic
// operations of a printed string literally (for comparing with LEGO's reference strings).
//
// Semantics: 'python' uses floor `//` and `%`; 'c' and 'triton' truncate `/`, `//` and `%`
// toward zero (C semantics; Triton follows C on integer tensors).
export type Lang = 'c' | 'python' | 'triton';

type Node =
  | { t: 'num'; v: bigint }
  | { t: 'name'; n: string }
  | { t: 'un'; op: string; a: Node }
  | { t: 'bin'; op: string; a: Node; b: Node }
  | { t: 'cond'; c: Node; a: Node; b: Node }
  | { t: 'call'; f: string; args: Node[] }
  | { t: 'index'; a: Node };

const TOKEN = /\s*(\d+|[A-Za-z_][A-Za-z0-9_.]*|\/\/|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%()<>?:,&|^![\]])/y;

function tokenize(s: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (at < s.length) {
    if (/^\s*$/.test(s.slice(at))) break;
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(s);
    if (!m) throw new Error(`cannot tokenize at ${at}: ${s.slice(at, at + 20)}`);
    out.push(m[1]);
    at = TOKEN.lastIndex;
  }
  return out;
}

// binding powers (higher binds tighter)
const BP: Record<Lang, Record<string, number>> = {
  c: { '||': 2, '&&': 3, '|': 4, '^': 5, '&': 6, '==': 7, '!=': 7, '<': 8, '<=': 8, '>': 8, '>=': 8, '<<': 9, '>>': 9, '+': 10, '-': 10, '*': 11, '/': 11, '%': 11 },
  python: { '<': 3, '<=': 3, '>': 3, '>=': 3, '==': 3, '!=': 3, '|': 4, '^': 5, '&': 6, '<<': 7, '>>': 7, '+': 8, '-': 8, '*': 9, '//': 9, '%': 9 },
  triton: { '<': 3, '<=': 3, '>': 3, '>=': 3, '==': 3, '!=': 3, '|': 4, '^': 5, '&': 6, '<<': 7, '>>': 7, '+': 8, '-': 8, '*': 9, '//': 9, '%': 9 },
};

export function parse(src: string, lang: Lang): Node {
  const toks = tokenize(src);
  let i = 0;
  const peek = () => toks[i];
  const eat = (t?: string) => {
    const x = toks[i++];
    if (t !== undefined && x !== t) throw new Error(`expected ${t}, got ${x} in ${src}`);
    return x;
  };
  const primary = (): Node => {
    const x = eat();
    if (x === undefined) throw new Error(`unexpected end in ${src}`);
    let n: Node;
    if (x === '(') {
      n = top();
      eat(')');
    } else if (x === '-' || x === '!') return { t: 'un', op: x, a: unary() };
    else if (/^\d/.test(x)) n = { t: 'num', v: BigInt(x) };
    else if (peek() === '(') {
      eat('(');
      const args: Node[] = [];
      if (peek() !== ')') {
        args.push(top());
        while (peek() === ',') {
          eat(',');
          args.push(top());
        }
      }
      eat(')');
      n = { t: 'call', f: x, args };
    } else n = { t: 'name', n: x };
    while (peek() === '[') {
      eat('[');
      while (peek() !== ']') eat();
      eat(']');
      n = { t: 'index', a: n };
    }
    return n;
  };
  const unary = (): Node => primary();
  const binary = (minBp: number): Node => {
    let lhs = unary();
    for (;;) {
      const op = peek();
      const bp = op === undefined ? undefined : BP[lang][op];
      if (bp === undefined || bp < minBp) break;
      eat();
      const rhs = binary(bp + 1);
      lhs = { t: 'bin', op, a: lhs, b: rhs };
    }
    return lhs;
  };
  const top = (): Node => {
    const e = binary(0);
    if (lang === 'c' && peek() === '?') {
      eat('?');
      const a = top();
      eat(':');
      const b = top();
      return { t: 'cond', c: e, a, b };
    }
    if (lang !== 'c' && peek() === 'if') {
      eat('if');
      const c = binary(0);
      eat('else');
      const b = top();
      return { t: 'cond', c, a: e, b };
    }
    return e;
  };
  const r = top();
  if (i !== toks.length) throw new Error(`trailing tokens ${toks.slice(i).join(' ')} in ${src}`);
  return r;
}

function truncDiv(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new Error('division by zero');
  return a / b;
}
function floorDiv(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new Error('division by zero');
  const q = a / b;
  return a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q;
}

export interface MiniEnv {
  vars: ReadonlyMap<string, bigint>;
  /** value of `tl.arange(start, stop)` at the evaluated lane, given its bounds */
  arange?: (start: bigint, stop: bigint) => bigint;
}

export function evalNode(n: Node, lang: Lang, env: MiniEnv): bigint {
  const ev = (x: Node) => evalNode(x, lang, env);
  const b2i = (x: boolean) => (x ? 1n : 0n);
  switch (n.t) {
    case 'num':
      return n.v;
    case 'name': {
      const v = env.vars.get(n.n);
      if (v === undefined) throw new Error(`unbound ${n.n}`);
      return v;
    }
    case 'index':
      return ev(n.a);
    case 'un':
      return n.op === '-' ? -ev(n.a) : b2i(ev(n.a) === 0n);
    case 'cond':
      return ev(n.c) !== 0n ? ev(n.a) : ev(n.b);
    case 'call': {
      const args = n.args.map(ev);
      switch (n.f) {
        case 'min':
        case 'tl.minimum':
          return args.reduce((x, y) => (y < x ? y : x));
        case 'max':
        case 'tl.maximum':
          return args.reduce((x, y) => (y > x ? y : x));
        case 'tl.where':
          return args[0] !== 0n ? args[1] : args[2];
        case 'tl.arange':
          if (!env.arange) throw new Error('no arange lane given');
          return env.arange(args[0], args[1]);
        default:
          throw new Error(`unknown function ${n.f}`);
      }
    }
    case 'bin': {
      if (n.op === '&&') return b2i(ev(n.a) !== 0n && ev(n.b) !== 0n);
      if (n.op === '||') return b2i(ev(n.a) !== 0n || ev(n.b) !== 0n);
      const a = ev(n.a);
      const b = ev(n.b);
      switch (n.op) {
        case '+':
          return a + b;
        case '-':
          return a - b;
        case '*':
          return a * b;
        case '/':
          return truncDiv(a, b);
        case '//':
          return lang === 'python' ? floorDiv(a, b) : truncDiv(a, b);
        case '%':
          if (b === 0n) throw new Error('division by zero');
          return lang === 'python' ? a - b * floorDiv(a, b) : a % b;
        case '<':
          return b2i(a < b);
        case '<=':
          return b2i(a <= b);
        case '>':
          return b2i(a > b);
        case '>=':
          return b2i(a >= b);
        case '==':
          return b2i(a === b);
        case '!=':
          return b2i(a !== b);
        case '&':
          return a & b;
        case '|':
          return a | b;
        case '^':
          return a ^ b;
        case '<<':
          return a << b;
        case '>>':
          return a >> b;
      }
      throw new Error(`unknown operator ${n.op}`);
    }
  }
}

export function evalText(src: string, lang: Lang, env: MiniEnv): bigint {
  return evalNode(parse(src, lang), lang, env);
}

/**
 * Arithmetic operations of a printed expression, counted literally: each binary operator,
 * comparison and logical operator is one; min/max (and tl.minimum/maximum) one per extra
 * argument; a conditional/tl.where one; `!` one; unary minus (a -1 coefficient) free.
 */
export function countTextOps(src: string, lang: Lang): number {
  const go = (n: Node): number => {
    switch (n.t) {
      case 'num':
      case 'name':
        return 0;
      case 'index':
        return go(n.a);
      case 'un':
        return (n.op === '-' ? 0 : 1) + go(n.a);
      case 'cond':
        return 1 + go(n.c) + go(n.a) + go(n.b);
      case 'call': {
        const inner = n.args.reduce((s, x) => s + go(x), 0);
        if (n.f === 'tl.arange') return inner;
        if (n.f === 'tl.where') return 1 + inner;
        return n.args.length - 1 + inner;
      }
      case 'bin':
        return 1 + go(n.a) + go(n.b);
    }
  };
  return go(parse(src, lang));
}

/** interpret printMlir output lines (arith dialect subset) with exact integers */
export function evalMlir(lines: readonly string[], env: ReadonlyMap<string, bigint>): Map<string, bigint> {
  const v = new Map<string, bigint>(env);
  const get = (n: string) => {
    const x = v.get(n.trim());
    if (x === undefined) throw new Error(`undefined SSA value ${n}`);
    return x;
  };
  const fdiv = (a: bigint, b: bigint) => {
    if (b === 0n) throw new Error('division by zero');
    const q = a / b;
    return a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q;
  };
  for (const line of lines) {
    const m = /^(%\w+) = arith\.(\w+) (.*?)(?: : (\w+))?$/.exec(line);
    if (!m) throw new Error(`bad line ${line}`);
    const [, name, op, rest] = m;
    let out: bigint;
    if (op === 'constant') out = rest === 'true' ? 1n : rest === 'false' ? 0n : BigInt(rest);
    else if (op === 'cmpi') {
      const [pred, a, b] = rest.split(',').map((s) => s.trim());
      const x = get(a);
      const y = get(b);
      const r = { slt: x < y, sle: x <= y, sgt: x > y, sge: x >= y, eq: x === y, ne: x !== y }[pred];
      if (r === undefined) throw new Error(`predicate ${pred}`);
      out = r ? 1n : 0n;
    } else if (op === 'select') {
      const [c, a, b] = rest.split(',').map(get);
      out = c !== 0n ? a : b;
    } else {
      const [a, b] = rest.split(',').map(get);
      switch (op) {
        case 'addi':
          out = a + b;
          break;
        case 'subi':
          out = a - b;
          break;
        case 'muli':
          out = a * b;
          break;
        case 'floordivsi':
          out = fdiv(a, b);
          break;
        case 'divui':
          if (a < 0n || b <= 0n) throw new Error(`divui on negative operands ${a}, ${b}`);
          out = a / b;
          break;
        case 'remui':
          if (a < 0n || b <= 0n) throw new Error(`remui on negative operands ${a}, ${b}`);
          out = a % b;
          break;
        case 'remsi':
          if (b === 0n) throw new Error('division by zero');
          out = a % b;
          break;
        case 'minsi':
          out = a < b ? a : b;
          break;
        case 'maxsi':
          out = a > b ? a : b;
          break;
        case 'andi':
          out = a & b;
          break;
        case 'ori':
          out = a | b;
          break;
        case 'xori':
          out = a ^ b;
          break;
        default:
          throw new Error(`unknown op ${op}`);
      }
    }
    v.set(name, out);
  }
  return v;
}
