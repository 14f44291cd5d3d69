// Settings: the editor's GenP budget is the CLI's (the same file gets the same answer), package.json
// advertises the defaults the server uses, and `layout.gpuTarget` takes every target the schedule checks know
// (check/targets.ts: sm_80, sm_86, sm_89, sm_90, cpu) and falls back to the default otherwise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_BUDGET } from '../../server/src/check/rules/index.js';
import { defaultSettings, readSettings } from '../../server/src/service/settings.js';
import { TARGETS } from '../../server/src/check/targets.js';
import { root } from './harness.js';

test('the editor GenP budget is the CLI one, 2^24, and package.json says so', () => {
  assert.equal(DEFAULT_BUDGET, 2 ** 24);
  assert.equal(defaultSettings.genp.checkBudget, DEFAULT_BUDGET);
  assert.equal(readSettings({}).genp.checkBudget, DEFAULT_BUDGET);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const props = pkg.contributes.configuration.properties;
  assert.equal(props['layout.genp.checkBudget'].default, DEFAULT_BUDGET);
  assert.doesNotMatch(props['layout.genp.checkBudget'].markdownDescription, /proof/);
  assert.equal(props['layout.diagnostics.debounceMs'].default, defaultSettings.diagnostics.debounceMs);
});

test('gpuTarget: every known target, nothing else', () => {
  assert.deepEqual(Object.keys(TARGETS), ['sm_80', 'sm_86', 'sm_89', 'sm_90', 'cpu']);
  for (const t of Object.keys(TARGETS)) assert.equal(readSettings({ gpuTarget: t }).gpuTarget, t);
  for (const bad of ['sm_100', 'foo', 'SM_90', '', 90, null, 'toString', '__proto__']) {
    assert.equal(readSettings({ gpuTarget: bad }).gpuTarget, defaultSettings.gpuTarget, String(bad));
  }
});
