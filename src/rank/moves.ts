/**
 * Rank-table moves (docs/rules.md, "The rank iteration"): every (piece, orientation, left column) as a product of digit ranges on the
 * surfaces where it is legal plus the constant index change it causes. Derived from src/pieces.ts only.
 *
 * With steps d[i] = h[i+1] - h[i], placing an orientation at column x:
 *  - needs the steps under it to match its bottom: d[x+j] = bot[j+1] - bot[j];
 *  - sets them to its top profile: d'[x+j] = top[j+1] - top[j];
 *  - raises the left boundary step: d'[x-1] = d[x-1] + (top[0] - bot[0]) (legal while <= S);
 *  - lowers the right boundary step: d'[x+w-1] = d[x+w-1] - (top[w-1] - bot[w-1]) (legal while >= -S).
 * With `steep: 'collapse'` a boundary step pushed past ±S is legal too and becomes ±S (the game rule of the same
 * name): each such boundary value is its own move, since the index change then depends on it.
 */
import { ORIENTATIONS, PIECE_COUNT } from '../pieces.js';
import { surfaceBase } from '../surface.js';
import type { RankMove } from '../kernels/rank-plan.js';

/** What the rank iteration does with a placement that would leave a step steeper than ±S. */
export type TableSteep = 'forbid' | 'collapse';
export const TABLE_STEEP: readonly TableSteep[] = Object.freeze(['forbid', 'collapse']);

type BoundaryRange = [lo: number, hi: number, delta: number];
const NO_STEP: BoundaryRange = [-1, -1, 0];

export function rankMoves(width: number, maxStep: number, steep: TableSteep = 'forbid'): RankMove[] {
  const base = surfaceBase(maxStep);
  const digits = width - 1;
  const weight = (pos: number) => base ** (digits - 1 - pos);
  const moves: RankMove[] = [];
  for (let piece = 0; piece < PIECE_COUNT; piece++) {
    ORIENTATIONS[piece].forEach((o, orientation) => {
      for (let x = 0; x + o.width <= width; x++) {
        const lo = new Array<number>(digits).fill(0);
        const hi = new Array<number>(digits).fill(base - 1);
        let delta = 0;
        let possible = true;
        for (let j = 0; j + 1 < o.width; j++) {
          const before = o.bot[j + 1] - o.bot[j] + maxStep;
          // The piece's own top steps pass ±S only when S = 1 (L and J stand two above their foot).
          const rawAfter = o.top[j + 1] - o.top[j] + maxStep;
          const after = steep === 'collapse' ? Math.max(0, Math.min(base - 1, rawAfter)) : rawAfter;
          if (before < 0 || before >= base || after < 0 || after >= base) possible = false;
          lo[x + j] = hi[x + j] = before;
          delta += (after - before) * weight(x + j);
        }
        if (!possible) continue;
        // Each boundary step: [lowest digit, highest digit, index change] of the digit ranges where it is legal
        // (NO_STEP at a wall).
        const left: BoundaryRange[] = x > 0 ? [] : [NO_STEP];
        const right: BoundaryRange[] = x + o.width < width ? [] : [NO_STEP];
        if (x > 0) {
          const rise = o.top[0] - o.bot[0];
          left.push([0, base - 1 - rise, rise * weight(x - 1)]);
          if (steep === 'collapse')
            for (let v = Math.max(0, base - rise); v < base; v++) left.push([v, v, (base - 1 - v) * weight(x - 1)]);
        }
        if (x + o.width < width) {
          const rise = o.top[o.width - 1] - o.bot[o.width - 1];
          right.push([rise, base - 1, -rise * weight(x + o.width - 1)]);
          if (steep === 'collapse')
            for (let v = 0; v < Math.min(rise, base); v++) right.push([v, v, -v * weight(x + o.width - 1)]);
        }
        for (const [llo, lhi, ldelta] of left) {
          for (const [rlo, rhi, rdelta] of right) {
            const mlo = lo.slice();
            const mhi = hi.slice();
            if (x > 0) [mlo[x - 1], mhi[x - 1]] = [llo, lhi];
            if (x + o.width < width) [mlo[x + o.width - 1], mhi[x + o.width - 1]] = [rlo, rhi];
            if (mlo.every((l, i) => l <= mhi[i]))
              moves.push({ piece, orientation, column: x, lo: mlo, hi: mhi, delta: delta + ldelta + rdelta });
          }
        }
      }
    });
  }
  return moves;
}
