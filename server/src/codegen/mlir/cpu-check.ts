// The CPU variant of a schedule: the payload at small sizes (same tile sizes, two tiles per tiled
// dimension) plus a harness `@__layout_check_main` that fills the inputs, calls the payload, and
// prints checksums and the largest difference from scalar reference loops. Apply the schedule with
// the `__transform_cpu_check` entry point (which leaves scf.forall loops; `--scf-forall-to-for` runs
// them one after another), lower to LLVM and run with mlir-runner; see pipelines.ts.
//
// Inputs are small integers, so every f32 sum is exact and the printed numbers are exact too:
//   A[i][k] = (i + 2k) mod 7 - 3        B[k][j] = (3k + j) mod 5 - 2        C starts as 7 everywhere
// (a zero fill left out of the schedule's loops would leave the 7s in).
// Printed (one per line): checksum = sum C[i][j] * ((7i + 3j) mod 11 + 1) as i64, max_abs_err
// (largest |C - reference| as i64), first = C[0][0], last = C[M-1][N-1].
import type { Diagnostic } from '../../../../grammar/src/diagnostic.js';
import { analyzeSchedule, type ScheduleSpec } from '../../check/schedule/index.js';
import { emitPayload, tensorType } from './emit-schedule.js';

export const CPU_CHECK_ENTRY = '__layout_check_main';

export type CpuCheckResult =
  | { ok: true; module: string; sizes: number[]; spec: ScheduleSpec }
  | { ok: false; diagnostics: Diagnostic[] };

/** Problem sizes for the CPU check: two outermost tiles per tiled dimension (at most the real size); untiled dimensions at most 64. */
export function cpuCheckSizes(spec: ScheduleSpec): number[] {
  return spec.sizes.map((size, d) => {
    const first = spec.steps.find((s) => (s.primitive === 'tile' || s.primitive === 'fuse' || s.primitive === 'tileForGrids') && (s.sizes?.[d] ?? 0) > 0);
    if (!first) return Math.min(size, 64);
    const unit = first.sizes![d];
    return unit * Math.min(2, Math.floor(size / unit));
  });
}

/** The payload at CPU-check sizes with its harness, as one module. */
export function emitCpuCheck(spec: ScheduleSpec): CpuCheckResult {
  const base = analyzeSchedule(spec);
  if (!base.plan) return { ok: false, diagnostics: base.diagnostics };
  const sizes = cpuCheckSizes(spec);
  const small: ScheduleSpec = { ...spec, sizes };
  const a = analyzeSchedule(small);
  if (!a.plan) return { ok: false, diagnostics: a.diagnostics };
  const op = a.plan.op;
  if (op.name !== 'linalg.matmul') {
    return { ok: false, diagnostics: [{ code: 'schedule/cpu-check-op', severity: 'error', message: `no CPU check harness for ${op.name}`, range: spec.ranges?.op ?? { start: 0, end: 0 } }] };
  }
  const [M, N, K] = sizes;
  // Inputs of the payload's element type (f16/bf16: the small integers are exact), the output of its
  // accumulator type; the reference sums in f32 (exact for these integers at CPU-check sizes).
  const et = spec.elementType, acc = spec.accType ?? spec.elementType;
  const tA = tensorType([M, K], et), tB = tensorType([K, N], et), tC = tensorType([M, N], acc);
  const toEt = (v: string, r: string): string => (et === 'f32' ? `%${r} = arith.addf ${v}, %zero_f : f32` : `%${r} = arith.truncf ${v} : f32 to ${et}`);
  const fromEt = (v: string, r: string, t: string): string => (t === 'f32' ? `%${r} = arith.addf ${v}, %zero : f32` : `%${r} = arith.extf ${v} : ${t} to f32`);
  const payload = emitPayload(small, op, `CPU check of the schedule at ${M} x ${N} x ${K}`);
  const harness = `
// Harness (${et} inputs, ${acc} output): A[i][k] = (i + 2k) mod 7 - 3, B[k][j] = (3k + j) mod 5 - 2, C = 7 before the call.
// Prints checksum = sum C[i][j] * ((7i + 3j) mod 11 + 1), max_abs_err against scalar loops, C[0][0], C[${M - 1}][${N - 1}].
func.func private @__layout_check_init_a() -> ${tA} {
  %t = tensor.generate {
  ^bb0(%i: index, %k: index):
    %v = affine.apply affine_map<(i, k) -> ((i + k * 2) mod 7)>(%i, %k)
    %vi = arith.index_cast %v : index to i32
    %vf = arith.sitofp %vi : i32 to f32
    %c3 = arith.constant 3.0 : f32
    %r0 = arith.subf %vf, %c3 : f32
    %zero_f = arith.constant 0.0 : f32
    ${toEt('%r0', 'r')}
    tensor.yield %r : ${et}
  } : ${tA}
  return %t : ${tA}
}

func.func private @__layout_check_init_b() -> ${tB} {
  %t = tensor.generate {
  ^bb0(%k: index, %j: index):
    %v = affine.apply affine_map<(k, j) -> ((k * 3 + j) mod 5)>(%k, %j)
    %vi = arith.index_cast %v : index to i32
    %vf = arith.sitofp %vi : i32 to f32
    %c2 = arith.constant 2.0 : f32
    %r0 = arith.subf %vf, %c2 : f32
    %zero_f = arith.constant 0.0 : f32
    ${toEt('%r0', 'r')}
    tensor.yield %r : ${et}
  } : ${tB}
  return %t : ${tB}
}

func.func @${CPU_CHECK_ENTRY}() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.constant ${M} : index
  %n = arith.constant ${N} : index
  %k = arith.constant ${K} : index
  %mlast = arith.constant ${M - 1} : index
  %nlast = arith.constant ${N - 1} : index
  %zero = arith.constant 0.0 : f32
  %zero64 = arith.constant 0 : i64
  %seven = arith.constant 7.0 : ${acc}
  %A = call @__layout_check_init_a() : () -> ${tA}
  %B = call @__layout_check_init_b() : () -> ${tB}
  %C0 = tensor.generate {
  ^bb0(%i: index, %j: index):
    tensor.yield %seven : ${acc}
  } : ${tC}
  %C = call @${spec.name}(%A, %B, %C0) : (${tA}, ${tB}, ${tC}) -> ${tC}
  %err, %sum = scf.for %i = %c0 to %m step %c1 iter_args(%e0 = %zero, %s0 = %zero64) -> (f32, i64) {
    %ei, %si = scf.for %j = %c0 to %n step %c1 iter_args(%e1 = %e0, %s1 = %s0) -> (f32, i64) {
      %ref = scf.for %kk = %c0 to %k step %c1 iter_args(%acc = %zero) -> (f32) {
        %a0 = tensor.extract %A[%i, %kk] : ${tA}
        %b0 = tensor.extract %B[%kk, %j] : ${tB}
        ${fromEt('%a0', 'a', et)}
        ${fromEt('%b0', 'b', et)}
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      %got0 = tensor.extract %C[%i, %j] : ${tC}
      ${fromEt('%got0', 'got', acc)}
      %d = arith.subf %got, %ref : f32
      %ad = math.absf %d : f32
      %e2 = arith.maximumf %e1, %ad : f32
      %w = affine.apply affine_map<(i, j) -> ((i * 7 + j * 3) mod 11 + 1)>(%i, %j)
      %wi = arith.index_cast %w : index to i64
      %gi = arith.fptosi %got : f32 to i64
      %gw = arith.muli %gi, %wi : i64
      %s2 = arith.addi %s1, %gw : i64
      scf.yield %e2, %s2 : f32, i64
    }
    scf.yield %ei, %si : f32, i64
  }
  %erri = arith.fptosi %err : f32 to i64
  %first = tensor.extract %C[%c0, %c0] : ${tC}
  %last = tensor.extract %C[%mlast, %nlast] : ${tC}
  %firsti = arith.fptosi %first : ${acc} to i64
  %lasti = arith.fptosi %last : ${acc} to i64
  vector.print str "checksum = "
  vector.print %sum : i64
  vector.print str "max_abs_err = "
  vector.print %erri : i64
  vector.print str "first = "
  vector.print %firsti : i64
  vector.print str "last = "
  vector.print %lasti : i64
  return
}
`;
  return { ok: true, module: payload + harness, sizes, spec: small };
}
