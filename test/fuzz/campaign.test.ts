// The short, deterministic fuzz campaign of `npm test` (fuzz-lib.ts): a fixed seed, a few seconds.
// Every input must give no exception and no internal-error diagnostic. `npm run fuzz -- --minutes N`
// runs the long campaign; bench/fuzz.ts measures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { exercise, fuzzInput, examples } from './fuzz-lib.js';

test('the examples themselves: no exception, no internal error', () => {
  for (const t of examples) {
    const o = exercise(t, [0, 100, 1000]);
    assert.deepEqual([o.exceptions, o.internal], [[], []]);
  }
});

test('fuzz campaign (seeded): no exception and no internal error on mutated examples and generated programs', () => {
  fc.assert(
    fc.property(fuzzInput, ([text, offsets]) => {
      const o = exercise(text, offsets);
      assert.deepEqual([o.exceptions, o.internal], [[], []], `input:\n${text}`);
    }),
    { seed: 20261123, numRuns: 80 },
  );
});
