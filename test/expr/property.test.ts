import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  type Expr,
  type Facts,
  EvalError,
  add,
  and,
  childrenOf,
  cmp,
  countOps,
  evaluate,
  floorDiv,
  int,
  max,
  min,
  mod,
  mul,
  neg,
  not,
  or,
  printC,
  printMlir,
  printPython,
  printTriton,
  select,
  simplify,
  sub,
  sym,
} from '../../server/src/expr/index.js';
import { exprDepth } from '../../server/src/expr/node.js';
import { countTextOps, evalMlir, evalText } from './mini-eval.js';

// x in [0, N), y in [0, D), z in [-3, N + 2), N and D positive, w unconstrained
const zero = int(0);
const F: Facts = {
  ranges: new Map([
    ['x', { lo: zero, hi: sym('N') }],
    ['y', { lo: zero, hi: sym('D') }],
    ['z', { lo: int(-3), hi: add(sym('N'), int(2)) }],
  ]),
  positive: new Set(['N', 'D']),
};
const NAMES = ['x', 'y', 'z', 'N', 'D', 'w'];

const leaf = fc.oneof(
  fc.constantFrom(...NAMES).map((n) => sym(n)),
  fc.integer({ min: -4, max: 9 }).map((v) => int(v)),
);
const divisor = fc.oneof(
  fc.integer({ min: 1, max: 6 }).map((v) => int(v)),
  fc.constantFrom(sym('N'), sym('D'), mul(sym('N'), sym('D')), add(sym('N'), int(1)), min(sym('N'), sym('D'))),
);

const { expr } = fc.letrec<{ expr: Expr }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => add(a, b)),
    fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => sub(a, b)),
    fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => mul(a, b)),
    fc.tuple(tie('expr'), fc.integer({ min: -3, max: 5 })).map(([a, k]) => mul(int(k), a)),
    fc.tuple(tie('expr'), divisor).map(([a, d]) => floorDiv(a, d)),
    fc.tuple(tie('expr'), divisor).map(([a, d]) => mod(a, d)),
    fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => floorDiv(a, b)),
    fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => min(a, b)),
    fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => max(a, b)),
    fc.tuple(fc.constantFrom('<', '<=', '>', '>=', '==', '!=' as const), tie('expr'), tie('expr')).map(([op, a, b]) => cmp(op, a, b)),
    fc.tuple(tie('expr'), tie('expr'), tie('expr')).map(([c, a, b]) => select(c, a, b)),
    fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => and(a, b)),
    fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => or(a, b)),
    tie('expr').map((a) => not(a)),
    tie('expr').map((a) => neg(a)),
  ),
}));

/** an environment where the facts hold */
const inRange = fc
  .record({
    N: fc.integer({ min: 1, max: 12 }),
    D: fc.integer({ min: 1, max: 12 }),
    x: fc.nat(1000),
    y: fc.nat(1000),
    z: fc.nat(1000),
    w: fc.integer({ min: -20, max: 20 }),
  })
  .map((r) => {
    const env = new Map<string, bigint>([
      ['N', BigInt(r.N)],
      ['D', BigInt(r.D)],
      ['x', BigInt(r.x % r.N)],
      ['y', BigInt(r.y % r.D)],
      ['z', BigInt((r.z % (r.N + 5)) - 3)],
      ['w', BigInt(r.w)],
    ]);
    return env;
  });

/** any environment (negative values allowed): for printers, which must hold everywhere */
const anyEnv = fc.record(Object.fromEntries(NAMES.map((n) => [n, fc.integer({ min: -15, max: 15 })]))).map(
  (r) => new Map(Object.entries(r).map(([k, v]) => [k, BigInt(v)])),
);

function tryEval(f: () => bigint): bigint | 'error' {
  try {
    return f();
  } catch (e) {
    if (e instanceof EvalError) return 'error';
    if (e instanceof Error && /division by zero|negative operands/.test(e.message)) return 'error';
    throw e;
  }
}

const RUNS = { numRuns: 1500, seed: 20251121 };

test('simplify is sound: equal values wherever the facts hold', () => {
  fc.assert(
    fc.property(expr, fc.array(inRange, { minLength: 3, maxLength: 3 }), (e, envs) => {
      const s = simplify(e, F);
      for (const env of envs) {
        const want = tryEval(() => evaluate(e, env));
        if (want === 'error') continue;
        assert.equal(evaluate(s, env), want, `${printPython(e)}  ~>  ${printPython(s)}  at ${[...env]}`);
      }
    }),
    RUNS,
  );
});

test('simplify is idempotent and deterministic', () => {
  fc.assert(
    fc.property(expr, (e) => {
      const s = simplify(e, F);
      assert.equal(simplify(e, F).key, s.key);
      assert.equal(simplify(s, F).key, s.key, `${printPython(e)}  ~>  ${printPython(s)}`);
    }),
    RUNS,
  );
});

/** depth recomputed from the children (a leaf is 1), not read from the node */
function depthOf(e: Expr): number {
  let d = 0;
  for (const k of childrenOf(e)) d = Math.max(d, depthOf(k));
  return d + 1;
}

test('the depth each node carries equals its depth recomputed from its children, built and simplified', () => {
  fc.assert(
    fc.property(expr, (e) => {
      const s = simplify(e, F);
      for (const x of [e, s]) {
        assert.equal(x.depth, depthOf(x), printPython(x));
        assert.equal(exprDepth(x), depthOf(x));
      }
    }),
    RUNS,
  );
});

test('Python, C, Triton text and MLIR compute the same values as evaluate (any signs)', () => {
  fc.assert(
    fc.property(expr, anyEnv, (e, env) => {
      const want = tryEval(() => evaluate(e, env));
      // tl.where and arith.select evaluate both branches: an error in the branch not taken is theirs
      const strictSelect = e.key.includes('~?(');
      const check = (lang: 'python' | 'c' | 'triton', text: string) => {
        const got = tryEval(() => evalText(text, lang, { vars: env }));
        if (want === 'error' || (got === 'error' && strictSelect && lang === 'triton')) return;
        assert.equal(got, want, `${lang}: ${text} at ${[...env]}`);
      };
      check('python', printPython(e));
      check('c', printC(e));
      check('triton', printTriton(e));
      const symbols = new Map(NAMES.map((n) => [n, `%${n}`]));
      const m = printMlir([e], { symbols, type: 'i64' });
      const got = tryEval(() => evalMlir(m.lines, new Map([...env].map(([k, v]) => [`%${k}`, v]))).get(m.results[0])!);
      if (want !== 'error' && !(got === 'error' && strictSelect)) assert.equal(got, want, `mlir:\n${m.lines.join('\n')}`);
    }),
    RUNS,
  );
});

test('simplified output printed with its non-negativity hints stays exact where the facts hold', () => {
  fc.assert(
    fc.property(expr, inRange, (e, env) => {
      const want = tryEval(() => evaluate(e, env));
      if (want === 'error') return;
      const s = simplify(e, F);
      assert.equal(evalText(printC(s), 'c', { vars: env }), want, printC(s));
      // tl.where and arith.select evaluate both branches: a division by zero in the branch
      // not taken is an error of theirs only (documented in print-text.ts / print-mlir.ts)
      const strictSelect = s.key.includes('~?(');
      const tri = tryEval(() => evalText(printTriton(s), 'triton', { vars: env }));
      if (!(tri === 'error' && strictSelect)) assert.equal(tri, want, printTriton(s));
      const m = printMlir([s], { symbols: new Map(NAMES.map((n) => [n, `%${n}`])) });
      const v = tryEval(() => evalMlir(m.lines, new Map([...env].map(([k, x]) => [`%${k}`, x]))).get(m.results[0])!);
      if (!(v === 'error' && strictSelect)) assert.equal(v, want, m.lines.join('\n'));
    }),
    RUNS,
  );
});

test('countOps equals a literal count of the printed Python text', () => {
  fc.assert(
    fc.property(expr, (e) => {
      assert.equal(countOps(e), countTextOps(printPython(e), 'python'), printPython(e));
    }),
    RUNS,
  );
});

test('tiled layouts: TileBy(OrderBy(RegP(dims, perm))) applied to tile coordinates simplifies to the untiled offset', async () => {
  const { tileBy, orderBy, regP, flatten } = await import('./lego-mini.js');
  const { equals } = await import('../../server/src/expr/index.js');
  const perms = fc.oneof(fc.constant(2), fc.constant(3)).chain((d) => fc.shuffledSubarray([...Array(d).keys()], { minLength: d, maxLength: d }));
  fc.assert(
    fc.property(perms, (perm) => {
      const d = perm.length;
      const dims = [...Array(d).keys()].map((k) => sym(`S${k}`));
      const tiles = [...Array(d).keys()].map((k) => sym(`T${k}`));
      const outer = dims.map((s, k) => floorDiv(s, tiles[k]));
      const L = tileBy([orderBy(regP(dims, perm))], [outer, tiles]);
      const ti = [...Array(d).keys()].map((k) => sym(`t${k}`));
      const ii = [...Array(d).keys()].map((k) => sym(`i${k}`));
      const facts: Facts = {
        ranges: new Map([...ti.map((_, k) => [`t${k}`, { lo: zero, hi: outer[k] }] as const), ...ii.map((_, k) => [`i${k}`, { lo: zero, hi: tiles[k] }] as const)]),
        positive: new Set([...dims, ...tiles].map((s) => (s as Expr & { kind: 'sym' }).name)),
        relations: dims.map((s, k) => cmp('==', mod(s, tiles[k]), zero)),
      };
      const s = simplify(L.apply([...ti, ...ii]), facts);
      const global = ti.map((t, k) => add(mul(tiles[k], t), ii[k]));
      const want = flatten(perm.map((p) => global[p]), perm.map((p) => dims[p]));
      assert.ok(equals(s, want), `${perm}: ${printPython(s)} != ${printPython(want)}`);
    }),
    { numRuns: 12, seed: 7 },
  );
});
