// Test-only parser for the reference strings of lego-semantics §12 (SymPy/Python printer output
// and the C printer's output) into Expr, so that they can be compared with our results as
// functions and by operation count. Never evaluates text as code.
import {
  add, arange, cmp, floorDiv, int, max, min, mod, mul, neg, select, sub, sym, type CmpOp, type Expr,
} from '../../../server/src/expr/index.js';

/** A rational value n/d (d > 0); SymPy's `/` is true division, floored later by `floor(...)`. */
interface Q {
  n: Expr;
  d: Expr;
}
const ONE = int(1);
const q = (n: Expr, d: Expr = ONE): Q => ({ n, d });

type Tok = { t: 'int'; v: bigint } | { t: 'id'; v: string } | { t: 'op'; v: string };

function lex(s: string): Tok[] {
  const out: Tok[] = [];
  const ops = ['**', '//', '<=', '>=', '==', '!=', '+', '-', '*', '/', '%', '(', ')', '[', ']', ',', '<', '>', '?', ':', '.'];
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (/\s/.test(c)) { i++; continue; }
    if (/[0-9]/.test(c)) {
      let j = i;
      while (j < s.length && /[0-9]/.test(s[j])) j++;
      out.push({ t: 'int', v: BigInt(s.slice(i, j)) });
      i = j;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i;
      while (j < s.length && /[A-Za-z0-9_]/.test(s[j])) j++;
      out.push({ t: 'id', v: s.slice(i, j) });
      i = j;
      continue;
    }
    const op = ops.find((o) => s.startsWith(o, i));
    if (!op) throw new Error(`unexpected ${JSON.stringify(c)} at ${i}`);
    out.push({ t: 'op', v: op });
    i += op.length;
  }
  return out;
}

/** Parses a reference string. `c`: C syntax (`/` is integer division, `?:`); `python`: SymPy/Python. */
export function parseRef(text: string, lang: 'python' | 'c'): Expr {
  const toks = lex(text);
  let p = 0;
  const peek = (v?: string): boolean => p < toks.length && toks[p].t === 'op' && (v === undefined || toks[p].v === v);
  const eat = (v: string): void => {
    if (!peek(v)) throw new Error(`expected ${v} at token ${p} in ${text}`);
    p++;
  };
  const whole = (x: Q): Expr => {
    if (x.d.kind === 'int' && x.d.value === 1n) return x.n;
    throw new Error(`a non-integer value in ${text}`);
  };

  const expr = (): Q => {
    const c = comparison();
    if (lang === 'c' && peek('?')) {
      eat('?');
      const a = expr();
      eat(':');
      const b = expr();
      return q(select(whole(c), whole(a), whole(b)));
    }
    return c;
  };
  const comparison = (): Q => {
    const a = sum();
    for (const op of ['<=', '>=', '==', '!=', '<', '>'] as const) {
      if (peek(op)) {
        p++;
        const b = sum();
        return q(cmp(op as CmpOp, mul(a.n, b.d), mul(b.n, a.d)));
      }
    }
    return a;
  };
  const sum = (): Q => {
    let a = term();
    while (peek('+') || peek('-')) {
      const op = toks[p++].v;
      const b = term();
      const n = op === '+' ? add(mul(a.n, b.d), mul(b.n, a.d)) : sub(mul(a.n, b.d), mul(b.n, a.d));
      a = q(n, mul(a.d, b.d));
    }
    return a;
  };
  const term = (): Q => {
    let a = unary();
    while (peek('*') || peek('/') || peek('//') || peek('%')) {
      const op = toks[p++].v;
      const b = unary();
      if (op === '*') a = q(mul(a.n, b.n), mul(a.d, b.d));
      else if (op === '//' || (op === '/' && lang === 'c')) a = q(floorDiv(mul(a.n, b.d), mul(a.d, b.n)));
      else if (op === '/') a = q(mul(a.n, b.d), mul(a.d, b.n));
      else a = q(mod(whole(a), whole(b)));
    }
    return a;
  };
  const unary = (): Q => {
    if (peek('-')) {
      p++;
      const a = unary();
      return q(neg(a.n), a.d);
    }
    return power();
  };
  const power = (): Q => {
    const a = postfix();
    if (peek('**')) {
      p++;
      const e = toks[p++];
      if (e.t !== 'int') throw new Error('only integer powers');
      let n: Expr = ONE;
      let d: Expr = ONE;
      for (let k = 0n; k < e.v; k++) {
        n = mul(n, a.n);
        d = mul(d, a.d);
      }
      return q(n, d);
    }
    return a;
  };
  const postfix = (): Q => {
    const a = primary();
    if (!peek('[')) return a;
    eat('[');
    const items: string[] = [];
    for (;;) {
      if (peek(':')) { p++; items.push(':'); }
      else {
        const t = toks[p++];
        if (t.t !== 'id' || t.v !== 'None') throw new Error('expected : or None');
        items.push('None');
      }
      if (peek(',')) { p++; continue; }
      break;
    }
    eat(']');
    const e = whole(a);
    if (e.kind !== 'arange') throw new Error('indexing applies to tl.arange only');
    return q(arange(e.start, e.stop, { axis: items.indexOf(':'), rank: items.length }));
  };
  const args = (): Q[] => {
    eat('(');
    const out: Q[] = [];
    if (!peek(')')) {
      for (;;) {
        out.push(expr());
        if (peek(',')) { p++; continue; }
        break;
      }
    }
    eat(')');
    return out;
  };
  const primary = (): Q => {
    const t = toks[p];
    if (!t) throw new Error(`unexpected end of ${text}`);
    if (t.t === 'int') { p++; return q(int(t.v)); }
    if (t.t === 'op' && t.v === '(') {
      if (isTuple()) throw new Error('tuple outside Piecewise');
      eat('(');
      const e = expr();
      eat(')');
      return e;
    }
    if (t.t !== 'id') throw new Error(`unexpected ${t.v} in ${text}`);
    p++;
    if (t.v === 'True') return q(ONE);
    if (t.v === 'tl' && peek('.')) {
      eat('.');
      const f = toks[p++];
      if (f.t !== 'id' || f.v !== 'arange') throw new Error('only tl.arange');
      const [s, e] = args().map(whole);
      return q(arange(s, e));
    }
    if (!peek('(')) return q(sym(t.v));
    switch (t.v) {
      case 'min': return q(min(...args().map(whole)));
      case 'max': return q(max(...args().map(whole)));
      case 'Mod': { const [a, b] = args().map(whole); return q(mod(a, b)); }
      case 'floor': { const [a] = args(); return q(floorDiv(a.n, a.d)); }
      case 'Piecewise': return q(piecewise());
    }
    throw new Error(`unknown function ${t.v}`);
  };
  const isTuple = (): boolean => {
    let depth = 0;
    for (let k = p; k < toks.length; k++) {
      const t = toks[k];
      if (t.t !== 'op') continue;
      if (t.v === '(' || t.v === '[') depth++;
      else if (t.v === ')' || t.v === ']') { depth--; if (depth === 0) return false; }
      else if (t.v === ',' && depth === 1) return true;
    }
    return false;
  };
  const piecewise = (): Expr => {
    eat('(');
    const pieces: [Expr, Expr][] = [];
    for (;;) {
      eat('(');
      const v = whole(expr());
      eat(',');
      const c = whole(expr());
      eat(')');
      pieces.push([v, c]);
      if (peek(',')) { p++; continue; }
      break;
    }
    eat(')');
    let out = pieces[pieces.length - 1][0];
    for (let k = pieces.length - 2; k >= 0; k--) out = select(pieces[k][1], pieces[k][0], out);
    return out;
  };

  const r = expr();
  if (p !== toks.length) throw new Error(`trailing input at token ${p} in ${text}`);
  return whole(r);
}

/** `[a, b]` lists of SymPy results, e.g. `[floor(x/N), Mod(x, N)]`. */
export function parseRefList(text: string): Expr[] {
  const inner = text.trim().replace(/^\[/, '').replace(/\]$/, '');
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(inner.slice(start));
  return parts.map((s) => parseRef(s, 'python'));
}
