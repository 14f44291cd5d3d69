// Settings defaults: the editor's GenP budget is the CLI's (the same file gets the same answer),
// and package.json advertises the defaults the server uses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_BUDGET } from '../../server/src/check/rules/index.js';
import { defaultSettings, readSettings } from '../../server/src/service/settings.js';
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
