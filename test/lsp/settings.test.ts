// readSettings (server/src/service/settings.ts): `layout.gpuTarget` takes every target the schedule checks
// know (check/targets.ts: sm_80, sm_86, sm_89, sm_90, cpu) and falls back to the default otherwise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultSettings, readSettings } from '../../server/src/service/settings.js';
import { TARGETS } from '../../server/src/check/targets.js';

test('gpuTarget: every known target, nothing else', () => {
  assert.deepEqual(Object.keys(TARGETS), ['sm_80', 'sm_86', 'sm_89', 'sm_90', 'cpu']);
  for (const t of Object.keys(TARGETS)) assert.equal(readSettings({ gpuTarget: t }).gpuTarget, t);
  for (const bad of ['sm_100', 'foo', 'SM_90', '', 90, null, 'toString', '__proto__']) {
    assert.equal(readSettings({ gpuTarget: bad }).gpuTarget, defaultSettings.gpuTarget, String(bad));
  }
});
