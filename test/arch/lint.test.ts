// The repository's lint (eslint.config.mjs; `npm run lint`, a step of `npm test`): the configuration
// catches what it is there for (eval and its relatives, unused names) on a stand-in file, and passes
// on `_`-prefixed unused names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');
const eslint = join(root, 'node_modules/eslint/bin/eslint.js');

function lint(text: string): { code: number | null; messages: [number, number, string][] } {
  const r = spawnSync(process.execPath, [eslint, '--format', 'json', '--stdin', '--stdin-filename', 'server/src/service/lint-probe.ts'], { cwd: root, input: text, encoding: 'utf8' });
  const [result] = JSON.parse(r.stdout) as { messages: { line: number; column: number; ruleId: string }[] }[];
  return { code: r.status, messages: result.messages.map((m) => [m.line, m.column, m.ruleId]) };
}

test('the lint rejects eval, new Function and unused names', () => {
  assert.deepEqual(lint('export function f(s: string) {\n  const unused = 1;\n  eval(s);\n  return new Function(s);\n}\n'), {
    code: 1,
    messages: [[2, 9, '@typescript-eslint/no-unused-vars'], [3, 3, 'no-eval'], [4, 10, 'no-new-func']],
  });
});

test('the lint accepts clean code and _-prefixed unused names', () => {
  assert.deepEqual(lint('export function f(_a: number, b: number): number {\n  const { x: _x, ...rest } = { x: 1, y: b };\n  return rest.y;\n}\n'), { code: 0, messages: [] });
});
