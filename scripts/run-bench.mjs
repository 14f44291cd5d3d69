// Runs every bench/*.ts (not bench/gpu, not bench/support) in turn; each prints its numbers and writes
// bench/results/ (lsp-vs-mlir.ts: the latency table against mlir-lsp-server-22, about 2-3 minutes).
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
const only = process.argv[2];
const files = readdirSync('bench').filter((f) => f.endsWith('.ts') && (!only || f.includes(only))).sort();
let failed = 0;
for (const f of files) {
  console.log(`== bench/${f}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', `bench/${f}`], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
