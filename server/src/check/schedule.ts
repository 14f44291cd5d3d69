// Schedule blocks: what each PEAK primitive means, the plain-data form of a schedule
// (`ScheduleSpec`, shared with codegen), and the checks of issue "Language server" (codes
// `schedule/...`, listed in docs/diagnostics.md). Pure data in, diagnostics as data out.
//
//   schedule gemm for linalg.matmul(M, N, K) on sm_90 {
//     mm = findOp("linalg.matmul")
//     tileForGrids(mm, [BM, BN])        # grid of blocks, BM x BN outputs each
//     tile(mm, [0, 0, BK])              # K loop
//     promote(mm, [0, 1])               # A and B tiles in shared memory
//     parallelizeForThreads(mm, [16, 16])
//     vectorize()
//     bufferize()
//   }
//
// Three stages: `resolveSchedule` turns the AST into a `ScheduleSpec` (numbers, no expressions)
// and reports malformed steps; `analyzeSchedule` simulates the steps on the payload's iteration
// space (tile extents, grid, threads, shared memory) and reports what is wrong with them;
// `checkSchedule` runs both for the parameters' values and again for every tuning candidate.
import type { Expr, File, Range, ScheduleDecl, ScheduleStep } from '../../../grammar/src/ast.js';
import type { Diagnostic, RelatedInfo, Severity } from '../../../grammar/src/diagnostic.js';
import { formatBytes, lookupTarget, TARGETS, type GpuTarget, type Target } from './targets.js';

// ------------------------------------------------------------------ payload ops

export interface PayloadOperand {
  /** `A`, `B`, `C` */
  name: string;
  /** iteration dimensions indexing this operand, outermost first */
  dims: number[];
  /** the output (the `outs` operand) */
  isOutput: boolean;
}

export interface PayloadOpInfo {
  name: string;
  /** iteration dimension names in the order of the `for` clause's sizes */
  dims: string[];
  /** the first `parallelDims` dimensions are parallel, the rest reductions */
  parallelDims: number;
  operands: PayloadOperand[];
  /** one line for hovers */
  summary: string;
}

export const PAYLOAD_OPS: Readonly<Record<string, PayloadOpInfo>> = {
  'linalg.matmul': {
    name: 'linalg.matmul',
    dims: ['M', 'N', 'K'],
    parallelDims: 2,
    operands: [
      { name: 'A', dims: [0, 2], isOutput: false },
      { name: 'B', dims: [2, 1], isOutput: false },
      { name: 'C', dims: [0, 1], isOutput: true },
    ],
    summary: 'C[M x N] = A[M x K] * B[K x N]',
  },
};

export function lookupPayloadOp(name: string): PayloadOpInfo | undefined {
  return Object.prototype.hasOwnProperty.call(PAYLOAD_OPS, name) ? PAYLOAD_OPS[name] : undefined;
}

// ------------------------------------------------------------------ primitives

export type Primitive =
  | 'findOp' | 'tile' | 'fuse' | 'tileForGrids' | 'parallelizeForBlocks' | 'parallelizeForThreads'
  | 'bufferize' | 'promote' | 'unroll' | 'vectorize';

type ArgKind = 'handle' | 'sizes' | 'operands' | 'int' | 'opName';

export interface PrimitiveInfo {
  name: Primitive;
  /** as shown in hovers and completion, e.g. `tile(handle, [sizes])` */
  signature: string;
  /** required arguments, then optional ones */
  args: ArgKind[];
  optionalArgs: ArgKind[];
  /** the step binds a handle: `mm = findOp(...)` */
  bindsResult: boolean;
  target: 'any' | 'gpu' | 'cpu';
  summary: string;
  /** transform-dialect ops the step becomes (MLIR 22 spelling) */
  becomes: string[];
}

function prim(name: Primitive, signature: string, args: ArgKind[], optionalArgs: ArgKind[], target: PrimitiveInfo['target'],
  summary: string, becomes: string[]): PrimitiveInfo {
  return { name, signature, args, optionalArgs, bindsResult: name === 'findOp', target, summary, becomes };
}

export const PRIMITIVES: Readonly<Record<Primitive, PrimitiveInfo>> = {
  findOp: prim('findOp', 'h = findOp("linalg.matmul")', ['opName'], [], 'any',
    'Finds the payload op and binds a handle to it; later steps name the handle.',
    ['transform.structured.match']),
  tileForGrids: prim('tileForGrids', 'tileForGrids(h, [tile per parallel dim])', ['handle', 'sizes'], [], 'gpu',
    'Tiles the parallel dimensions into one tile per GPU block (an `scf.forall` mapped to `#gpu.block`); the zero fill of the output is fused into the same loop.',
    ['transform.structured.tile_using_forall', 'transform.structured.fuse_into_containing_op']),
  tile: prim('tile', 'tile(h, [size per dim, 0 = untiled])', ['handle', 'sizes'], [], 'any',
    'Tiles dimensions with sequential `scf.for` loops (e.g. the reduction K); a size of 0 leaves a dimension untiled.',
    ['transform.structured.tile_using_for']),
  fuse: prim('fuse', 'fuse(h, [size per parallel dim])', ['handle', 'sizes'], [], 'cpu',
    'Tiles the parallel dimensions with `scf.for` loops and fuses the producer (the zero fill) into them.',
    ['transform.structured.fuse']),
  promote: prim('promote', 'promote(h, [operand indices])', ['handle', 'operands'], [], 'gpu',
    'Stages the listed input operands\' tiles in shared memory: each block copies them cooperatively before computing.',
    ['transform.structured.pad', 'transform.structured.gpu.map_copy_to_threads',
      'transform.structured.bufferize_to_allocation', 'transform.memref.alloca_to_global']),
  parallelizeForThreads: prim('parallelizeForThreads', 'parallelizeForThreads(h, [threads per parallel dim])', ['handle', 'sizes'], [], 'gpu',
    'Splits each block\'s tile over a block of threads (an `scf.forall` mapped to `#gpu.thread`); the numbers are thread counts.',
    ['transform.structured.tile_using_forall', 'transform.gpu.map_nested_forall_to_threads']),
  parallelizeForBlocks: prim('parallelizeForBlocks', 'parallelizeForBlocks(h?)', [], ['handle'], 'gpu',
    'Turns the grid loop made by tileForGrids into a `gpu.launch` (done at the end of every GPU schedule; writing it documents where).',
    ['transform.gpu.map_forall_to_blocks']),
  vectorize: prim('vectorize', 'vectorize(h?)', [], ['handle'], 'any',
    'Replaces the (per-thread) linalg ops and shared-memory copies by vector ops, lowered to FMAs and vector loads after bufferize.',
    ['transform.structured.vectorize', 'transform.apply_patterns.vector.*']),
  unroll: prim('unroll', 'unroll(h, factor)', ['handle', 'int'], [], 'any',
    'Unrolls the innermost loop made by tile/fuse on the handle by the factor.',
    ['transform.loop.unroll']),
  bufferize: prim('bufferize', 'bufferize()', [], [], 'any',
    'Turns tensors into memrefs (one-shot bufferization); shared-memory staging buffers become workgroup globals.',
    ['transform.bufferization.eliminate_empty_tensors', 'transform.bufferization.one_shot_bufferize',
      'transform.memref.alloca_to_global']),
};

export function isPrimitive(name: string): name is Primitive {
  return Object.prototype.hasOwnProperty.call(PRIMITIVES, name);
}

// ------------------------------------------------------------------ the plain-data schedule

export type ElementType = 'f32' | 'f16';
export const ELEMENT_BYTES: Readonly<Record<ElementType, number>> = { f32: 4, f16: 2 };

/** One step with its arguments resolved to numbers. */
export interface ScheduleStepSpec {
  primitive: Primitive;
  /** the handle argument; for findOp the handle it binds */
  handle?: string;
  /** findOp's op name */
  op?: string;
  /** tile / fuse / tileForGrids sizes, parallelizeForThreads thread counts */
  sizes?: number[];
  /** promote's operand indices */
  operands?: number[];
  /** unroll's factor */
  factor?: number;
  /** source ranges, when the step came from a file: the whole step, the primitive name, each argument, each list item */
  range?: Range;
  primitiveRange?: Range;
  argRanges?: Range[];
  itemRanges?: Range[];
}

/** A schedule with every parameter replaced by its value: the input of the MLIR emitter. */
export interface ScheduleSpec {
  /** the block's name; also the payload function's name */
  name: string;
  /** payload op, a key of PAYLOAD_OPS */
  op: string;
  /** problem sizes in the op's dimension order (M, N, K for linalg.matmul) */
  sizes: number[];
  /** element type of every operand (default f32) */
  elementType: ElementType;
  /** a key of TARGETS: `sm_90`, ..., or `cpu` */
  target: string;
  steps: ScheduleStepSpec[];
  /** named in the header comment of generated files */
  source?: { file?: string; block: string };
  ranges?: { decl?: Range; name?: Range; op?: Range; sizes?: Range[]; target?: Range };
}

// ------------------------------------------------------------------ integer evaluation

export type EvalResult = { ok: true; value: bigint } | { ok: false; message: string; range: Range };
/** Resolves a name to its value, or says why it has none. */
export type NameLookup = (name: string, range: Range) => EvalResult;

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

/** Evaluates an integer expression: literals, names, + - * / % (floor), comparisons, and/or/not, if, min, max. */
export function evalIntExpr(e: Expr, lookup: NameLookup): EvalResult {
  const err = (message: string, range = e.range): EvalResult => ({ ok: false, message, range });
  switch (e.kind) {
    case 'Int': return { ok: true, value: e.value };
    case 'Name': return lookup(e.name, e.range);
    case 'Unary': {
      const v = evalIntExpr(e.operand, lookup);
      if (!v.ok) return v;
      if (e.op === '-') return { ok: true, value: -v.value };
      if (e.op === '+') return v;
      return { ok: true, value: v.value === 0n ? 1n : 0n };
    }
    case 'Binary': {
      const l = evalIntExpr(e.left, lookup);
      if (!l.ok) return l;
      const r = evalIntExpr(e.right, lookup);
      if (!r.ok) return r;
      const a = l.value, b = r.value;
      const bool = (x: boolean): EvalResult => ({ ok: true, value: x ? 1n : 0n });
      switch (e.op) {
        case '+': return { ok: true, value: a + b };
        case '-': return { ok: true, value: a - b };
        case '*': return { ok: true, value: a * b };
        case '/': return b === 0n ? err('division by zero', e.right.range) : { ok: true, value: floorDiv(a, b) };
        case '%': return b === 0n ? err('remainder by zero', e.right.range) : { ok: true, value: a - b * floorDiv(a, b) };
        case '<': return bool(a < b);
        case '<=': return bool(a <= b);
        case '>': return bool(a > b);
        case '>=': return bool(a >= b);
        case '==': return bool(a === b);
        case '!=': return bool(a !== b);
        case 'and': return bool(a !== 0n && b !== 0n);
        case 'or': return bool(a !== 0n || b !== 0n);
      }
      return err(`operator ${(e as { op: string }).op} is not supported here`);
    }
    case 'If': {
      const c = evalIntExpr(e.cond, lookup);
      if (!c.ok) return c;
      return evalIntExpr(c.value !== 0n ? e.then : e.else, lookup);
    }
    case 'Call': {
      const f = e.callee.name;
      if ((f === 'min' || f === 'max') && e.args.length > 0) {
        let best: bigint | undefined;
        for (const a of e.args) {
          const v = evalIntExpr(a, lookup);
          if (!v.ok) return v;
          if (best === undefined || (f === 'min' ? v.value < best : v.value > best)) best = v.value;
        }
        return { ok: true, value: best! };
      }
      return err(`\`${f}(...)\` is not an integer here; only min and max can be called`);
    }
    case 'String': return err('expected an integer, found a string');
    case 'List': case 'Tuple': return err('expected an integer, found a list');
    case 'Error': return err('this expression did not parse');
    default: return err('expected an integer expression');
  }
}

/** Parameters and lets a schedule's expressions may name. */
export interface ParamInfo {
  value: bigint;
  /** the declared value expression, re-evaluated when a tuning candidate of another param is tried */
  expr?: Expr;
  /** `in [64, 128, 256]` */
  candidates?: bigint[];
}
export interface ScheduleEnv {
  params: ReadonlyMap<string, ParamInfo>;
  lets?: ReadonlyMap<string, Expr>;
  /** every name the file declares at top level (params, lets, layouts, perms, kernels, schedules) */
  declared?: ReadonlySet<string>;
  /** source file name, for generated headers */
  file?: string;
}

/** Name lookup for one assignment of candidate values; params and lets are evaluated on demand. */
export function envLookup(env: ScheduleEnv, assignment: ReadonlyMap<string, bigint> = new Map()): NameLookup {
  const memo = new Map<string, EvalResult>();
  const active = new Set<string>();
  const lookup: NameLookup = (name, range) => {
    const fixed = assignment.get(name);
    if (fixed !== undefined) return { ok: true, value: fixed };
    const cached = memo.get(name);
    if (cached) return cached.ok ? cached : { ok: false, message: cached.message, range };
    const p = env.params.get(name);
    const letExpr = env.lets?.get(name);
    let r: EvalResult;
    if (!p && !letExpr) return { ok: false, message: `unknown name \`${name}\``, range };
    if (active.has(name)) return { ok: false, message: `\`${name}\` is defined in terms of itself`, range };
    active.add(name);
    if (p) {
      r = p.expr && assignment.size > 0 ? evalIntExpr(p.expr, lookup) : { ok: true, value: p.value };
      if (!r.ok) r = { ok: true, value: p.value };
    } else {
      const v = evalIntExpr(letExpr!, lookup);
      r = v.ok ? v : { ok: false, message: `\`${name}\` has no integer value (${v.message})`, range };
    }
    active.delete(name);
    memo.set(name, r);
    return r.ok ? r : { ok: false, message: r.message, range };
  };
  return lookup;
}

/** Collects the params and lets of a file (values evaluated in declaration order). */
export function scheduleEnvFromFile(file: File, fileName?: string): ScheduleEnv {
  const params = new Map<string, ParamInfo>();
  const lets = new Map<string, Expr>();
  const declared = new Set<string>();
  const env: ScheduleEnv = { params, lets, declared, file: fileName };
  for (const d of file.decls) {
    if (d.kind === 'Param') d.items.forEach((it) => declared.add(it.name.name));
    else if (d.kind !== 'Assume') declared.add(d.name.name);
    if (d.kind === 'Param') {
      for (const item of d.items) {
        const v = evalIntExpr(item.value, envLookup(env));
        if (!v.ok) continue;
        const candidates: bigint[] = [];
        for (const c of item.candidates?.items ?? []) {
          const cv = evalIntExpr(c, envLookup(env));
          if (cv.ok) candidates.push(cv.value);
        }
        params.set(item.name.name, { value: v.value, expr: item.value, candidates: candidates.length ? candidates : undefined });
      }
    } else if (d.kind === 'Let') {
      lets.set(d.name.name, d.value);
    }
  }
  return env;
}

// ------------------------------------------------------------------ resolution: AST -> spec

const NO_RANGE: Range = { start: 0, end: 0 };
const MAX_SIZE = 2n ** 31n - 1n;

function diag(code: string, severity: Severity, message: string, range: Range | undefined, related?: RelatedInfo[]): Diagnostic {
  const d: Diagnostic = { code: `schedule/${code}`, severity, message, range: range ?? NO_RANGE };
  if (related && related.length) d.related = related;
  return d;
}

function closest(name: string, options: readonly string[]): string | undefined {
  let best: string | undefined, bestD = 3;
  for (const o of options) {
    const d = editDistance(name.toLowerCase(), o.toLowerCase());
    if (d < bestD) { best = o; bestD = d; }
  }
  return best;
}
function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

export interface ResolveResult {
  /** undefined when the header is unusable (unknown op, sizes that do not evaluate) */
  spec?: ScheduleSpec;
  diagnostics: Diagnostic[];
}

const GPU_MAPPING_PRIMITIVES = new Set(['tileForGrids', 'parallelizeForBlocks', 'parallelizeForThreads']);

export interface ResolveOptions {
  file?: string;
  elementType?: ElementType;
  /**
   * Leave out what the grammar's name resolution already reports (`name/unknown-primitive`,
   * `name/undefined`): unknown primitives and sizes naming undefined names. The language server
   * sets it; code generation does not.
   */
  quietUndefinedNames?: boolean;
  /**
   * The GPU to check against when the schedule has no `on` clause but maps work to a GPU
   * (tileForGrids, parallelizeForBlocks, parallelizeForThreads): the `layout.gpuTarget` setting.
   * Without it such a schedule is checked for the cpu target.
   */
  defaultTarget?: string;
}

/** Turns a schedule block into a spec, evaluating every size with `lookup`. */
export function resolveSchedule(decl: ScheduleDecl, lookup: NameLookup, opts: ResolveOptions = {}): ResolveResult {
  const out: Diagnostic[] = [];
  const evalSize = (e: Expr, what: string, min: bigint): number | undefined => {
    const v = evalIntExpr(e, lookup);
    if (!v.ok) {
      if (!(opts.quietUndefinedNames && v.message.startsWith('unknown name'))) {
        out.push(diag('arg-not-constant', 'error', `${what}: ${v.message}`, v.range));
      }
      return undefined;
    }
    if (v.value < min) {
      out.push(diag('size-not-positive', 'error', `${what} must be ${min === 0n ? 'at least 0' : `at least ${min}`}, got ${v.value}`, e.range));
      return undefined;
    }
    if (v.value > MAX_SIZE) { out.push(diag('size-too-large', 'error', `${what} is ${v.value}, more than ${MAX_SIZE}`, e.range)); return undefined; }
    return Number(v.value);
  };

  // header: `for linalg.matmul(M, N, K) on sm_90`
  if (!decl.op) return { diagnostics: out };
  const info = lookupPayloadOp(decl.op.name);
  if (!info) {
    const guess = closest(decl.op.name, Object.keys(PAYLOAD_OPS));
    out.push(diag('unknown-payload-op', 'error',
      `\`${decl.op.name}\` is not a supported payload op; supported: ${Object.keys(PAYLOAD_OPS).join(', ')}${guess ? ` (did you mean \`${guess}\`?)` : ''}`,
      decl.op.range));
    return { diagnostics: out };
  }
  if (decl.op.args.length !== info.dims.length) {
    out.push(diag('payload-arity', 'error',
      `${info.name} takes ${info.dims.length} sizes (${info.dims.join(', ')}), got ${decl.op.args.length}`, decl.op.range));
    return { diagnostics: out };
  }
  const sizes: number[] = [];
  decl.op.args.forEach((a, i) => {
    const v = evalSize(a, `size ${info.dims[i]} of ${info.name}`, 1n);
    if (v !== undefined) sizes.push(v);
  });
  if (sizes.length !== info.dims.length) return { diagnostics: out };

  let target = 'cpu';
  const mapsToGpu = decl.steps.some((s) => GPU_MAPPING_PRIMITIVES.has(s.primitive.name));
  if (!decl.gpu && mapsToGpu && opts.defaultTarget && lookupTarget(opts.defaultTarget)) target = opts.defaultTarget;
  if (decl.gpu) {
    if (lookupTarget(decl.gpu.name)) target = decl.gpu.name;
    else {
      out.push(diag('unknown-target', 'error',
        `\`${decl.gpu.name}\` is not a known target; known: ${Object.keys(TARGETS).join(', ')}`, decl.gpu.range));
      return { diagnostics: out };
    }
  }

  const steps: ScheduleStepSpec[] = [];
  for (const s of decl.steps) {
    if (opts.quietUndefinedNames && !isPrimitive(s.primitive.name)) continue;
    const r = resolveStep(s, info, evalSize, out);
    if (r) steps.push(r);
  }
  const spec: ScheduleSpec = {
    name: decl.name.name,
    op: info.name,
    sizes,
    elementType: opts.elementType ?? 'f32',
    target,
    steps,
    source: { file: opts.file, block: decl.name.name },
    ranges: { decl: decl.range, name: decl.name.range, op: decl.op.range, sizes: decl.op.args.map((a) => a.range), target: decl.gpu?.range },
  };
  return { spec, diagnostics: out };
}

function resolveStep(s: ScheduleStep, info: PayloadOpInfo,
  evalSize: (e: Expr, what: string, min: bigint) => number | undefined, out: Diagnostic[]): ScheduleStepSpec | undefined {
  const name = s.primitive.name;
  if (!isPrimitive(name)) {
    const guess = closest(name, Object.keys(PRIMITIVES));
    const d = diag('unknown-primitive', 'error',
      `\`${name}\` is not a schedule primitive; expected one of ${Object.keys(PRIMITIVES).join(', ')}`, s.primitive.range);
    if (guess) {
      d.message += ` (did you mean \`${guess}\`?)`;
      d.fixes = [{ title: `Change to \`${guess}\``, edits: [{ range: s.primitive.range, newText: guess }] }];
    }
    out.push(d);
    return undefined;
  }
  const p = PRIMITIVES[name];
  const step: ScheduleStepSpec = { primitive: name, range: s.range, primitiveRange: s.primitive.range, argRanges: s.args.map((a) => a.range) };
  const nMin = p.args.length, nMax = p.args.length + p.optionalArgs.length;
  if (s.args.length < nMin || s.args.length > nMax) {
    const want = nMin === nMax ? `${nMin}` : `${nMin} or ${nMax}`;
    out.push(diag('arg-count', 'error',
      `${name} takes ${want} argument${nMax === 1 ? '' : 's'} (\`${p.signature}\`), got ${s.args.length}`, s.argsRange));
    return undefined;
  }
  if (p.bindsResult && !s.result) {
    out.push(diag('missing-result', 'error', `bind findOp's handle to a name: \`mm = ${name}(...)\``, s.primitive.range));
    return undefined;
  }
  if (!p.bindsResult && s.result) {
    out.push(diag('unexpected-result', 'error',
      `${name} returns no handle; \`${s.result.name}\` would be unbound (the handle passed in keeps naming the transformed op)`, s.result.range));
  }
  if (s.result) step.handle = s.result.name;
  const kinds = [...p.args, ...p.optionalArgs];
  let ok = true;
  s.args.forEach((a, i) => {
    const kind = kinds[i];
    if (kind === 'handle') {
      if (a.kind !== 'Name') { out.push(diag('arg-type', 'error', `${name} expects a handle (a name bound by findOp) here`, a.range)); ok = false; }
      else step.handle = a.name;
    } else if (kind === 'opName') {
      if (a.kind !== 'String') { out.push(diag('arg-type', 'error', `findOp expects the op's name as a string, e.g. "${info.name}"`, a.range)); ok = false; }
      else step.op = a.value;
    } else if (kind === 'int') {
      const v = evalSize(a, `${name} factor`, 1n);
      if (v === undefined) ok = false; else step.factor = v;
    } else {
      if (a.kind !== 'List') {
        out.push(diag('arg-type', 'error',
          kind === 'operands' ? `${name} expects a list of operand indices, e.g. [0, 1]` : `${name} expects a list of sizes, e.g. [${info.dims.map(() => '32').join(', ')}]`, a.range));
        ok = false;
        return;
      }
      const what = kind === 'operands' ? 'operand index' : name === 'parallelizeForThreads' ? 'thread count' : 'tile size';
      const min = kind === 'operands' || name === 'tile' || name === 'fuse' ? 0n : 1n;
      const vals: number[] = [];
      a.items.forEach((item, k) => {
        const v = evalSize(item, `${what} ${k + 1} of ${name}`, min);
        if (v === undefined) ok = false; else vals.push(v);
      });
      step.itemRanges = a.items.map((x) => x.range);
      if (kind === 'operands') step.operands = vals; else step.sizes = vals;
      const want = name === 'tile' ? info.dims.length : info.parallelDims;
      const dims = info.dims.slice(0, want).join(', ');
      if (kind === 'sizes' && name === 'tile' && (a.items.length < 1 || a.items.length > want)) {
        out.push(diag('size-rank', 'error', `tile takes 1 to ${want} sizes (one per dimension ${dims} of ${info.name}), got ${a.items.length}`, a.range));
        ok = false;
      } else if (kind === 'sizes' && name !== 'tile' && a.items.length !== want) {
        out.push(diag('size-rank', 'error',
          `${name} takes ${want} ${what}s (one per parallel dimension ${dims} of ${info.name}), got ${a.items.length}`, a.range));
        ok = false;
      } else if (kind === 'operands' && a.items.length === 0) {
        out.push(diag('size-rank', 'error', `promote needs at least one operand index`, a.range));
        ok = false;
      }
    }
  });
  return ok ? step : undefined;
}

// ------------------------------------------------------------------ analysis

/** How `gpu.map_copy_to_threads` spreads a shared-memory copy over the block (MLIR's heuristic, re-derived). */
export interface CopyMapping {
  /** elements per thread along the innermost dimension */
  vectorSize: number;
  /** threads per copy dimension */
  numThreads: number[];
  /** the per-thread tile (what the copy's vectorization is sized for) */
  tile: number[];
  threadsUsed: number;
}

const MAX_VECTOR_BITS = 128;
function gcd(a: number, b: number): number { while (b) [a, b] = [b, a % b]; return a; }

/** Threads per dimension: the innermost dimension gets all its (vector) columns; outer ones as many as fit. */
function maximizeThreads(sizes: number[], idx: number, limit: number): number[] {
  if (idx === sizes.length - 1) return [sizes[idx]];
  let best = 0, bestSplit: number[] = [];
  for (let f = 1; f <= sizes[idx]; f++) {
    if (sizes[idx] % f !== 0 || f > limit) continue;
    const rest = maximizeThreads(sizes, idx + 1, Math.floor(limit / f));
    const total = f * rest.reduce((a, b) => a * b, 1);
    if (total > best && total <= limit) { best = total; bestSplit = [f, ...rest]; }
  }
  return bestSplit;
}

/** The mapping MLIR 22 chooses for copying a `shape` tile with `totalThreads` threads, or why there is none. */
export function copyMapping(totalThreads: number, shape: number[], elementBits: number): CopyMapping | { invalid: string } {
  const inner = shape[shape.length - 1];
  const desired = gcd(gcd(MAX_VECTOR_BITS / elementBits, inner), MAX_VECTOR_BITS / elementBits);
  const attempt = (vec: number): { m?: CopyMapping; status: 'ok' | 'predicated' | 'invalid' } => {
    const scaled = [...shape];
    scaled[scaled.length - 1] /= vec;
    if (scaled[scaled.length - 1] > totalThreads) return { status: 'invalid' };
    const numThreads = maximizeThreads(scaled, 0, totalThreads);
    const used = numThreads.reduce((a, b) => a * b, 1);
    if (numThreads.length !== shape.length || used === 0 || used > totalThreads) return { status: 'invalid' };
    const tile = shape.map((s, i) => Math.ceil(s / numThreads[i]));
    return { m: { vectorSize: vec, numThreads, tile, threadsUsed: used }, status: used === totalThreads ? 'ok' : 'predicated' };
  };
  for (let vec = desired; vec >= 1; vec = Math.floor(vec / 2)) {
    const r = attempt(vec);
    if (r.status === 'ok') return r.m!;
    if (r.status === 'invalid') break;
  }
  const r = attempt(desired);
  if (r.m) return r.m;
  return { invalid: `its ${inner / desired} groups of ${desired} contiguous elements per row need more than the block's ${totalThreads} threads` };
}

export interface PromotedOperand {
  index: number;
  name: string;
  /** the staged tile */
  shape: number[];
  /** bytes of one copy of the tile */
  bytes: number;
  copy?: CopyMapping;
}

/** What a step does to the payload, for the emitter and for hovers. */
export interface StepFacts {
  /** tile extents of every iteration dimension after the step */
  extents: number[];
  /** tileForGrids: blocks per parallel dimension */
  grid?: number[];
  /** tileForGrids, tile, fuse: the transform op's tile sizes */
  tileSizes?: number[];
  /** tile, fuse: scf.for loops made */
  loops?: number;
  /** parallelizeForThreads: threads per parallel dimension and the per-thread tile */
  threads?: number[];
  threadTile?: number[];
  promoted?: PromotedOperand[];
  /** promote: shared memory per block, counting copies made by unroll */
  sharedBytes?: number;
  /** vectorize: elements of the per-thread vector computation */
  vectorElements?: number;
}

export interface SchedulePlan {
  spec: ScheduleSpec;
  op: PayloadOpInfo;
  target: Target;
  elementBytes: number;
  /** parallel to spec.steps */
  facts: StepFacts[];
  grid?: number[];
  threads?: number[];
  /** gpu.launch block size x, y, z */
  blockDims?: [number, number, number];
  threadsPerBlock?: number;
  promoted: PromotedOperand[];
  /** shared memory per block, all promoted tiles, times the unroll factor of the loops around them */
  sharedBytes: number;
  unrollFactor: number;
  has: Partial<Record<Primitive, number>>;
}

export interface AnalyzeResult {
  plan?: SchedulePlan;
  diagnostics: Diagnostic[];
}

const product = (xs: number[]): number => xs.reduce((a, b) => a * b, 1);
const times = (xs: number[]): string => xs.join(' x ');

// A step `p` may not come after any primitive listed here; the reason says why.
const NOT_AFTER: Partial<Record<Primitive, [Primitive, string][]>> = {
  tileForGrids: [['vectorize', 'vectorize leaves no linalg op to tile']],
  tile: [
    ['promote', 'promote stages the current tile; tile before promoting'],
    ['parallelizeForThreads', 'after parallelizeForThreads each op is one thread\'s tile; tile the block\'s loops before'],
    ['vectorize', 'vectorize leaves no linalg op to tile'],
  ],
  fuse: [['tile', 'fuse tiles the outer (parallel) loops; tile inner ones after it'], ['vectorize', 'vectorize leaves no linalg op to tile']],
  promote: [
    ['parallelizeForThreads', 'promote stages the whole block\'s tile; after parallelizeForThreads each op is one thread\'s tile'],
    ['vectorize', 'vectorize leaves no linalg op to promote'],
  ],
  parallelizeForThreads: [['vectorize', 'vectorize leaves no linalg op to split over threads']],
};

/** Simulates the steps on the payload; `diagnostics` says what is wrong, `plan` (absent on errors) what the emitter needs. */
export interface AnalyzeOptions {
  /** names declared in the file: a handle naming none of them is left to name resolution */
  isDeclared?: (name: string) => boolean;
  /** report only order, handle and target problems (the caller knows the spec lacks malformed steps) */
  structureOnly?: boolean;
}

export function analyzeSchedule(spec: ScheduleSpec, opts: AnalyzeOptions = {}): AnalyzeResult {
  const out: Diagnostic[] = [];
  const info = lookupPayloadOp(spec.op);
  const target = lookupTarget(spec.target);
  if (!info) return { diagnostics: [diag('unknown-payload-op', 'error', `\`${spec.op}\` is not a supported payload op`, spec.ranges?.op)] };
  if (!target) return { diagnostics: [diag('unknown-target', 'error', `\`${spec.target}\` is not a known target`, spec.ranges?.target)] };
  if (spec.sizes.length !== info.dims.length || spec.sizes.some((s) => !Number.isSafeInteger(s) || s < 1)) {
    return { diagnostics: [diag('payload-arity', 'error', `${info.name} needs ${info.dims.length} positive sizes (${info.dims.join(', ')})`, spec.ranges?.op)] };
  }
  const isGpu = target.kind === 'gpu';
  const elementBytes = ELEMENT_BYTES[spec.elementType];
  const P = info.parallelDims;
  const dimName = (d: number): string => info.dims[d];
  const itemRange = (s: ScheduleStepSpec, k: number): Range | undefined => s.itemRanges?.[k] ?? s.argRanges?.[1] ?? s.range;

  // ---- structure: handles, order, duplicates, targets
  const seen = new Map<Primitive, ScheduleStepSpec>();
  let handle: { name: string; step: ScheduleStepSpec } | undefined;
  for (const s of spec.steps) {
    const p = PRIMITIVES[s.primitive];
    let good = true;
    if (p.target === 'gpu' && !isGpu) {
      out.push(diag('needs-gpu', 'error',
        `${s.primitive} maps work to GPU ${s.primitive === 'promote' ? 'shared memory' : s.primitive === 'parallelizeForThreads' ? 'threads' : 'blocks'}, but this schedule targets the CPU; name a GPU with \`on sm_90\``,
        s.primitiveRange));
      good = false;
    }
    if (p.target === 'cpu' && isGpu) {
      out.push(diag('cpu-only', 'error',
        `fuse makes scf.for loops for a CPU schedule; on ${target.name} tileForGrids already fuses the zero fill into the grid loop`, s.primitiveRange));
      good = false;
    }
    if (s.primitive === 'findOp') {
      if (s.op !== info.name) {
        out.push(diag('find-other-op', 'error',
          `findOp("${s.op}") looks for an op the payload does not have: schedule \`${spec.name}\` is for ${info.name}`, s.argRanges?.[0]));
        good = false;
      } else if (handle) {
        out.push(diag('duplicate-step', 'error',
          `the payload has one ${info.name}, already bound to \`${handle.name}\``, s.range, [{ message: `\`${handle.name}\` is bound here`, range: handle.step.range ?? NO_RANGE }]));
        good = false;
      } else handle = { name: s.handle ?? 'h', step: s };
    } else if (p.args.includes('handle') || (s.handle !== undefined && p.optionalArgs.includes('handle'))) {
      const h = s.handle ?? '';
      const r = s.argRanges?.[0];
      const later = spec.steps.find((t) => t.primitive === 'findOp' && t.handle === h);
      if (!later && opts.isDeclared && !opts.isDeclared(h)) {
        good = false; // an undefined name: name resolution reports it
      } else if (!handle) {
        out.push(later
          ? diag('handle-before-find', 'error', `\`${h}\` is used before findOp binds it`, r, [{ message: `\`${h}\` is bound here`, range: later.range ?? NO_RANGE }])
          : diag('unknown-handle', 'error', `\`${h}\` is not a handle; bind one first: \`${h} = findOp("${info.name}")\``, r));
        good = false;
      } else if (h !== handle.name) {
        out.push(diag('unknown-handle', 'error', `\`${h}\` is not a handle; the payload op is bound to \`${handle.name}\``, r));
        good = false;
      }
    }
    const prev = seen.get(s.primitive);
    const buf = seen.get('bufferize');
    if (prev && s.primitive !== 'tile' && s.primitive !== 'unroll' && s.primitive !== 'findOp') {
      out.push(diag('duplicate-step', 'error', `${s.primitive} appears twice; a schedule has one`, s.primitiveRange,
        [{ message: `first ${s.primitive}`, range: prev.primitiveRange ?? NO_RANGE }]));
      good = false;
    } else if (buf && s.primitive !== 'parallelizeForBlocks') {
      out.push(diag('order', 'error',
        `${s.primitive} comes after bufferize; only parallelizeForBlocks may follow it (the handles of tensor ops do not survive bufferization)`,
        s.primitiveRange, [{ message: 'bufferize is here', range: buf.primitiveRange ?? NO_RANGE }]));
      good = false;
    }
    for (const [q, why] of NOT_AFTER[s.primitive] ?? []) {
      const qs = seen.get(q);
      if (qs && good) {
        out.push(diag('order', 'error', `${s.primitive} comes after ${q}: ${why}`, s.primitiveRange,
          [{ message: `${q} is here`, range: qs.primitiveRange ?? NO_RANGE }]));
        good = false;
      }
    }
    if (s.primitive === 'unroll' && !isGpu && seen.get('vectorize') && good) {
      out.push(diag('order', 'error', 'unroll comes after vectorize: on the CPU, vectorize rewrites the whole function, so unroll its loops before',
        s.primitiveRange, [{ message: 'vectorize is here', range: seen.get('vectorize')!.primitiveRange ?? NO_RANGE }]));
      good = false;
    }
    if (isGpu && good && ['tile', 'promote', 'parallelizeForThreads', 'parallelizeForBlocks'].includes(s.primitive) && !seen.get('tileForGrids')) {
      const later = spec.steps.find((t) => t.primitive === 'tileForGrids');
      if (later) {
        out.push(diag('order', 'error', `${s.primitive} comes before tileForGrids: the grid loop is the outermost level, so tileForGrids comes first`,
          s.primitiveRange, [{ message: 'tileForGrids is here', range: later.primitiveRange ?? NO_RANGE }]));
        good = false;
      }
    }
    if (!prev) seen.set(s.primitive, s);
  }
  if (!handle) {
    out.push(diag('missing-step', 'error', `schedule \`${spec.name}\` has no findOp: bind the payload first, e.g. \`mm = findOp("${info.name}")\``, spec.ranges?.name));
  }
  if (isGpu) {
    for (const need of ['tileForGrids', 'parallelizeForThreads'] as const) {
      if (!seen.get(need)) {
        out.push(diag('missing-step', 'error',
          need === 'tileForGrids'
            ? `a schedule on ${target.name} needs tileForGrids: without a grid loop there is no GPU kernel`
            : `a schedule on ${target.name} needs parallelizeForThreads: it sets the threads of each block`,
          spec.ranges?.name));
      }
    }
  }
  if (!seen.get('bufferize') && handle) {
    out.push(diag('missing-step', 'warning', `schedule \`${spec.name}\` does not bufferize(); the generated script bufferizes at the end`, spec.ranges?.name));
  }

  // ---- numbers: simulate the tiling (only on a well-formed schedule, and only up to the first step
  // whose numbers are wrong: later figures would follow from a tiling that cannot happen)
  if (opts.structureOnly || out.some((d) => d.severity === 'error')) return { diagnostics: out };
  const facts: StepFacts[] = [];
  let stopped = false;
  const extents = [...spec.sizes];
  let grid: number[] | undefined, threads: number[] | undefined, loops = 0;
  const promoted: PromotedOperand[] = [];
  let promoteStep: ScheduleStepSpec | undefined, promoteIndex = -1;
  let unrollFactor = 1;
  const threadStep = spec.steps.find((s) => s.primitive === 'parallelizeForThreads');
  const threadTotal = threadStep?.sizes && threadStep.sizes.length === P ? product(threadStep.sizes) : undefined;
  const simulate = (s: ScheduleStepSpec, i: number, f: StepFacts): void => {
    // Checks that `sizes` tile the current extents; returns the new extents (as asked, even when wrong,
    // so that later steps are checked against the intended tile) and whether all was well.
    const tileDims = (sizes: number[], what: string, parallelOnly: boolean): { next: number[]; good: boolean } => {
      let good = true;
      sizes.forEach((t, d) => {
        if (t === 0) return;
        if (parallelOnly && d >= P) {
          out.push(diag('size-rank', 'error', `fuse tiles only the parallel dimensions (${info.dims.slice(0, P).join(', ')}); tile ${dimName(d)} with tile`, itemRange(s, d)));
          good = false;
        } else if (t > extents[d]) {
          out.push(diag('tile-not-divisible', 'error', `${what} ${t} is larger than ${dimName(d)}'s current extent ${extents[d]}`, itemRange(s, d)));
          good = false;
        } else if (extents[d] % t !== 0) {
          out.push(diag('tile-not-divisible', 'error',
            `${what} ${t} does not divide ${dimName(d)} (${extents[d]} = ${Math.floor(extents[d] / t)} x ${t} + ${extents[d] % t})`, itemRange(s, d)));
          good = false;
        }
      });
      const next = extents.map((e, d) => (d < sizes.length && sizes[d] > 0 ? Math.min(sizes[d], e) : e));
      return { next, good };
    };
    switch (s.primitive) {
      case 'tileForGrids': {
        const sizes = s.sizes!;
        if (sizes.some((t) => t < 1)) return;
        const { next, good } = tileDims(sizes, 'block tile', false);
        grid = sizes.map((t, d) => Math.ceil(extents[d] / t));
        next.forEach((t, d) => { extents[d] = t; });
        if (!good) return;
        f.grid = grid; f.tileSizes = sizes;
        if (isGpu) {
          const g = target as GpuTarget;
          const xyz = [...grid].reverse();
          ['x', 'y', 'z'].forEach((axis, k) => {
            if (k < xyz.length && xyz[k] > g.maxGridDim[k]) {
              out.push(diag('grid-dim', 'error',
                `${xyz[k]} blocks along ${axis} (${dimName(P - 1 - k)} ${spec.sizes[P - 1 - k]} / ${sizes[P - 1 - k]}) exceeds the limit ${g.maxGridDim[k]} on ${g.name}`,
                itemRange(s, P - 1 - k)));
            }
          });
        }
        break;
      }
      case 'tile': case 'fuse': {
        const sizes = s.sizes!;
        const { next, good } = tileDims(sizes, 'tile size', s.primitive === 'fuse');
        next.forEach((t, d) => { extents[d] = t; });
        if (!good) return;
        f.tileSizes = sizes;
        f.loops = sizes.filter((t) => t > 0).length;
        loops += f.loops;
        break;
      }
      case 'promote': {
        const ops = s.operands!;
        const seenOps = new Set<number>();
        ops.forEach((k, j) => {
          if (k >= info.operands.length) {
            out.push(diag('operand-out-of-range', 'error',
              `${info.name} has ${info.operands.length} operands (${info.operands.map((o, n) => `${n} = ${o.name}`).join(', ')}); ${k} is out of range`, itemRange(s, j)));
            return;
          }
          const o = info.operands[k];
          if (o.isOutput) {
            out.push(diag('promote-output', 'error',
              `operand ${k} (${o.name}) is the output; promote stages inputs only (each thread keeps its ${o.name} tile in registers)`, itemRange(s, j)));
            return;
          }
          if (seenOps.has(k)) {
            out.push(diag('duplicate-step', 'warning', `operand ${k} (${o.name}) is listed twice`, itemRange(s, j)));
            return;
          }
          seenOps.add(k);
          const shape = o.dims.map((d) => extents[d]);
          const p: PromotedOperand = { index: k, name: o.name, shape, bytes: product(shape) * elementBytes };
          if (threadTotal !== undefined && (!isGpu || threadTotal <= (target as GpuTarget).maxThreadsPerBlock)) {
            const m = copyMapping(threadTotal, shape, elementBytes * 8);
            if ('invalid' in m) {
              out.push(diag('copy-not-mappable', 'error',
                `the ${times(shape)} tile of ${o.name} cannot be copied by ${threadTotal} threads: ${m.invalid}`, itemRange(s, j)));
            } else p.copy = m;
          }
          promoted.push(p);
        });
        promoted.sort((a, b) => a.index - b.index);
        f.promoted = promoted;
        promoteStep = s; promoteIndex = i;
        break;
      }
      case 'parallelizeForThreads': {
        const t = s.sizes!;
        let good = true;
        t.forEach((n, d) => {
          if (extents[d] % n !== 0) {
            out.push(diag('threads-not-divisible', 'error',
              `${n} threads do not divide the block's ${extents[d]} ${dimName(d)} (${extents[d]} = ${Math.floor(extents[d] / n)} x ${n} + ${extents[d] % n})`, itemRange(s, d)));
            good = false;
          }
        });
        const total = product(t);
        if (isGpu) {
          const g = target as GpuTarget;
          if (total > g.maxThreadsPerBlock) {
            out.push(diag('threads-per-block', 'error', `${times(t)} = ${total} threads per block exceeds ${g.maxThreadsPerBlock} on ${g.name}`, s.argRanges?.[1]));
            good = false;
          } else {
            const xyz = [...t].reverse();
            ['x', 'y', 'z'].forEach((axis, k) => {
              if (k < xyz.length && xyz[k] > g.maxBlockDim[k]) {
                out.push(diag('threads-per-block', 'error', `${xyz[k]} threads along ${axis} exceeds the block limit ${g.maxBlockDim[k]} on ${g.name}`, itemRange(s, P - 1 - k)));
                good = false;
              }
            });
            if (good && total % g.warpSize !== 0) {
              out.push(diag('threads-not-warp-multiple', 'warning',
                `${times(t)} = ${total} threads per block is not a multiple of the warp size ${g.warpSize}: ${g.warpSize - (total % g.warpSize)} lanes of the last warp idle`,
                s.argRanges?.[1]));
            }
          }
        }
        const perThread = t.map((n, d) => Math.max(1, Math.floor(extents[d] / n)));
        perThread.forEach((n, d) => { extents[d] = n; });
        if (!good) return;
        threads = t;
        f.threads = t;
        f.threadTile = perThread;
        break;
      }
      case 'vectorize': {
        f.vectorElements = product(extents);
        if (f.vectorElements > 8192) {
          const hint = extents.length > P && extents[P] === spec.sizes[P] ? ` (tile ${dimName(P)} first, e.g. tile(${s.handle ?? handle?.name ?? 'mm'}, [${info.dims.map((_, d) => (d === P ? '32' : '0')).join(', ')}]))` : '';
          out.push(diag('large-vector', 'warning',
            `vectorize works on ${times(extents)} = ${f.vectorElements} elements ${isGpu ? 'per thread' : 'at once'}; the lowering unrolls them into as many operations${hint}`,
            s.primitiveRange));
        }
        break;
      }
      case 'unroll': {
        if (loops === 0) {
          out.push(diag('unroll-needs-loop', 'error', `unroll needs a loop: no tile${isGpu ? '' : ' or fuse'} on \`${s.handle}\` has made one yet`, s.primitiveRange));
          return;
        }
        unrollFactor *= s.factor!;
        break;
      }
    }
  };
  spec.steps.forEach((s, i) => {
    const f: StepFacts = { extents: [...extents] };
    facts.push(f);
    if (stopped) return;
    const before = out.length;
    simulate(s, i, f);
    // a copy that cannot be mapped changes no later figure; every other error does
    if (out.slice(before).some((d) => d.severity === 'error' && d.code !== 'schedule/copy-not-mappable')) stopped = true;
  });

  let sharedBytes = 0;
  if (promoted.length && !stopped) {
    const one = promoted.reduce((a, p) => a + p.bytes, 0);
    sharedBytes = one * unrollFactor;
    const pf = facts[promoteIndex];
    pf.sharedBytes = sharedBytes;
    if (isGpu) {
      const g = target as GpuTarget;
      const parts = promoted.map((p) => `${p.name} ${times(p.shape)} ${spec.elementType} = ${p.bytes} B`).join(', ');
      const un = unrollFactor > 1 ? ` x ${unrollFactor} (unroll copies the staging buffers)` : '';
      const total = `${parts}${un}: ${sharedBytes} B of shared memory per block`;
      const r = promoteStep!.argRanges?.[1] ?? promoteStep!.range;
      if (sharedBytes > g.sharedMemOptInBytes) {
        out.push(diag('shared-memory', 'error', `promote needs ${total}, more than the ${g.sharedMemOptInBytes} B (${formatBytes(g.sharedMemOptInBytes)}) a block can have on ${g.name}`, r));
      } else if (sharedBytes > g.sharedMemDefaultBytes) {
        out.push(diag('shared-memory', 'error',
          `promote needs ${total}, more than the ${g.sharedMemDefaultBytes} B (${formatBytes(g.sharedMemDefaultBytes)}) of static shared memory a kernel may declare (the staging buffers are static; ptxas rejects more, although ${g.name} allows ${formatBytes(g.sharedMemOptInBytes)} with dynamic opt-in)`, r));
      }
    }
  }

  const errors = out.some((d) => d.severity === 'error');
  if (errors) return { diagnostics: out };
  const has: Partial<Record<Primitive, number>> = {};
  spec.steps.forEach((s, i) => { if (has[s.primitive] === undefined) has[s.primitive] = i; });
  const plan: SchedulePlan = {
    spec, op: info, target, elementBytes, facts, grid, threads, promoted, sharedBytes, unrollFactor, has,
  };
  if (threads) {
    const xyz = [...threads].reverse();
    plan.blockDims = [xyz[0] ?? 1, xyz[1] ?? 1, xyz[2] ?? 1];
    plan.threadsPerBlock = product(threads);
  }
  return { plan, diagnostics: out };
}

// ------------------------------------------------------------------ the checks

const MAX_ASSIGNMENTS = 1024;

function namesIn(e: Expr, acc: Set<string>): void {
  switch (e.kind) {
    case 'Name': acc.add(e.name); break;
    case 'Unary': namesIn(e.operand, acc); break;
    case 'Binary': namesIn(e.left, acc); namesIn(e.right, acc); break;
    case 'If': namesIn(e.cond, acc); namesIn(e.then, acc); namesIn(e.else, acc); break;
    case 'Call': case 'List': case 'Tuple': for (const a of e.kind === 'Call' ? e.args : e.items) namesIn(a, acc); break;
    case 'MethodCall': namesIn(e.receiver, acc); for (const a of e.args) namesIn(a, acc); break;
    default: break;
  }
}

/** Params with tuning candidates that the schedule's sizes depend on (through lets and other params). */
export function tunableParamsOf(decl: ScheduleDecl, env: ScheduleEnv): string[] {
  const direct = new Set<string>();
  for (const a of decl.op?.args ?? []) namesIn(a, direct);
  for (const s of decl.steps) for (const a of s.args) namesIn(a, direct);
  const all = new Set<string>();
  const visit = (n: string): void => {
    if (all.has(n)) return;
    all.add(n);
    const e = env.lets?.get(n) ?? env.params.get(n)?.expr;
    if (e) { const inner = new Set<string>(); namesIn(e, inner); inner.forEach(visit); }
  };
  direct.forEach(visit);
  return [...env.params.keys()].filter((n) => all.has(n) && env.params.get(n)!.candidates?.length);
}

/**
 * Every diagnostic of a schedule block: malformed steps, order, handles, and the numbers (divisibility,
 * threads, shared memory) for the params' values and for each combination of their tuning candidates
 * (at most 1024 combinations). `quietUndefinedNames` (default true) leaves out what name resolution
 * reports: unknown primitives, undefined names in sizes, handles that name nothing.
 */
export function checkSchedule(
  decl: ScheduleDecl,
  env: ScheduleEnv,
  opts: { quietUndefinedNames?: boolean; defaultTarget?: string } = {},
): Diagnostic[] {
  const quiet = opts.quietUndefinedNames ?? true;
  const ro: ResolveOptions = { file: env.file, quietUndefinedNames: quiet, defaultTarget: opts.defaultTarget };
  const declared = env.declared;
  const ao = quiet && declared ? { isDeclared: (n: string) => declared.has(n) } : {};
  const base = resolveSchedule(decl, envLookup(env), ro);
  const out = [...base.diagnostics];
  if (!base.spec) return out;
  const malformed = base.diagnostics.some((d) => d.severity === 'error');
  out.push(...analyzeSchedule(base.spec, { ...ao, structureOnly: malformed }).diagnostics);
  if (malformed) return out;
  const key = (d: Diagnostic): string => `${d.code}@${d.range.start}:${d.range.end}`;
  const reported = new Set(out.map(key));
  const tunable = tunableParamsOf(decl, env);
  let count = 0;
  const assignment = new Map<string, bigint>();
  const visit = (k: number): void => {
    if (count >= MAX_ASSIGNMENTS) return;
    if (k === tunable.length) {
      count++;
      const r = resolveSchedule(decl, envLookup(env, assignment), ro);
      const ds = r.spec ? [...r.diagnostics, ...analyzeSchedule(r.spec, ao).diagnostics] : r.diagnostics;
      const label = tunable.map((n) => `${n} = ${assignment.get(n)}`).join(', ');
      for (const d of ds) {
        if (reported.has(key(d))) continue;
        reported.add(key(d));
        out.push({ ...d, message: `with tuning candidate ${label}: ${d.message}` });
      }
      return;
    }
    for (const c of env.params.get(tunable[k])!.candidates!) {
      assignment.set(tunable[k], c);
      visit(k + 1);
    }
    assignment.delete(tunable[k]);
  };
  if (tunable.length) visit(0);
  return out;
}

// ------------------------------------------------------------------ hovers

/** Markdown for a hover on a schedule step: what the primitive does, its figures, and the transform ops it becomes. */
export function describeStep(decl: ScheduleDecl, step: ScheduleStep | number, env: ScheduleEnv): string | undefined {
  const idx = typeof step === 'number' ? step : decl.steps.indexOf(step);
  const s = decl.steps[idx];
  if (!s) return undefined;
  const name = s.primitive.name;
  if (!isPrimitive(name)) return undefined;
  const p = PRIMITIVES[name];
  const lines = [`**${name}** — \`${p.signature}\``, '', p.summary];
  const r = resolveSchedule(decl, envLookup(env), { file: env.file });
  const specIdx = r.spec?.steps.findIndex((x) => x.range?.start === s.range.start && x.range?.end === s.range.end) ?? -1;
  const a = r.spec ? analyzeSchedule(r.spec) : undefined;
  if (r.spec && a?.plan && specIdx >= 0) {
    const plan = a.plan;
    const f = plan.facts[specIdx];
    const dims = plan.op.dims;
    const et = r.spec.elementType;
    const figures: string[] = [];
    if (f.grid && f.tileSizes) {
      figures.push(`grid: ${times(f.grid)} = ${product(f.grid)} blocks of ${times(f.tileSizes)} outputs (${dims.slice(0, plan.op.parallelDims).join(' x ')})`);
    }
    if ((name === 'tile' || name === 'fuse') && f.tileSizes) {
      const tiled = f.tileSizes.map((t, d) => (t > 0 ? `${dims[d]} by ${t} (${f.extents[d] / t} steps)` : '')).filter(Boolean);
      figures.push(`${f.loops} scf.for loop${f.loops === 1 ? '' : 's'}: ${tiled.join(', ')}`);
    }
    if (f.threads && f.threadTile) {
      const total = product(f.threads);
      const warps = plan.target.kind === 'gpu' ? ` (${Math.ceil(total / plan.target.warpSize)} warps)` : '';
      figures.push(`block: ${times(f.threads)} = ${total} threads${warps}; block dims [${plan.blockDims!.join(', ')}]`);
      figures.push(`each thread computes ${times(f.threadTile)} outputs`);
    }
    if (f.promoted) {
      for (const o of f.promoted) {
        const copy = o.copy ? `; copied by ${o.copy.threadsUsed} threads, ${times(o.copy.tile)} elements each (${o.copy.vectorSize}-wide vectors)` : '';
        figures.push(`${o.name}: ${times(o.shape)} ${et} = ${o.bytes} B${copy}`);
      }
      const t = plan.target;
      const limit = t.kind === 'gpu' ? ` of ${t.sharedMemOptInBytes} B (${formatBytes(t.sharedMemOptInBytes)}) on ${t.name}` : '';
      figures.push(`shared memory per block: ${plan.sharedBytes} B${plan.unrollFactor > 1 ? ` (x ${plan.unrollFactor} for unroll)` : ''}${limit}`);
    }
    if (f.vectorElements !== undefined) figures.push(`per-${plan.target.kind === 'gpu' ? 'thread' : 'tile'} vector work: ${times(f.extents)} = ${f.vectorElements} elements`);
    if (name === 'unroll') figures.push(`factor ${r.spec.steps[specIdx].factor}`);
    if (name === 'findOp') figures.push(`${plan.op.name}: ${plan.op.summary}, ${r.spec.sizes.map((v, d) => `${dims[d]} = ${v}`).join(', ')}, ${et}`);
    if (figures.length) lines.push('', ...figures.map((x) => `- ${x}`));
  }
  lines.push('', `Becomes: ${p.becomes.map((b) => `\`${b}\``).join(', ')}`);
  return lines.join('\n');
}
