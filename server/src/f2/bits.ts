// Bit vectors over F2: a column of a binary matrix is one integer whose bit k is row k.
// Columns are JavaScript numbers while the vector fits in 30 bits (bit operators are 32-bit
// signed, so 30 leaves room) and bigints beyond; `opsFor(bits)` picks the representation.

export type Vec = number | bigint;

/** The operations the F2 algorithms need, for one representation. */
export interface Ops {
  readonly wide: boolean;
  readonly zero: Vec;
  unit(k: number): Vec;
  xor(a: Vec, b: Vec): Vec;
  and(a: Vec, b: Vec): Vec;
  isZero(a: Vec): boolean;
  bit(a: Vec, k: number): boolean;
  /** index of the highest set bit, -1 for zero */
  top(a: Vec): number;
  popcount(a: Vec): number;
  shl(a: Vec, k: number): Vec;
  shr(a: Vec, k: number): Vec;
  /** the low `k` bits */
  low(a: Vec, k: number): Vec;
  eq(a: Vec, b: Vec): boolean;
  from(n: number | bigint): Vec;
  toNumber(a: Vec): number;
  toBigInt(a: Vec): bigint;
}

/** Largest vector width stored as a number. */
export const NUMBER_BITS = 30;

function popcount32(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export const NUM: Ops = {
  wide: false,
  zero: 0,
  unit: (k) => 1 << k,
  xor: (a, b) => (a as number) ^ (b as number),
  and: (a, b) => (a as number) & (b as number),
  isZero: (a) => a === 0,
  bit: (a, k) => (((a as number) >>> k) & 1) === 1,
  top: (a) => 31 - Math.clz32(a as number),
  popcount: (a) => popcount32(a as number),
  shl: (a, k) => (a as number) << k,
  shr: (a, k) => (a as number) >>> k,
  low: (a, k) => (a as number) & ((1 << k) - 1),
  eq: (a, b) => a === b,
  from: (n) => Number(n),
  toNumber: (a) => a as number,
  toBigInt: (a) => BigInt(a as number),
};

export const BIG: Ops = {
  wide: true,
  zero: 0n,
  unit: (k) => 1n << BigInt(k),
  xor: (a, b) => (a as bigint) ^ (b as bigint),
  and: (a, b) => (a as bigint) & (b as bigint),
  isZero: (a) => a === 0n,
  bit: (a, k) => (((a as bigint) >> BigInt(k)) & 1n) === 1n,
  top: (a) => (a === 0n ? -1 : (a as bigint).toString(2).length - 1),
  popcount: (a) => {
    let n = 0;
    for (const c of (a as bigint).toString(2)) if (c === '1') n++;
    return n;
  },
  shl: (a, k) => (a as bigint) << BigInt(k),
  shr: (a, k) => (a as bigint) >> BigInt(k),
  low: (a, k) => (a as bigint) & ((1n << BigInt(k)) - 1n),
  eq: (a, b) => a === b,
  from: (n) => BigInt(n),
  toNumber: (a) => Number(a),
  toBigInt: (a) => a as bigint,
};

/** The representation for vectors of `bits` bits. */
export function opsFor(bits: number): Ops {
  return bits <= NUMBER_BITS ? NUM : BIG;
}
