// `layout linear FILE NAME [--json]`, `layout banks FILE --threads T --memory M --elem-bytes B
// [--vec V] [--json]`, `layout swizzle FILE --write A --read B --elem-bytes B [--json]`: linear
// layouts over F2 (docs/linear-layouts.md). Errors: one line on stderr; exit 2 for usage, 1 for an
// error (and for a layout that is not linear, after printing its counterexample).
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { parse, resolve } from '../../../grammar/src/index.js';
import { elaborate } from '../check/elaborate.js';
import { accessConflicts, checkLinear, linearSource, memoryLayout, type LinearAnalysis, type LinearModel } from '../check/linear.js';
import * as F from '../f2/index.js';
import { CliFailure, guarded, type CliIo } from './load-model.js';

interface Loaded {
  file: ReturnType<typeof parse>['file'];
  model: ReturnType<typeof elaborate>['model'];
  analysis: LinearAnalysis;
  lines: ReturnType<typeof parse>['lines'];
  errors: { at: number; message: string }[];
}

function load(path: string): Loaded {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliFailure(`cannot read '${path}': ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code ?? String(e)}`, 2);
  }
  const p = parse(text);
  const r = resolve(p.file, p.lines);
  const { model, diagnostics } = elaborate(p.file, r);
  const analysis = checkLinear(p.file, r, model);
  const errors = [...p.diagnostics, ...r.diagnostics, ...diagnostics, ...analysis.diagnostics]
    .filter((d) => d.severity === 'error')
    .map((d) => ({ at: d.range.start, message: d.message }));
  return { file: p.file, model, analysis, lines: p.lines, errors };
}

/** the layout NAME, distributed or shared (a LEGO layout converted), or a CliFailure */
function find(l: Loaded, path: string, name: string): LinearModel {
  const lin = l.analysis.linears.get(name);
  if (lin) return lin;
  const decl = l.file.decls.find((d) => (d.kind === 'Linear' || d.kind === 'Layout') && d.name.name === name);
  if (!decl) {
    const names = l.file.decls.flatMap((d) => (d.kind === 'Linear' || d.kind === 'Layout' ? [d.name.name] : []));
    throw new CliFailure(`'${path}' declares no layout ${name}${names.length ? `; its layouts are ${names.join(', ')}` : ''}`, 1);
  }
  const err = l.errors.find((e) => e.at >= decl.range.start && e.at <= decl.range.end);
  if (err) throw new CliFailure(`${path}:${l.lines.format(err.at)}: ${err.message}`, 1);
  const m = memoryLayout(name, l.file, l.model, l.analysis.linears);
  if (typeof m === 'string') throw new CliFailure(m, 1);
  return m;
}

function need<T>(v: T | undefined, what: string): T {
  if (v === undefined) throw new CliFailure(`${what} is required`, 2);
  return v;
}
function posInt(s: string, what: string): number {
  if (!/^[0-9]+$/.test(s.trim()) || Number(s) < 1 || Number(s) > 1024) throw new CliFailure(`${what} expects a positive integer, got '${s}'`, 2);
  return Number(s);
}
function elemBytes(s: string | undefined): number {
  const b = posInt(need(s, '--elem-bytes'), '--elem-bytes');
  if (!F.isPow2(b) || b > 16) throw new CliFailure(`--elem-bytes must be 1, 2, 4, 8 or 16, got ${b}`, 2);
  return b;
}

const fmtBases = (bs: readonly (readonly number[])[]) => bs.map((b) => `[${b.join(', ')}]`).join(' ');

export interface LinearOptions { json?: boolean }

/** Runs `layout linear`; returns the exit status. */
export function runLinear(path: string, name: string, opts: LinearOptions, io: CliIo): number {
  return guarded(io, () => {
    const l = load(path);
    const m = find(l, path, name);
    if (m.problem) throw new CliFailure(`${name}: ${m.problem}`, 1);
    if (m.class === 'not linear') {
      const c = m.counterexample!;
      if (opts.json) io.out(`${JSON.stringify({ shape: m.lego?.shape, class: m.class, counterexample: c, checked: m.checked })}\n`);
      else io.out(`${name}: not linear over F2: f(${c.x} ^ ${c.y}) = f(${c.x ^ c.y}) = [${c.fxy.join(', ')}] but f(${c.x}) ^ f(${c.y}) = [${c.fx.join(', ')}] ^ [${c.fy.join(', ')}] = [${c.fx.map((v, k) => v ^ c.fy[k]).join(', ')}]\n`);
      return 1;
    }
    const L = m.layout!;
    const bases = L.toBases();
    const shared = F.isShared(L);
    const out: Record<string, unknown> = { shape: L.shape, bases, class: m.class, kind: m.kind };
    if (m.offset) out.offset = m.offset;
    out.checked = m.checked;
    out.triton = F.tritonAttribute(L);
    if (shared && L.isInvertible()) {
      out.index = F.offsetExpression(L);
      const cute = F.cuteSwizzle(L);
      if (cute) out.cute = `Swizzle<${cute.B}, ${cute.M}, ${cute.S}>`;
    }
    if (!shared) out.broadcast = L.freeBits();
    if (opts.json) {
      io.out(`${JSON.stringify(out)}\n`);
      return 0;
    }
    const lines = [`${name}: ${m.kind} layout, shape [${L.shape.join(', ')}], ${m.class}${m.checked !== 'by construction' ? ` (checked: ${m.checked === 'exhaustive' ? 'exhaustively' : `on ${m.checked} samples`})` : ''}`];
    for (const [k, v] of Object.entries(bases)) lines.push(`  ${k}: ${v.length ? fmtBases(v) : '(none)'}`);
    if (m.offset) lines.push(`  affine offset: [${m.offset.join(', ')}]`);
    if (out.index) lines.push(`  offset(${F.coordNames(L.outs.length).join(', ')}) = ${String(out.index)}`);
    if (out.cute) lines.push(`  CuTe: ${String(out.cute)}`);
    lines.push(`  Triton: ${String(out.triton)}`);
    if (!shared) for (const [k, v] of Object.entries(L.freeBits())) if (v.length) lines.push(`  broadcast: ${k} bits ${v.join(', ')} are free (${2 ** v.length} copies)`);
    io.out(lines.join('\n') + '\n');
    return 0;
  });
}

export interface BanksOptions { threads?: string; memory?: string; elemBytes?: string; vec?: string; json?: boolean }

/** Runs `layout banks`; returns the exit status. */
export function runBanks(path: string, opts: BanksOptions, io: CliIo): number {
  return guarded(io, () => {
    const tName = need(opts.threads, '--threads');
    const mName = need(opts.memory, '--memory');
    const eb = elemBytes(opts.elemBytes);
    const vec = opts.vec !== undefined ? posInt(opts.vec, '--vec') : undefined;
    if (vec !== undefined && !F.isPow2(vec)) throw new CliFailure(`--vec must be a power of two, got ${vec}`, 2);
    const l = load(path);
    const t = find(l, path, tName);
    if (t.kind !== 'distributed' || !t.layout) throw new CliFailure(`--threads ${tName} is a shared layout; expected a distributed (register/lane/warp) layout`, 1);
    const m = find(l, path, mName);
    if (m.kind !== 'shared') throw new CliFailure(`--memory ${mName} is a distributed layout; expected a memory layout (offset)`, 1);
    if (m.problem && !m.lego) throw new CliFailure(`${mName}: ${m.problem}`, 1);
    let r;
    try {
      r = accessConflicts(t.layout, m, eb, vec);
    } catch (e) {
      if (e instanceof F.F2Error) throw new CliFailure(e.message, 1);
      throw e;
    }
    const res = {
      wavefronts: r.wavefronts, minimum: r.minimum, degree: r.degree, lanes: r.lanes, bank: r.bank,
      vec: r.vec, bytesPerLane: r.vec * eb, method: r.brute ? 'brute force' : 'closed form',
    };
    if (opts.json) io.out(`${JSON.stringify(res)}\n`);
    else {
      io.out(`${tName} through ${mName}: ${r.wavefronts} wavefronts per instruction, minimum ${r.minimum}` +
        (r.degree > 1 ? ` (${r.degree}-way bank conflict: lanes ${r.lanes.join(', ')} hit bank ${r.bank} at distinct words)` : ' (conflict-free)') +
        `; ${r.vec} × ${eb} B per lane (${res.method})\n`);
    }
    return 0;
  });
}

export interface SwizzleOptions { write?: string; read?: string; elemBytes?: string; json?: boolean }

/** Runs `layout swizzle`; returns the exit status. */
export function runSwizzle(path: string, opts: SwizzleOptions, io: CliIo): number {
  return guarded(io, () => {
    const aName = need(opts.write, '--write');
    const bName = need(opts.read, '--read');
    const eb = elemBytes(opts.elemBytes);
    const l = load(path);
    const a = find(l, path, aName);
    const b = find(l, path, bName);
    for (const [flag, n, m] of [['--write', aName, a], ['--read', bName, b]] as const) {
      if (m.kind !== 'distributed' || !m.layout) throw new CliFailure(`${flag} ${n} is a shared layout; expected a distributed (register/lane/warp) layout`, 1);
    }
    let s: F.SwizzleResult;
    try {
      s = F.optimalSwizzle(a.layout!, b.layout!, eb);
    } catch (e) {
      if (e instanceof F.F2Error) throw new CliFailure(e.message, 1);
      throw e;
    }
    const rowMajor = F.swizzled({ shape: a.layout!.shape, vec: 1, perPhase: 1, maxPhase: 1, order: a.layout!.shape.map((_, k) => a.layout!.shape.length - 1 - k) });
    const before = (L: F.LinearLayout) => F.bankConflicts(L, rowMajor, eb, s.vec).wavefronts;
    let unswizzled: { write: number; read: number } | undefined;
    try {
      unswizzled = { write: before(s.writer), read: before(s.reader) };
    } catch {
      unswizzled = undefined; // the vector is not contiguous in the row-major layout
    }
    const cute = F.cuteSwizzle(s.layout);
    const res = {
      vec: s.vec,
      bases: { offset: s.layout.basesOf(F.OFFSET) },
      write: s.write.wavefronts,
      read: s.read.wavefronts,
      minimum: s.minimum,
      unavoidable: s.unavoidable,
      index: F.offsetExpression(s.layout),
      triton: F.tritonAttribute(s.layout),
      cute: cute ? `Swizzle<${cute.B}, ${cute.M}, ${cute.S}>` : null,
      linear: linearSource('S', s.layout),
      vecBases: s.vecBases,
      rowMajor: unswizzled ?? null,
    };
    if (opts.json) {
      io.out(`${JSON.stringify(res)}\n`);
      return 0;
    }
    const lines = [
      `swizzle for ${aName} -> ${bName} (${eb} B elements): vector ${s.vec} × ${eb} B, write ${res.write} and read ${res.read} wavefronts per instruction (minimum ${s.minimum})${s.unavoidable ? '; conflicts are unavoidable at this vector width (Lemma 9.5)' : ''}`,
      `  offset bases: ${fmtBases(res.bases.offset)}`,
      `  offset(${F.coordNames(s.layout.outs.length).join(', ')}) = ${res.index}`,
      `  Triton: ${res.triton}`,
      ...(res.cute ? [`  CuTe: ${res.cute}`] : []),
      `  ${res.linear}`,
      ...(unswizzled ? [`  row-major for comparison: write ${unswizzled.write}, read ${unswizzled.read}`] : []),
    ];
    io.out(lines.join('\n') + '\n');
    return 0;
  });
}

const stdio: CliIo = { out: (text) => process.stdout.write(text), err: (line) => process.stderr.write(line + '\n') };

/** Adds `linear`, `banks` and `swizzle` to the CLI. */
export function registerLinear(program: Command): void {
  program
    .command('linear')
    .description('a layout as a linear layout over F2: bases, class, Triton attribute')
    .argument('<file>', 'the .layout file')
    .argument('<name>', 'a linear layout or a LEGO layout')
    .option('--json', 'print JSON')
    .action((file: string, name: string, opts: LinearOptions) => {
      process.exitCode = runLinear(file, name, opts, stdio);
    });
  program
    .command('banks')
    .description('shared-memory bank conflicts of a warp-wide access')
    .argument('<file>', 'the .layout file')
    .option('--threads <name>', 'the distributed layout (register/lane/warp)')
    .option('--memory <name>', 'the memory layout (a shared linear layout or a LEGO layout)')
    .option('--elem-bytes <bytes>', 'element width in bytes')
    .option('--vec <elements>', 'elements per access (default: the widest contiguous in both, at most 16 bytes)')
    .option('--json', 'print JSON')
    .action((file: string, opts: BanksOptions) => {
      process.exitCode = runBanks(file, opts, stdio);
    });
  program
    .command('swizzle')
    .description('the optimal XOR swizzle for a conversion through shared memory')
    .argument('<file>', 'the .layout file')
    .option('--write <name>', 'the distributed layout that writes')
    .option('--read <name>', 'the distributed layout that reads')
    .option('--elem-bytes <bytes>', 'element width in bytes')
    .option('--json', 'print JSON')
    .action((file: string, opts: SwizzleOptions) => {
      process.exitCode = runSwizzle(file, opts, stdio);
    });
}
