// Simulation: the steps of a `ScheduleSpec` applied to the payload's iteration space (tile extents,
// grid, threads, shared memory); says what is wrong and, when nothing is, the plan the emitter needs.
import type { Range } from '../../../../grammar/src/ast.js';
import type { Diagnostic } from '../../../../grammar/src/diagnostic.js';
import { formatBytes, lookupTarget, type GpuTarget, type Target } from '../targets.js';
import { lookupPayloadOp, PRIMITIVES, TENSOR_CORE_PRIMITIVES, type PayloadOpInfo, type Primitive } from './ops.js';
import { ELEMENT_BYTES, type ScheduleSpec, type ScheduleStepSpec } from './spec.js';
import { copyMapping, type CopyMapping } from './copy.js';
import { diag, NO_RANGE, product, times } from './util.js';
import { checkCopyVectors, checkMma, checkWarps, isTensorCoreSchedule, stagesOf, tensorCoreStructure, type TensorCoreFacts } from './tensorcore.js';

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
  /** parallelizeForWarps: warps per parallel dimension and the warp tile */
  warps?: number[];
  warpTile?: number[];
  /** mma: shape, warp tile, register estimate */
  tensorCore?: TensorCoreFacts;
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
  /** shared buffers per staged operand (pipeline / multibuffer depth; 1 without them) */
  stages: number;
  /** a tensor-core schedule (mma): its figures */
  tensorCore?: TensorCoreFacts;
  has: Partial<Record<Primitive, number>>;
}

export interface AnalyzeResult {
  plan?: SchedulePlan;
  diagnostics: Diagnostic[];
}


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
  parallelizeForWarps: [['vectorize', 'vectorize leaves no linalg op to split over warps']],
};
NOT_AFTER.tile!.push(['parallelizeForWarps', 'after parallelizeForWarps each op is one warp\'s tile; tile the block\'s loops before']);
NOT_AFTER.promote!.push(['parallelizeForWarps', 'promote stages the whole block\'s tile; after parallelizeForWarps each op is one warp\'s tile']);

/** Simulates the steps on the payload; `diagnostics` says what is wrong, `plan` (absent on errors) what the emitter needs. */
export interface AnalyzeOptions {
  /** names declared in the file: a handle naming none of them is left to name resolution */
  isDeclared?: (name: string) => boolean;
  /** report only order, handle and target problems (the caller knows the spec lacks malformed steps) */
  structureOnly?: boolean;
  /**
   * the primitives the block writes, malformed steps included (resolution reports those and leaves
   * them out of the spec): a required step that is written but malformed is not also reported missing
   */
  written?: ReadonlySet<string>;
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
        `${s.primitive} maps work to GPU ${s.primitive === 'promote' ? 'shared memory' : s.primitive === 'parallelizeForThreads' ? 'threads'
          : s.primitive === 'parallelizeForWarps' ? 'warps' : TENSOR_CORE_PRIMITIVES.has(s.primitive) ? 'tensor cores' : 'blocks'}, but this schedule targets the CPU; name a GPU with \`on sm_90\``,
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
    } else if (buf && s.primitive !== 'parallelizeForBlocks' && !TENSOR_CORE_PRIMITIVES.has(s.primitive)) {
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
    if (isGpu && good && ['tile', 'promote', 'parallelizeForThreads', 'parallelizeForWarps', 'parallelizeForBlocks'].includes(s.primitive) && !seen.get('tileForGrids')) {
      const later = spec.steps.find((t) => t.primitive === 'tileForGrids');
      if (later) {
        out.push(diag('order', 'error', `${s.primitive} comes before tileForGrids: the grid loop is the outermost level, so tileForGrids comes first`,
          s.primitiveRange, [{ message: 'tileForGrids is here', range: later.primitiveRange ?? NO_RANGE }]));
        good = false;
      }
    }
    if (!prev) seen.set(s.primitive, s);
  }
  const absent = (p: Primitive) => !seen.get(p) && !opts.written?.has(p);
  if (!handle && !opts.written?.has('findOp')) {
    out.push(diag('missing-step', 'error', `schedule \`${spec.name}\` has no findOp: bind the payload first, e.g. \`mm = findOp("${info.name}")\``, spec.ranges?.name));
  }
  if (isGpu) {
    for (const need of ['tileForGrids', 'parallelizeForThreads'] as const) {
      if (absent(need) && !(need === 'parallelizeForThreads' && !absent('parallelizeForWarps'))) {
        out.push(diag('missing-step', 'error',
          need === 'tileForGrids'
            ? `a schedule on ${target.name} needs tileForGrids: without a grid loop there is no GPU kernel`
            : `a schedule on ${target.name} needs parallelizeForThreads: it sets the threads of each block`,
          spec.ranges?.name));
      }
    }
  }
  // (with malformed steps left out of the spec, a missing mma would only be a consequence)
  if (isGpu && !opts.structureOnly) tensorCoreStructure(spec, seen, out);
  if (absent('bufferize') && handle) {
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
  const warpStep = spec.steps.find((s) => s.primitive === 'parallelizeForWarps');
  const threadTotal = threadStep?.sizes && threadStep.sizes.length === P ? product(threadStep.sizes)
    : warpStep?.sizes && warpStep.sizes.length === P && isGpu ? product(warpStep.sizes) * (target as GpuTarget).warpSize : undefined;
  const tensorCore = isTensorCoreSchedule(spec);
  const stages = stagesOf(spec);
  let warps: number[] | undefined, blockTile: number[] | undefined, tcFacts: TensorCoreFacts | undefined;
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
        if (tensorCore && isGpu) checkCopyVectors(spec, promoted, s.argRanges?.[1] ?? s.range, out);
        f.promoted = promoted;
        promoteStep = s; promoteIndex = i;
        break;
      }
      case 'parallelizeForWarps': {
        const w = s.sizes!;
        let good = true;
        w.forEach((n, d) => {
          if (extents[d] % n !== 0) {
            out.push(diag('warps-not-divisible', 'error',
              `${n} warps do not divide the block's ${extents[d]} ${dimName(d)} (${extents[d]} = ${Math.floor(extents[d] / n)} x ${n} + ${extents[d] % n}): the block tile must be a multiple of the warp tile`, itemRange(s, d)));
            good = false;
          }
        });
        if (isGpu && !checkWarps(w, target as GpuTarget, s.argRanges?.[1], out)) good = false;
        blockTile = [...extents];
        const warpTile = w.map((n, d) => Math.max(1, Math.floor(extents[d] / n)));
        warpTile.forEach((n, d) => { extents[d] = n; });
        if (!good) return;
        warps = w;
        threads = [product(w) * (isGpu ? (target as GpuTarget).warpSize : 32)];
        f.warps = w;
        f.warpTile = warpTile;
        break;
      }
      case 'mma': {
        if (!warps || !blockTile) return;
        const r = checkMma(spec, info, s, blockTile, warps, out);
        if (r) { tcFacts = r; f.tensorCore = r; }
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
        if (f.vectorElements > 8192 && !tensorCore) {
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
    sharedBytes = one * unrollFactor * stages;
    const pf = facts[promoteIndex];
    pf.sharedBytes = sharedBytes;
    if (isGpu) {
      const g = target as GpuTarget;
      const parts = promoted.map((p) => `${p.name} ${times(p.shape)} ${spec.elementType} = ${p.bytes} B`).join(', ');
      const un = unrollFactor > 1 ? ` x ${unrollFactor} (unroll copies the staging buffers)` : '';
      const st = stages > 1 ? `${stages} stages x (${parts})` : parts;
      const total = `${st}${un}: ${sharedBytes} B of shared memory per block`;
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
    spec, op: info, target, elementBytes, facts, grid, threads, promoted, sharedBytes, unrollFactor, stages, has,
  };
  if (tcFacts) plan.tensorCore = tcFacts;
  if (threads) {
    const xyz = [...threads].reverse();
    plan.blockDims = [xyz[0] ?? 1, xyz[1] ?? 1, xyz[2] ?? 1];
    plan.threadsPerBlock = product(threads);
  }
  return { plan, diagnostics: out };
}
