// `layout expr` (in process: runExpr with captured output): languages, --json, inv, errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runExpr, type ExprOptions } from '../../server/src/cli/expr.js';

const ex = (n: string) => join(import.meta.dirname, '../../examples', `${n}.layout`);
function run(file: string, q: string, opts: ExprOptions = {}) {
  let out = '';
  const err: string[] = [];
  const code = runExpr(file, q, opts, { out: (t) => (out += t), err: (l) => err.push(l) });
  return { code, out, err };
}
const A_TRITON = 'BK*k + K*(BM*pid_m + ((tl.arange(0, BM))[:, None])) + ((tl.arange(0, BK))[None, :])';

test('an apply query in triton, python and json', () => {
  assert.deepEqual(run(ex('matmul'), 'A[pid_m, k, :, :]', { lang: 'triton' }), { code: 0, out: A_TRITON + '\n', err: [] });
  assert.deepEqual(run(ex('matmul'), 'A[pid_m, k, :, :]'), { code: 0, out: 'BK*k + K*(BM*pid_m + tl.arange(0, BM)) + tl.arange(0, BK)\n', err: [] });
  assert.deepEqual(JSON.parse(run(ex('matmul'), 'A[pid_m, k, :, :]', { lang: 'triton', json: true }).out), { expr: A_TRITON, ops: 6 });
  assert.deepEqual(run(ex('matmul'), 'C.apply(pid_m, pid_n, 0, 1)', { lang: 'c' }).out, 'BM*N*pid_m + BN*pid_n + 1\n');
});

test('inv: one line per coordinate; --json: an array; --inline-lets', () => {
  const r = run(ex('matmul'), 'Pid.inv(pid)');
  assert.deepEqual(r.out.split('\n'), [
    'pid % min(GM, num_pid_m) + (((pid)//(num_pid_n*min(GM, num_pid_m))) % max(1, ((num_pid_m)//(GM))))*min(GM, num_pid_m)',
    '((pid % (num_pid_n*min(GM, num_pid_m)))//(min(GM, num_pid_m)))',
    '',
  ]);
  const j = JSON.parse(run(ex('matmul'), 'Pid.inv(pid)', { json: true }).out);
  assert.deepEqual(j.map((x: { ops: number }) => x.ops), [11, 5]);
  assert.ok(!run(ex('matmul'), 'Pid.inv(pid)', { inlineLets: true }).out.includes('num_pid'));
});

test('c for the NW body, mlir SSA lines', () => {
  assert.equal(run(ex('nw'), 'anti_diag[i, j]', { lang: 'c' }).out.startsWith('((i + j - n <= -1) ? ('), true);
  assert.deepEqual(run(ex('transpose'), 'Smem[tx, ty + jj]', { lang: 'mlir' }).out.split('\n'), [
    '%e0 = arith.constant 33 : index',
    '%e1 = arith.muli %e0, %tx : index',
    '%e2 = arith.addi %jj, %e1 : index',
    '%e3 = arith.addi %e2, %ty : index',
    '// result: %e3',
    '',
  ]);
});

test('errors: one line on stderr; 2 for usage, 1 for an error', () => {
  assert.deepEqual(run(ex('matmul'), 'A[pid_m, k, :]'), { code: 1, out: '', err: ['layout: the layout has 4 dimensions, the key 3 items'] });
  assert.deepEqual(run(ex('matmul'), 'A[pid_m, k, :, :'), { code: 1, out: '', err: ["layout: in the query: expected ']' to close the index list opened"] });
  assert.deepEqual(run(ex('matmul'), 'Q[1]'), { code: 1, out: '', err: ["layout: in the query: unknown name 'Q'"] });
  assert.deepEqual(run(ex('matmul'), 'A[pid_m, k, :, :]', { lang: 'c' }), { code: 1, out: '', err: ['layout: tl.arange(...) has no C form'] });
  assert.deepEqual(run(ex('matmul'), 'A[0, 0, 0, 0]', { lang: 'rust' }), { code: 2, out: '', err: ["layout: --lang must be one of c, python, triton, mlir, got 'rust'"] });
  assert.deepEqual(run(ex('matmul'), 'A[0, 0, 0, 0]\n}').code, 2);
});
