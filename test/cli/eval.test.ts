// `layout eval` (in process: runEval with captured output): apply, inv, table, --json, --set, errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEval, type EvalOptions } from '../../server/src/cli/eval.js';

const ex = (n: string) => join(import.meta.dirname, '../../examples', `${n}.layout`);
function run(file: string, layout: string, opts: EvalOptions) {
  let out = '';
  const err: string[] = [];
  const code = runEval(file, layout, opts, { out: (t) => (out += t), err: (l) => err.push(l) });
  return { code, out, err };
}

test('--apply 4,2 prints 15 for figure6; --inv 15 prints 4,2; --json', () => {
  assert.deepEqual(run(ex('figure6'), 'fig6', { apply: '4,2' }), { code: 0, out: '15\n', err: [] });
  assert.deepEqual(run(ex('figure6'), 'only_b', { apply: '4, 2' }), { code: 0, out: '23\n', err: [] });
  assert.deepEqual(run(ex('figure6'), 'fig6', { inv: '15' }), { code: 0, out: '4,2\n', err: [] });
  assert.deepEqual(run(ex('figure6'), 'fig6', { inv: '15', json: true }), { code: 0, out: '[4,2]\n', err: [] });
});

test('--table: rows of the last dimension; --json: the shape and one array, row-major', () => {
  const t = run(ex('figure6'), 'fig6', { table: true });
  assert.equal(t.out, ' 0  1  3 18 19 21\n 2  4  6 20 22 24\n 5  7  8 23 25 26\n 9 10 12 27 28 30\n11 13 15 29 31 33\n14 16 17 32 34 35\n');
  const j = run(ex('figure6'), 'fig6', { table: true, json: true });
  assert.deepEqual(Object.keys(JSON.parse(j.out)), ['shape', 'table']);
  assert.deepEqual(JSON.parse(j.out).shape, [6, 6]);
  assert.deepEqual(JSON.parse(j.out).table, [0, 1, 3, 18, 19, 21, 2, 4, 6, 20, 22, 24, 5, 7, 8, 23, 25, 26, 9, 10, 12, 27, 28, 30, 11, 13, 15, 29, 31, 33, 14, 16, 17, 32, 34, 35]);
});

test('--set overrides a param (lets follow)', () => {
  // Pid at the defaults: 32 x 16 program ids, groups of GM = 8 rows
  assert.deepEqual(run(ex('matmul'), 'Pid', { inv: '37' }), { code: 0, out: '5,4\n', err: [] });
  assert.deepEqual(run(ex('matmul'), 'Pid', { inv: '37', set: ['GM=4'] }), { code: 0, out: '1,9\n', err: [] });
});

test('errors: one line on stderr; 2 for usage, 1 for an error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'layout-eval-'));
  const bad = join(dir, 'bad.layout');
  writeFileSync(bad, 'layout L = RegP([2, 3])\n');
  assert.deepEqual(run(ex('figure6'), 'fig6', {}), { code: 2, out: '', err: ['layout: eval needs exactly one of --apply I,J,..., --inv X, --table'] });
  assert.deepEqual(run(ex('figure6'), 'fig6', { apply: '4,x' }), { code: 2, out: '', err: ["layout: --apply expects integers separated by commas, got '4,x'"] });
  assert.deepEqual(run(ex('figure6'), 'fig6', { apply: '1', inv: '2' }).code, 2);
  assert.deepEqual(run(ex('figure6'), 'fig6', { apply: '1', set: ['x'] }), { code: 2, out: '', err: ["layout: --set expects NAME=INTEGER, got 'x'"] });
  assert.deepEqual(run(ex('figure6'), 'fig6', { apply: '1', set: ['Q=1'] }).err, [`layout: --set Q: '${ex('figure6')}' declares no param Q`]);
  assert.deepEqual(run(join(dir, 'none.layout'), 'L', { apply: '1' }), { code: 2, out: '', err: [`layout: cannot read '${join(dir, 'none.layout')}': no such file`] });
  assert.deepEqual(run(ex('figure6'), 'nope', { apply: '1' }).err, [`layout: '${ex('figure6')}' declares no layout nope; its layouts are fig6, only_b`]);
  assert.deepEqual(run(ex('figure6'), 'fig6', { apply: '6,0' }), { code: 1, out: '', err: ['layout: fig6: index 6 is outside [0, 6) in dimension 0'] });
  assert.deepEqual(run(ex('figure6'), 'fig6', { inv: '36' }), { code: 1, out: '', err: ['layout: fig6: flat index 36 is outside [0, 36)'] });
  assert.deepEqual(run(bad, 'L', { apply: '0' }), { code: 1, out: '', err: [`layout: ${bad}:1:16: RegP (a list of dims and a permutation) takes 2 arguments, got 1`] });
});
