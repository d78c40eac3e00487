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

import {
  PLAN_BLOCK_LIST,
  PLAN_DELTA,
  PLAN_EDGE,
  PLAN_HI,
  PLAN_HI_OK,
  PLAN_LIST_COUNT,
  PLAN_LIST_OK,
  PLAN_LO,
  PLAN_MIRROR_BLOCK,
  PLAN_MOVES,
  PLAN_PIECE_END,
  PLAN_ROLE,
  PLAN_RUN_COUNT,
  PLAN_RUN_FIRST,
  PLAN_RUNS,
  ROLE_PAIR_FIRST,
  ROLE_PAIR_SECOND,
  SLOTS_PER_PIECE,
} from './rank/layout';
// Every layout constant is also a global of the module, so a test can check a build against the TypeScript side.
export * from './rank/layout';

// Mirror pairs (S,Z), (L,J) are summed together before joining the total (ROLE_*): f32 addition is commutative,
// so a surface and its mirror get bit-identical ranks, and a mirror-folded table loses nothing.

/** Blocks per group in foldU16. */
const FOLD_GROUP: i32 = 16;

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

// ---------------------------------------------------------------------------------------------------------------
// Mirror-folded u16 iteration (the article's table; docs/architecture.md "The rank kernel"). The TypeScript side
// (src/kernels/rank-mirror-plan.ts) reorders the index digits so that a block of LO surfaces and its mirror image are both
// whole blocks: the block digits are (inner left steps, middle step, inner right steps complemented), the low
// digits (edge left steps, edge right steps complemented), and mirroring swaps the two halves of each. Only the
// canonical blocks are computed; each one's values are also written, permuted, to its mirror block. Values are u16
// fixed point: the maxima run on 8 lanes, the seven piece maxima are summed exactly in u32, and the sum is
// rescaled once per surface (round(sum * factor), saturating), so the result does not depend on thread count and a
// surface and its mirror are equal by construction.

/**
 * dst[0..len) = max(dst, src), or with `ones` (every previous value 65535: the first iteration) dst = 65535 without
 * reading src. With SIMD the tail (len % 8 values) is one more 8-lane step whose lanes past the run read src as 0
 * (masked), and max(d, 0) = d leaves those dst lanes as they were: runs average fewer than ten values, so a scalar
 * tail would cost more than the vector body. Reads and writes up to 14 bytes past the run, so the buffers and
 * scratch carry 16 bytes of slack.
 */
@inline function maxIntoU16(dst: usize, src: usize, len: i32, ones: bool): void {
  let i: i32 = 0;
  if (ASC_FEATURE_SIMD) {
    const all = i16x8.splat(-1);
    for (; i + 8 <= len; i += 8) {
      const o = (<usize>i) << 1;
      v128.store(dst + o, ones ? all : i16x8.max_u(v128.load(dst + o), v128.load(src + o)));
    }
    if (i < len) {
      const o = (<usize>i) << 1;
      const keep = i16x8.lt_s(i16x8(0, 1, 2, 3, 4, 5, 6, 7), i16x8.splat(<i16>(len - i)));
      v128.store(
        dst + o,
        ones ? v128.or(v128.load(dst + o), keep) : i16x8.max_u(v128.load(dst + o), v128.and(v128.load(src + o), keep)),
      );
    }
    return;
  }
  for (; i < len; i++) {
    const o = (<usize>i) << 1;
    if (ones) {
      store<u16>(dst + o, 65535);
      continue;
    }
    const a = load<u16>(dst + o);
    const b = load<u16>(src + o);
    store<u16>(dst + o, a > b ? a : b);
  }
}

/** One move's runs r .. rEnd - 1 (start, length pairs at `runs`): dst = max(dst, src) over each run. */
@inline function maxRunsU16(dst: usize, src: usize, runs: usize, r: usize, rEnd: usize, ones: bool): void {
  for (; r < rEnd; r++) {
    const start = <usize>load<i32>(runs + (r << 3));
    maxIntoU16(dst + (start << 1), src + (start << 1), load<i32>(runs + (r << 3) + 4), ones);
  }
}

/**
 * out (u16[len]) = min(65535, round(factor * sum of the seven u16 arrays at tmp, tmp + stride, ...)): the sum is
 * exact in u32 and converted to f32 exactly (at most 7 * 65535 < 2^24). Returns the largest sum.
 */
@inline function sumScaleU16(out: usize, tmp: usize, stride: usize, len: i32, factor: f32): i32 {
  let i: i32 = 0;
  let best: i32 = 0;
  if (ASC_FEATURE_SIMD) {
    const f = f32x4.splat(factor);
    const magic = f32x4.splat(8388608.0);
    const magicBits = i32x4.splat(0x4b000000);
    let m = i32x4.splat(0);
    for (; i + 8 <= len; i += 8) {
      const p = tmp + ((<usize>i) << 1);
      const t0 = v128.load(p);
      const t1 = v128.load(p + stride);
      const t2 = v128.load(p + 2 * stride);
      const t3 = v128.load(p + 3 * stride);
      const t4 = v128.load(p + 4 * stride);
      const t5 = v128.load(p + 5 * stride);
      const t6 = v128.load(p + 6 * stride);
      let lo = i32x4.add(
        i32x4.add(i32x4.add(i32x4.extend_low_i16x8_u(t0), i32x4.extend_low_i16x8_u(t1)), i32x4.add(i32x4.extend_low_i16x8_u(t2), i32x4.extend_low_i16x8_u(t3))),
        i32x4.add(i32x4.add(i32x4.extend_low_i16x8_u(t4), i32x4.extend_low_i16x8_u(t5)), i32x4.extend_low_i16x8_u(t6)),
      );
      let hi = i32x4.add(
        i32x4.add(i32x4.add(i32x4.extend_high_i16x8_u(t0), i32x4.extend_high_i16x8_u(t1)), i32x4.add(i32x4.extend_high_i16x8_u(t2), i32x4.extend_high_i16x8_u(t3))),
        i32x4.add(i32x4.add(i32x4.extend_high_i16x8_u(t4), i32x4.extend_high_i16x8_u(t5)), i32x4.extend_high_i16x8_u(t6)),
      );
      m = i32x4.max_u(m, i32x4.max_u(lo, hi));
      // Rounded to the nearest integer (ties to even, as nearest) by adding 2^23: the sum lands in the low bits
      // of the f32's mantissa. Sums stay below 2^24, so the signed conversion (one instruction on x64; the
      // unsigned one is emulated) is exact, and scaled values stay far below 2^23. The narrowing saturates.
      lo = i32x4.sub(f32x4.add(f32x4.mul(f32x4.convert_i32x4_s(lo), f), magic), magicBits);
      hi = i32x4.sub(f32x4.add(f32x4.mul(f32x4.convert_i32x4_s(hi), f), magic), magicBits);
      v128.store(out + ((<usize>i) << 1), i16x8.narrow_i32x4_u(lo, hi));
    }
    best = max<i32>(max<i32>(i32x4.extract_lane(m, 0), i32x4.extract_lane(m, 1)), max<i32>(i32x4.extract_lane(m, 2), i32x4.extract_lane(m, 3)));
  }
  for (; i < len; i++) {
    let p = tmp + ((<usize>i) << 1);
    let sum: u32 = 0;
    for (let k = 0; k < 7; k++) {
      sum += <u32>load<u16>(p);
      p += stride;
    }
    const q: f32 = nearest<f32>(<f32>sum * factor);
    store<u16>(out + ((<usize>i) << 1), <u16>(q >= <f32>65535 ? 65535 : <i32>q));
    if (<i32>sum > best) best = <i32>sum;
  }
  return best;
}

/**
 * One 8x8 tile of u16: the rows r0..r7 (rows c..c+7 of the source, 8 columns) transposed, row j at dst + j * rowBytes
 * (stored, or with `merge` max-merged into what is there). Unpack shuffles, three rounds of eight.
 */
@inline function storeTransposed(
  r0: v128, r1: v128, r2: v128, r3: v128, r4: v128, r5: v128, r6: v128, r7: v128,
  dst: usize, rowBytes: usize, merge: bool,
): void {
  const t0 = i16x8.shuffle(r0, r1, 0, 8, 1, 9, 2, 10, 3, 11);
  const t1 = i16x8.shuffle(r0, r1, 4, 12, 5, 13, 6, 14, 7, 15);
  const t2 = i16x8.shuffle(r2, r3, 0, 8, 1, 9, 2, 10, 3, 11);
  const t3 = i16x8.shuffle(r2, r3, 4, 12, 5, 13, 6, 14, 7, 15);
  const t4 = i16x8.shuffle(r4, r5, 0, 8, 1, 9, 2, 10, 3, 11);
  const t5 = i16x8.shuffle(r4, r5, 4, 12, 5, 13, 6, 14, 7, 15);
  const t6 = i16x8.shuffle(r6, r7, 0, 8, 1, 9, 2, 10, 3, 11);
  const t7 = i16x8.shuffle(r6, r7, 4, 12, 5, 13, 6, 14, 7, 15);
  const u0 = i32x4.shuffle(t0, t2, 0, 4, 1, 5);
  const u1 = i32x4.shuffle(t0, t2, 2, 6, 3, 7);
  const u2 = i32x4.shuffle(t1, t3, 0, 4, 1, 5);
  const u3 = i32x4.shuffle(t1, t3, 2, 6, 3, 7);
  const u4 = i32x4.shuffle(t4, t6, 0, 4, 1, 5);
  const u5 = i32x4.shuffle(t4, t6, 2, 6, 3, 7);
  const u6 = i32x4.shuffle(t5, t7, 0, 4, 1, 5);
  const u7 = i32x4.shuffle(t5, t7, 2, 6, 3, 7);
  const d1 = dst + rowBytes;
  const d2 = d1 + rowBytes;
  const d3 = d2 + rowBytes;
  const d4 = d3 + rowBytes;
  const d5 = d4 + rowBytes;
  const d6 = d5 + rowBytes;
  const d7 = d6 + rowBytes;
  putRow(dst, i64x2.shuffle(u0, u4, 0, 2), merge);
  putRow(d1, i64x2.shuffle(u0, u4, 1, 3), merge);
  putRow(d2, i64x2.shuffle(u1, u5, 0, 2), merge);
  putRow(d3, i64x2.shuffle(u1, u5, 1, 3), merge);
  putRow(d4, i64x2.shuffle(u2, u6, 0, 2), merge);
  putRow(d5, i64x2.shuffle(u2, u6, 1, 3), merge);
  putRow(d6, i64x2.shuffle(u3, u7, 0, 2), merge);
  putRow(d7, i64x2.shuffle(u3, u7, 1, 3), merge);
}

@inline function putRow(dst: usize, v: v128, merge: bool): void {
  v128.store(dst, merge ? i16x8.max_u(v128.load(dst), v) : v);
}

/**
 * The 8-row band of src starting at row c (rows c..c+7, every column), transposed into columns c..c+7 of dst.
 * Columns are taken in tiles at 0, 8, 16, ... and a last one at edge - 8 that may overlap the one before: storing
 * the same value twice, or max-merging it twice, changes nothing (edge >= 8).
 */
@inline function transposeBand(dst: usize, src: usize, edge: i32, c: i32, merge: bool): void {
  const rowBytes = (<usize>edge) << 1;
  const s0 = src + <usize>c * rowBytes;
  const s1 = s0 + rowBytes;
  const s2 = s1 + rowBytes;
  const s3 = s2 + rowBytes;
  const s4 = s3 + rowBytes;
  const s5 = s4 + rowBytes;
  const s6 = s5 + rowBytes;
  const s7 = s6 + rowBytes;
  const to = dst + ((<usize>c) << 1);
  const last = edge - 8;
  let r: i32 = 0;
  while (true) {
    const o = (<usize>r) << 1;
    storeTransposed(
      v128.load(s0 + o), v128.load(s1 + o), v128.load(s2 + o), v128.load(s3 + o),
      v128.load(s4 + o), v128.load(s5 + o), v128.load(s6 + o), v128.load(s7 + o),
      to + <usize>r * rowBytes, rowBytes, merge,
    );
    if (r == last) break;
    r = min<i32>(r + 8, last);
  }
}

/**
 * dst (edge x edge u16) = max(dst, transpose of src) where only src rows [rowFirst, rowEnd) may be non-zero (the
 * others would leave dst as it is); those rows of src are zeroed afterwards, so the scratch is ready for the next
 * piece without a fill of its own. With SIMD in 8-row bands of 8x8 tiles (transposeBand).
 */
@inline function transposeMergeU16(dst: usize, src: usize, edge: i32, rowFirst: i32, rowEnd: i32): void {
  const rowBytes = (<usize>edge) << 1;
  if (ASC_FEATURE_SIMD && edge >= 8) {
    const last = edge - 8;
    let c = min<i32>(rowFirst & ~7, last);
    while (true) {
      transposeBand(dst, src, edge, c, true);
      if (c + 8 >= rowEnd) break;
      c = min<i32>(c + 8, last);
    }
  } else {
    for (let v: i32 = rowFirst; v < rowEnd; v++) {
      const from = src + <usize>v * rowBytes;
      for (let u: i32 = 0; u < edge; u++) {
        const x = load<u16>(from + ((<usize>u) << 1));
        const o = dst + <usize>u * rowBytes + ((<usize>v) << 1);
        const d = load<u16>(o);
        store<u16>(o, d > x ? d : x);
      }
    }
  }
  memory.fill(src + <usize>rowFirst * rowBytes, 0, <usize>(rowEnd - rowFirst) * rowBytes);
}

/** dst (edge x edge u16) = transpose of src: dst[u][v] = src[v][u]. With SIMD in 8-row bands of 8x8 tiles. */
@inline function transposeStoreU16(dst: usize, src: usize, edge: i32): void {
  const rowBytes = (<usize>edge) << 1;
  if (ASC_FEATURE_SIMD && edge >= 8) {
    const last = edge - 8;
    let c: i32 = 0;
    while (true) {
      transposeBand(dst, src, edge, c, false);
      if (c == last) break;
      c = min<i32>(c + 8, last);
    }
    return;
  }
  for (let v: i32 = 0; v < edge; v++) {
    const from = src + <usize>v * rowBytes;
    for (let u: i32 = 0; u < edge; u++) store<u16>(dst + <usize>u * rowBytes + ((<usize>v) << 1), load<u16>(from + ((<usize>u) << 1)));
  }
}

/** tmp = max over the moves [move, end) of prev, on block `hi` (its low offsets), where `ok` says a move may be legal. */
@inline function applyMoves(
  plan: usize, prev: usize, hi: i32, move: i32, end: i32, ok: usize, tmp: usize, ones: bool, lo: i32,
): void {
  const deltas = <usize>planWord(plan, PLAN_DELTA);
  const runFirst = <usize>planWord(plan, PLAN_RUN_FIRST);
  const runCount = <usize>planWord(plan, PLAN_RUN_COUNT);
  const runs = <usize>planWord(plan, PLAN_RUNS);
  const base = <usize>hi * <usize>lo;
  for (; move < end; move++) {
    if (load<u8>(ok + <usize>move) == 0) continue;
    const mo = (<usize>move) << 2;
    const src = prev + ((base + <usize>load<i32>(deltas + mo)) << 1);
    const r = <usize>load<i32>(runFirst + mo);
    maxRunsU16(tmp, src, runs, r, r + <usize>load<i32>(runCount + mo), ones);
  }
}

/**
 * One u16 iteration over listed canonical blocks: next[s] = round(factor * sum over pieces of the max of prev over
 * the piece's legal placements at s), written to the block and, transposed, to its mirror block.
 *
 * A piece's moves are in two slots (SLOTS_PER_PIECE). Slot 2p: the moves whose legality does not depend on the
 * block's right edge steps (V, the least significant digits), applied to the block: their runs span whole rows of
 * E values or more. Slot 2p + 1: the mirror images of p's other moves. Applied to the block directly they would be
 * runs of one to eight values repeated in every row; but prev is mirror-symmetric, so a right-edge move at offset
 * (U, V) of block b reads what its mirror image reads at (V, U) of the mirror block, in whole rows. Those are
 * computed on the mirror block and merged in transposed (8x8 SIMD tiles).
 *
 * Threads take chunks of `chunk` listed blocks from the shared counter at `counter` (an atomic add), while it is
 * below `limit`: a thread that is slowed down takes fewer blocks, and every block is computed by the same
 * instructions whichever thread takes it. `scratch` holds U16_SCRATCH_ARRAYS * LO u16 (+ slack) private to the
 * caller. The largest sum (before scaling) of the calling thread's blocks so far is kept at `bestPtr` and returned,
 * so the caller can tell whether any value saturated and pick the next factor.
 */
export function rankBlocksU16(
  plan: usize, prev: usize, next: usize, counter: usize, chunk: i32, limit: i32, scratch: usize, factor: f32, bestPtr: usize,
): i32 {
  const lo = planWord(plan, PLAN_LO);
  const edge = planWord(plan, PLAN_EDGE);
  // The blocks of S = 4 tables 6 to 10 wide: with the block size a constant, every row and array offset is one too.
  if (lo == 6561 && edge == 81) return rankBlocksU16Body(plan, prev, next, counter, chunk, limit, scratch, factor, bestPtr, false, 6561, 81);
  return rankBlocksU16Body(plan, prev, next, counter, chunk, limit, scratch, factor, bestPtr, false, lo, edge);
}

/**
 * rankBlocksU16 where every previous value is 65535 (the iteration's r0 = 1), without reading any: the first
 * iteration needs no filled buffer, so neither buffer is touched before the iterations start (their fresh pages
 * are then first touched by the threads' writes, in parallel). `prev` is not read.
 */
export function rankBlocksU16Ones(
  plan: usize, prev: usize, next: usize, counter: usize, chunk: i32, limit: i32, scratch: usize, factor: f32, bestPtr: usize,
): i32 {
  const lo = planWord(plan, PLAN_LO);
  const edge = planWord(plan, PLAN_EDGE);
  if (lo == 6561 && edge == 81) return rankBlocksU16Body(plan, prev, next, counter, chunk, limit, scratch, factor, bestPtr, true, 6561, 81);
  return rankBlocksU16Body(plan, prev, next, counter, chunk, limit, scratch, factor, bestPtr, true, lo, edge);
}

@inline function rankBlocksU16Body(
  plan: usize, prev: usize, next: usize, counter: usize, chunk: i32, limit: i32, scratch: usize, factor: f32, bestPtr: usize,
  ones: bool, lo: i32, edge: i32,
): i32 {
  const pieceEnd = <usize>planWord(plan, PLAN_PIECE_END);
  const blockList = <usize>planWord(plan, PLAN_BLOCK_LIST);
  const mirrorBlock = <usize>planWord(plan, PLAN_MIRROR_BLOCK);
  const count = planWord(plan, PLAN_LIST_COUNT);
  const moves = <usize>planWord(plan, PLAN_MOVES);
  const listOk = <usize>planWord(plan, PLAN_LIST_OK);
  const stride = (<usize>lo) << 1;
  const mirrored = scratch + stride * 7;
  const deltas = <usize>planWord(plan, PLAN_DELTA);
  const runFirst = <usize>planWord(plan, PLAN_RUN_FIRST);
  const runCount = <usize>planWord(plan, PLAN_RUN_COUNT);
  const runs = <usize>planWord(plan, PLAN_RUNS);
  // The mirrored part starts zeroed; each transposed merge zeroes the rows it read.
  memory.fill(mirrored, 0, stride);
  let best: i32 = 0;
  while (true) {
    const first = atomic.load<i32>(counter);
    if (first >= limit || first >= count) break;
    if (atomic.cmpxchg<i32>(counter, first, first + chunk) != first) continue;
    const end = min<i32>(count, first + chunk);
    for (let idx = first; idx < end; idx++) {
      const hi = load<i32>(blockList + ((<usize>idx) << 2));
      const mirror = load<i32>(mirrorBlock + ((<usize>idx) << 2));
      const ok = listOk + <usize>idx * moves;
      memory.fill(scratch, 0, stride * 7);
      let move: i32 = 0;
      for (let piece = 0; piece < 7; piece++) {
        const tmp = scratch + stride * <usize>piece;
        const direct = load<i32>(pieceEnd + ((<usize>(piece * SLOTS_PER_PIECE)) << 2));
        applyMoves(plan, prev, hi, move, direct, ok, tmp, ones, lo);
        const pEnd = load<i32>(pieceEnd + ((<usize>(piece * SLOTS_PER_PIECE + 1)) << 2));
        // The mirrored moves, on the mirror block; their runs are whole rows, and only the rows they touch
        // (from the lowest run start to the highest run end) need the transposed merge.
        let touchedFirst: usize = <usize>lo;
        let touchedEnd: usize = 0;
        const mirrorBase = <usize>mirror * <usize>lo;
        for (let mv = direct; mv < pEnd; mv++) {
          if (load<u8>(ok + <usize>mv) == 0) continue;
          const mo = (<usize>mv) << 2;
          const r = <usize>load<i32>(runFirst + mo);
          const rEnd = r + <usize>load<i32>(runCount + mo);
          // A move's runs are in increasing order.
          touchedFirst = min<usize>(touchedFirst, <usize>load<i32>(runs + (r << 3)));
          const lastRun = runs + ((rEnd - 1) << 3);
          touchedEnd = max<usize>(touchedEnd, <usize>load<i32>(lastRun) + <usize>load<i32>(lastRun + 4));
          maxRunsU16(mirrored, prev + ((mirrorBase + <usize>load<i32>(deltas + mo)) << 1), runs, r, rEnd, ones);
        }
        if (touchedEnd > 0) {
          const e = <usize>edge;
          transposeMergeU16(tmp, mirrored, edge, <i32>(touchedFirst / e), <i32>((touchedEnd + e - 1) / e));
        }
        move = pEnd;
      }
      const out = next + ((<usize>hi * <usize>lo) << 1);
      const m = sumScaleU16(out, scratch, stride, lo, factor);
      if (m > best) best = m;
      // The mirror block's offset (U, V) is the block's (V, U).
      if (mirror != hi) transposeStoreU16(next + ((<usize>mirror * <usize>lo) << 1), out, edge);
    }
  }
  best = max<i32>(best, load<i32>(bestPtr));
  store<i32>(bestPtr, best);
  return best;
}

// Folded output: the table file's layout (src/rank/fold.ts) keeps a surface at slot (b(b+1)/2 + a) * C + c, with a
// the leading half of the standard digits, b the trailing half reversed and complemented, c the middle digit. In the
// build's order (src/kernels/rank-mirror-plan.ts) a surface is block (X, c, Y) = (X * C + c) * M + Y, offset U * E + V, and
// a = U * M + X, b = V * M + Y (M = inner half size, E = edge half size).

/**
 * Writes every surface of the full buffer `src` whose fold representative it is to its folded slot in `out`, for
 * the tiles [first, end) of (c, Y) pairs (tile t = c * M + Y). For one offset (U, V) the tile's surfaces over X
 * fill one run of consecutive a in one folded row, and their reads come from the tile's M blocks, one cache line
 * each, reused for the following offsets. The slots no surface maps to (a = b, c > C-1-c) get 0.
 */
export function foldU16(src: usize, out: usize, lo: i32, middle: i32, inner: i32, edge: i32, first: i32, end: i32): void {
  const xStride = (<usize>middle * <usize>inner * <usize>lo) << 1;
  for (let t = first; t < end; t++) {
    const c = t / inner;
    const y = t % inner;
    const cm = middle - 1 - c;
    const tileBase = src + ((<usize>t * <usize>lo) << 1);
    // X in groups of FOLD_GROUP blocks: each read of the innermost loop is in another block (pages apart), and a
    // group's blocks stay within the address translation cache; the tile's output (about 0.5 MB) stays in cache
    // between groups.
    for (let x0: i32 = 0; x0 < inner; x0 += FOLD_GROUP) {
      const x1 = min<i32>(inner, x0 + FOLD_GROUP);
      for (let u: i32 = 0; u < edge; u++) {
        const a0 = u * inner;
        for (let v: i32 = 0; v < edge; v++) {
          const b = v * inner + y;
          if (a0 + x0 > b) continue;
          const row = (b * (b + 1)) / 2;
          const n = min<i32>(x1, b - a0 + 1);
          const from = tileBase + ((<usize>(u * edge + v)) << 1);
          for (let x: i32 = x0; x < n; x++) {
            store<u16>(out + ((<usize>((row + a0 + x) * middle + c)) << 1), load<u16>(from + <usize>x * xStride));
          }
          // a = b with c past the middle: that slot belongs to no surface (its mirror image sits at C-1-c).
          if (a0 + n - 1 == b && c > cm) store<u16>(out + ((<usize>((row + b) * middle + c)) << 1), 0);
        }
      }
    }
  }
}

/**
 * Best-placement values per piece over u16 values (prev: one u16 per surface, 16 bytes of slack after it; scratch: 2 * LO + 16
 * bytes): out[s * 8 + p] = max over p's legal placements at s of prev (0 when none). Slot 7 is left to the caller.
 * (src/rank/piece-max.ts: the expectimax leaf rows.)
 */
export function pieceMaxBlocksU16(plan: usize, prev: usize, out: usize, hiStart: i32, hiEnd: i32, scratch: usize): void {
  const lo = planWord(plan, PLAN_LO);
  const hiCount = <usize>planWord(plan, PLAN_HI);
  const pieceEnd = <usize>planWord(plan, PLAN_PIECE_END);
  const deltas = <usize>planWord(plan, PLAN_DELTA);
  const runFirst = <usize>planWord(plan, PLAN_RUN_FIRST);
  const runCount = <usize>planWord(plan, PLAN_RUN_COUNT);
  const hiOk = <usize>planWord(plan, PLAN_HI_OK);
  const runs = <usize>planWord(plan, PLAN_RUNS);
  for (let hi = hiStart; hi < hiEnd; hi++) {
    const base = <usize>hi * <usize>lo;
    let move: i32 = 0;
    for (let piece = 0; piece < 7; piece++) {
      const pEnd = load<i32>(pieceEnd + ((<usize>piece) << 2));
      memory.fill(scratch, 0, (<usize>lo) << 1);
      for (; move < pEnd; move++) {
        if (load<u8>(hiOk + <usize>move * hiCount + <usize>hi) == 0) continue;
        const mo = (<usize>move) << 2;
        const src = prev + ((base + <usize>load<i32>(deltas + mo)) << 1);
        const r = <usize>load<i32>(runFirst + mo);
        maxRunsU16(scratch, src, runs, r, r + <usize>load<i32>(runCount + mo), false);
      }
      const slot = out + (base << 4) + ((<usize>piece) << 1);
      for (let i: i32 = 0; i < lo; i++) store<u16>(slot + ((<usize>i) << 4), load<u16>(scratch + ((<usize>i) << 1)));
    }
  }
}
