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
  assert.deepEqual(run(ex('matmul'), 'A[pid_m, k, :]'), { code: 1, out: '', err: ['layout: A takes 4 indices (its logical shape is [32, 64, 128, 64]) but 3 are given'] });
  assert.deepEqual(run(ex('matmul'), 'A[pid_m, k, :, :'), { code: 1, out: '', err: ["layout: in the query: expected ']' to close the index list opened"] });
  assert.deepEqual(run(ex('matmul'), 'Q[1]'), { code: 1, out: '', err: ["layout: in the query: unknown name 'Q'"] });
  assert.deepEqual(run(ex('matmul'), 'A[pid_m, k, :, :]', { lang: 'c' }), { code: 1, out: '', err: ['layout: tl.arange(...) has no C form'] });
  assert.deepEqual(run(ex('matmul'), 'A[0, 0, 0, 0]', { lang: 'rust' }), { code: 2, out: '', err: ["layout: --lang must be one of c, python, triton, mlir, got 'rust'"] });
  assert.deepEqual(run(ex('matmul'), 'A[0, 0, 0, 0]\n}').code, 2);
});

test('constant indices, slice bounds and inv arguments are checked against the dims at the (overridden) params', () => {
  const bad = (q: string, msg: string, opts: ExprOptions = {}) => assert.deepEqual(run(ex('matmul'), q, opts), { code: 1, out: '', err: [`layout: ${msg}`] });
  bad('A[0, 0, 200, 0]', 'index 200 is outside dimension 2 of A (size 128)');
  bad('A[0, -1, 0, 0]', 'index -1 is outside dimension 1 of A (size 64)');
  bad('A[pid_m, k, 9007199254740993, 0]', 'in the query: value 9007199254740993 of `9007199254740993` exceeds 2^53 in magnitude; results are exact only up to 2^53');
  assert.deepEqual(run(ex('matmul'), 'A[pid_m, k, 9007199254740992 - 9007199254740991, 0]').out, 'BK*k + BM*K*pid_m + K\n');
  bad('A.apply(0, 0, BM, 0)', 'index 128 is outside dimension 2 of A (size 128)');
  bad('A[0, 0, 2:1, 0]', 'slice 2:1 of dimension 2 of A (size 128) is empty');
  bad('A[0, 0, 0:999, 0]', 'slice end 999 is beyond dimension 2 of A (size 128)');
  bad('A[0, 0, -1:, 0]', 'slice start -1 is outside dimension 2 of A (size 128)');
  bad('Pid.inv(512)', 'flat index 512 is outside Pid, which has 512 elements');
  bad('Pid.inv(pid, 3)', 'Pid.inv takes 1 flat index but 2 are given');
  bad('A[0, 0, 100, 0]', 'index 100 is outside dimension 2 of A (size 64)', { set: ['BM=64'] });
  assert.deepEqual(run(ex('matmul'), 'A[0, 0, 200, 0]', { set: ['BM=256'] }), { code: 0, out: '200*K\n', err: [] });
  assert.deepEqual(run(ex('matmul'), 'A[0, 0, 1:BM, 0]'), { code: 0, out: 'K*tl.arange(1, BM)\n', err: [] });
  assert.deepEqual(run(ex('matmul'), 'Pid.inv(511)').code, 0);
});

test('--set beyond 2^53 is a usage error, not a rounded or ignored value', () => {
  assert.deepEqual(run(ex('matmul'), 'A[pid_m, k, :, :]', { set: ['M=9007199254740993'] }),
    { code: 2, out: '', err: ['layout: --set M=9007199254740993: the value exceeds 2^53 in magnitude; values are exact only up to 2^53'] });
  assert.equal(run(ex('matmul'), 'M', { set: ['M=9007199254740992'] }).code, 0);
});

test('--share: repeated subexpressions once, as temporaries before the results; --json counts them once', () => {
  assert.deepEqual(run(ex('matmul'), 'Pid.inv(pid)', { share: true }).out.split('\n'), [
    't0 = min(GM, num_pid_m)',
    't1 = num_pid_n*t0',
    'pid % t0 + (((pid)//(t1)) % max(1, ((num_pid_m)//(GM))))*t0',
    '((pid % t1)//(t0))',
    '',
  ]);
  const j = JSON.parse(run(ex('matmul'), 'Pid.inv(pid)', { share: true, json: true, lang: 'c' }).out);
  assert.deepEqual([j.temps.map((t: { name: string }) => t.name), j.ops, j.unsharedOps], [['t0', 't1'], 11, 16]);
  // nothing repeated: the plain output
  assert.deepEqual(run(ex('matmul'), 'A[pid_m, k, :, :]', { lang: 'triton', share: true }).out, A_TRITON + '\n');
});

test('mlir --json: the SSA lines share repeated subexpressions, and the count does too', () => {
  const j = JSON.parse(run(ex('matmul'), 'Pid.inv(pid)', { lang: 'mlir', json: true }).out);
  assert.equal(j.ops, 11);
  assert.equal((j.expr.match(/arith\.minsi/g) ?? []).length, 1);
});
