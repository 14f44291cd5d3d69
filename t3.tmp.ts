import * as E from './server/src/expr/index.js';
const { int, sym, add, sub, mul, neg, floorDiv, mod, min, max, cmp, and, or, not, select, arange, printPython: P, printC: C, printTriton: T, printMlir, countOps, simplify } = E;
const x = sym('x'), y = sym('y'), N = sym('N'), i = sym('i'), j = sym('j'), n = sym('n');
const r = arange(int(0), sym('BM'), {axis:0, rank:2}), c = arange(int(0), sym('BN'), {axis:1, rank:2});
const cases: [string, E.Expr][] = [
 ['fd', floorDiv(add(x, y), N)],
 ['mod', mod(add(x, y), N)],
 ['negmod', neg(mod(x, N))],
 ['min', min(x, y, N)],
 ['min tensor', min(add(r, x), N)],
 ['sel', select(cmp('<', x, y), add(x, int(1)), mul(int(2), y))],
 ['and', and(cmp('<', x, y), cmp('>', x, int(0)))],
 ['not and', not(and(cmp('<', x, y), cmp('>', x, int(0))))],
 ['arange 3d', arange(int(0), N, {axis:1, rank:3})],
 ['coef', add(mul(int(-3), x, y), mul(int(2), x), int(-7))],
 ['mod in prod', mul(mod(x, N), y)],
 ['ofs', add(mul(N, add(mul(sym('BM'), sym('pid_m')), r)), c)],
];
for (const [k, e] of cases) {
  let cc: string; try { cc = C(e); } catch (err) { cc = 'ERR ' + (err as Error).message; }
  console.log(k, '|', countOps(e), '\n  P:', P(e), '\n  C:', cc, '\n  T:', T(e));
}
const facts: E.Facts = { ranges: new Map([['x', {lo: int(0), hi: N}], ['y', {lo: int(0), hi: N}]]), positive: new Set(['N']) };
const s = simplify(add(floorDiv(add(x, y), N), mod(add(x, mul(int(3), y)), N)), facts);
console.log(C(s), '|', P(s));
const m = printMlir([s, add(mod(add(x, mul(int(3), y)), N), int(1)), select(cmp('<', x, y), x, y), floorDiv(sub(x, y), N)], {symbols: new Map([['x','%x'],['y','%y'],['N','%n']]), type: 'i32', prefix: 't'});
console.log(m.lines.join('\n')); console.log(m.results);
