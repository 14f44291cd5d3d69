// `linear` declarations (Triton's layouts with keyword attributes) and LEGO layouts as linear
// layouts over F2 (docs/linear-layouts.md). Elaborates every `linear NAME = CTOR(key=value, ...)`
// to an f2 LinearLayout, converts LEGO `layout`s with power-of-two extents to shared
// (offset -> logical) layouts, and checks the accesses a distributed layout declares with
// `store=M` / `load=M` (bank conflicts, with a quick fix to the synthesized swizzle).
import type * as ast from '../../../grammar/src/ast.js';
import type { Diagnostic, Fix, Resolution } from '../../../grammar/src/index.js';
import * as A from '../algebra/index.js';
import * as F from '../f2/index.js';
import * as X from '../expr/index.js';
import type { Model } from './elaborate-model.js';

export type LinearKind = 'distributed' | 'shared';

export interface LinearModel {
  name: string;
  decl: ast.LinearDecl | ast.LayoutDecl;
  kind: LinearKind;
  /** the layout (affine: its linear part); absent when not linear or broken */
  layout?: F.LinearLayout;
  class?: F.LinearClass;
  /** how linearity was established */
  checked?: 'by construction' | 'exhaustive' | number;
  counterexample?: F.Classification['counterexample'];
  offset?: number[];
  /** a LEGO layout: its algebra value (brute-force analyses of non-linear layouts) */
  lego?: { layout: A.Layout; env: A.Env; shape: number[] };
  /** why the layout has no F2 form (not a power of two, ...) */
  problem?: string;
  access?: Access;
}

export interface Access {
  mode: 'store' | 'load';
  memory: string;
  elemBytes: number;
  vec?: number;
  arg: ast.LinearArg;
}

export interface LinearAnalysis {
  linears: Map<string, LinearModel>;
  diagnostics: Diagnostic[];
}

/** the attributes each constructor takes (required ones first) */
const ATTRS: Record<string, { required: string[]; optional: string[] }> = {
  blocked: { required: ['shape', 'sizePerThread', 'threadsPerWarp', 'warpsPerCTA', 'order'], optional: [] },
  swizzled: { required: ['shape', 'vec', 'perPhase', 'maxPhase', 'order'], optional: [] },
  mma: { required: ['version', 'shape', 'warpsPerCTA', 'operand'], optional: ['kWidth', 'instrShape'] },
  bases: { required: ['shape'], optional: ['register', 'lane', 'warp', 'offset'] },
  sliced: { required: ['parent', 'dim'], optional: [] },
};
/** analysis attributes a distributed layout may carry */
const ACCESS_ATTRS = ['store', 'load', 'elemBytes', 'vec'];

class LinearError extends Error {
  constructor(readonly code: string, message: string, readonly range: ast.Range) {
    super(message);
  }
}

type Value = bigint | Value[];

/**
 * An attribute's value, read from the elaborated model (the elaborator elaborates every attribute
 * through name resolution; check/elaborate.ts): an integer at the param values, or a list of them.
 */
function evalValue(e: ast.Expr, model: Model): Value {
  if (e.kind === 'List' || e.kind === 'Tuple') return e.items.map((x) => evalValue(x, model));
  if (e.kind === 'Binary' && (e.op === '<<' || e.op === '>>')) {
    const b = evalValue(e.right, model);
    if (typeof b === 'bigint' && (b < 0n || b > 64n)) throw new LinearError('linear/bad-attribute', `shift amount ${b} is outside [0, 64]`, e.right.range);
  }
  const v = model.values.get(e);
  if (v?.k === 'int') {
    try {
      return X.evaluate(v.e, model.env);
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      const unbound = /unbound symbol '?([A-Za-z_][A-Za-z_0-9]*)/.exec(msg);
      throw new LinearError('linear/bad-attribute', unbound ? `'${unbound[1]}' has no integer value here` : msg, e.range);
    }
  }
  if (e.kind === 'Name') throw new LinearError('linear/bad-attribute', `'${e.name}' has no integer value here`, e.range);
  if (e.kind === 'Binary' && (e.op === '/' || e.op === '//' || e.op === '%') && evalValue(e.right, model) === 0n) {
    throw new LinearError('linear/bad-attribute', 'division by zero', e.range);
  }
  throw new LinearError('linear/bad-attribute', 'expected an integer or a list of integers', e.range);
}

function toInt(v: Value, at: ast.Range, what: string): number {
  if (typeof v !== 'bigint') throw new LinearError('linear/bad-attribute', `${what} must be an integer`, at);
  if (v < 0n || v > 2n ** 30n) throw new LinearError('linear/bad-attribute', `${what} = ${v} is outside [0, 2^30]`, at);
  return Number(v);
}
function toInts(v: Value, at: ast.Range, what: string): number[] {
  if (!Array.isArray(v)) throw new LinearError('linear/bad-attribute', `${what} must be a list of integers, e.g. [16, 64]`, at);
  return v.map((x) => toInt(x, at, `an entry of ${what}`));
}
function toBases(v: Value, at: ast.Range, what: string): number[][] {
  if (!Array.isArray(v)) throw new LinearError('linear/bad-attribute', `${what} must be a list of coordinates, e.g. [[0, 1], [1, 0]]`, at);
  return v.map((x) => toInts(x, at, `a basis of ${what}`));
}

/** Elaborate one `linear` declaration (throws LinearError). */
function elaborateDecl(d: ast.LinearDecl, model: Model, linears: ReadonlyMap<string, LinearModel>, file: ast.File): { layout: F.LinearLayout; access?: Omit<Access, 'memory'> & { memory: string } } {
  if (!d.ctor) throw new LinearError('linear/unknown-constructor', 'expected a constructor: blocked, swizzled, mma, sliced or bases', d.name.range);
  const spec = ATTRS[d.ctor.name];
  if (!spec) throw new LinearError('linear/unknown-constructor', `unknown layout '${d.ctor.name}': expected blocked, swizzled, mma, sliced or bases`, d.ctor.range);
  const args = new Map<string, ast.LinearArg>();
  for (const a of d.args) {
    if (args.has(a.name.name)) throw new LinearError('linear/bad-attribute', `'${a.name.name}' is given twice`, a.name.range);
    const known = spec.required.includes(a.name.name) || spec.optional.includes(a.name.name) || (d.ctor.name !== 'swizzled' && ACCESS_ATTRS.includes(a.name.name));
    if (!known) {
      const all = [...spec.required, ...spec.optional];
      throw new LinearError('linear/unknown-attribute', `${d.ctor.name} has no attribute '${a.name.name}': expected ${all.join(', ')}`, a.name.range);
    }
    args.set(a.name.name, a);
  }
  for (const r of spec.required) {
    if (!args.has(r)) throw new LinearError('linear/missing-attribute', `${d.ctor.name}(...) needs '${r}='`, d.ctor.range);
  }
  const val = (k: string) => evalValue(args.get(k)!.value, model);
  const at = (k: string) => args.get(k)!.value.range;
  const ints = (k: string) => toInts(val(k), at(k), k);
  const int = (k: string) => toInt(val(k), at(k), k);
  const wrap = <T>(f: () => T, k: string): T => {
    try {
      return f();
    } catch (e) {
      if (e instanceof F.F2Error) throw new LinearError('linear/invalid', e.message, args.get(k)?.range ?? d.ctor!.range);
      throw e;
    }
  };
  let layout: F.LinearLayout;
  switch (d.ctor.name) {
    case 'blocked':
      layout = wrap(() => F.blocked({ shape: ints('shape'), sizePerThread: ints('sizePerThread'), threadsPerWarp: ints('threadsPerWarp'), warpsPerCTA: ints('warpsPerCTA'), order: ints('order') }), 'shape');
      break;
    case 'swizzled':
      layout = wrap(() => F.swizzled({ shape: ints('shape'), vec: int('vec'), perPhase: int('perPhase'), maxPhase: int('maxPhase'), order: ints('order') }), 'shape');
      break;
    case 'mma': {
      const opArg = args.get('operand')!;
      const op = opArg.value.kind === 'Name' ? opArg.value.name : undefined;
      if (op !== 'acc' && op !== 'a' && op !== 'b') throw new LinearError('linear/bad-attribute', 'operand must be acc, a (opIdx 0) or b (opIdx 1)', opArg.value.range);
      const version = int('version');
      if (version !== 2 && version !== 3) throw new LinearError('linear/bad-attribute', `version = ${version}: expected 2 (mma.sync, Ampere) or 3 (wgmma, Hopper)`, at('version'));
      layout = wrap(() => F.mma({
        version, shape: ints('shape'), warpsPerCTA: ints('warpsPerCTA'), operand: op,
        ...(args.has('kWidth') ? { kWidth: int('kWidth') } : {}),
        ...(args.has('instrShape') ? { instrShape: ints('instrShape') } : {}),
      }), 'operand');
      break;
    }
    case 'sliced': {
      // #ttg.slice (the Linear Layouts paper, Prop 4.8) of an earlier distributed `linear` layout
      const p = args.get('parent')!.value;
      if (p.kind !== 'Name') throw new LinearError('linear/bad-attribute', 'parent= names a distributed linear layout declared above', p.range);
      const parent = linears.get(p.name)?.layout;
      if (!parent) {
        const declared = file.decls.some((x) => x.kind === 'Linear' && x.name.name === p.name);
        throw new LinearError('linear/bad-attribute', declared ? `'${p.name}' has errors or is declared after this layout: fix it or declare it first` : `'${p.name}' is not a linear layout of this file`, p.range);
      }
      if (F.isShared(parent)) throw new LinearError('linear/bad-attribute', `'${p.name}' is a shared layout (offset): a slice needs a distributed parent (register/lane/warp)`, p.range);
      layout = wrap(() => F.sliced(parent, int('dim')), 'dim');
      break;
    }
    default: {
      const bases: Record<string, number[][]> = {};
      for (const k of ['register', 'lane', 'warp', 'offset']) if (args.has(k)) bases[k] = toBases(val(k), at(k), k);
      if (Object.keys(bases).length === 0) throw new LinearError('linear/missing-attribute', 'bases(...) needs register=/lane=/warp= (a distributed layout) or offset= (a shared layout)', d.ctor.range);
      layout = wrap(() => F.fromBases(ints('shape'), bases), bases.offset ? 'offset' : 'register');
    }
  }
  let access: (Omit<Access, 'memory'> & { memory: string }) | undefined;
  const mem = args.get('store') ?? args.get('load');
  if (args.has('store') && args.has('load')) throw new LinearError('linear/bad-attribute', 'a layout either stores or loads: give store= or load=, not both', args.get('load')!.name.range);
  if (mem) {
    if (F.isShared(layout)) throw new LinearError('linear/bad-attribute', 'a shared layout does not access memory itself: put store=/load= on the distributed layout', mem.name.range);
    if (mem.value.kind !== 'Name') throw new LinearError('linear/bad-attribute', `${mem.name.name}= names a memory layout (a linear shared layout or a LEGO layout)`, mem.value.range);
    if (!args.has('elemBytes')) throw new LinearError('linear/missing-attribute', `${mem.name.name}= needs elemBytes= (the element width in bytes)`, mem.name.range);
    const eb = int('elemBytes');
    if (!F.isPow2(eb) || eb > 16) throw new LinearError('linear/bad-attribute', `elemBytes = ${eb} is not a power of two up to 16`, at('elemBytes'));
    access = { mode: args.has('store') ? 'store' : 'load', memory: mem.value.name, elemBytes: eb, arg: mem, ...(args.has('vec') ? { vec: int('vec') } : {}) };
  } else if (!F.isShared(layout)) {
    for (const k of ['elemBytes', 'vec']) if (args.has(k)) throw new LinearError('linear/bad-attribute', `${k}= describes an access: add store=M or load=M`, args.get(k)!.name.range);
  }
  return { layout, ...(access ? { access } : {}) };
}

/** Whether a LEGO layout contains a GenP (the only block that can break linearity). */
function hasGenP(L: A.Layout): boolean {
  switch (L.kind) {
    case 'GenP': return true;
    case 'RegP': return false;
    case 'OrderBy': return L.blocks.some(hasGenP);
    case 'GroupBy': case 'TileBy': return L.chain.some(hasGenP);
    case 'ExpandBy': return true;
  }
}

/**
 * A LEGO layout as a shared layout (offset -> logical coordinate). Power-of-two extents only;
 * without a GenP every piece is a bit permutation, so n + 1 evaluations give the matrix; a GenP
 * is checked (exhaustively up to 2^20 points, else on samples).
 */
export function legoAsLinear(name: string, decl: ast.LayoutDecl, L: A.Layout, env: A.Env): LinearModel {
  const base: LinearModel = { name, decl, kind: 'shared' };
  if (L.kind === 'ExpandBy') return { ...base, problem: 'a partial tile (ExpandBy) leaves holes: it is not a bijection onto a power of two' };
  let shape: number[];
  try {
    shape = A.dims(L).map((d) => A.evalDim(d, env));
  } catch (e) {
    return { ...base, problem: `its extents do not evaluate: ${(e as Error).message}` };
  }
  const bad = shape.findIndex((s) => !F.isPow2(s));
  if (bad >= 0) {
    const pad = 2 ** Math.ceil(Math.log2(Math.max(1, shape[bad])));
    return { ...base, lego: { layout: L, env, shape }, problem: `dimension ${bad} has extent ${shape[bad]}, not a power of two: a linear layout over F2 needs power-of-two extents; pad it to ${pad} and mask the extra elements` };
  }
  const total = shape.reduce((a, b) => a + Math.log2(b), 0);
  if (total > 30) return { ...base, problem: `2^${total} elements is too large (at most 2^30)` };
  try {
    return legoClassify(base, L, env, shape, total);
  } catch (e) {
    if (e instanceof A.AlgebraError || e instanceof F.F2Error) return { ...base, problem: e.message };
    // a GenP perm that fails at some point (division by zero there; reported at the GenP)
    if (e instanceof X.EvalError) return { ...base, problem: `'${name}' cannot be evaluated: ${e.message}` };
    throw e;
  }
}

function legoClassify(base: LinearModel, L: A.Layout, env: A.Env, shape: number[], total: number): LinearModel {
  const p = A.prepare(L, env);
  const outs = shape.map((s, d) => ({ name: `dim${d}`, size: s }));
  const f = (x: number) => A.invPrepared(p, x);
  const lego = { layout: L, env, shape };
  if (!hasGenP(L)) {
    const bases = Array.from({ length: total }, (_, k) => f(2 ** k));
    const layout = new F.LinearLayout([{ name: F.OFFSET, bases }], outs);
    if (layout.isPermutation() && f(0).every((c) => c === 0)) return { ...base, lego, layout, class: 'bit permutation', checked: 'by construction' };
  }
  const c = F.classifyFunction(F.OFFSET, total, outs, f);
  return {
    ...base, lego, class: c.class, checked: c.checked,
    ...(c.layout ? { layout: c.layout } : {}),
    ...(c.counterexample ? { counterexample: c.counterexample } : {}),
    ...(c.offset ? { offset: c.offset } : {}),
  };
}

/** All linear layouts of a file (linear declarations and LEGO layouts usable as memory) and their diagnostics. */
export function checkLinear(file: ast.File, _resolution: Resolution, model: Model): LinearAnalysis {
  const linears = new Map<string, LinearModel>();
  const diagnostics: Diagnostic[] = [];
  const report = (code: string, severity: Diagnostic['severity'], message: string, range: ast.Range, fixes?: Fix[]) =>
    diagnostics.push({ code, severity, message, range, ...(fixes && fixes.length ? { fixes } : {}) });
  for (const d of file.decls) {
    if (d.kind !== 'Linear' || linears.has(d.name.name)) continue;
    try {
      const { layout, access } = elaborateDecl(d, model, linears, file);
      linears.set(d.name.name, {
        name: d.name.name, decl: d, kind: F.isShared(layout) ? 'shared' : 'distributed', layout, class: F.classOf(layout), checked: 'by construction',
        ...(access ? { access } : {}),
      });
      if (F.isShared(layout) && !layout.isInvertible()) {
        report('linear/not-bijective', 'warning', `shared layout '${d.name.name}' is not a bijection: rank ${layout.rank()} of ${layout.outBits} bits, so some elements share an offset or are never stored`, d.name.range);
      }
    } catch (e) {
      if (!(e instanceof LinearError)) throw e;
      report(e.code, 'error', e.message, e.range);
    }
  }
  // accesses: store=/load= against a memory layout
  for (const m of linears.values()) {
    const acc = m.access;
    if (!acc || !m.layout) continue;
    const mem = memoryLayout(acc.memory, file, model, linears);
    if (typeof mem === 'string') {
      report('linear/not-memory', 'error', mem, acc.arg.value.range);
      continue;
    }
    try {
      const r = accessConflicts(m.layout, mem, acc.elemBytes, acc.vec);
      if (r.wavefronts > r.minimum) {
        const fixes = swizzleFix(m, acc, mem, linears);
        report('linear/bank-conflict', 'warning',
          `${acc.mode} through '${acc.memory}': ${r.wavefronts} wavefronts per instruction, minimum ${r.minimum} (${r.degree}-way bank conflict); lanes ${r.lanes.join(', ')} hit bank ${r.bank} at distinct words (${r.vec} × ${acc.elemBytes} B per lane)`,
          acc.arg.range, fixes);
      }
    } catch (e) {
      if (!(e instanceof F.F2Error)) throw e;
      report('linear/access', 'error', e.message, acc.arg.range);
    }
  }
  return { linears, diagnostics };
}

/** A memory layout by name: a shared `linear` layout or a LEGO `layout` (converted; maybe not linear). */
export function memoryLayout(name: string, file: ast.File, model: Model, linears: Map<string, LinearModel>): LinearModel | string {
  const lin = linears.get(name);
  if (lin) {
    if (lin.kind !== 'shared') return `'${name}' is a distributed layout (register/lane/warp); a memory layout maps offset: swizzled(...), bases(offset=...) or a LEGO layout`;
    return lin;
  }
  const lm = model.layouts.get(name);
  if (!lm) {
    const isDecl = file.decls.some((d) => (d.kind === 'Layout' || d.kind === 'Linear') && d.name.name === name);
    return isDecl ? `'${name}' has errors: fix them first` : `'${name}' is not a layout of this file`;
  }
  if (!lm.layout) return `'${name}' has errors: fix them first`;
  return legoAsLinear(name, lm.decl, lm.layout, model.env);
}

export interface AccessResult extends F.Wavefronts {
  vec: number;
  /** brute force (the memory layout is not linear) */
  brute: boolean;
}

/** Bank conflicts of a distributed layout through a memory layout (closed form, or brute force when not linear). */
export function accessConflicts(dist: F.LinearLayout, mem: LinearModel, elemBytes: number, vec?: number): AccessResult {
  if (mem.layout && mem.class !== 'affine') {
    const r = F.bankConflicts(dist, mem.layout, elemBytes, vec);
    return { ...r, brute: false };
  }
  if (!mem.lego) throw new F.F2Error(mem.problem ?? `'${mem.name}' has no F2 form`);
  // brute force through the LEGO layout's numeric apply (any layout, also non-linear)
  const { layout, env, shape } = mem.lego;
  // a padded memory layout (each extent at least the tensor's) holds the tensor in its corner
  if (shape.length !== dist.outs.length || shape.some((s, d) => s < dist.outs[d].size)) {
    throw new F.F2Error(`shapes differ: thread layout [${dist.shape.join(', ')}], memory layout [${shape.join(', ')}]`);
  }
  try {
    const p = A.prepare(layout, env);
    const offsetOf = (c: number[]) => A.applyPrepared(p, c);
    return { ...bruteAccess(dist, offsetOf, elemBytes, vec), brute: true };
  } catch (e) {
    // the memory layout cannot be evaluated at some offset (a GenP perm that divides by zero there: reported at the GenP)
    if (e instanceof A.AlgebraError) throw new F.F2Error(e.message);
    if (e instanceof X.EvalError) throw new F.F2Error(`'${mem.name}' cannot be evaluated: ${e.message}`);
    throw e;
  }
}

/** Brute-force access of a distributed layout through any offset function; the vector is checked per access. */
export function bruteAccess(dist: F.LinearLayout, offsetOf: (coord: number[]) => number, elemBytes: number, vec?: number): F.Wavefronts & { vec: number } {
  const nreg = dist.basesOf(F.REGISTER).length;
  const nwarp = dist.basesOf(F.WARP).length;
  const lanes = 2 ** dist.basesOf(F.LANE).length;
  const off = (reg: number, lane: number, warp: number) => offsetOf(dist.apply({ [F.REGISTER]: reg, [F.LANE]: lane, [F.WARP]: warp }));
  // the widest v (consecutive registers 0..2^v-1 at consecutive aligned offsets everywhere)
  const cap = Math.min(vec ?? Infinity, 16 / elemBytes);
  const works = (v: number) => {
    for (let w = 0; w < 2 ** nwarp; w++) for (let g = 0; g < 2 ** nreg; g += v) for (let l = 0; l < lanes; l++) {
      const o0 = off(g, l, w);
      if (o0 % v !== 0) return false;
      for (let r = 1; r < v; r++) if (off(g + r, l, w) !== o0 + r) return false;
    }
    return true;
  };
  let v = 1;
  while (v * 2 <= cap && v * 2 <= 2 ** nreg && works(v * 2)) v *= 2;
  if (vec !== undefined && v < vec) throw new F.F2Error(`a vector of ${vec} elements is not contiguous in both layouts: at most ${v}`);
  const groups: { reg: number; warp: number }[] = [];
  for (let w = 0; w < 2 ** nwarp; w++) for (let g = 0; g < 2 ** nreg; g += v) groups.push({ reg: g, warp: w });
  const r = F.wavefrontsBrute({ lanes, bytes: elemBytes * v, instructions: groups.length, address: (i, lane) => off(groups[i].reg, lane, groups[i].warp) * elemBytes });
  return { ...r, vec: v };
}

/** The quick fix: replace the memory layout's declaration with the synthesized swizzle. */
function swizzleFix(m: LinearModel, acc: Access, mem: LinearModel, linears: Map<string, LinearModel>): Fix[] {
  // the other side of the conversion: a layout that loads (stores) the same memory
  const other = [...linears.values()].find((o) => o !== m && o.access && o.access.memory === acc.memory && o.access.mode !== acc.mode && o.layout);
  const writer = acc.mode === 'store' ? m : other;
  const reader = acc.mode === 'load' ? m : other;
  const A0 = writer?.layout ?? m.layout!;
  const B0 = reader?.layout ?? m.layout!;
  try {
    const s = F.optimalSwizzle(A0, B0, acc.elemBytes);
    const decl = mem.decl;
    const cost = other ? `write ${s.write.wavefronts}, read ${s.read.wavefronts} wavefronts` : `${acc.mode} ${acc.mode === 'store' ? s.write.wavefronts : s.read.wavefronts} wavefronts, ${s.vec} × ${acc.elemBytes} B per lane`;
    return [{ title: `Replace '${acc.memory}' with the synthesized swizzle (${cost})`, edits: [{ range: decl.range, newText: linearSource(acc.memory, s.layout) }] }];
  } catch {
    return [];
  }
}

/** `linear NAME = swizzled(...)` when the layout has that shape, else `linear NAME = bases(...)`. */
export function linearSource(name: string, S: F.LinearLayout): string {
  const p = F.swizzleParams(S);
  if (p) return `linear ${name} = swizzled(shape=[${S.shape.join(', ')}], vec=${p.vec}, perPhase=${p.perPhase}, maxPhase=${p.maxPhase}, order=[${p.order.join(', ')}])`;
  const bases = (bs: readonly (readonly number[])[]) => `[${bs.map((b) => `[${b.join(', ')}]`).join(', ')}]`;
  if (F.isShared(S)) return `linear ${name} = bases(shape=[${S.shape.join(', ')}], offset=${bases(S.basesOf(F.OFFSET))})`;
  return `linear ${name} = bases(shape=[${S.shape.join(', ')}], register=${bases(S.basesOf(F.REGISTER))}, lane=${bases(S.basesOf(F.LANE))}, warp=${bases(S.basesOf(F.WARP))})`;
}

/** Vector width (bits) and broadcast facts of a distributed layout. */
export function broadcastFacts(L: F.LinearLayout): string[] {
  const free = L.freeBits();
  const out: string[] = [];
  for (const [label, bits] of Object.entries(free)) {
    if (bits.length === 0) continue;
    out.push(`${label} bits ${bits.join(', ')} are free: each value is held ${2 ** bits.length}× across ${label}s`);
  }
  return out;
}

/** The `linear/...` diagnostics of a file (none, and no work, when it has no linear declaration). */
export function linearDiagnostics(file: ast.File, resolution: Resolution, model: Model): Diagnostic[] {
  if (!file.decls.some((d) => d.kind === 'Linear')) return [];
  try {
    return checkLinear(file, resolution, model).diagnostics;
  } catch (e) {
    const d = file.decls.find((x) => x.kind === 'Linear')!;
    return [{ code: 'check/internal-error', severity: 'error', message: `internal error while checking linear layouts: ${(e as Error).message}`, range: d.range }];
  }
}
