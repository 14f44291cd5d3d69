// Resolution: a schedule block's AST becomes a `ScheduleSpec` (numbers, no expressions); malformed
// steps are reported here.
import type { Expr, ScheduleDecl, ScheduleStep } from '../../../../grammar/src/ast.js';
import type { Diagnostic } from '../../../../grammar/src/diagnostic.js';
import { lookupTarget, TARGETS } from '../targets.js';
import { isPrimitive, lookupPayloadOp, PAYLOAD_OPS, PRIMITIVES, type PayloadOpInfo } from './ops.js';
import { ELEMENT_TYPES, isElementType, type ElementType, type ScheduleSpec, type ScheduleStepSpec } from './spec.js';
import type { ArgValues } from './values.js';
import { closest, diag } from './util.js';

const MAX_SIZE = 2n ** 31n - 1n;
const ELEMENT_BYTES_OF: Readonly<Record<ElementType, number>> = { f32: 4, f16: 2, bf16: 2 };

export interface ResolveResult {
  /** undefined when the header is unusable (unknown op, sizes that do not evaluate) */
  spec?: ScheduleSpec;
  diagnostics: Diagnostic[];
}

const GPU_MAPPING_PRIMITIVES = new Set(['tileForGrids', 'parallelizeForBlocks', 'parallelizeForThreads', 'parallelizeForWarps']);

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

/** Turns a schedule block into a spec, reading every size from `values` (see values.ts). */
export function resolveSchedule(decl: ScheduleDecl, values: ArgValues, opts: ResolveOptions = {}): ResolveResult {
  const out: Diagnostic[] = [];
  const evalSize = (e: Expr, what: string, min: bigint): number | undefined => {
    const v = values(e);
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
    if (guess) out[out.length - 1].fixes = [{ title: `Change to \`${guess}\``, edits: [{ range: decl.op.range, newText: guess }] }];
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

  // element types: `: f16 x f16 -> f32`
  let elementType: ElementType = opts.elementType ?? 'f32';
  let accType: ElementType | undefined = opts.elementType;
  if (decl.types) {
    const ty = decl.types;
    const nIn = info.operands.filter((o) => !o.isOutput).length;
    let good = true;
    for (const id of [...ty.inputs, ty.output]) {
      if (!isElementType(id.name)) {
        out.push(diag('unknown-element-type', 'error', `\`${id.name}\` is not an element type; supported: ${ELEMENT_TYPES.join(', ')}`, id.range));
        good = false;
      }
    }
    for (const sep of ty.separators) {
      if (sep.name !== 'x') { out.push(diag('element-types', 'error', `expected \`x\` between the input types, found \`${sep.name}\``, sep.range)); good = false; }
    }
    if (good && ty.inputs.length !== nIn) {
      out.push(diag('element-types', 'error',
        `${info.name} has ${nIn} inputs (${info.operands.filter((o) => !o.isOutput).map((o) => o.name).join(', ')}): write ${nIn} input types, e.g. \`: f16 x f16 -> f32\`; got ${ty.inputs.length}`, ty.range));
      good = false;
    }
    if (good && ty.inputs.some((x) => x.name !== ty.inputs[0].name)) {
      out.push(diag('element-types', 'error', `mixed input types (${ty.inputs.map((x) => x.name).join(' x ')}) are not supported; the inputs share one element type`, ty.range));
      good = false;
    }
    if (!good) return { diagnostics: out };
    elementType = ty.inputs[0].name as ElementType;
    accType = ty.output.name as ElementType;
    if (ELEMENT_BYTES_OF[accType] < ELEMENT_BYTES_OF[elementType]) {
      out.push(diag('element-types', 'error', `the output ${accType} is narrower than the inputs' ${elementType}: accumulate in ${elementType} or wider`, ty.output.range));
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
    elementType,
    ...(accType && accType !== elementType ? { accType } : {}),
    target,
    steps,
    source: { file: opts.file, block: decl.name.name },
    ranges: { decl: decl.range, name: decl.name.range, op: decl.op.range, sizes: decl.op.args.map((a) => a.range), target: decl.gpu?.range, types: decl.types?.range },
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
      const v = evalSize(a, `${name} ${name === 'unroll' ? 'factor' : 'depth'}`, 1n);
      if (v === undefined) ok = false; else step.factor = v;
    } else {
      if (a.kind !== 'List') {
        out.push(diag('arg-type', 'error',
          kind === 'operands' ? `${name} expects a list of operand indices, e.g. [0, 1]` : `${name} expects a list of sizes, e.g. [${info.dims.map(() => '32').join(', ')}]`, a.range));
        ok = false;
        return;
      }
      const what = kind === 'operands' ? 'operand index' : name === 'parallelizeForThreads' ? 'thread count'
        : name === 'parallelizeForWarps' ? 'warp count' : name === 'mma' ? 'mma shape size' : 'tile size';
      const min = kind === 'operands' || name === 'tile' || name === 'fuse' ? 0n : 1n;
      const vals: number[] = [];
      a.items.forEach((item, k) => {
        const v = evalSize(item, `${what} ${k + 1} of ${name}`, min);
        if (v === undefined) ok = false; else vals.push(v);
      });
      step.itemRanges = a.items.map((x) => x.range);
      if (kind === 'operands') step.operands = vals; else step.sizes = vals;
      const want = name === 'tile' || name === 'mma' ? info.dims.length : info.parallelDims;
      const dims = info.dims.slice(0, want).join(', ');
      if (kind === 'sizes' && name === 'tile' && (a.items.length < 1 || a.items.length > want)) {
        out.push(diag('size-rank', 'error', `tile takes 1 to ${want} sizes (one per dimension ${dims} of ${info.name}), got ${a.items.length}`, a.range));
        ok = false;
      } else if (kind === 'sizes' && name !== 'tile' && a.items.length !== want) {
        out.push(diag('size-rank', 'error',
          `${name} takes ${want} ${what}s (one per ${name === 'mma' ? '' : 'parallel '}dimension ${dims} of ${info.name}), got ${a.items.length}`, a.range));
        ok = false;
      } else if (kind === 'operands' && a.items.length === 0) {
        out.push(diag('size-rank', 'error', `promote needs at least one operand index`, a.range));
        ok = false;
      }
    }
  });
  return ok ? step : undefined;
}
