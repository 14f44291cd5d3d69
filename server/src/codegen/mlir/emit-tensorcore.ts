// Tensor-core schedules (a schedule with `mma`) -> MLIR 22 transform script. The steps and their
// order follow a hand-written, GPU-tested MLIR 22 schedule (docs/schedules.md, "Tensor cores": the
// primitive-to-transform-op table and the traps): tile for the grid, fuse the fill, tile K, pad +
// 128-bit copies into shared memory, warps, vectorize, bufferize, contraction patterns; then (in
// @NAME_to_gpu) gpu.launch and thread ids, mma unrolling, accumulator hoisting, convert-vector-to-gpu
// (nvgpu.mma.sync + ldmatrix, or WMMA), copy lowering, multibuffer, cp.async, swizzle, pipeline,
// shared buffers as globals.
//
// The tensor-core primitives act after bufferize whatever their position in the block; each
// generated step is commented with the primitive it comes from.
import type { SchedulePlan, ScheduleSpec } from '../../check/schedule/index.js';
import { fillTile } from '../../check/schedule/tensorcore.js';
import { generatedHeader, stepText } from './emit-schedule.js';

const ANY = '!transform.any_op';

export interface TensorCoreEmit {
  transform: string;
  /** extra flags the PTX lowering needs (WMMA: scf -> cf before gpu-to-nvvm) */
  ptxPreLowering: string[];
}

export function emitTensorCoreTransform(spec: ScheduleSpec, plan: SchedulePlan): TensorCoreEmit {
  const tc = plan.tensorCore!;
  const name = spec.name;
  const et = spec.elementType, acc = spec.accType ?? spec.elementType;
  const stepOf = (p: string) => spec.steps.find((s) => s.primitive === p);
  const grids = stepOf('tileForGrids')!;
  const kTiles = spec.steps.filter((s) => s.primitive === 'tile');
  const [bm, bn] = grids.sizes!;
  const bk = plan.promoted[0]?.shape ? plan.facts[plan.has.promote!].extents[2] : spec.sizes[2];
  const nt = plan.threadsPerBlock!;
  const [wm, wn] = tc.warps;
  const fill = fillTile(bm, bn, nt)!; // checkMma reports when there is none
  const hasAsync = !!stepOf('asyncCopy'), hasSwizzle = !!stepOf('swizzleShared'), hasPipeline = !!stepOf('pipeline');
  const depth = plan.stages;
  const wmma = tc.mmaKind === 'wmma';
  const c = (s: string | undefined): string => (s ? `// ${s}` : '');
  const txt = (p: string): string => { const s = stepOf(p); return s ? stepText(s) : p; };
  const L: string[] = [];
  const e = (line = ''): void => { L.push(line ? `    ${line}` : ''); };
  const matchFunc = (into: string, inside: string): void => {
    e(`${into} = transform.structured.match ops{["func.func"]} attributes{sym_name = "${name}"} in ${inside}`);
    e(`    : (${ANY}) -> ${ANY}`);
  };

  // ---------------------------------------------------------------- @NAME_schedule (tensors -> bufferized vectors)
  const S: string[] = [];
  const body = L;
  matchFunc('%func', '%root');
  e(c(txt('findOp')));
  e(`%mm = transform.structured.match ops{["linalg.matmul"]} in %func : (${ANY}) -> ${ANY}`);
  e(`%fill = transform.structured.match ops{["linalg.fill"]} in %func : (${ANY}) -> ${ANY}`);
  e(c(`${stepText(grids)}: one block per ${bm} x ${bn} tile of C; the zero fill of C joins the grid loop`));
  e(`%mm_b, %grid = transform.structured.tile_using_forall %mm tile_sizes [${bm}, ${bn}]`);
  e(`    (mapping = [#gpu.block<y>, #gpu.block<x>]) : (${ANY}) -> (${ANY}, ${ANY})`);
  e(`%fill_b, %grid2 = transform.structured.fuse_into_containing_op %fill into %grid`);
  e(`    : (${ANY}, ${ANY}) -> (${ANY}, ${ANY})`);
  let h = '%mm_b';
  kTiles.forEach((t, i) => {
    const sizes = [...t.sizes!, ...Array(3 - t.sizes!.length).fill(0)];
    e(c(`${stepText(t)}: the K loop`));
    e(`%mm_k${i}, %kloop${i} = transform.structured.tile_using_for ${h} tile_sizes [${sizes.join(', ')}]`);
    e(`    : (${ANY}) -> (${ANY}, ${ANY})`);
    h = `%mm_k${i}`;
  });
  const [pa, pb] = plan.promoted;
  e(c(`${txt('promote')}: nofold pads give the A and B tiles their own buffers (${pa.shape.join(' x ')} and ${pb.shape.join(' x ')} ${et})`));
  e(`%mm_p, %pads, %cb = transform.structured.pad ${h}`);
  e(`    {padding_values = [0.0 : ${et}, 0.0 : ${et}, 0.0 : ${acc}],`);
  e(`     padding_dimensions = [0, 1, 2], nofold_flags = [1, 1, 0], copy_back_op = "none"}`);
  e(`    : (${ANY}) -> (${ANY}, ${ANY}, ${ANY})`);
  e(`// ... copied by all ${nt} threads, 128 bits per access`);
  e(`%pad_forall, %pad_tiled = transform.structured.gpu.map_copy_to_threads %pads`);
  e(`    total_num_threads = ${nt} desired_bit_alignment = 128 : (${ANY}) -> (${ANY}, ${ANY})`);
  e(c(`${txt('parallelizeForWarps')}: ${wm} x ${wn} warps, warp tiles of ${tc.warpTile.join(' x ')} (accumulators in registers)`));
  e(`%mm_w, %wforall = transform.structured.tile_using_forall %mm_p num_threads [${wm}, ${wn}]`);
  e(`    (mapping = [#gpu.warp<linear_dim_1>, #gpu.warp<linear_dim_0>]) : (${ANY}) -> (${ANY}, ${ANY})`);
  e(`// the zero fill of C spread over all ${nt} threads (${fill[0]} x ${fill[1]} elements each)`);
  e(`%fill_w, %fforall = transform.structured.tile_using_forall %fill_b tile_sizes [${fill[0]}, ${fill[1]}]`);
  e(`    (mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]) : (${ANY}) -> (${ANY}, ${ANY})`);
  e(c(`${txt('vectorize')}: the warp matmul, the zero fill and the copies`));
  e(`transform.structured.vectorize %mm_w : ${ANY}`);
  e(`transform.structured.vectorize %fill_w : ${ANY}`);
  e(`%pad_a, %pad_b = transform.split_handle %pad_tiled : (${ANY}) -> (${ANY}, ${ANY})`);
  e(`transform.structured.vectorize %pad_a vector_sizes [${pa.copy!.tile.join(', ')}] : ${ANY}`);
  e(`transform.structured.vectorize %pad_b vector_sizes [${pb.copy!.tile.join(', ')}] : ${ANY}`);
  e(`// the padded tiles live in workgroup (shared) memory`);
  e(`%buf, %newops = transform.structured.bufferize_to_allocation %pad_forall`);
  e(`    {memory_space = #gpu.address_space<workgroup>, alloc_op = "memref.alloc", bufferize_destination_only}`);
  e(`    : ${ANY}`);
  e();
  e(c(`${txt('bufferize')} (no canonicalization before this point: it would fold the vectorized copies)`));
  matchFunc('%func1', '%root');
  e(`transform.bufferization.eliminate_empty_tensors %func1 : ${ANY}`);
  e(`transform.apply_dce to %func1 : ${ANY}`);
  e(`transform.apply_cse to %func1 : ${ANY}`);
  e(`%mod = transform.bufferization.one_shot_bufferize layout{IdentityLayoutMap} %root`);
  e(`    {bufferize_function_boundaries = true} : (${ANY}) -> ${ANY}`);
  matchFunc('%func2', '%mod');
  e(`// ${txt('mma')}, part 1: multi_reduction(extf, extf) -> vector.contract(${et}, ${et} -> ${acc}) (must run after bufferization)`);
  e(`transform.apply_patterns to %func2 {`);
  e('  transform.apply_patterns.canonicalization');
  e('  transform.apply_patterns.vector.reduction_to_contract');
  e('  transform.apply_patterns.vector.transfer_permutation_patterns');
  e('  transform.apply_patterns.vector.fold_arith_extension');
  e(`} : ${ANY}`);
  e(`transform.apply_cse to %func2 : ${ANY}`);
  e(`transform.yield %func2 : ${ANY}`);
  S.push(...body.splice(0));

  // ---------------------------------------------------------------- @NAME_to_gpu
  e(`%mod = transform.get_parent_op %func {op_name = "builtin.module"} : (${ANY}) -> ${ANY}`);
  e(`// parallelizeForBlocks / parallelizeForWarps: scf.forall -> gpu.launch, thread and warp ids`);
  e(`%launch = transform.gpu.map_forall_to_blocks %func generate_gpu_launch : (${ANY}) -> ${ANY}`);
  e(`%mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [${nt}, 1, 1]`);
  e(`    : (${ANY}) -> ${ANY}`);
  matchFunc('%f3', '%mod');
  e(`transform.apply_patterns to %f3 { transform.apply_patterns.canonicalization } : ${ANY}`);
  e(`transform.apply_cse to %f3 : ${ANY}`);
  e(`// ${txt('mma')}: unroll the warp-level vectors to the ${tc.mmaShape.join(' x ')} shape (${tc.mmaPerKTile} per warp per K tile)`);
  e(`transform.apply_patterns to %f3 {`);
  e(`  transform.apply_patterns.gpu.unroll_vectors_subgroup_mma [${tc.mmaShape.join(', ')}]`);
  e(`} : ${ANY}`);
  e(`transform.apply_patterns to %f3 {`);
  e('  transform.apply_patterns.canonicalization');
  e('  transform.apply_patterns.memref.fold_memref_alias_ops');
  e(`} : ${ANY}`);
  e(`transform.apply_cse to %f3 : ${ANY}`);
  e(`// (implied by mma) hoist the accumulators: C tiles read before and written after the K loop, carried in registers`);
  e(`%f4 = transform.structured.hoist_redundant_vector_transfers %f3 : (${ANY}) -> ${ANY}`);
  e(`transform.apply_patterns to %f4 { transform.apply_patterns.canonicalization } : ${ANY}`);
  e(`transform.apply_cse to %f4 : ${ANY}`);
  e(`// ${txt('mma')}: vector.contract / transfer_read -> ${wmma ? 'gpu.subgroup_mma_* (WMMA)' : 'nvgpu.mma.sync / nvgpu.ldmatrix'}`);
  e(`%f5 = transform.apply_registered_pass "convert-vector-to-gpu" with options = { "use-nvgpu" = ${wmma ? 'false' : 'true'} } to %f4`);
  e(`    : (${ANY}) -> ${ANY}`);
  e(`transform.apply_patterns to %f5 { transform.apply_patterns.canonicalization } : ${ANY}`);
  e(`transform.apply_cse to %f5 : ${ANY}`);
  e(`// (implied) the remaining n-D transfers (copies, zero fill) -> 1-D vector loads and stores`);
  e(`transform.apply_patterns to %f5 {`);
  e('  transform.apply_patterns.vector.transfer_to_scf max_transfer_rank = 1 full_unroll = true');
  e(`} : ${ANY}`);
  e(`transform.apply_patterns to %f5 {`);
  e('  transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1');
  e('  transform.apply_patterns.canonicalization');
  e(`} : ${ANY}`);
  e(`transform.apply_cse to %f5 : ${ANY}`);
  e(`// the shared buffers out of the K loop`);
  e(`transform.bufferization.buffer_loop_hoisting %f5 : ${ANY}`);
  if (depth > 1) {
    const from = stepOf('multibuffer') ? txt('multibuffer') : `${txt('pipeline')} (implies multibuffer(${depth}))`;
    e(`// ${from}: one shared buffer per pipeline stage`);
    e(`%allocs = transform.structured.match ops{["memref.alloc"]} in %f5 : (${ANY}) -> !transform.op<"memref.alloc">`);
    e(`%mb = transform.memref.multibuffer %allocs {factor = ${depth} : i64, skip_analysis}`);
    e(`    : (!transform.op<"memref.alloc">) -> ${ANY}`);
    e(`transform.apply_patterns to %f5 {`);
    e('  transform.apply_patterns.canonicalization');
    e('  transform.apply_patterns.memref.fold_memref_alias_ops');
    e(`} : ${ANY}`);
    e(`transform.apply_cse to %f5 : ${ANY}`);
  }
  let fa = '%f5';
  if (hasAsync) {
    e(`// ${txt('asyncCopy')}: global -> shared vector copies become nvgpu.device_async_copy (cp.async) groups`);
    e(`%f5a = transform.nvgpu.create_async_groups %f5 {bypass_l1} : (${ANY}) -> ${ANY}`);
    e(`transform.apply_patterns to %f5a { transform.apply_patterns.canonicalization } : ${ANY}`);
    e(`transform.apply_cse to %f5a : ${ANY}`);
    fa = '%f5a';
  }
  void fa;
  if (hasSwizzle) {
    e(`// ${txt('swizzleShared')}: XOR-swizzle the shared tiles (cp.async writes and ldmatrix reads) against bank conflicts`);
    matchFunc('%f5w', '%mod');
    e(`%f5s = transform.apply_registered_pass "nvgpu-optimize-shared-memory" to %f5w : (${ANY}) -> ${ANY}`);
  }
  matchFunc('%f5b', '%mod');
  if (hasPipeline) {
    e(`// ${txt('pipeline')}: software-pipeline the K loop over the shared-memory copies (${depth} stages)`);
    e(`%kl = transform.structured.match ops{["scf.for"]} in %f5b : (${ANY}) -> !transform.op<"scf.for">`);
    e(`%piped = transform.nvgpu.pipeline_shared_memory_copies failures(propagate) %kl {depth = ${depth}, peel_epilogue}`);
    e(`    : (!transform.op<"scf.for">) -> ${ANY}`);
    e(`transform.apply_patterns to %f5b { transform.apply_patterns.canonicalization } : ${ANY}`);
    e(`transform.apply_cse to %f5b : ${ANY}`);
  }
  e(`// (implied by promote) shared buffers -> memref.global in workgroup memory (${plan.sharedBytes} B: .shared arrays)`);
  e(`%f6 = transform.apply_registered_pass "promote-buffers-to-stack" with options = { "max-alloc-size-in-bytes" = 1048576 } to %f5b`);
  e(`    : (${ANY}) -> ${ANY}`);
  e(`%allocas = transform.structured.match ops{["memref.alloca"]} in %f6 : (${ANY}) -> !transform.op<"memref.alloca">`);
  e(`%get, %glob = transform.memref.alloca_to_global %allocas`);
  e(`    : (!transform.op<"memref.alloca">) -> (${ANY}, ${ANY})`);
  e(`transform.apply_patterns to %f6 {`);
  e('  transform.apply_patterns.canonicalization');
  e('  transform.apply_patterns.memref.fold_memref_alias_ops');
  e(`} : ${ANY}`);
  e(`transform.apply_cse to %f6 : ${ANY}`);
  e('transform.yield');
  const G = body.splice(0);

  // ---------------------------------------------------------------- @NAME_cpu_lowering (the CPU check)
  e(`// contract (f32, after extf) -> outer products -> FMAs; n-D transfers -> 1-D loads and stores`);
  e(`transform.apply_patterns to %func {`);
  e('  transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"');
  e('  transform.apply_patterns.vector.lower_outerproduct');
  e('  transform.apply_patterns.vector.lower_transpose');
  e('  transform.apply_patterns.vector.lower_broadcast');
  e('  transform.apply_patterns.canonicalization');
  e(`} {apply_cse} : ${ANY}`);
  e(`transform.apply_patterns to %func {`);
  e('  transform.apply_patterns.vector.transfer_to_scf max_transfer_rank = 1 full_unroll = true');
  e(`} : ${ANY}`);
  e(`transform.apply_patterns to %func {`);
  e('  transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1');
  e('  transform.apply_patterns.canonicalization');
  e(`} {apply_cse} : ${ANY}`);
  e('transform.yield');
  const C = body.splice(0);

  const r = tc.registers;
  const out: string[] = [];
  out.push(generatedHeader(spec, `tensor-core transform script (MLIR 22) for @${name}: linalg.matmul ${spec.sizes.join(' x ')} ${et} x ${et} -> ${acc} on ${plan.target.name}`).trimEnd());
  out.push(`// grid ${plan.grid!.join(' x ')} blocks of ${bm} x ${bn}, K tile ${bk}; ${wm} x ${wn} warps (${nt} threads) with ${tc.warpTile.join(' x ')} warp tiles;`);
  out.push(`// ${tc.mmaKind === 'wmma' ? 'WMMA m16n16k16' : 'mma.sync m16n8k16'}: ${tc.mmaPerKTile} per warp per K tile; ${depth} stage${depth > 1 ? 's' : ''}${hasAsync ? ', cp.async' : ''}${hasSwizzle ? ', swizzled shared memory' : ''}.`);
  out.push(`// shared memory per block: ${depth} x (${pa.shape.join(' x ')} + ${pb.shape.join(' x ')}) x ${plan.elementBytes} B = ${plan.sharedBytes} B;`);
  out.push(`// registers per thread (estimate): ${r.accumulators} accumulators + ${r.aFragments} A + ${r.bFragments} B fragments + ${r.overhead} = ${r.total}.`);
  out.push('// Entry points: __transform_main (the schedule, then gpu.launch and the tensor-core lowering),');
  out.push('// __transform_cpu_check (the schedule without GPU mapping, lowered for the CPU).');
  out.push('module attributes {transform.with_named_sequence} {');
  out.push(`  transform.named_sequence @${name}_schedule(%root: ${ANY} {transform.consumed}) -> ${ANY} {`);
  out.push(...S.filter((x) => x !== '    '));
  out.push('  }');
  out.push('');
  out.push(`  transform.named_sequence @${name}_to_gpu(%func: ${ANY} {transform.consumed}) {`);
  out.push(...G);
  out.push('  }');
  out.push('');
  out.push(`  transform.named_sequence @${name}_cpu_lowering(%func: ${ANY} {transform.readonly}) {`);
  out.push(...C);
  out.push('  }');
  for (const [entry, next] of [['__transform_main', `${name}_to_gpu`], ['__transform_cpu_check', `${name}_cpu_lowering`]]) {
    out.push('');
    out.push(`  transform.named_sequence @${entry}(%root: ${ANY} {transform.consumed}) {`);
    out.push(`    %func = transform.include @${name}_schedule failures(propagate) (%root) : (${ANY}) -> ${ANY}`);
    out.push(`    transform.include @${next} failures(propagate) (%func) : (${ANY}) -> ()`);
    out.push('    transform.yield');
    out.push('  }');
  }
  out.push('}');
  out.push('');
  return { transform: out.join('\n').replace(/\n {4}\/\/ \n/g, '\n'), ptxPreLowering: wmma ? ['--convert-scf-to-cf'] : [] };
}
