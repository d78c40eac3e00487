// Surface-rank iteration kernel (docs/rules.md, "The rank iteration"), product-set formulation.
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

// ---------------------------------------------------------------------------------------------------------------
// Preview variant: the state is (surface s, piece n in hand), with a piece-transition matrix P(p | n):
//   v_{k+1}(s, n) = max over n's legal placements c on s of u_k(c, n),   u_k(c, n) = sum_p P(p | n) v_k(c, p).
// Values live in seven planes of one f32 per surface (plane n = piece n), addressed through a table of seven plane
// pointers so the TypeScript side can rotate planes instead of copying them. One iteration is previewMix (v -> u
// in place, every surface) followed, per piece, by previewBlocks (plane n of u -> a free plane, max over n's moves).

/**
 * The mixture row n of `matrix` (f32[49], row-major M[n * 7 + p]) applied to v0..v6, summed in a fixed grouping
 * ((I + O) + T) + ((S + Z) + (L + J)): with a mirror-symmetric matrix, (mirror s, mirror n) adds the same products
 * with S/Z and L/J swapped inside their pairs, and f32 addition is commutative, so mirror images stay bit-identical.
 */
@inline function mixScalar(matrix: usize, n: i32, v0: f32, v1: f32, v2: f32, v3: f32, v4: f32, v5: f32, v6: f32): f32 {
  const m = matrix + ((<usize>n * 7) << 2);
  const iot = (load<f32>(m) * v0 + load<f32>(m, 4) * v1) + load<f32>(m, 8) * v2;
  const sz = load<f32>(m, 12) * v3 + load<f32>(m, 16) * v4;
  const lj = load<f32>(m, 20) * v5 + load<f32>(m, 24) * v6;
  return iot + (sz + lj);
}

@inline function mixSimd(matrix: usize, n: i32, v0: v128, v1: v128, v2: v128, v3: v128, v4: v128, v5: v128, v6: v128): v128 {
  const m = matrix + ((<usize>n * 7) << 2);
  const iot = f32x4.add(
    f32x4.add(f32x4.mul(f32x4.splat(load<f32>(m)), v0), f32x4.mul(f32x4.splat(load<f32>(m, 4)), v1)),
    f32x4.mul(f32x4.splat(load<f32>(m, 8)), v2),
  );
  const sz = f32x4.add(f32x4.mul(f32x4.splat(load<f32>(m, 12)), v3), f32x4.mul(f32x4.splat(load<f32>(m, 16)), v4));
  const lj = f32x4.add(f32x4.mul(f32x4.splat(load<f32>(m, 20)), v5), f32x4.mul(f32x4.splat(load<f32>(m, 24)), v6));
  return f32x4.add(iot, f32x4.add(sz, lj));
}

@inline function planePtr(planes: usize, n: i32): usize {
  return <usize>load<i32>(planes + ((<usize>n) << 2));
}

/** u(s, n) = sum_p M[n][p] v(s, p) for surfaces [start, end), in place over the seven planes. */
export function previewMix(planes: usize, matrix: usize, start: i32, end: i32): void {
  const p0 = planePtr(planes, 0);
  const p1 = planePtr(planes, 1);
  const p2 = planePtr(planes, 2);
  const p3 = planePtr(planes, 3);
  const p4 = planePtr(planes, 4);
  const p5 = planePtr(planes, 5);
  const p6 = planePtr(planes, 6);
  let i: i32 = start;
  if (ASC_FEATURE_SIMD) {
    for (; i + 4 <= end; i += 4) {
      const o = (<usize>i) << 2;
      const v0 = v128.load(p0 + o);
      const v1 = v128.load(p1 + o);
      const v2 = v128.load(p2 + o);
      const v3 = v128.load(p3 + o);
      const v4 = v128.load(p4 + o);
      const v5 = v128.load(p5 + o);
      const v6 = v128.load(p6 + o);
      v128.store(p0 + o, mixSimd(matrix, 0, v0, v1, v2, v3, v4, v5, v6));
      v128.store(p1 + o, mixSimd(matrix, 1, v0, v1, v2, v3, v4, v5, v6));
      v128.store(p2 + o, mixSimd(matrix, 2, v0, v1, v2, v3, v4, v5, v6));
      v128.store(p3 + o, mixSimd(matrix, 3, v0, v1, v2, v3, v4, v5, v6));
      v128.store(p4 + o, mixSimd(matrix, 4, v0, v1, v2, v3, v4, v5, v6));
      v128.store(p5 + o, mixSimd(matrix, 5, v0, v1, v2, v3, v4, v5, v6));
      v128.store(p6 + o, mixSimd(matrix, 6, v0, v1, v2, v3, v4, v5, v6));
    }
  }
  for (; i < end; i++) {
    const o = (<usize>i) << 2;
    const v0 = load<f32>(p0 + o);
    const v1 = load<f32>(p1 + o);
    const v2 = load<f32>(p2 + o);
    const v3 = load<f32>(p3 + o);
    const v4 = load<f32>(p4 + o);
    const v5 = load<f32>(p5 + o);
    const v6 = load<f32>(p6 + o);
    store<f32>(p0 + o, mixScalar(matrix, 0, v0, v1, v2, v3, v4, v5, v6));
    store<f32>(p1 + o, mixScalar(matrix, 1, v0, v1, v2, v3, v4, v5, v6));
    store<f32>(p2 + o, mixScalar(matrix, 2, v0, v1, v2, v3, v4, v5, v6));
    store<f32>(p3 + o, mixScalar(matrix, 3, v0, v1, v2, v3, v4, v5, v6));
    store<f32>(p4 + o, mixScalar(matrix, 4, v0, v1, v2, v3, v4, v5, v6));
    store<f32>(p5 + o, mixScalar(matrix, 5, v0, v1, v2, v3, v4, v5, v6));
    store<f32>(p6 + o, mixScalar(matrix, 6, v0, v1, v2, v3, v4, v5, v6));
  }
}

/** dst[s] = max of src over `piece`'s legal placements at s (0 where it has none), for the blocks [hiStart, hiEnd). */
export function previewBlocks(plan: usize, src: usize, dst: usize, piece: i32, hiStart: i32, hiEnd: i32): void {
  const lo = planWord(plan, PLAN_LO);
  const pieceEnd = <usize>planWord(plan, PLAN_PIECE_END);
  const first = piece == 0 ? 0 : load<i32>(pieceEnd + ((<usize>(piece - 1)) << 2));
  const end = load<i32>(pieceEnd + ((<usize>piece) << 2));
  for (let hi = hiStart; hi < hiEnd; hi++) {
    pieceMaxima(plan, src, hi, first, end, dst + ((<usize>hi * <usize>lo) << 2));
  }
}

/** The largest of the eight values stored for surfaces [start, end): planes 0..7 of the plane table. */
export function previewMax(planes: usize, start: i32, end: i32): f32 {
  let best: f32 = 0;
  for (let n: i32 = 0; n < 8; n++) {
    const p = planePtr(planes, n);
    for (let i: i32 = start; i < end; i++) best = max<f32>(best, load<f32>(p + ((<usize>i) << 2)));
  }
  return best;
}

@inline function quantise(v: f32, scale: f64): u16 {
  // Math.round(v / scale) for v >= 0, as the article table's quantiser does, clamped to u16.
  const q = Math.floor(<f64>v / scale + 0.5);
  return <u16>(q < 65535.0 ? q : 65535.0);
}

/**
 * The 8-slot rows of surfaces [start, end) into out (16 bytes per surface, surface `start` at out): slot k = plane
 * k of the plane table (0..6: v(s, n); 7: the after-Tetris plane), each quantised as round(value / scale).
 */
export function previewRows(planes: usize, out: usize, start: i32, end: i32, scale: f64): void {
  for (let n: i32 = 0; n < 8; n++) {
    const p = planePtr(planes, n);
    const slot = out + ((<usize>n) << 1);
    for (let i: i32 = start; i < end; i++) {
      store<u16>(slot + ((<usize>(i - start)) << 4), quantise(load<f32>(p + ((<usize>i) << 2)), scale));
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Weighted variant: r_{k+1}(s) = sum_p w_p max over p's legal placements of r_k, with weights f32[7]
// that are equal within the mirror pairs (S, Z) and (L, J): a pair is summed first and weighted once, so mirror
// images stay bit-identical as in rankBlocks.

@inline function addScaledInto(dst: usize, src: usize, len: i32, factor: f32): void {
  let i: i32 = 0;
  if (ASC_FEATURE_SIMD) {
    const f = f32x4.splat(factor);
    for (; i + 4 <= len; i += 4) {
      const o = (<usize>i) << 2;
      v128.store(dst + o, f32x4.add(v128.load(dst + o), f32x4.mul(v128.load(src + o), f)));
    }
  }
  for (; i < len; i++) {
    const o = (<usize>i) << 2;
    store<f32>(dst + o, load<f32>(dst + o) + load<f32>(src + o) * factor);
  }
}

/** rankBlocks with per-piece weights (f32[7] at `weights`) instead of 1/7 each. */
export function rankBlocksWeighted(plan: usize, prev: usize, next: usize, hiStart: i32, hiEnd: i32, scratch: usize, weights: usize): void {
  const lo = planWord(plan, PLAN_LO);
  const pieceEnd = <usize>planWord(plan, PLAN_PIECE_END);
  const roles = <usize>planWord(plan, PLAN_ROLE);
  const blockBytes = (<usize>lo) << 2;
  const tmp = scratch + blockBytes;
  const pair = tmp + blockBytes;
  for (let hi = hiStart; hi < hiEnd; hi++) {
    const acc = next + ((<usize>hi * <usize>lo) << 2);
    memory.fill(acc, 0, blockBytes);
    let move: i32 = 0;
    for (let piece = 0; piece < 7; piece++) {
      const end = load<i32>(pieceEnd + ((<usize>piece) << 2));
      pieceMaxima(plan, prev, hi, move, end, tmp);
      move = end;
      const role = load<i32>(roles + ((<usize>piece) << 2));
      const w = load<f32>(weights + ((<usize>piece) << 2));
      if (role == ROLE_PAIR_FIRST) {
        memory.copy(pair, tmp, blockBytes);
      } else if (role == ROLE_PAIR_SECOND) {
        addInto(pair, tmp, lo);
        addScaledInto(acc, pair, lo, w);
      } else {
        addScaledInto(acc, tmp, lo, w);
      }
    }
  }
}
