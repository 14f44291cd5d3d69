// Shared by `layout eval` and `layout expr`: read a .layout file, apply `--set NAME=VALUE`
// overrides, elaborate. Problems come back as one line and an exit status (2 usage, 1 error).
import { readFileSync } from 'node:fs';
import { parse, resolve, type Diagnostic, type LineIndex } from '../../../grammar/src/index.js';
import { elaborate, type Model } from '../check/elaborate.js';

export interface CliIo {
  out: (text: string) => void;
  err: (line: string) => void;
}

export class CliFailure extends Error {
  constructor(message: string, readonly status: 1 | 2) {
    super(message);
  }
}

export interface Loaded {
  text: string;
  model: Model;
  diagnostics: Diagnostic[];
  lines: LineIndex;
}

/** `NAME=VALUE` pairs (repeatable option) as overrides; usage errors for bad syntax. */
export function parseSets(sets: readonly string[] = []): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const s of sets) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(-?[0-9]+)$/.exec(s.trim());
    if (!m) throw new CliFailure(`--set expects NAME=INTEGER, got '${s}'`, 2);
    const v = BigInt(m[2]);
    if (v > 2n ** 53n || v < -(2n ** 53n)) throw new CliFailure(`--set ${s.trim()}: the value exceeds 2^53 in magnitude; values are exact only up to 2^53`, 2);
    out.set(m[1], v);
  }
  return out;
}

/** Reads and elaborates `file` (plus `extra` text appended, e.g. a query). */
export function loadModel(file: string, sets: readonly string[] | undefined, extra = ''): Loaded {
  const overrides = parseSets(sets);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliFailure(`cannot read '${file}': ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code ?? String(e)}`, 2);
  }
  const full = text + extra;
  const p = parse(full);
  const r = resolve(p.file, p.lines);
  const { model, diagnostics } = elaborate(p.file, r, { overrides });
  for (const name of overrides.keys()) {
    if (!model.params.has(name)) throw new CliFailure(`--set ${name}: '${file}' declares no param ${name}`, 2);
  }
  return { text: full, model, diagnostics: [...p.diagnostics, ...r.diagnostics, ...diagnostics], lines: p.lines };
}

/** `file:line:col: message` of the first error inside [start, end), if any. */
export function firstError(l: Loaded, file: string, start: number, end: number): string | undefined {
  const d = l.diagnostics.find((x) => x.severity === 'error' && x.range.start >= start && x.range.start <= end);
  if (!d) return undefined;
  const pos = l.lines.position(d.range.start);
  return `${file}:${pos.line + 1}:${pos.character + 1}: ${d.message}`;
}

/** Runs `f`, turning CliFailure and unexpected errors into one stderr line and a status. */
export function guarded(io: CliIo, f: () => number): number {
  try {
    return f();
  } catch (e) {
    if (e instanceof CliFailure) {
      io.err(`layout: ${e.message}`);
      return e.status;
    }
    io.err(`layout: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}
