/**
 * The project's one PRNG: xoshiro128** (Blackman & Vigna) seeded through splitmix32. Pure 32-bit integer
 * arithmetic (Math.imul, >>>), so the same seed gives the same stream in every JavaScript engine, and the
 * kernels can reproduce it bit for bit. Documented in docs/randomizers.md.
 */
import { StackRankError, describe, firstHole, requireInt } from './errors.js';

export type RngState = readonly [number, number, number, number];

function splitmix32(x: number): [number, number] {
  x = (x + 0x9e3779b9) >>> 0;
  let z = x;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  z = (z ^ (z >>> 16)) >>> 0;
  return [x, z];
}

/** The largest seed; seeds are 32-bit (larger integers are reduced mod 2^32). */
export const MAX_SEED = 0xffffffff;

/** Checks a seed: any integer in [0, 2^32) (negative integers and larger ones are reduced mod 2^32). */
export function checkSeed(seed: unknown): number {
  if (typeof seed !== 'number' || !Number.isInteger(seed) || !Number.isSafeInteger(seed)) {
    throw new StackRankError('BAD_ARGUMENT', `seed must be a safe integer; got ${describe(seed)}`);
  }
  return seed >>> 0;
}

export class Rng {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  constructor(seed: number | RngState = 0) {
    if (Array.isArray(seed)) {
      if (
        seed.length !== 4 ||
        firstHole(seed) >= 0 ||
        !seed.every((v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 0x100000000)
      ) {
        throw new StackRankError(
          'BAD_ARGUMENT',
          `a PRNG state is four unsigned 32-bit integers; got ${describe(seed)}`,
        );
      }
      [this.s0, this.s1, this.s2, this.s3] = seed.map((v) => v >>> 0) as unknown as [number, number, number, number];
      if ((this.s0 | this.s1 | this.s2 | this.s3) === 0)
        throw new StackRankError('BAD_ARGUMENT', 'an all-zero PRNG state is invalid');
      return;
    }
    let x = checkSeed(seed as number);
    const out: number[] = [];
    for (let i = 0; i < 4; i++) {
      const [nx, z] = splitmix32(x);
      x = nx;
      out.push(z);
    }
    if ((out[0] | out[1] | out[2] | out[3]) === 0) out[0] = 1;
    [this.s0, this.s1, this.s2, this.s3] = out;
  }

  /** Next 32-bit unsigned integer. */
  nextU32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    this.s0 >>>= 0;
    this.s1 >>>= 0;
    this.s2 >>>= 0;
    this.s3 >>>= 0;
    return result;
  }

  /** Uniform integer in [0, n), n in 1..2^32, without modulo bias (rejection on the top of the range). */
  nextInt(n: number): number {
    if (typeof n !== 'number' || !(n >= 1 && n <= 0x100000000 && Number.isInteger(n)))
      requireInt('nextInt(n): n', n, 1, 0x100000000);
    if (n === 1) return 0;
    const limit = 0x100000000 - (0x100000000 % n);
    for (;;) {
      const u = this.nextU32();
      if (u < limit) return u % n;
    }
  }

  /** Uniform float in [0, 1) with 32 bits of randomness. */
  nextFloat(): number {
    return this.nextU32() / 0x100000000;
  }

  state(): RngState {
    return [this.s0, this.s1, this.s2, this.s3];
  }

  clone(): Rng {
    return new Rng(this.state());
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}
