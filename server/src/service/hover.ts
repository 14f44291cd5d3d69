// Hover: markdown about the name or construct under the cursor.
// - params/consts: value, tuning candidates, number of uses; lets: expression and value;
// - layouts: see layout-info.ts (shape, size, class, apply/inv expressions, a table);
// - queries `A[pid_m, k, :, :]`, `Pid.inv(pid)`: the generated expression and its op count;
// - perms: signature, inverse; free index symbols; kernel bindings; kernels and schedules;
// - built-in constructors, methods and functions: signature and meaning;
// - schedule primitives: `describeStep` (what it does, its figures, the transform ops).
import type * as ast from '../../../grammar/src/ast.js';
import { lookupPayloadOp } from '../check/schedule/index.js';
import { describeStep } from './schedule-hover.js';
import { TARGETS as GPU_TARGETS } from '../check/targets.js';
import type { LayoutDocument } from './document.js';
import { nodePath } from './document.js';
import { constructor as builtinConstructor, method as builtinMethod, signatureLabel } from './builtins.js';
import { tokenAt } from './navigation.js';
import { lineTokens } from './local-tokens.js';
import type { Settings } from './settings.js';
import type { SymbolDef } from './symbols.js';
import { keptHover } from './hover-cache.js';
import { layoutHover, oneLine, queryHover } from './layout-info.js';
import { declaredValue, scheduleEnvOfDecl } from './elaboration.js';
import { linearHover } from './linear-hover.js';

export interface HoverResult {
  range: ast.Range;
  markdown: string;
}

export function hover(doc: LayoutDocument, offset: number, settings: Settings): HoverResult | undefined {
  // on the bracket of an index query `A[i, j]` (which touches the names before and inside it)
  const ch = doc.text[offset];
  if (ch === '[' || ch === ']') {
    const ix = [...nodePath(doc.file, offset)].reverse().find((n): n is ast.IndexExpr =>
      n.kind === 'Index' && (ch === '[' ? offset >= n.receiver.range.end && n.indices.every((k) => k.range.start > offset) : offset === n.range.end - 1));
    const q = ix ? queryHover(doc, ix, settings) : undefined;
    if (ix && q) return { range: ix.range, markdown: q };
  }
  const occ = doc.symbols.at(offset);
  if (occ) {
    const md = describeSymbol(doc, occ.def, settings);
    return md ? { range: occ.range, markdown: md } : undefined;
  }
  const tok = tokenAt(lineTokens(doc.text, offset), offset); // no token spans a line break
  if (!tok) return undefined;
  const path = nodePath(doc.file, offset);
  const decl = path[0] as ast.Decl | undefined;
  // a schedule step's primitive
  const step = path.find((n): n is ast.ScheduleStep => n.kind === 'Step');
  if (step && decl?.kind === 'Schedule' && within(step.primitive.range, offset)) {
    // the step's figures come from the schedule's model: kept across versions with its closure's texts
    const at = `${step.range.start - decl.range.start}:${step.range.end - decl.range.start}`;
    const md = keptHover(doc, `S:${step.range.start}`, decl, `S:${at}`, () => safe(() => describeStep(decl, step, scheduleEnvOfDecl(doc, decl))));
    return md ? { range: step.primitive.range, markdown: md } : undefined;
  }
  // a method: `.TileBy`, `.inv`
  const mc = [...path].reverse().find((n): n is ast.MethodCall => n.kind === 'MethodCall' && within(n.method.range, offset));
  if (mc) {
    if (mc.method.name === 'inv' || mc.method.name === 'apply') {
      const q = queryHover(doc, mc, settings);
      if (q) return { range: mc.method.range, markdown: q };
    }
    const m = builtinMethod(mc.method.name);
    if (m) return { range: mc.method.range, markdown: builtinMarkdown(m) };
  }
  // an index query `A[...]`: on its brackets
  const ix = [...path].reverse().find((n): n is ast.IndexExpr => n.kind === 'Index');
  if (ix && (tok.text === '[' || tok.text === ']' || tok.text === ':' ) && within(ix.range, offset)) {
    const q = queryHover(doc, ix, settings);
    if (q) return { range: ix.range, markdown: q };
  }
  // a built-in constructor or function
  const call = [...path].reverse().find((n): n is ast.Call => n.kind === 'Call' && within(n.callee.range, offset));
  if (call) {
    const b = builtinConstructor(call.callee.name);
    if (b) return { range: call.callee.range, markdown: builtinMarkdown(b) };
  }
  // kernel target, schedule GPU and payload op
  if (decl?.kind === 'Schedule') {
    if (decl.gpu && within(decl.gpu.range, offset)) {
      const t = GPU_TARGETS[decl.gpu.name];
      return { range: decl.gpu.range, markdown: t ? gpuMarkdown(decl.gpu.name) : `unknown GPU \`${decl.gpu.name}\`` };
    }
    if (decl.types && within(decl.types.range, offset)) {
      const ty = decl.types;
      const width: Record<string, string> = { f32: '32-bit IEEE float', f16: '16-bit IEEE half', bf16: '16-bit bfloat (8-bit exponent)' };
      const lines = ['**element types**: ' + ty.inputs.map((x) => `\`${x.name}\``).join(' x ') + ` -> \`${ty.output.name}\``,
        '', 'the input operands\' type, then the output\'s (the accumulator); every shared-memory, copy and register figure uses these widths'];
      for (const n of new Set([...ty.inputs, ty.output].map((x) => x.name))) lines.push(`- \`${n}\`: ${width[n] ?? 'not an element type (f32, f16, bf16)'}`);
      return { range: ty.range, markdown: lines.join('\n') };
    }
    if (decl.op && within(decl.op.range, offset)) {
      const op = lookupPayloadOp(decl.op.name);
      return { range: decl.op.range, markdown: op ? `**${op.name}**: \`${op.summary}\`\n\ndimensions ${op.dims.map((d) => `\`${d}\``).join(', ')} (${op.parallelDims} parallel)` : `unknown payload op \`${decl.op.name}\`` };
    }
  }
  return undefined;
}

function describeSymbol(doc: LayoutDocument, def: SymbolDef, settings: Settings): string | undefined {
  const text = doc.text;
  const src = (r: ast.Range) => text.slice(r.start, r.end);
  const uses = doc.symbols.usesOf(def).length;
  const usesLine = `${uses} use${uses === 1 ? '' : 's'} in this file`;
  switch (def.kind) {
    case 'param':
    case 'const': {
      const item = findParamItem(doc.file, def);
      if (!item) return undefined;
      const lines = [`**${def.kind}** \`${def.name}\` = \`${oneLine(src(item.value.range))}\``];
      const v = declaredValue(doc, def.container as ast.ParamDecl, item);
      if (v !== undefined && item.value.kind !== 'Int') lines.push('', `value: \`${v}\``);
      if (doc.symbols.resolution.globals.get(def.name)?.ident !== def.definition.ident) lines.push('', `a second declaration of \`${def.name}\`: the first one is the one used`);
      if (item.candidates) lines.push('', `tuning candidates: ${item.candidates.items.map((c) => `\`${oneLine(src(c.range))}\``).join(', ')}`);
      lines.push('', def.kind === 'const' ? 'folded into generated expressions' : 'stays symbolic in generated expressions', '', usesLine);
      return lines.join('\n');
    }
    case 'let': {
      const d = def.container as ast.LetDecl | undefined;
      if (!d || d.kind !== 'Let') return undefined;
      const lines = [`**let** \`${def.name}\` = \`${oneLine(src(d.value.range))}\``];
      const v = declaredValue(doc, d);
      if (v !== undefined) lines.push('', `value: \`${v}\` (at the params' values)`);
      lines.push('', usesLine);
      return lines.join('\n');
    }
    case 'linear': return linearHover(doc, def.name);
    case 'layout': {
      const info = layoutHover(doc, def, settings); // with the F2 facts
      if (info) return info;
      const d = def.container as ast.LayoutDecl;
      return `**layout** \`${def.name}\`\n\n\`\`\`layout\n${src(d.value.range)}\n\`\`\`\n\n${usesLine}`;
    }
    case 'perm': {
      const d = def.container as ast.PermDecl;
      if (!d || d.kind !== 'Perm') return undefined;
      const sig = `${d.name.name}(${d.params.map((p) => p.name).join(', ')})[${d.indices.map((i) => i.name).join(', ')}]`;
      return [`**perm** \`${sig}\``, '', 'a user permutation (GenP): coordinates of an n-tile → position in the tile',
        '', d.inverse ? `inverse given: \`inverse(${d.inverse.arg.name}) = ${oneLine(src({ start: d.inverse.results[0]?.range.start ?? d.inverse.range.start, end: d.inverse.range.end }))}\`` : 'no inverse given: the tool derives it by enumeration', '', usesLine].join('\n');
    }
    case 'permParam': return `**perm size parameter** \`${def.name}\` of \`${(def.container as ast.PermDecl).name.name}\`: bound at each use, e.g. \`${(def.container as ast.PermDecl).name.name}(3)\``;
    case 'permIndex': return `**perm index** \`${def.name}\` of \`${(def.container as ast.PermDecl).name.name}\`: one coordinate of the tile`;
    case 'inverseArg': return `**inverse argument** \`${def.name}\`: the flat position inside the tile`;
    case 'free': {
      const k = def.container;
      const n = uses + 1;
      return `**free index symbol** \`${def.name}\`${k && 'name' in k ? ` of ${k.kind === 'Kernel' ? 'kernel' : k.kind.toLowerCase()} \`${k.name.name}\`` : ''}: an input of the generated code, ranging over the dimension it indexes\n\n${n} occurrence${n === 1 ? '' : 's'}`;
    }
    case 'binding': {
      const k = def.container as ast.KernelDecl;
      const b = k?.bindings.find((x) => x.names.some((n) => n.range.start === def.range.start));
      if (!b) return undefined;
      const q = queryOf(b.value);
      const info = q ? queryHover(doc, q, settings, b.names.length > 1 ? b.names.findIndex((n) => n.range.start === def.range.start) : undefined) : undefined;
      return info ?? `**binding** \`${def.name}\` = \`${oneLine(src(b.value.range))}\` (fills \`{{ ${def.name} }}\` in the template)`;
    }
    case 'handle': {
      const s = def.container as ast.ScheduleDecl;
      const step = s?.steps.find((x) => x.result && x.result.range.start === def.range.start);
      return `**handle** \`${def.name}\`${step ? ` = \`${oneLine(src(step.range).slice(src(step.range).indexOf('=') + 1).trim())}\`` : ''}: later steps transform the op it names\n\n${usesLine}`;
    }
    case 'kernel': {
      const k = def.container as ast.KernelDecl;
      const tpl = k.template?.kind === 'file' ? `template \`${k.template.path.value}\`` : k.template ? `built-in template \`${k.template.name.name}\`` : 'no template';
      return `**kernel** \`${def.name}\`: target \`${k.target?.value ?? '?'}\`, ${tpl}\n\n${k.bindings.length} binding${k.bindings.length === 1 ? '' : 's'}: ${k.bindings.flatMap((b) => b.names.map((n) => `\`${n.name}\``)).join(', ')}`;
    }
    case 'schedule': {
      const s = def.container as ast.ScheduleDecl;
      const op = s.op ? lookupPayloadOp(s.op.name) : undefined;
      const lines = [`**schedule** \`${def.name}\`${s.op ? ` for \`${s.op.name}(${s.op.args.map((a) => oneLine(src(a.range))).join(', ')})\`` : ''}${s.types ? ` : \`${s.types.inputs.map((x) => x.name).join(' x ')} -> ${s.types.output.name}\`` : ''}${s.gpu ? ` on \`${s.gpu.name}\`` : ''}`];
      if (op) lines.push('', `\`${op.summary}\``);
      if (s.gpu && GPU_TARGETS[s.gpu.name]) lines.push('', GPU_TARGETS[s.gpu.name].label);
      lines.push('', `${s.steps.length} step${s.steps.length === 1 ? '' : 's'}: ${s.steps.map((x) => x.primitive.name).join(' → ')}`);
      return lines.join('\n');
    }
  }
}

function queryOf(e: ast.Expr): ast.IndexExpr | ast.MethodCall | undefined {
  if (e.kind === 'Index') return e;
  if (e.kind === 'MethodCall' && (e.method.name === 'inv' || e.method.name === 'apply')) return e;
  return undefined;
}

function builtinMarkdown(b: NonNullable<ReturnType<typeof builtinConstructor>>): string {
  const params = b.params.map((p) => `- \`${p.label}\`${p.rest ? ' (repeated)' : ''}: ${p.doc}`).join('\n');
  return `**${b.kind}** \`${signatureLabel(b)}\`\n\n${b.doc}${params ? `\n\n${params}` : ''}`;
}

function gpuMarkdown(name: string): string {
  const t = GPU_TARGETS[name];
  if (t.kind !== 'gpu') return `**${name}**: ${t.label}`;
  return [`**${name}**: ${t.label}`, '', `- at most ${t.maxThreadsPerBlock} threads per block, warp size ${t.warpSize}`,
    `- shared memory per block: ${t.sharedMemDefaultBytes} B by default, ${t.sharedMemOptInBytes} B opted in`,
    `- at most ${t.maxRegistersPerThread} registers per thread`].join('\n');
}

function findParamItem(file: ast.File, def: SymbolDef): ast.ParamItem | undefined {
  const d = def.container;
  if (!d || d.kind !== 'Param') return undefined;
  return d.items.find((it) => it.name.range.start === def.range.start);
}

function within(r: ast.Range, offset: number): boolean {
  return r.start <= offset && offset <= r.end;
}

function safe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}
