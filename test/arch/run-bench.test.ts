// scripts/run-bench.mjs on a stand-in bench folder: a plain run leaves the tracked bench/results/ as it was
// (changed files restored, new ones removed) and puts what the benches wrote in bench/out/; `--update`
// records in bench/results/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'layout-bench-'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  mkdirSync(join(dir, 'bench/results'), { recursive: true });
  writeFileSync(join(dir, 'bench/results/a.json'), '{"old":1}\n');
  writeFileSync(join(dir, 'bench/results/keep.md'), 'tracked\n');
  writeFileSync(join(dir, 'bench/a.ts'), "import { writeFileSync } from 'node:fs';\nwriteFileSync('bench/results/a.json', '{\"new\":2}\\n');\nwriteFileSync('bench/results/b.json', '{\"b\":3}\\n');\nconsole.log('a: 2');\n");
  return dir;
}

const run = (dir: string, ...args: string[]) => spawnSync(process.execPath, [join(root, 'scripts/run-bench.mjs'), ...args], { cwd: dir, encoding: 'utf8' });
const read = (dir: string, rel: string) => (existsSync(join(dir, rel)) ? readFileSync(join(dir, rel), 'utf8') : undefined);

test('npm run bench: results in bench/out/, bench/results/ unchanged', () => {
  const dir = workspace();
  try {
    const r = run(dir);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '== bench/a.ts\na: 2\nresults written to bench/out/ (a.json, b.json); bench/results/ is unchanged (npm run bench -- --update records them there)\n');
    assert.deepEqual([read(dir, 'bench/results/a.json'), read(dir, 'bench/results/b.json'), read(dir, 'bench/results/keep.md')], ['{"old":1}\n', undefined, 'tracked\n']);
    assert.deepEqual([read(dir, 'bench/out/a.json'), read(dir, 'bench/out/b.json'), read(dir, 'bench/out/keep.md')], ['{"new":2}\n', '{"b":3}\n', undefined]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('npm run bench -- --update: results recorded in bench/results/', () => {
  const dir = workspace();
  try {
    const r = run(dir, '--update');
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual([read(dir, 'bench/results/a.json'), read(dir, 'bench/results/b.json')], ['{"new":2}\n', '{"b":3}\n']);
    assert.equal(existsSync(join(dir, 'bench/out')), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('.gitignore leaves bench/out/ untracked', () => {
  assert.ok(readFileSync(join(root, '.gitignore'), 'utf8').split('\n').includes('bench/out/'));
});
