// Property tests: parsing never throws, whatever the input; generated valid programs parse
// back to the expression they were printed from, with exact ranges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse, resolve, nearDeclWord, KEYWORDS, type ast } from '../../grammar/src/index.js';
import { rangeProblems, sexpr } from './helpers.js';

/** parse + resolve must not throw and must return well-formed results */
function wellFormed(text: string): void {
  const p = parse(text);
  const r = resolve(p.file, p.lines);
  for (const d of [...p.diagnostics, ...r.diagnostics]) {
    assert.match(d.code, /^(lex|parse|name)\/[a-z-]+$/);
    assert.ok(d.message.length > 0 && !d.message.includes('\n'), d.message);
    assert.ok(0 <= d.range.start && d.range.start <= d.range.end && d.range.end <= text.length, JSON.stringify(d));
  }
  assert.ok(p.diagnostics.length <= 101);
  assert.deepEqual(rangeProblems(text, p.file, false), []);
}

const soupTokens = [
  ...KEYWORDS, 'OrderBy', 'GroupBy', 'TileBy', 'Row', 'RegP', 'GenP', 'min', 'max', 'findOp', 'tile',
  'a', 'b', 'M', 'x_1', '0', '42', '1_000', '12abc', '1.5', '"s"', '"unterminated', '"esc\\q"',
  '(', ')', '[', ']', '{', '}', ',', ':', '.', '=', '==', '!=', '<', '<=', '>', '>=', '+', '-', '*', '/', '//', '%',
  '@', '$', '!', '\u0000', '\u00e9', '#c\n', '\n', '\r\n', '\t', 'linalg', 'cuda', 'triton', 'sm_90',
];

test('parse never throws on token soup', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...soupTokens), { maxLength: 80 }), fc.constantFrom(' ', '', '\n'), (toks, sep) => {
      wellFormed(toks.join(sep));
    }),
    { numRuns: 400 },
  );
});

test('parse never throws on arbitrary strings (any UTF-16, lone surrogates included)', () => {
  fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 120 }), (s) => wellFormed(s)), { numRuns: 300 });
  fc.assert(fc.property(fc.string({ unit: fc.constantFrom(...'let a=[]()\n{},:.#"\\0123456789+-*/<>'.split('')), maxLength: 120 }), (s) => wellFormed(s)), { numRuns: 300 });
});

// ------------------------------------------------------------------ generated valid expressions

type E =
  | { k: 'name'; n: string } | { k: 'int'; v: number }
  | { k: 'bin'; op: string; l: E; r: E } | { k: 'un'; op: string; e: E }
  | { k: 'call'; f: string; args: E[] } | { k: 'meth'; recv: E; m: string; args: E[] }
  | { k: 'index'; recv: E; items: E[] } | { k: 'list'; items: E[] } | { k: 'tuple'; items: E[] }
  | { k: 'if'; c: E; t: E; e: E };

const binPrec: Record<string, number> = { or: 1, and: 2, '<': 4, '<=': 4, '==': 4, '!=': 4, '>': 4, '>=': 4, '+': 5, '-': 5, '*': 6, '/': 6, '%': 6 };

const exprArb: fc.Arbitrary<E> = fc.letrec<{ e: E }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('a', 'b', 'M', 'pid_m', 'x1').map((n): E => ({ k: 'name', n })),
    fc.nat(1000).map((v): E => ({ k: 'int', v })),
    fc.record({ op: fc.constantFrom(...Object.keys(binPrec)), l: tie('e'), r: tie('e') }).map((x): E => ({ k: 'bin', ...x })),
    fc.record({ op: fc.constantFrom('-', '+', 'not'), e: tie('e') }).map((x): E => ({ k: 'un', ...x })),
    fc.record({ f: fc.constantFrom('min', 'OrderBy', 'Row'), args: fc.array(tie('e'), { maxLength: 3 }) }).map((x): E => ({ k: 'call', ...x })),
    fc.record({ recv: tie('e'), m: fc.constantFrom('inv', 'TileBy'), args: fc.array(tie('e'), { maxLength: 2 }) }).map((x): E => ({ k: 'meth', ...x })),
    fc.record({ recv: tie('e'), items: fc.array(tie('e'), { minLength: 1, maxLength: 3 }) }).map((x): E => ({ k: 'index', ...x })),
    fc.array(tie('e'), { maxLength: 3 }).map((items): E => ({ k: 'list', items })),
    fc.array(tie('e'), { minLength: 1, maxLength: 3 }).map((items): E => ({ k: 'tuple', items })),
    fc.record({ c: tie('e'), t: tie('e'), e: tie('e') }).map((x): E => ({ k: 'if', ...x })),
  ),
})).e;

function prec(e: E): number {
  switch (e.k) {
    case 'bin': return binPrec[e.op];
    case 'un': return e.op === 'not' ? 3 : 7;
    case 'if': return 0;
    default: return 9;
  }
}

/** prints with the fewest parentheses the precedence rules allow; `min`: the context's precedence */
function print(e: E, min = 0): string {
  const s = printBare(e);
  return prec(e) < min ? `(${s})` : s;
}
function printBare(e: E): string {
  const list = (xs: E[]) => xs.map((x) => print(x)).join(', ');
  switch (e.k) {
    case 'name': return e.n;
    case 'int': return String(e.v);
    case 'bin': {
      const p = binPrec[e.op];
      return `${print(e.l, p === 4 ? 5 : p)} ${e.op} ${print(e.r, p + 1)}`;
    }
    case 'un': return e.op === 'not' ? `not ${print(e.e, 3)}` : `${e.op}${print(e.e, 7)}`;
    case 'call': return `${e.f}(${list(e.args)})`;
    case 'meth': return `${print(e.recv, 8)}.${e.m}(${list(e.args)})`;
    case 'index': return `${print(e.recv, 8)}[${list(e.items)}]`;
    case 'list': return `[${list(e.items)}]`;
    case 'tuple': return e.items.length === 1 ? `(${print(e.items[0])},)` : `(${list(e.items)})`;
    case 'if': return `if ${print(e.c)} then ${print(e.t)} else ${print(e.e)}`;
  }
}
function expected(e: E): string {
  const all = (xs: E[]) => xs.map((x) => ' ' + expected(x)).join('');
  switch (e.k) {
    case 'name': return e.n;
    case 'int': return String(e.v);
    case 'bin': return `(${e.op} ${expected(e.l)} ${expected(e.r)})`;
    case 'un': return `(${e.op} ${expected(e.e)})`;
    case 'call': return `(${e.f}${all(e.args)})`;
    case 'meth': return `(.${e.m} ${expected(e.recv)}${all(e.args)})`;
    case 'index': return `(index ${expected(e.recv)}${all(e.items)})`;
    case 'list': return `[${e.items.map(expected).join(' ')}]`;
    case 'tuple': return `(tuple${all(e.items)})`;
    case 'if': return `(if ${expected(e.c)} ${expected(e.t)} ${expected(e.e)})`;
  }
}

/** re-spaces printed code: every space becomes a random run of spaces, newlines and comments */
function respace(code: string, seps: string[]): string {
  let i = 0;
  return code.replace(/ /g, () => seps[i++ % seps.length]);
}

test('generated expressions parse back to the tree they were printed from, with exact ranges', () => {
  fc.assert(
    fc.property(exprArb, fc.array(fc.constantFrom(' ', '  ', '\n', ' # note\n', '\r\n\t'), { minLength: 1, maxLength: 8 }), (e, seps) => {
      const text = respace(`let x = ${print(e)}\nlayout y = ${print(e)}`, seps);
      const p = parse(text);
      assert.deepEqual(p.diagnostics, [], text);
      assert.equal(p.file.decls.length, 2, text);
      for (const d of p.file.decls) assert.equal(sexpr((d as ast.LetDecl | ast.LayoutDecl).value), expected(e), text);
      assert.deepEqual(rangeProblems(text, p.file, true), [], text);
    }),
    { numRuns: 300 },
  );
});

test('the printer used above is not trivially agreeing: a wrong precedence is caught', () => {
  // `a - (b - c)` printed without its parentheses would parse as `(a - b) - c`
  const p = parse('let x = a - b - c');
  assert.notEqual(sexpr((p.file.decls[0] as ast.LetDecl).value), expected({ k: 'bin', op: '-', l: { k: 'name', n: 'a' }, r: { k: 'bin', op: '-', l: { k: 'name', n: 'b' }, r: { k: 'name', n: 'c' } } }));
  assert.equal(print({ k: 'bin', op: '-', l: { k: 'name', n: 'a' }, r: { k: 'bin', op: '-', l: { k: 'name', n: 'b' }, r: { k: 'name', n: 'c' } } }), 'a - (b - c)');
});

test('misspelled declaration keywords: close words only, never a single letter (property counterexample "L\\u0000A")', () => {
  assert.equal(nearDeclWord('L'), undefined);
  assert.equal(nearDeclWord('lt'), 'let');
  assert.equal(nearDeclWord('layuot'), 'layout');
  assert.equal(nearDeclWord('lat'), 'let');
  assert.equal(nearDeclWord('abc'), undefined);
  const p = parse('L\u0000A');
  assert.deepEqual(p.file.decls, []);
  assert.deepEqual(p.diagnostics.map((d) => d.code), ['parse/unexpected-token', 'lex/unexpected-character']);
  wellFormed('L\u0000A');
});
