// Where emitted files may go (planEmit) and where template files may come from (resolveTemplatePath).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planEmit } from '../../server/src/codegen/plan.js';
import { resolveTemplatePath } from '../../server/src/codegen/emit-kernel.js';

const f = (relPath: string) => ({ relPath, content: 'x' });

test('files land under the output folder', () => {
  const p = planEmit([f('mm.py'), f('sub/t.cu')], { outDir: '/ws/out' });
  assert.deepEqual(p.writes.map((w) => w.absPath), ['/ws/out/mm.py', '/ws/out/sub/t.cu']);
  assert.deepEqual(p.refused, []);
});

test('absolute paths, .. segments, empty names and NUL are refused', () => {
  const p = planEmit([f('/etc/passwd'), f('../x.py'), f('a/../../x.py'), f(''), f('a\0b')], { outDir: '/ws/out' });
  assert.deepEqual(p.writes, []);
  assert.deepEqual(p.refused.map((r) => r.reason), [
    '"/etc/passwd" is not a plain relative path',
    '"../x.py" is not a plain relative path',
    '"a/../../x.py" is not a plain relative path',
    '"" is not a plain relative path',
    '"a\\u0000b" is not a plain relative path',
  ]);
});

test('with a workspace root, an output folder outside it is refused', () => {
  const p = planEmit([f('mm.py')], { outDir: '/elsewhere', workspaceRoot: '/ws' });
  assert.deepEqual(p.writes, []);
  assert.deepEqual(p.refused, [{ relPath: 'mm.py', absPath: '/elsewhere/mm.py', reason: '/elsewhere/mm.py is outside the workspace /ws' }]);
  assert.equal(planEmit([f('mm.py')], { outDir: '/ws/gen', workspaceRoot: '/ws' }).writes[0].absPath, '/ws/gen/mm.py');
  assert.equal(planEmit([f('mm.py')], { outDir: '/ws', workspaceRoot: '/ws' }).writes[0].absPath, '/ws/mm.py');
});

test('the same file twice is refused the second time', () => {
  const p = planEmit([f('mm.py'), f('./mm.py')], { outDir: '/o' });
  assert.equal(p.writes.length, 1);
  assert.deepEqual(p.refused.map((r) => r.reason), ['/o/mm.py is emitted twice (two blocks with one name?)']);
});

test('template paths resolve next to the .layout file and must stay inside the root', () => {
  assert.deepEqual(resolveTemplatePath('/ws/ex/a.layout', 't/mm.py'), { absPath: '/ws/ex/t/mm.py', inside: true });
  assert.deepEqual(resolveTemplatePath('/ws/ex/a.layout', '../t/mm.py'), { absPath: '/ws/t/mm.py', inside: false });
  assert.deepEqual(resolveTemplatePath('/ws/ex/a.layout', '../t/mm.py', '/ws'), { absPath: '/ws/t/mm.py', inside: true });
  assert.deepEqual(resolveTemplatePath('/ws/ex/a.layout', '/etc/passwd', '/ws'), { absPath: '/etc/passwd', inside: false });
  assert.deepEqual(resolveTemplatePath('/ws/ex/a.layout', '../../x', '/ws'), { absPath: '/x', inside: false });
  assert.equal(resolveTemplatePath('/ws/ex/a.layout', '', '/ws').inside, false);
  assert.equal(resolveTemplatePath('/ws/ex/a.layout', '.', '/ws').inside, true);
  assert.equal(resolveTemplatePath('/ws/ex/a.layout', 'a\0b', '/ws').inside, false);
});
