// `npm run fuzz -- --minutes N [--seed S] [--out DIR]`: the long fuzz campaign (test/fuzz/run.ts).
import { spawnSync } from 'node:child_process';
const r = spawnSync(process.execPath, ['--import', 'tsx', 'test/fuzz/run.ts', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(r.status ?? 1);
