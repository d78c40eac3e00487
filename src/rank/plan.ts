/**
 * Lays the rank moves out for the kernel (assembly/rank.ts): the index is split into HI blocks of LO = B^K
 * surfaces; per move, a byte per block says whether the move can be legal there, and a list of runs says where
 * inside a block it is legal. The header that points the kernel at these arrays: src/rank/layout.ts (PLAN_*).
 */
import { MIRROR_PIECE } from '../pieces.js';
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

  // Digits of every block number and every in-block offset, decoded once (not once per move).
  const hiTable = digitTable(base, hiDigits, hi);
  const loTable = digitTable(base, k, lo);
  sorted.forEach((m, mi) => {
    for (let h = 0; h < hi; h++) {
      let ok = 1;
      for (let i = 0; i < hiDigits; i++) {
        const d = hiTable[h * hiDigits + i];
        if (d < m.lo[i] || d > m.hi[i]) ok = 0;
      }
      hiOk[mi * hi + h] = ok;
    }
    runFirst[mi] = runs.length / 2;
    let runStart = -1;
    for (let l = 0; l <= lo; l++) {
      let ok = false;
      if (l < lo) {
        ok = true;
        for (let i = 0; i < k; i++) {
          const d = loTable[l * k + i];
          if (d < m.lo[hiDigits + i] || d > m.hi[hiDigits + i]) ok = false;
        }
      }
      if (ok && runStart < 0) runStart = l;
      if (!ok && runStart >= 0) {
        runs.push(runStart, l - runStart);
        runStart = -1;
      }
    }
    runCount[mi] = runs.length / 2 - runFirst[mi];
  });
  const blockCost = new Float64Array(hi).fill(3 * lo);
  sorted.forEach((_, mi) => {
    let len = 0;
    for (let r = runFirst[mi]; r < runFirst[mi] + runCount[mi]; r++) len += runs[2 * r + 1] + 4;
    for (let h = 0; h < hi; h++) if (hiOk[mi * hi + h]) blockCost[h] += len;
  });
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

/** The `count` base-`base` digits (most significant first) of every value below `values`, row by row. */
function digitTable(base: number, count: number, values: number): Int8Array {
  const out = new Int8Array(values * count);
  for (let v = 0; v < values; v++) {
    let rest = v;
    for (let i = count - 1; i >= 0; i--) {
      out[v * count + i] = rest % base;
      rest = Math.floor(rest / base);
    }
  }
  return out;
}
