// Helpers for the real-tool tests: find nvcc and python3, compile a file, report what failed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface ToolRun {
  ok: boolean;
  /** the command line, for messages */
  command: string;
  output: string;
}

function which(cmd: string, extra: string[] = []): string | undefined {
  for (const p of [...extra, ...(process.env.PATH ?? '').split(':').map((d) => `${d}/${cmd}`)]) {
    if (p && existsSync(p)) return p;
  }
  return undefined;
}

/** nvcc's path (PATH, then /usr/local/cuda/bin), or undefined. `LAYOUT_TEST_NO_NVCC=1` hides it. */
export function findNvcc(): string | undefined {
  if (process.env.LAYOUT_TEST_NO_NVCC) return undefined;
  return which('nvcc', ['/usr/local/cuda/bin/nvcc']);
}

/** python3's path, or undefined. `LAYOUT_TEST_NO_PYTHON=1` hides it. */
export function findPython(): string | undefined {
  if (process.env.LAYOUT_TEST_NO_PYTHON) return undefined;
  const p = which('python3');
  if (!p) return undefined;
  const r = spawnSync(p, ['-c', 'import sys; print(sys.version_info[0])'], { encoding: 'utf8', timeout: 20_000 });
  return r.status === 0 && r.stdout.trim() === '3' ? p : undefined;
}

function run(cmd: string, args: string[], timeoutMs: number): ToolRun {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: timeoutMs });
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}`;
  return { ok: r.status === 0, command: [cmd, ...args].join(' '), output };
}

/** `nvcc -c` for sm_90 and sm_80 (one call), with extra flags. */
export function nvccCompile(nvcc: string, file: string, outObj: string, flags: string[] = []): ToolRun {
  return run(nvcc, ['-c', '-gencode', 'arch=compute_90,code=sm_90', '-gencode', 'arch=compute_80,code=sm_80', ...flags, file, '-o', outObj], 120_000);
}

/** `python3 -m py_compile FILE`. */
export function pyCompile(python: string, file: string): ToolRun {
  return run(python, ['-m', 'py_compile', file], 60_000);
}
