// The elaborated model is the one interpreter of the AST (issue 10 §1): every consumer of a value
// (layout rules, schedule checks, linear layouts) sees the same value for the same name, through
// name resolution: the first definition of a name declared twice, and no value for a let used
// before its declaration.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/check/index.js';
import { checkLinear } from '../../server/src/check/linear.js';
import { scheduleEnvOf, argValues } from '../../server/src/check/schedule/index.js';

const text = `param K = 64, K = 32
let S = K * 2
linear T = blocked(shape=[16, K], sizePerThread=[1, 8], threadsPerWarp=[4, 8], warpsPerCTA=[1, 1], order=[1, 0])
layout A = OrderBy(Row(16, K))
schedule s for linalg.matmul(16, S, K) {
  mm = findOp("linalg.matmul")
  bufferize()
}
`;

test('a param declared twice: every consumer uses the first definition', () => {
  const a = analyze(text);
  assert.deepEqual(a.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code), ['name/duplicate']);
  const m = a.model;
  assert.equal(m.params.get('K')!.value, 64n);
  assert.equal(m.env.get('K'), 64n);
  assert.equal(m.lets.get('S')!.value, 128n);
  // the linear layout's shape
  const l = checkLinear(a.file, a.resolution, m).linears.get('T')!;
  assert.equal(l.layout!.toBases().register.length + l.layout!.toBases().lane.length, 10); // 16 x 64 = 2^10
  // the schedule's sizes
  const decl = a.file.decls.find((d) => d.kind === 'Schedule')!;
  if (decl.kind !== 'Schedule') throw new Error('no schedule');
  const values = argValues(scheduleEnvOf(m, a.resolution));
  assert.deepEqual(decl.op!.args.map((e) => values(e)), [{ ok: true, value: 16n }, { ok: true, value: 128n }, { ok: true, value: 64n }]);
});

test('a let used before its declaration has no value anywhere', () => {
  const t = 'let a = b * 2\nlet b = 3\nschedule s for linalg.matmul(a, 16, 16) {\n  mm = findOp("linalg.matmul")\n}\n';
  const a = analyze(t);
  assert.equal(a.model.lets.get('a')!.value, undefined);
  assert.equal(a.model.lets.get('b')!.value, 3n);
  const decl = a.file.decls.find((d) => d.kind === 'Schedule')!;
  if (decl.kind !== 'Schedule') throw new Error('no schedule');
  const v = argValues(scheduleEnvOf(a.model, a.resolution))(decl.op!.args[0]);
  assert.deepEqual(v, { ok: false, message: '`a` has no integer value', range: decl.op!.args[0].range });
});
