// Surface-rank iteration kernel (DESIGN §2), product-set formulation.
//
// The index space is split into a high part (leading digits) and a low block of LO = B^K surfaces. For every
// move (piece, orientation, column) the TypeScript side precomputes:
//   - delta: the constant index change the move causes,
//   - hiOk[move * HI + hi]: whether the move can be legal for any surface in block `hi` (a byte),
//   - runs: the maximal runs [start, start+len) of low offsets where it is legal (a product of digit ranges).
// A block is then: for each piece, tmp = max over its moves of prev[surface + delta] on exactly the legal
// surfaces, then next = (sum over pieces) / 7. No legality is tested per surface, blocks stay in cache, and the
// inner loops are contiguous (SIMD when enabled).
export { alloc } from './memory';

// Plan layout: i32 words written by src/rank-plan.ts (keep the two in step).
const PLAN_LO: i32 = 0; //          surfaces per block, B^K
const PLAN_HI: i32 = 1; //          number of blocks
const PLAN_PIECE_END: i32 = 2; //   ptr to i32[7]: end (exclusive) of each piece's moves, moves sorted by piece
const PLAN_DELTA: i32 = 3; //       ptr to i32[moves]
const PLAN_RUN_FIRST: i32 = 4; //   ptr to i32[moves]: index of the move's first run
const PLAN_RUN_COUNT: i32 = 5; //   ptr to i32[moves]
const PLAN_HI_OK: i32 = 6; //       ptr to u8[moves * HI]
const PLAN_RUNS: i32 = 7; //        ptr to i32[2 * runs]: (start, length) pairs
const PLAN_ROLE: i32 = 8; //        ptr to i32[7]: how each piece's maxima are summed (ROLE_*)

// Mirror pairs (S,Z), (L,J) are summed together before joining the total: f32 addition is commutative, so a
// surface and its mirror get bit-identical ranks, and a mirror-folded table loses nothing.
const ROLE_SELF: i32 = 0; //        mirror of itself: acc += tmp
const ROLE_PAIR_FIRST: i32 = 1; //  first of a mirror pair: pair = tmp
const ROLE_PAIR_SECOND: i32 = 2; // second of the pair: acc += pair + tmp

@inline function planWord(plan: usize, field: i32): i32 {
  return load<i32>(plan + ((<usize>field) << 2));
}

@inline function maxInto(dst: usize, src: usize, len: i32): void {
  let i: i32 = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 4 <= len; i += 4) {
      const o = (<usize>i) << 2;
      v128.store(dst + o, f32x4.max(v128.load(dst + o), v128.load(src + o)));
    }
  }
  for (; i < len; i++) {
    const o = (<usize>i) << 2;
    store<f32>(dst + o, max<f32>(load<f32>(dst + o), load<f32>(src + o)));
  }
}

@inline function addInto(dst: usize, src: usize, len: i32): void {
  let i: i32 = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 4 <= len; i += 4) {
      const o = (<usize>i) << 2;
      v128.store(dst + o, f32x4.add(v128.load(dst + o), v128.load(src + o)));
    }
  }
  for (; i < len; i++) {
    const o = (<usize>i) << 2;
    store<f32>(dst + o, load<f32>(dst + o) + load<f32>(src + o));
  }
}

@inline function scaleInto(dst: usize, src: usize, len: i32, factor: f32): void {
  let i: i32 = 0;
  if (ASC_FEATURE_SIMD) {
    const f = f32x4.splat(factor);
    for (; i + 4 <= len; i += 4) {
      const o = (<usize>i) << 2;
      v128.store(dst + o, f32x4.mul(v128.load(src + o), f));
    }
  }
  for (; i < len; i++) {
    const o = (<usize>i) << 2;
    store<f32>(dst + o, load<f32>(src + o) * factor);
  }
}

/**
 * tmp[0..LO) = for each surface of block `hi`, the max of prev over the legal placements of the moves
 * [move, end) (one piece's moves), 0 where none is legal.
 */
@inline function pieceMaxima(plan: usize, prev: usize, hi: i32, move: i32, end: i32, tmp: usize): void {
  const lo = planWord(plan, PLAN_LO);
  const hiCount = planWord(plan, PLAN_HI);
  const deltas = <usize>planWord(plan, PLAN_DELTA);
  const runFirst = <usize>planWord(plan, PLAN_RUN_FIRST);
  const runCount = <usize>planWord(plan, PLAN_RUN_COUNT);
  const hiOk = <usize>planWord(plan, PLAN_HI_OK);
  const runs = <usize>planWord(plan, PLAN_RUNS);
  const base = <usize>hi * <usize>lo;
  memory.fill(tmp, 0, (<usize>lo) << 2);
  for (; move < end; move++) {
    if (load<u8>(hiOk + <usize>move * <usize>hiCount + <usize>hi) == 0) continue;
    const mo = (<usize>move) << 2;
    const src = prev + ((base + <usize>load<i32>(deltas + mo)) << 2);
    let r = <usize>load<i32>(runFirst + mo);
    const rEnd = r + <usize>load<i32>(runCount + mo);
    for (; r < rEnd; r++) {
      const start = <usize>load<i32>(runs + (r << 3));
      const len = load<i32>(runs + (r << 3) + 4);
      maxInto(tmp + (start << 2), src + (start << 2), len);
    }
  }
}

/**
 * One rank iteration over blocks [hiStart, hiEnd): next[s] = (1/7) * sum over pieces of the max of prev over the
 * piece's legal placements at s (0 when it has none). `scratch` holds 3 * LO f32 private to the caller.
 */
export function rankBlocks(plan: usize, prev: usize, next: usize, hiStart: i32, hiEnd: i32, scratch: usize): void {
  const lo = planWord(plan, PLAN_LO);
  const pieceEnd = <usize>planWord(plan, PLAN_PIECE_END);
  const roles = <usize>planWord(plan, PLAN_ROLE);
  const blockBytes = (<usize>lo) << 2;
  const acc = scratch;
  const tmp = scratch + blockBytes;
  const pair = tmp + blockBytes;
  const seventh: f32 = <f32>1.0 / <f32>7.0;

  for (let hi = hiStart; hi < hiEnd; hi++) {
    memory.fill(acc, 0, blockBytes);
    let move: i32 = 0;
    for (let piece = 0; piece < 7; piece++) {
      const end = load<i32>(pieceEnd + ((<usize>piece) << 2));
      pieceMaxima(plan, prev, hi, move, end, tmp);
      move = end;
      const role = load<i32>(roles + ((<usize>piece) << 2));
      if (role == ROLE_PAIR_FIRST) {
        memory.copy(pair, tmp, blockBytes);
      } else if (role == ROLE_PAIR_SECOND) {
        addInto(pair, tmp, lo);
        addInto(acc, pair, lo);
      } else {
        addInto(acc, tmp, lo);
      }
    }
    scaleInto(next + ((<usize>hi * <usize>lo) << 2), acc, lo, seventh);
  }
}

/**
 * Best-placement values per piece (for expectimax leaves): out[s * 8 + p] = max over p's legal placements at s of
 * prev (u16; prev holds whole numbers below 65536, the table's quantised ranks). Slot 7 is left to the caller.
 */
export function pieceMaxBlocks(plan: usize, prev: usize, out: usize, hiStart: i32, hiEnd: i32, scratch: usize): void {
  const lo = planWord(plan, PLAN_LO);
  const pieceEnd = <usize>planWord(plan, PLAN_PIECE_END);
  for (let hi = hiStart; hi < hiEnd; hi++) {
    const base = <usize>hi * <usize>lo;
    let move: i32 = 0;
    for (let piece = 0; piece < 7; piece++) {
      const end = load<i32>(pieceEnd + ((<usize>piece) << 2));
      pieceMaxima(plan, prev, hi, move, end, scratch);
      move = end;
      for (let i: i32 = 0; i < lo; i++) {
        store<u16>(out + ((base + <usize>i) << 4) + ((<usize>piece) << 1), <u16>load<f32>(scratch + ((<usize>i) << 2)));
      }
    }
  }
}

/** Fills n f32 values at ptr with v (the iteration's r0 = 1). */
export function fillF32(ptr: usize, n: i32, v: f32): void {
  for (let i: i32 = 0; i < n; i++) store<f32>(ptr + ((<usize>i) << 2), v);
}
