// Laws over random layouts (random ranks, levels, permutations, sizes, chains, TileBy levels,
// ExpandBy): numeric apply equals the brute-force evaluator, apply is a bijection onto
// [0, extent), inv(apply(x)) == x, and symbolic apply/inv equal numeric apply/inv.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { evaluate } from '../../server/src/expr/index.js';
import * as A from '../../server/src/algebra/index.js';
import { randomLayout, type RandomLayout } from './support/random-layouts.js';

const seeds = fc.integer({ min: 1, max: 2 ** 31 - 1 });
const RUNS = 150;

function unflat(f: number, dims: readonly number[]): number[] {
  const out: number[] = [];
  for (let k = dims.length - 1; k >= 0; k--) {
    out[k] = f % dims[k];
    f = Math.floor(f / dims[k]);
  }
  return out;
}

function shapes(t: RandomLayout): { dims: number[]; ext: number } {
  const dims = A.dims(t.layout).map((d) => A.evalDim(d, t.env));
  return { dims, ext: Number(evaluate(A.extent(t.layout), t.env)) };
}

test('numeric apply equals the brute-force evaluator', () => {
  fc.assert(fc.property(seeds, (seed) => {
    const t = randomLayout(seed);
    assert.deepEqual(A.applyTable(t.layout, t.env), A.bruteTable(t.layout, t.env), t.describe);
  }), { numRuns: RUNS });
});

test('apply is a bijection onto [0, extent) (ExpandBy: its real points), and inv(apply(x)) == x', () => {
  fc.assert(fc.property(seeds, (seed) => {
    const t = randomLayout(seed);
    const { dims, ext } = shapes(t);
    const tab = A.applyTable(t.layout, t.env);
    const real = tab.filter((v) => v >= 0).sort((a, b) => a - b);
    assert.deepEqual(real, Array.from({ length: ext }, (_, k) => k), t.describe);
    if (t.layout.kind !== 'ExpandBy') assert.equal(tab.length, ext);
    const p = A.prepare(t.layout, t.env);
    tab.forEach((v, f) => {
      if (v >= 0) assert.deepEqual(A.invPrepared(p, v), unflat(f, dims), `${t.describe} at ${f}`);
    });
    for (let x = 0; x < ext; x++) assert.equal(A.applyPrepared(p, A.invPrepared(p, x)), x, `${t.describe} x=${x}`);
  }), { numRuns: RUNS });
});

test('symbolic apply equals numeric apply at random points', () => {
  fc.assert(fc.property(seeds, fc.array(fc.nat(), { minLength: 8, maxLength: 8 }), (seed, picks) => {
    const t = randomLayout(seed);
    const { dims } = shapes(t);
    const names = dims.map((_, k) => `x${k}`);
    const e = A.applySym(t.layout, names);
    const tab = A.applyTable(t.layout, t.env);
    for (const pick of picks) {
      const f = pick % tab.length;
      const env = new Map(t.env);
      unflat(f, dims).forEach((v, k) => env.set(names[k], BigInt(v)));
      assert.equal(Number(evaluate(e, env)), tab[f], `${t.describe} at ${f}`);
    }
  }), { numRuns: RUNS });
});

test('symbolic inv equals numeric inv at random points', () => {
  fc.assert(fc.property(seeds, fc.array(fc.nat(), { minLength: 8, maxLength: 8 }), (seed, picks) => {
    const t = randomLayout(seed);
    const { ext } = shapes(t);
    const es = A.invSym(t.layout, 'x');
    for (const pick of picks) {
      const x = pick % ext;
      const env = new Map(t.env).set('x', BigInt(x));
      assert.deepEqual(es.map((e) => evaluate(e, env)), A.invNum(t.layout, BigInt(x), t.env), `${t.describe} x=${x}`);
    }
  }), { numRuns: RUNS });
});
