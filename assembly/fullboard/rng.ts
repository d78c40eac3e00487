// Full-board kernel: where pieces come from. The project's PRNG, xoshiro128** exactly as src/random.ts (seeding
// stays in TypeScript: the state is written here), for memoryless games, or a buffer of piece ids that TypeScript
// fills from any randomizer.
import { NO_PIECE, O_BUF, O_BUFLEN, O_BUFPOS, O_MODE, O_RNG, PIECES_FROM_BUFFER, PIECES_FROM_RNG, PIECE_COUNT } from './layout';

export function seedRng(ctx: usize, s0: u32, s1: u32, s2: u32, s3: u32): void {
  store<u32>(ctx + O_RNG, s0);
  store<u32>(ctx + O_RNG + 4, s1);
  store<u32>(ctx + O_RNG + 8, s2);
  store<u32>(ctx + O_RNG + 12, s3);
}

export function rngNextU32(ctx: usize): u32 {
  let s0 = load<u32>(ctx + O_RNG);
  let s1 = load<u32>(ctx + O_RNG + 4);
  let s2 = load<u32>(ctx + O_RNG + 8);
  let s3 = load<u32>(ctx + O_RNG + 12);
  const result = rotl<u32>(s1 * 5, 7) * 9;
  const t = s1 << 9;
  s2 ^= s0;
  s3 ^= s1;
  s1 ^= s2;
  s0 ^= s3;
  s2 ^= t;
  s3 = rotl<u32>(s3, 11);
  store<u32>(ctx + O_RNG, s0);
  store<u32>(ctx + O_RNG + 4, s1);
  store<u32>(ctx + O_RNG + 8, s2);
  store<u32>(ctx + O_RNG + 12, s3);
  return result;
}

/** Uniform integer in [0, n) by rejection on the top of the 32-bit range, as Rng.nextInt. */
export function rngNextInt(ctx: usize, n: u32): u32 {
  if (n <= 1) return 0;
  const limit: u64 = <u64>0x100000000 - (<u64>0x100000000 % <u64>n);
  for (;;) {
    const u = rngNextU32(ctx);
    if (<u64>u < limit) return u % n;
  }
  return 0;
}

/** Next piece id from the configured source, or NO_PIECE when the buffer is exhausted. */
export function drawPiece(ctx: usize): i32 {
  if (load<i32>(ctx + O_MODE) == PIECES_FROM_RNG) return <i32>rngNextInt(ctx, PIECE_COUNT);
  const pos = load<i32>(ctx + O_BUFPOS);
  if (pos >= load<i32>(ctx + O_BUFLEN)) return NO_PIECE;
  store<i32>(ctx + O_BUFPOS, pos + 1);
  return <i32>load<u8>(<usize>load<i32>(ctx + O_BUF) + <usize>pos);
}

/** Switches to a piece buffer of `len` ids at `ptr`, or back to the PRNG when len < 0. */
export function setPieceBuffer(ctx: usize, ptr: usize, len: i32): void {
  if (len < 0) {
    store<i32>(ctx + O_MODE, PIECES_FROM_RNG);
    return;
  }
  store<i32>(ctx + O_MODE, PIECES_FROM_BUFFER);
  store<i32>(ctx + O_BUF, <i32>ptr);
  store<i32>(ctx + O_BUFLEN, len);
  store<i32>(ctx + O_BUFPOS, 0);
}
