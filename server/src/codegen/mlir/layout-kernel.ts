// Layout-driven MLIR (LEGO's MLIR integration): a copy kernel `out[dst(i, j)] = in[src(i, j)]`
// whose index arithmetic comes from layouts, emitted as `scf.forall` loops over flat memrefs with
// `arith` ops (the expr layer's printMlir). One kernel, two uses:
//   GPU: the transform library from `emitLayoutCopyToGpu` maps the block forall to a gpu.launch and
//        the thread forall to thread ids; then lower to PTX (pipelines.ts).
//   CPU: `emitLayoutCopyCheck` adds a harness that fills `in[p] = p`, runs the kernel and prints `out`
//        (printMemrefF32); scf.forall loops run sequentially after --scf-forall-to-for.
// The expressions may use the global coordinates `i`, `j`, the block's coordinates `bi`, `bj`, the
// position inside the block `ii`, `jj` (so a two-level TileBy layout is keyed [bi, bj, ii, jj]),
// and params, which become constants.
import type { Diagnostic } from '../../../../grammar/src/diagnostic.js';
import { evaluate, freeSymbols, printC, printMlir, type Expr } from '../../expr/index.js';
import { applySym } from '../../algebra/symbolic.js';
import { extent, type Layout } from '../../algebra/types.js';
import { generatedHeader } from './emit-schedule.js';
import { CPU_CHECK_ENTRY } from './cpu-check.js';

export interface LayoutCopySpec {
  /** kernel function name */
  name: string;
  /** logical index space rows x cols; the kernel visits each (i, j) once */
  shape: [number, number];
  /** elements per block (rows, cols); divides `shape` */
  block: [number, number];
  /** threads per block (rows, cols); divides `block`. Thread (ty, tx) handles rows ty, ty + TY, ... and columns tx, tx + TX, ... */
  threads: [number, number];
  /** flat offset read from `in` and written in `out` */
  src: Expr;
  dst: Expr;
  /** elements of `in` and `out` */
  srcSize: number;
  dstSize: number;
  /** values of the params the expressions name */
  params?: ReadonlyMap<string, bigint>;
  /** for the header comment, e.g. `OrderBy(Row(M, N))` */
  describe?: { src?: string; dst?: string };
  source?: { file?: string; block: string };
}

export type LayoutCopyResult = { ok: true; kernel: string } | { ok: false; diagnostics: Diagnostic[] };

const COORDS = ['i', 'j', 'bi', 'bj', 'ii', 'jj'];
const MAX_THREADS = 1024;

/** `L[key]` as an expression (applySym), for a copy kernel's `src` or `dst`. */
export function layoutIndex(L: Layout, key: readonly string[], params: ReadonlyMap<string, bigint> = new Map()): Expr {
  return applySym(L, key, { env: params });
}

/** The number of elements a layout addresses, with params at their values. */
export function layoutSize(L: Layout, params: ReadonlyMap<string, bigint> = new Map()): number {
  return Number(evaluate(extent(L), params));
}

function problem(message: string): LayoutCopyResult {
  return { ok: false, diagnostics: [{ code: 'mlir/layout-copy', severity: 'error', message, range: { start: 0, end: 0 } }] };
}

/** What is wrong with a spec, if anything. */
function validate(s: LayoutCopySpec): LayoutCopyResult | undefined {
  const [R, C] = s.shape, [BR, BC] = s.block, [TY, TX] = s.threads;
  const all = [R, C, BR, BC, TY, TX, s.srcSize, s.dstSize];
  if (all.some((n) => !Number.isSafeInteger(n) || n < 1)) return problem('shape, block, threads and sizes must be positive integers');
  if (R % BR || C % BC) return problem(`the block ${BR} x ${BC} does not divide the shape ${R} x ${C}`);
  if (BR % TY || BC % TX) return problem(`the threads ${TY} x ${TX} do not divide the block ${BR} x ${BC}`);
  if (TY * TX > MAX_THREADS) return problem(`${TY} x ${TX} = ${TY * TX} threads per block exceeds ${MAX_THREADS}`);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(s.name)) return problem(`\`${s.name}\` is not a valid function name`);
  for (const e of [s.src, s.dst]) {
    for (const n of freeSymbols(e)) {
      if (!COORDS.includes(n) && !s.params?.has(n)) return problem(`the index expression names \`${n}\`, which is neither a coordinate (${COORDS.join(', ')}) nor a param with a value`);
    }
  }
  return undefined;
}

/** The kernel: `func.func @<name>(%in: memref<S x f32>, %out: memref<D x f32>)` with block and thread foralls. */
export function emitLayoutCopy(s: LayoutCopySpec): LayoutCopyResult {
  const bad = validate(s);
  if (bad) return bad;
  const [R, C] = s.shape, [BR, BC] = s.block, [TY, TX] = s.threads;
  const tIn = `memref<${s.srcSize}xf32>`, tOut = `memref<${s.dstSize}xf32>`;
  const symbols = new Map<string, string>(COORDS.map((c) => [c, `%${c}`]));
  const consts: string[] = [];
  for (const [p, v] of s.params ?? []) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(p)) continue;
    symbols.set(p, `%p_${p}`);
    consts.push(`  %p_${p} = arith.constant ${v} : index`);
  }
  const idx = printMlir([s.src, s.dst], { symbols, prefix: 'x' });
  const ind = '          ';
  const what = `layout-driven copy kernel @${s.name} (MLIR 22)`;
  const head = generatedHeader({ name: s.name, source: s.source ?? { block: s.name } }, what).replace('schedule `', 'kernel `');
  const lines = [
    head.trimEnd(),
    `// out[dst] = in[src] for every (i, j) in ${R} x ${C}; blocks of ${BR} x ${BC} (grid ${R / BR} x ${C / BC}),`,
    `// ${TY} x ${TX} threads per block, ${BR / TY} x ${BC / TX} elements per thread.`,
    `//   src = ${s.describe?.src ? `${s.describe.src}: ` : ''}${exprText(s.src)}`,
    `//   dst = ${s.describe?.dst ? `${s.describe.dst}: ` : ''}${exprText(s.dst)}`,
    `func.func @${s.name}(%in: ${tIn}, %out: ${tOut}) {`,
    '  %c0 = arith.constant 0 : index',
    '  %c1 = arith.constant 1 : index',
    `  %c_br = arith.constant ${BR} : index`,
    `  %c_bc = arith.constant ${BC} : index`,
    `  %c_ty = arith.constant ${TY} : index`,
    `  %c_tx = arith.constant ${TX} : index`,
    `  %c_rows = arith.constant ${BR / TY} : index`,
    `  %c_cols = arith.constant ${BC / TX} : index`,
    ...consts,
    `  scf.forall (%bi, %bj) in (${R / BR}, ${C / BC}) {`,
    '    %i0 = arith.muli %bi, %c_br : index',
    '    %j0 = arith.muli %bj, %c_bc : index',
    `    scf.forall (%ty, %tx) in (${TY}, ${TX}) {`,
    '      scf.for %r = %c0 to %c_rows step %c1 {',
    '        scf.for %q = %c0 to %c_cols step %c1 {',
    `${ind}%rr = arith.muli %r, %c_ty : index`,
    `${ind}%ii = arith.addi %rr, %ty : index`,
    `${ind}%qq = arith.muli %q, %c_tx : index`,
    `${ind}%jj = arith.addi %qq, %tx : index`,
    `${ind}%i = arith.addi %i0, %ii : index`,
    `${ind}%j = arith.addi %j0, %jj : index`,
    ...idx.lines.map((l) => `${ind}${l}`),
    `${ind}%v = memref.load %in[${idx.results[0]}] : ${tIn}`,
    `${ind}memref.store %v, %out[${idx.results[1]}] : ${tOut}`,
    '        }',
    '      }',
    '    } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}',
    '  } {mapping = [#gpu.block<y>, #gpu.block<x>]}',
    '  return',
    '}',
    '',
  ];
  return { ok: true, kernel: lines.join('\n') };
}

function exprText(e: Expr): string {
  let t: string;
  try { t = printC(e); } catch { t = '(no C form)'; }
  t = t.replace(/\s+/g, ' ');
  return t.length <= 160 ? t : `${t.slice(0, 157)}...`;
}

/** Transform library: the kernel's block forall -> gpu.launch, thread forall -> thread ids. */
export function emitLayoutCopyToGpu(s: LayoutCopySpec): string {
  const [TY, TX] = s.threads;
  return [
    generatedHeader({ name: s.name, source: s.source ?? { block: s.name } }, `GPU mapping of @${s.name}`).replace('schedule `', 'kernel `').trimEnd(),
    'module attributes {transform.with_named_sequence} {',
    '  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {',
    `    %f = transform.structured.match ops{["func.func"]} attributes{sym_name = "${s.name}"} in %root`,
    '        : (!transform.any_op) -> !transform.any_op',
    '    %launch = transform.gpu.map_forall_to_blocks %f generate_gpu_launch : (!transform.any_op) -> !transform.any_op',
    `    %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [${TX}, ${TY}, 1]`,
    '        : (!transform.any_op) -> !transform.any_op',
    '    transform.yield',
    '  }',
    '}',
    '',
  ].join('\n');
}

/** The kernel plus a harness `@__layout_check_main`: in[p] = p, out[p] = -1, run, print out with printMemrefF32. */
export function emitLayoutCopyCheck(s: LayoutCopySpec): LayoutCopyResult {
  const k = emitLayoutCopy(s);
  if (!k.ok) return k;
  if (s.srcSize > 1 << 24) return problem(`in[p] = p is exact in f32 only up to 2^24 elements, not ${s.srcSize}`);
  const tIn = `memref<${s.srcSize}xf32>`, tOut = `memref<${s.dstSize}xf32>`;
  const harness = `
// Harness: in[p] = p, out[p] = -1; runs @${s.name} and prints out (printMemrefF32).
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @${CPU_CHECK_ENTRY}() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ns = arith.constant ${s.srcSize} : index
  %nd = arith.constant ${s.dstSize} : index
  %minus1 = arith.constant -1.0 : f32
  %in = memref.alloc() : ${tIn}
  %out = memref.alloc() : ${tOut}
  scf.for %p = %c0 to %ns step %c1 {
    %pi = arith.index_cast %p : index to i32
    %pf = arith.sitofp %pi : i32 to f32
    memref.store %pf, %in[%p] : ${tIn}
  }
  scf.for %p = %c0 to %nd step %c1 {
    memref.store %minus1, %out[%p] : ${tOut}
  }
  call @${s.name}(%in, %out) : (${tIn}, ${tOut}) -> ()
  %u = memref.cast %out : ${tOut} to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %in : ${tIn}
  memref.dealloc %out : ${tOut}
  return
}
`;
  return { ok: true, kernel: k.kernel + harness };
}

/** The numbers of a printMemrefF32 dump, in order. */
export function parseMemrefDump(stdout: string): number[] {
  const at = stdout.indexOf('data =');
  if (at < 0) return [];
  return (stdout.slice(at + 6).match(/-?\d+(?:\.\d+)?(?:e[+-]?\d+)?/g) ?? []).map(Number);
}
