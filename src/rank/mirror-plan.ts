/**
 * The digit order of the mirror-folded u16 build (assembly/rank.ts, rankBlocksU16), and its plan.
 *
 * Mirroring a surface maps step i to step D-1-i, complemented (d -> B-1-d), and the middle step (odd D) to its
 * own complement. The build reorders the D index digits so that mirroring maps whole blocks to whole blocks:
 *
 *   block digits: inner left steps x = (k, ..., h-1), the middle step (odd D), inner right steps y = (D-1-k, ..., D-h)
 *   low digits:   edge left steps u = (0, ..., k-1), edge right steps v = (D-1, ..., D-k)
 *
 * with every right-half step stored complemented. Then mirroring swaps x with y (and complements the middle) in the
 * block index and u with v in the low offset: block (X, c, Y) -> (Y, B-1-c, X), offset (U, V) -> (V, U). Only the
 * canonical blocks (X < Y, or X = Y and c <= B-1-c) are computed, about half; each also writes its mirror block.
 * A move is still a product of digit ranges with a constant index change in this order (a digit permutation with
 * complements keeps both), so the run structure of src/rank/plan.ts carries over unchanged. The edge steps are the
 * least significant digits, so moves in the middle of the board are whole-block runs.
 *
 * The halves are ordered so that the table file's fold coordinates (src/rank/fold.ts: a = leading half of the
 * standard digits, b = trailing half reversed and complemented) read straight off the build index:
 * a = U * B^(h-k) + X and b = V * B^(h-k) + Y (assembly/rank.ts foldU16).
 */
import type { RankMove } from './moves.js';
import { makeRankPlan, type RankPlanArrays } from './plan.js';

/** Low offsets per block stay at most this many (a block's scratch, 6 bytes per offset, stays inside L2). */
const MAX_BLOCK = 16384;

export interface MirrorOrder {
  base: number;
  /** New digit j (most significant first) holds old step positions[j]. */
  positions: number[];
  /** Whether new digit j is stored complemented. */
  complemented: boolean[];
  /** Edge step pairs in the low digits (k) and the low offsets per block, (B^k)^2. */
  edgePairs: number;
  lo: number;
  hi: number;
  /** B^(h-k): size of each inner half of the block index. */
  innerHalf: number;
  /** B when D is odd (the middle step is a block digit), else 1. */
  middle: number;
}

export function mirrorOrder(width: number, maxStep: number): MirrorOrder {
  const base = 2 * maxStep + 1;
  const digits = width - 1;
  const half = Math.floor(digits / 2);
  const odd = digits % 2 === 1;
  let edgePairs = 0;
  while (edgePairs < half && base ** (2 * (edgePairs + 1)) <= MAX_BLOCK) edgePairs++;
  const positions: number[] = [];
  const complemented: boolean[] = [];
  const push = (p: number, c: boolean) => (positions.push(p), complemented.push(c));
  for (let p = edgePairs; p < half; p++) push(p, false);
  if (odd) push(half, false);
  for (let p = digits - 1 - edgePairs; p >= digits - half; p--) push(p, true);
  for (let p = 0; p < edgePairs; p++) push(p, false);
  for (let p = digits - 1; p >= digits - edgePairs; p--) push(p, true);
  const lo = base ** (2 * edgePairs);
  const middle = odd ? base : 1;
  const innerHalf = base ** (half - edgePairs);
  return { base, positions, complemented, edgePairs, lo, hi: innerHalf * middle * innerHalf, innerHalf, middle };
}

/** A rank move re-expressed in the build's digit order (same legal surfaces, same successors). */
export function reorderMove(m: RankMove, order: MirrorOrder): RankMove {
  const { base, positions, complemented } = order;
  const digits = positions.length;
  // The move's digit changes, from one legal surface (its lowest corner) and its successor.
  let before = 0;
  for (let i = 0; i < digits; i++) before = before * base + m.lo[i];
  let after = before + m.delta;
  const afterDigits = new Array<number>(digits);
  for (let i = digits - 1; i >= 0; i--) {
    afterDigits[i] = after % base;
    after = Math.floor(after / base);
  }
  const lo: number[] = [];
  const hi: number[] = [];
  let delta = 0;
  positions.forEach((p, j) => {
    const change = afterDigits[p] - m.lo[p];
    if (complemented[j]) {
      lo.push(base - 1 - m.hi[p]);
      hi.push(base - 1 - m.lo[p]);
    } else {
      lo.push(m.lo[p]);
      hi.push(m.hi[p]);
    }
    delta += (complemented[j] ? -change : change) * base ** (digits - 1 - j);
  });
  return { ...m, lo, hi, delta };
}

export interface MirrorPlan extends RankPlanArrays {
  order: MirrorOrder;
  /** Canonical blocks, and the mirror block of each (itself when the block is its own mirror image). */
  blocks: Int32Array;
  mirrorBlocks: Int32Array;
  /** Estimated work of each listed block (its own plus writing its mirror), for splitting across threads. */
  listCost: Float64Array;
}

export function makeMirrorPlan(
  moves: RankMove[],
  width: number,
  maxStep: number,
  order = mirrorOrder(width, maxStep),
): MirrorPlan {
  const { lo, innerHalf, middle } = order;
  const plan = makeRankPlan(
    moves.map((m) => reorderMove(m, order)),
    width,
    maxStep,
    2 * order.edgePairs,
  );
  const blocks: number[] = [];
  const mirrorBlocks: number[] = [];
  for (let x = 0; x < innerHalf; x++) {
    for (let c = 0; c < middle; c++) {
      for (let y = x; y < innerHalf; y++) {
        if (x === y && c > middle - 1 - c) continue;
        blocks.push((x * middle + c) * innerHalf + y);
        mirrorBlocks.push((y * middle + (middle - 1 - c)) * innerHalf + x);
      }
    }
  }
  const listCost = Float64Array.from(blocks, (b, i) => plan.blockCost[b] + (mirrorBlocks[i] === b ? 0 : lo));

  return {
    ...plan,
    order,
    blocks: Int32Array.from(blocks),
    mirrorBlocks: Int32Array.from(mirrorBlocks),
    listCost,
  };
}

/** The build's buffer index of a standard surface index (for tests and tools). */
export function buildIndex(index: number, order: MirrorOrder): number {
  const digits = order.positions.length;
  const std = new Array<number>(digits);
  for (let i = digits - 1; i >= 0; i--) {
    std[i] = index % order.base;
    index = Math.floor(index / order.base);
  }
  let out = 0;
  order.positions.forEach((p, j) => {
    out = out * order.base + (order.complemented[j] ? order.base - 1 - std[p] : std[p]);
  });
  return out;
}
