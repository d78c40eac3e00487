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
import { type Steps, runToEnd, within } from '../slices.js';
import type { RankMove } from './moves.js';
import { SLOTS_PER_PIECE } from './layout.js';
import { rankPlanSteps, type RankPlanArrays } from './plan.js';

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
  /** h-k: digits in each inner half of the block index, and B^(h-k), its size. */
  innerDigits: number;
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
  return {
    base,
    positions,
    complemented,
    edgePairs,
    lo,
    hi: innerHalf * middle * innerHalf,
    innerDigits: half - edgePairs,
    innerHalf,
    middle,
  };
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

/**
 * The mirror image of a move in the build's digit order: block digits (X, c, Y) -> (Y, B-1-c, X) and low digits
 * (U, V) -> (V, U). Legal exactly on the mirror images of the move's surfaces, where it reads the mirror images of
 * the values the move reads (prev is mirror-symmetric).
 */
export function mirrorMove(m: RankMove, order: MirrorOrder): RankMove {
  const { base, edgePairs, innerDigits: inner, middle } = order;
  const digits = order.positions.length;
  const mid = middle > 1 ? 1 : 0;
  // source digit of each mirrored digit
  const from = (j: number): number => {
    if (j < inner) return inner + mid + j;
    if (j < inner + mid) return j;
    if (j < 2 * inner + mid) return j - inner - mid;
    if (j < 2 * inner + mid + edgePairs) return j + edgePairs;
    return j - edgePairs;
  };
  const before = m.lo.slice();
  let after = before.reduce((acc, d) => acc * base + d, 0) + m.delta;
  const change = new Array<number>(digits);
  for (let i = digits - 1; i >= 0; i--) {
    change[i] = (after % base) - before[i];
    after = Math.floor(after / base);
  }
  const lo: number[] = [];
  const hi: number[] = [];
  let delta = 0;
  for (let j = 0; j < digits; j++) {
    const f = from(j);
    const flip = mid === 1 && j === inner;
    lo.push(flip ? base - 1 - m.hi[f] : m.lo[f]);
    hi.push(flip ? base - 1 - m.lo[f] : m.hi[f]);
    delta += (flip ? -change[f] : change[f]) * base ** (digits - 1 - j);
  }
  return { ...m, lo, hi, delta };
}

/** Whether a move's legality depends on the right edge steps V but not on the left ones U (build order). */
function rightEdgeOnly(m: RankMove, order: MirrorOrder): boolean {
  const digits = order.positions.length;
  const k = order.edgePairs;
  const full = (j: number) => m.lo[j] === 0 && m.hi[j] === order.base - 1;
  let left = true;
  let right = true;
  for (let j = digits - 2 * k; j < digits - k; j++) left &&= full(j);
  for (let j = digits - k; j < digits; j++) right &&= full(j);
  return left && !right;
}

export interface MirrorPlan extends RankPlanArrays {
  order: MirrorOrder;
  /** Canonical blocks, and the mirror block of each (itself when the block is its own mirror image). */
  blocks: Int32Array;
  mirrorBlocks: Int32Array;
  /** Per listed block, per move: can the move be legal there (a mirrored move: on the mirror block). */
  listOk: Uint8Array;
  /** Estimated work of each listed block (its moves plus writing its mirror), for splitting it into parts. */
  listCost: Float64Array;
}

/**
 * The plan of the mirror-folded u16 build (assembly/rank.ts rankBlocksU16). Slot 2p: piece p's moves applied to
 * the block itself; slot 2p + 1: the mirror images of p's moves that depend only on the right edge steps, applied
 * to the mirror block (whole-row runs instead of runs of one to eight values) and merged in transposed.
 */
export function makeMirrorPlan(
  moves: RankMove[],
  width: number,
  maxStep: number,
  order = mirrorOrder(width, maxStep),
): MirrorPlan {
  return runToEnd(mirrorPlanSteps(moves, width, maxStep, order));
}

/** makeMirrorPlan in steps (src/slices.ts). */
export function* mirrorPlanSteps(
  moves: RankMove[],
  width: number,
  maxStep: number,
  order = mirrorOrder(width, maxStep),
): Steps<MirrorPlan> {
  const { innerHalf, middle } = order;
  const slotted = moves
    .map((m) => {
      const r = reorderMove(m, order);
      return rightEdgeOnly(r, order)
        ? { ...mirrorMove(r, order), piece: m.piece * SLOTS_PER_PIECE + 1 }
        : { ...r, piece: m.piece * SLOTS_PER_PIECE };
    })
    // Within a slot, by index change (makeRankPlan's sort by slot keeps this order): a block then reads its
    // sources in increasing address order, which the hardware prefetchers follow.
    .sort((a, b) => a.piece - b.piece || a.delta - b.delta);
  const plan = yield* within(rankPlanSteps(slotted, width, maxStep, 2 * order.edgePairs, 7 * SLOTS_PER_PIECE), 0, 0.5);
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
  return yield* within(listedPlan(plan, order, blocks, mirrorBlocks), 0.5, 1);
}

/**
 * The plan of the u16 build (rankBlocksU16) for a table that is not mirror-symmetric (the 20G variant): every block
 * listed, each its own mirror block, every move in its piece's direct slot, in the standard digit order, so the
 * kernel computes each surface from its own moves and writes each block once, and the values come out in index
 * order. The kernel is the mirror-folded build's; only the plan differs.
 */
export function* plainPlanSteps(moves: RankMove[], width: number, maxStep: number): Steps<MirrorPlan> {
  const order = mirrorOrder(width, maxStep);
  const slotted = moves
    .map((m) => ({ ...m, piece: m.piece * SLOTS_PER_PIECE }))
    .sort((a, b) => a.piece - b.piece || a.delta - b.delta);
  // Blocks of the same size as the mirror-folded build's (its constant-size copy of the kernel runs them).
  const plan = yield* within(rankPlanSteps(slotted, width, maxStep, 2 * order.edgePairs, 7 * SLOTS_PER_PIECE), 0, 0.5);
  const blocks = Array.from({ length: plan.hi }, (_, b) => b);
  return yield* within(listedPlan(plan, order, blocks, blocks), 0.5, 1);
}

/** The listed blocks' part of a u16 plan: which moves may be legal on each, and each one's estimated work. */
function* listedPlan(
  plan: RankPlanArrays,
  order: MirrorOrder,
  blocks: number[],
  mirrorBlocks: number[],
): Steps<MirrorPlan> {
  const { lo } = plan;
  // Which slot each move (in plan order) is in: moves are sorted by slot.
  const moveCount = plan.delta.length;
  const mirroredMove = new Uint8Array(moveCount);
  for (let slot = 0, m = 0; slot < 7 * SLOTS_PER_PIECE; slot++)
    for (; m < plan.pieceEnd[slot]; m++) mirroredMove[m] = slot % SLOTS_PER_PIECE;
  const listOk = new Uint8Array(blocks.length * moveCount);
  const listCost = new Float64Array(blocks.length);
  const runLength = Float64Array.from({ length: moveCount }, (_, m) => {
    let len = 0;
    for (let r = plan.runFirst[m]; r < plan.runFirst[m] + plan.runCount[m]; r++) len += plan.runs[2 * r + 1] + 4;
    return len;
  });
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i];
    let cost = 4 * lo + (mirrorBlocks[i] === b ? 0 : lo);
    for (let m = 0; m < moveCount; m++) {
      const ok = plan.hiOk[m * plan.hi + (mirroredMove[m] ? mirrorBlocks[i] : b)];
      listOk[i * moveCount + m] = ok;
      if (ok) cost += runLength[m];
    }
    listCost[i] = cost;
    if (i % 64 === 63) yield (i + 1) / blocks.length;
  }
  return {
    ...plan,
    order,
    blocks: Int32Array.from(blocks),
    mirrorBlocks: Int32Array.from(mirrorBlocks),
    listOk,
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
