/**
 * Game placements (DESIGN §3) for a W-column stack, generated from src/pieces.ts: every orientation at every
 * left column, grouped by piece. Unlike the rank moves, steps may become steeper than ±S in the game.
 */
import { ORIENTATIONS, PIECE_COUNT } from '../pieces.js';
import { PLACEMENT_WORDS } from './layout.js';

export interface Placement {
  piece: number;
  /** Index of the orientation in the piece's list (DESIGN §1 order). */
  rotation: number;
  column: number;
}

export interface PlacementTable {
  placements: Placement[];
  /** start[p] .. start[p+1] are piece p's placements. */
  start: Int32Array;
  /** PLACEMENT_WORDS i32 per placement: x, width, bot[4], top[4]. */
  records: Int32Array;
}

export function placementTable(width: number): PlacementTable {
  const placements: Placement[] = [];
  const start = new Int32Array(PIECE_COUNT + 1);
  const records: number[] = [];
  for (let piece = 0; piece < PIECE_COUNT; piece++) {
    start[piece] = placements.length;
    ORIENTATIONS[piece].forEach((o, rotation) => {
      for (let column = 0; column + o.width <= width; column++) {
        placements.push({ piece, rotation, column });
        const rec = new Array<number>(PLACEMENT_WORDS).fill(0);
        rec[0] = column;
        rec[1] = o.width;
        o.bot.forEach((b, j) => (rec[2 + j] = b));
        o.top.forEach((t, j) => (rec[6 + j] = t));
        records.push(...rec);
      }
    });
  }
  start[PIECE_COUNT] = placements.length;
  return { placements, start, records: Int32Array.from(records) };
}
