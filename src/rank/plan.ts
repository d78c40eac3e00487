/**
 * Lays the rank moves out for the kernel (assembly/rank.ts): the index is split into HI blocks of LO = B^K
 * surfaces; per move, a byte per block says whether the move can be legal there, and a list of runs says where
 * inside a block it is legal. The header that points the kernel at these arrays: src/rank/layout.ts (PLAN_*).
 */
import { MIRROR_PIECE } from '../pieces.js';
import { type Steps, runToEnd } from '../slices.js';
import { ROLE_PAIR_FIRST, ROLE_PAIR_SECOND, ROLE_SELF } from './layout.js';
import type { RankMove } from './moves.js';

/** How a piece's per-surface maxima join the sum (ROLE_* of src/rank/layout.ts): mirror pairs are added first. */
export const PIECE_ROLES = Int32Array.from(MIRROR_PIECE, (m, p) =>
  m === p ? ROLE_SELF : p < m ? ROLE_PAIR_FIRST : ROLE_PAIR_SECOND,
);

export interface RankPlanArrays {
  lo: number;
  hi: number;
  pieceEnd: Int32Array;
  delta: Int32Array;
  runFirst: Int32Array;
  runCount: Int32Array;
  hiOk: Uint8Array;
  runs: Int32Array;
  role: Int32Array;
  /** Estimated work per block (placements scanned plus a fixed overhead), for splitting blocks across threads. */
  blockCost: Float64Array;
}

/** Low digits per block: 4 keeps a block's two f32 scratch arrays (2 x 26 KiB at S = 4) inside L2. */
export function lowDigits(width: number): number {
  return Math.min(4, width - 1);
}

/**
 * `low`: how many of the least significant digits make a block's offset (default lowDigits(width)). Moves are
 * grouped by `piece`, read as a slot number below `slots` (the u16 build puts two slots per piece).
 */
export function makeRankPlan(
  moves: RankMove[],
  width: number,
  maxStep: number,
  low = lowDigits(width),
  slots = 7,
): RankPlanArrays {
  return runToEnd(rankPlanSteps(moves, width, maxStep, low, slots));
}

/** makeRankPlan in steps (src/slices.ts): a pause after each move (the 20G table's 1,897 take about 0.3 s). */
export function* rankPlanSteps(
  moves: RankMove[],
  width: number,
  maxStep: number,
  low = lowDigits(width),
  slots = 7,
): Steps<RankPlanArrays> {
  const base = 2 * maxStep + 1;
  const digits = width - 1;
  const k = low;
  const lo = base ** k;
  const hi = base ** (digits - k);
  const hiDigits = digits - k;
  const sorted = [...moves].sort((a, b) => a.piece - b.piece);

  const pieceEnd = new Int32Array(slots);
  sorted.forEach((m, i) => {
    pieceEnd[m.piece] = i + 1;
  });
  for (let p = 1; p < slots; p++) pieceEnd[p] = Math.max(pieceEnd[p], pieceEnd[p - 1]);

  const delta = Int32Array.from(sorted, (m) => m.delta);
  const hiOk = new Uint8Array(sorted.length * hi);
  const runFirst = new Int32Array(sorted.length);
  const runCount = new Int32Array(sorted.length);
  const runs: number[] = [];
  const blockCost = new Float64Array(hi).fill(3 * lo);

  // A move is legal on a product of digit ranges, so its blocks and runs are enumerated, not searched for.
  for (let mi = 0; mi < sorted.length; mi++) {
    const m = sorted[mi];
    // Runs: the trailing digits whose range is full merge into the run of the last one that is not.
    let last = k - 1;
    let span = 1;
    while (last >= 0 && m.lo[hiDigits + last] === 0 && m.hi[hiDigits + last] === base - 1) {
      span *= base;
      last--;
    }
    runFirst[mi] = runs.length / 2;
    let len = span;
    if (last < 0) runs.push(0, span);
    else {
      len = (m.hi[hiDigits + last] - m.lo[hiDigits + last] + 1) * span;
      const first = m.lo[hiDigits + last] * span;
      forEachInBox(
        m.lo.slice(hiDigits, hiDigits + last),
        m.hi.slice(hiDigits, hiDigits + last),
        base,
        span * base,
        (at) => runs.push(at + first, len),
      );
    }
    runCount[mi] = runs.length / 2 - runFirst[mi];
    const cost = runCount[mi] * (len + 4);
    forEachInBox(m.lo.slice(0, hiDigits), m.hi.slice(0, hiDigits), base, 1, (h) => {
      hiOk[mi * hi + h] = 1;
      blockCost[h] += cost;
    });
    yield (mi + 1) / sorted.length;
  }
  return {
    lo,
    hi,
    pieceEnd,
    delta,
    runFirst,
    runCount,
    hiOk,
    runs: Int32Array.from(runs),
    role: PIECE_ROLES,
    blockCost,
  };
}

/**
 * Calls fn(index) for every index whose digits (most significant first, the last one weighing `unit`) lie in
 * [lo[i], hi[i]], in increasing order.
 */
function forEachInBox(lo: number[], hi: number[], base: number, unit: number, fn: (index: number) => void): void {
  const n = lo.length;
  const weight = new Array<number>(n);
  for (let i = n - 1, w = unit; i >= 0; i--, w *= base) weight[i] = w;
  const d = lo.slice();
  let at = d.reduce((acc, x, i) => acc + x * weight[i], 0);
  for (;;) {
    fn(at);
    let i = n - 1;
    while (i >= 0 && d[i] === hi[i]) {
      at -= (d[i] - lo[i]) * weight[i];
      d[i] = lo[i];
      i--;
    }
    if (i < 0) return;
    d[i]++;
    at += weight[i];
  }
}
