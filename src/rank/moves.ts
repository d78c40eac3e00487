/**
 * Rank-table moves (DESIGN §2): every (piece, orientation, left column) as a product of digit ranges on the
 * surfaces where it is legal plus the constant index change it causes. Derived from src/pieces.ts only.
 *
 * With steps d[i] = h[i+1] - h[i], placing an orientation at column x:
 *  - needs the steps under it to match its bottom: d[x+j] = bot[j+1] - bot[j];
 *  - sets them to its top profile: d'[x+j] = top[j+1] - top[j];
 *  - raises the left boundary step: d'[x-1] = d[x-1] + (top[0] - bot[0]) (legal while <= S);
 *  - lowers the right boundary step: d'[x+w-1] = d[x+w-1] - (top[w-1] - bot[w-1]) (legal while >= -S).
 */
import { ORIENTATIONS, PIECE_COUNT } from '../pieces.js';
import { surfaceBase } from '../surface.js';

export interface RankMove {
  piece: number;
  orientation: number;
  column: number;
  /** Inclusive digit range per step position (index 0 = most significant digit). */
  lo: number[];
  hi: number[];
  /** Index change: index(after) - index(before), the same for every surface where the move is legal. */
  delta: number;
}

export function rankMoves(width: number, maxStep: number): RankMove[] {
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
          const after = o.top[j + 1] - o.top[j] + maxStep;
          if (before < 0 || before >= base || after < 0 || after >= base) possible = false;
          lo[x + j] = hi[x + j] = before;
          delta += (after - before) * weight(x + j);
        }
        if (x > 0) {
          const rise = o.top[0] - o.bot[0];
          hi[x - 1] = base - 1 - rise;
          delta += rise * weight(x - 1);
        }
        if (x + o.width < width) {
          const rise = o.top[o.width - 1] - o.bot[o.width - 1];
          lo[x + o.width - 1] = rise;
          delta -= rise * weight(x + o.width - 1);
        }
        if (lo.some((l, i) => l > hi[i])) possible = false;
        if (possible) moves.push({ piece, orientation, column: x, lo, hi, delta });
      }
    });
  }
  return moves;
}
