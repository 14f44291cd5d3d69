// Shared-memory bank conflicts of a warp-wide access (docs/linear-layouts.md). Model: an access
// of B bytes per lane is served in max(1, 32·B/128) phases of 128/B lanes (all lanes when
// B <= 4); a phase costs the largest number of distinct 4-byte words that fall into one of the
// 32 banks (lanes reading the same word share it). Two engines: the F2 closed form (Lemma 9.4
// with the phase-lane refinement, exact for linear layouts) and brute-force simulation (any
// address function, also for non-linear layouts); tests check that they agree.
import { opsFor, type Vec } from './bits.js';
import { F2Error, rank } from './matrix.js';
import { LinearLayout, compose, log2, isPow2 } from './layout.js';
import { LANE, REGISTER, WARP, isShared } from './triton.js';

export const BANKS = 32;
export const WORD_BYTES = 4;
export const MAX_ACCESS_BYTES = 16;

/** bytes per lane of one access -> [phases, lanes per phase] for a warp of `lanes` lanes */
export function phasesOf(accessBytes: number, lanes = 32): { phases: number; lanesPerPhase: number } {
  const lanesPerPhase = Math.max(1, Math.min(lanes, Math.floor(128 / accessBytes)));
  return { phases: Math.max(1, Math.ceil(lanes / lanesPerPhase)), lanesPerPhase };
}

/** The fewest wavefronts an access of `accessBytes` per lane can take (one per phase). */
export function minimumWavefronts(accessBytes: number, lanes = 32): number {
  return phasesOf(accessBytes, lanes).phases;
}

/** Cost of one phase: max over banks of distinct words touched by [start, start+bytes) per lane. */
export function phaseCost(starts: readonly number[], bytes: number): { cost: number; bank: number; words: number[] } {
  const byBank = new Map<number, Set<number>>();
  for (const a0 of starts) {
    for (let w = Math.floor(a0 / WORD_BYTES); w <= Math.floor((a0 + bytes - 1) / WORD_BYTES); w++) {
      const b = w % BANKS;
      let s = byBank.get(b);
      if (!s) byBank.set(b, (s = new Set()));
      s.add(w);
    }
  }
  let cost = 0;
  let bank = 0;
  for (const [b, s] of byBank) if (s.size > cost || (s.size === cost && b < bank)) [cost, bank] = [s.size, b];
  const words = [...(byBank.get(bank) ?? [])].sort((x, y) => x - y);
  return { cost, bank, words };
}

/** A warp-wide access pattern: per instruction, the start byte address of each lane's vector. */
export interface Access {
  lanes: number;
  bytes: number;
  instructions: number;
  /** byte address of lane `lane`'s vector in instruction `instr` */
  address(instr: number, lane: number): number;
}

export interface Wavefronts {
  /** wavefronts per instruction, the worst instruction */
  wavefronts: number;
  minimum: number;
  /** wavefronts / minimum: the n-way conflict */
  degree: number;
  /** lanes of the worst phase that hit the same bank at distinct words (one per word) */
  lanes: number[];
  bank: number;
}

/** Brute-force simulation: every instruction, every phase. */
export function wavefrontsBrute(acc: Access): Wavefronts {
  const { phases, lanesPerPhase } = phasesOf(acc.bytes, acc.lanes);
  let worst = -1;
  let worstLanes: number[] = [];
  let worstBank = 0;
  for (let i = 0; i < acc.instructions; i++) {
    let total = 0;
    let bestPhase = { cost: -1, lanes: [] as number[], bank: 0 };
    for (let ph = 0; ph < phases; ph++) {
      const lanes: number[] = [];
      for (let l = ph * lanesPerPhase; l < Math.min(acc.lanes, (ph + 1) * lanesPerPhase); l++) lanes.push(l);
      const starts = lanes.map((l) => acc.address(i, l));
      const c = phaseCost(starts, acc.bytes);
      total += c.cost;
      if (c.cost > bestPhase.cost) {
        const seen = new Set<number>();
        const col: number[] = [];
        lanes.forEach((l, k) => {
          const a0 = starts[k];
          for (let w = Math.floor(a0 / WORD_BYTES); w <= Math.floor((a0 + acc.bytes - 1) / WORD_BYTES); w++) {
            if (w % BANKS === c.bank && !seen.has(w)) {
              seen.add(w);
              col.push(l);
            }
          }
        });
        bestPhase = { cost: c.cost, lanes: col, bank: c.bank };
      }
    }
    if (total > worst) {
      worst = total;
      worstLanes = bestPhase.lanes;
      worstBank = bestPhase.bank;
    }
  }
  const minimum = phases;
  return { wavefronts: worst, minimum, degree: worst / minimum, lanes: worstLanes, bank: worstBank };
}

/** A distributed layout's access through a memory layout, after vectorisation. */
export interface VectorPlan {
  /** register bits accessed together, vector element k <-> bit vecRegs[k] (offset 2^k) */
  vecRegs: number[];
  /** elements per access */
  vec: number;
  /** (register, lane, warp) -> offset */
  toOffset: LinearLayout;
}

/**
 * L = S⁻¹ ∘ D: (register, lane, warp) -> offset. The vector is the register bits that map to
 * offsets 1, 2, 4, ... (generalised vectorisation: registers may be permuted), while every other
 * input bit leaves those low offset bits 0, capped at `maxBytes` bytes.
 */
export function vectorPlan(dist: LinearLayout, mem: LinearLayout, elemBytes: number, maxVec?: number): VectorPlan {
  if (isShared(dist)) throw new F2Error('the thread layout is a shared (offset) layout; expected register/lane/warp');
  if (!isShared(mem)) throw new F2Error('the memory layout maps register/lane/warp; expected a shared (offset) layout');
  if (dist.outs.length !== mem.outs.length || dist.outs.some((o, d) => o.size !== mem.outs[d].size)) {
    throw new F2Error(`shapes differ: thread layout [${dist.shape.join(', ')}], memory layout [${mem.shape.join(', ')}]`);
  }
  if (!isPow2(elemBytes) || elemBytes > 16) throw new F2Error(`element width ${elemBytes} bytes is not a power of two up to 16`);
  if (!mem.isInvertible()) throw new F2Error(`the memory layout is not a bijection (rank ${mem.rank()} of ${mem.outBits} bits)`);
  const inv = mem.invert(); // logical dims -> offset
  const named = new LinearLayout(dist.ins, dist.outs.map((o, d) => ({ name: mem.outs[d].name, size: o.size })));
  const toOffset = compose(inv, named);
  const regs = toOffset.basesOf(REGISTER).map((b) => b[0]);
  const others = toOffset.ins.flatMap((i) => i.bases.map((b, k) => ({ label: i.name, k, off: b[0] })));
  const cap = Math.min(maxVec ?? Infinity, MAX_ACCESS_BYTES / elemBytes);
  const vecRegs: number[] = [];
  for (let v = 0; 2 ** (v + 1) <= cap; v++) {
    const k = regs.indexOf(2 ** v);
    if (k < 0) break;
    const chosen = [...vecRegs, k];
    const mask = 2 ** (v + 1) - 1;
    const ok = others.every((o) => (o.label === REGISTER && chosen.includes(o.k)) || (o.off & mask) === 0);
    if (!ok) break;
    vecRegs.push(k);
  }
  return { vecRegs, vec: 2 ** vecRegs.length, toOffset };
}

/** the register values of a vector group's first element, one per instruction, with `warps` */
function instructions(plan: VectorPlan): { reg: number; warp: number }[] {
  const nreg = plan.toOffset.basesOf(REGISTER).length;
  const nwarp = plan.toOffset.basesOf(WARP).length;
  let vmask = 0;
  for (const k of plan.vecRegs) vmask |= 1 << k;
  const out: { reg: number; warp: number }[] = [];
  for (let w = 0; w < 2 ** nwarp; w++) for (let r = 0; r < 2 ** nreg; r++) if ((r & vmask) === 0) out.push({ reg: r, warp: w });
  return out;
}

/** The access pattern of a vector plan (for brute force). */
export function accessOf(plan: VectorPlan, elemBytes: number): Access {
  const ins = instructions(plan);
  const lanes = 2 ** plan.toOffset.basesOf(LANE).length;
  return {
    lanes,
    bytes: elemBytes * plan.vec,
    instructions: ins.length,
    address: (i, lane) => plan.toOffset.apply({ [REGISTER]: ins[i].reg, [LANE]: lane, [WARP]: ins[i].warp })[0] * elemBytes,
  };
}

/**
 * The closed form. In byte-address space, a lane's words are its address >> 2; the lanes of one
 * phase span span(P) (the lane columns without the top log2(phases) bits, shifted to words);
 * a bank holds 2^dim(span(P) ∩ {bank bits = 0}) distinct words, the same for every phase and
 * instruction. Wavefronts = phases · that.
 */
export function wavefrontsF2(plan: VectorPlan, elemBytes: number): Wavefronts {
  const bytes = elemBytes * plan.vec;
  const laneBases = plan.toOffset.basesOf(LANE).map((b) => b[0]);
  const { phases, lanesPerPhase } = phasesOf(bytes, 2 ** laneBases.length);
  const keep = log2(lanesPerPhase);
  const shift = log2(elemBytes);
  const width = plan.toOffset.outBits + shift + 1;
  const o = opsFor(width);
  const words: Vec[] = laneBases.slice(0, keep).map((off) => o.shr(o.shl(o.from(off), shift), 2));
  const bankMask = o.from(BANKS - 1);
  const dim = rank(words, o) - rank(words.map((w) => o.and(w, bankMask)), o);
  const c = 2 ** dim;
  const minimum = phases;
  // colliding lanes of phase 0: one lane per distinct word in lane 0's bank
  const seen = new Set<string>();
  const lanes: number[] = [];
  for (let l = 0; l < lanesPerPhase && lanes.length < c; l++) {
    let w = o.zero;
    for (let k = 0; k < keep; k++) if ((l >> k) & 1) w = o.xor(w, words[k]);
    if (o.isZero(o.and(w, bankMask)) && !seen.has(String(w))) {
      seen.add(String(w));
      lanes.push(l);
    }
  }
  const base = plan.toOffset.apply({}); // instruction 0, lane 0
  const bank = Math.floor((base[0] * elemBytes) / WORD_BYTES) % BANKS;
  return { wavefronts: phases * c, minimum, degree: (phases * c) / minimum, lanes, bank };
}

/** Both in one: the closed form (exact for linear layouts). */
export function bankConflicts(dist: LinearLayout, mem: LinearLayout, elemBytes: number, vec?: number): Wavefronts & { vec: number; vecRegs: number[] } {
  const plan = vectorPlan(dist, mem, elemBytes, vec);
  if (vec !== undefined && plan.vec < vec) {
    throw new F2Error(`a vector of ${vec} elements is not contiguous in both layouts: at most ${plan.vec}`);
  }
  return { ...wavefrontsF2(plan, elemBytes), vec: plan.vec, vecRegs: plan.vecRegs };
}

