// Runs every annotated fixture under test/check/fixtures/rules/ (see annotations.ts for the
// format) through `analyze` with the slow rules on, and asserts the EXACT set of diagnostics:
// every annotation must match one diagnostic (range, severity, message, code) and every
// diagnostic must be annotated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { analyze } from '../../../server/src/check/index.js';
import { compare, parseAnnotations } from './annotations.js';

const root = join(import.meta.dirname, '../fixtures/rules');

function fixtures(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir).sort()) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...fixtures(p));
    else if (n.endsWith('.layout')) out.push(p);
  }
  return out;
}

const files = fixtures(root);

test('the fixture set is not empty', () => {
  assert.ok(files.length >= 10, `only ${files.length} fixtures found under ${root}`);
});

for (const f of files) {
  test(`fixture ${relative(root, f)}`, () => {
    const text = readFileSync(f, 'utf8');
    const expected = parseAnnotations(text);
    const actual = analyze(text, { slow: true }).diagnostics;
    const problems = compare(text, expected, actual);
    assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
  });
}
