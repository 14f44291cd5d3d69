// Runs MLIR 22's tools on generated MLIR (the only module here with I/O). Used by the tests, the
// GPU artifact script and the CLI; never by the language server. Every run has a time limit and
// fails on a non-zero exit, a signal, or an `error:` line (mlir-opt can print errors and exit 0).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyScheduleArgs, CPU_LOWERING, GPU_OUTLINE, gpuToPtxArgs, stripGpuMemorySpaces, type PtxOptions } from './pipelines.js';

export interface MlirToolchain {
  opt: string;
  runner: string;
  /** mlir-runner's -shared-libs (c_runner_utils, runner_utils) */
  runtimeLibs: string[];
  /** CUDA's ptxas, when on PATH */
  ptxas?: string;
}

function onPath(cmd: string): boolean {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() !== '';
}

/** mlir-opt-22 and mlir-runner-22 with their runtime libraries, or undefined when not installed. */
export function findMlirToolchain(version = 22): MlirToolchain | undefined {
  const opt = `mlir-opt-${version}`, runner = `mlir-runner-${version}`;
  if (!onPath(opt) || !onPath(runner)) return undefined;
  const libDir = `/usr/lib/llvm-${version}/lib`;
  const libs = existsSync(libDir) ? readdirSync(libDir) : [];
  const pick = (stem: string): string | undefined => {
    const f = libs.filter((n) => n.startsWith(`${stem}.so`)).sort((a, b) => b.length - a.length)[0];
    return f ? join(libDir, f) : undefined;
  };
  const runtimeLibs = [pick('libmlir_c_runner_utils'), pick('libmlir_runner_utils')].filter((x): x is string => !!x);
  if (runtimeLibs.length !== 2) return undefined;
  return { opt, runner, runtimeLibs, ptxas: onPath('ptxas') ? 'ptxas' : undefined };
}

export interface ToolRun {
  ok: boolean;
  stdout: string;
  stderr: string;
  /** why it failed: exit code, signal, time limit, or the first `error:` line */
  why?: string;
}

/** Runs one tool with `input` on stdin. */
export function runTool(cmd: string, args: readonly string[], input = '', timeoutMs = 60_000): ToolRun {
  const r = spawnSync(cmd, args, { input, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024 });
  const stdout = r.stdout ?? '', stderr = r.stderr ?? '';
  let why: string | undefined;
  if (r.error) why = (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT' ? `timed out after ${timeoutMs} ms` : r.error.message;
  else if (r.signal) why = `killed by ${r.signal}`;
  else if (r.status !== 0) why = `exit code ${r.status}: ${firstError(stderr) ?? stderr.slice(0, 400)}`;
  else if (firstError(stderr)) why = firstError(stderr);
  return { ok: why === undefined, stdout, stderr, why };
}

function firstError(text: string): string | undefined {
  return text.split('\n').find((l) => /error:/.test(l));
}

/** A scratch directory for transform libraries (mlir-opt reads them from files). */
function withTempFile<T>(name: string, text: string, f: (path: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'layout-mlir-'));
  try {
    const p = join(dir, name);
    writeFileSync(p, text);
    return f(p);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Parses and verifies one MLIR file. */
export function verify(tc: MlirToolchain, mlir: string): ToolRun {
  return runTool(tc.opt, ['-o', '-'], mlir);
}

/** Applies the transform library to the payload with the given entry point; stdout is the result. */
export function applySchedule(tc: MlirToolchain, payload: string, transform: string, entry?: string): ToolRun {
  return withTempFile('schedule.mlir', transform, (p) => runTool(tc.opt, applyScheduleArgs(p, entry), payload));
}

export interface PtxResult {
  run: ToolRun;
  /** the outlined module (gpu.module + host code), before NVVM lowering */
  outlined?: string;
  ptx?: string;
  /** kernel name and the host function arguments it is launched with, in kernel parameter order */
  launches: { kernel: string; args: number[]; blocks: string[]; threads: string[] }[];
}

/** gpu.launch code -> outlined kernel -> PTX text. */
export function lowerToPtx(tc: MlirToolchain, gpuMlir: string, o: PtxOptions): PtxResult {
  const outlined = runTool(tc.opt, [...GPU_OUTLINE], gpuMlir);
  if (!outlined.ok) return { run: outlined, launches: [] };
  const launches = parseLaunches(outlined.stdout);
  const lowered = runTool(tc.opt, gpuToPtxArgs({ ...o, format: 'isa' }), outlined.stdout);
  if (!lowered.ok) return { run: lowered, outlined: outlined.stdout, launches };
  const obj = extractGpuObject(lowered.stdout);
  if (!obj) return { run: { ...lowered, ok: false, why: 'no #gpu.object in the lowered module' }, outlined: outlined.stdout, launches };
  return { run: lowered, outlined: outlined.stdout, ptx: obj.toString('utf8').replace(/\0+$/, ''), launches };
}

/** `gpu.launch_func @k::@k blocks in (%c32, ...) threads in (...) args(%arg0 : memref<...>, ...)` -> arguments as host function arg numbers. */
export function parseLaunches(outlined: string): PtxResult['launches'] {
  const out: PtxResult['launches'] = [];
  const re = /gpu\.launch_func\s+@(\w+)::@(\w+)\s+blocks in \(([^)]*)\)\s+threads in \(([^)]*)\)[^\n]*?args\(([^\n]*)\)/g;
  for (const m of outlined.matchAll(re)) {
    const args = [...m[5].matchAll(/%arg(\d+)\s*:/g)].map((a) => Number(a[1]));
    out.push({ kernel: m[2], args, blocks: m[3].split(',').map((x) => x.trim()), threads: m[4].split(',').map((x) => x.trim()) });
  }
  return out;
}

/** The payload of the first `#gpu.object<..., assembly|bin = "...">`: MLIR's escaped string, decoded. */
export function extractGpuObject(mlir: string): Buffer | undefined {
  const m = /#gpu\.object<#nvvm\.target<[^>]*>(?:, properties = \{[^}]*\})?, (?:assembly = |bin = )?"/.exec(mlir);
  if (!m) return undefined;
  const bytes: number[] = [];
  let i = m.index + m[0].length;
  while (i < mlir.length && mlir[i] !== '"') {
    const ch = mlir[i];
    if (ch === '\\') {
      const n = mlir[i + 1];
      if (n === '\\' || n === '"') { bytes.push(n.charCodeAt(0)); i += 2; }
      else if (n === 'n') { bytes.push(10); i += 2; }
      else if (n === 't') { bytes.push(9); i += 2; }
      else { bytes.push(parseInt(mlir.slice(i + 1, i + 3), 16)); i += 3; }
    } else {
      const cp = mlir.codePointAt(i)!;
      bytes.push(...Buffer.from(String.fromCodePoint(cp), 'utf8'));
      i += cp > 0xffff ? 2 : 1;
    }
  }
  return Buffer.from(bytes);
}

/**
 * The CPU check: applies `entry` of the transform library to `module` (payload + harness), drops GPU
 * memory spaces, lowers to LLVM and runs `mainFn` with mlir-runner. stdout is what the harness printed.
 */
export function runOnCpu(tc: MlirToolchain, module: string, transform: string | undefined, entry: string | undefined, mainFn: string): ToolRun {
  let mlir = module;
  if (transform !== undefined) {
    const applied = applySchedule(tc, module, transform, entry);
    if (!applied.ok) return applied;
    mlir = applied.stdout;
  }
  const lowered = runTool(tc.opt, [...CPU_LOWERING], stripGpuMemorySpaces(mlir));
  if (!lowered.ok) return lowered;
  return runTool(tc.runner, ['-e', mainFn, '-entry-point-result=void', '-O2', ...tc.runtimeLibs.map((l) => `-shared-libs=${l}`)], lowered.stdout);
}

/** `name = value` lines printed by a harness, as a map. */
export function parsePrinted(stdout: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const m = /^\s*([\w[\]]+) = (.*)$/.exec(line);
    if (m) out.set(m[1], m[2].trim());
  }
  return out;
}
