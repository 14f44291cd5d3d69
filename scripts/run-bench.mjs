// Runs every bench/*.ts (not bench/gpu, not bench/support) in turn; each prints its numbers and writes its
// result files under bench/results/ (lsp-vs-mlir.ts: the latency table against mlir-lsp-server-22, about
// 2-3 minutes; expr-vs-lego.ts: the operation-count table against LEGO, reference set and random layouts,
// exit 1 when a query has more operations than LEGO's).
//
// `npm run bench [-- FILTER]`: the results a run writes end up in bench/out/ (not tracked by git), and the
// tracked bench/results/ is left exactly as it was (restored afterwards, new files removed).
// `npm run bench -- --update [FILTER]`: the run updates the tracked bench/results/ (and nothing is copied).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const update = args.includes('--update');
const only = args.find((a) => !a.startsWith('--'));
const results = 'bench/results';
const out = 'bench/out';

/** Every file under `dir`, as relative path -> content. */
function snapshot(dir) {
  const files = new Map();
  const walk = (rel) => {
    const abs = join(dir, rel);
    if (!existsSync(abs)) return;
    for (const e of readdirSync(abs, { withFileTypes: true })) {
      const r = rel ? join(rel, e.name) : e.name;
      if (e.isDirectory()) walk(r);
      else if (e.isFile()) files.set(r, readFileSync(join(dir, r)));
    }
  };
  walk('');
  return files;
}

const before = update ? undefined : snapshot(results);
const files = readdirSync('bench').filter((f) => f.endsWith('.ts') && (!only || f.includes(only))).sort();
let failed = 0;
try {
  for (const f of files) {
    console.log(`== bench/${f}`);
    const r = spawnSync(process.execPath, ['--import', 'tsx', `bench/${f}`], { stdio: 'inherit' });
    if (r.status !== 0) failed++;
  }
} finally {
  if (before) {
    // what the run wrote goes to bench/out/; bench/results/ goes back to what it was
    const after = snapshot(results);
    const changed = [...after].filter(([rel, data]) => !before.get(rel)?.equals(data));
    for (const [rel, data] of changed) {
      mkdirSync(join(out, rel, '..'), { recursive: true });
      writeFileSync(join(out, rel), data);
      if (before.has(rel)) writeFileSync(join(results, rel), before.get(rel));
      else rmSync(join(results, rel));
    }
    console.log(changed.length > 0
      ? `results written to ${out}/ (${changed.map(([rel]) => rel).join(', ')}); ${results}/ is unchanged (npm run bench -- --update records them there)`
      : `no result files written; ${results}/ is unchanged`);
  } else {
    console.log(`results recorded in ${results}/ (--update)`);
  }
}
process.exit(failed ? 1 : 0);
