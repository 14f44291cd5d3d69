// Every `schedule/...` code the schedule checks can produce is listed in docs/diagnostics.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

test('every schedule/ diagnostic code in check/schedule/ is documented in docs/diagnostics.md', () => {
  const dir = 'server/src/check/schedule';
  const codes = new Set<string>();
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.ts'))) {
    for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/\bdiag\('([a-z-]+)'/g)) codes.add(`schedule/${m[1]}`);
  }
  assert.ok(codes.has('schedule/mma-types') && codes.has('schedule/registers') && codes.size > 30, [...codes].join(', '));
  const docs = readFileSync('docs/diagnostics.md', 'utf8');
  assert.deepEqual([...codes].filter((c) => !docs.includes(`\`${c}\``)).sort(), []);
});
