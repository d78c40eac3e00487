/**
 * Game placements (docs/rules.md, "The stacking game") for a W-column stack, generated from src/pieces.ts: every orientation at every
 * left column, grouped by piece. Unlike the rank moves, steps may become steeper than ±S in the game.
 */
import { ORIENTATIONS, PIECE_COUNT } from '../pieces.js';
import { MOVE_TETRIS, TETRIS_ROWS } from '../kernels/search-format.js';
import { tetrisOptions, type StackingSettings } from './rules.js';

/**
 * One slot of the placement table: a piece's orientation at a left column, which the search kernel's records index
 * by slot id. Not a move (no landing row, no cells): StackingAI's moves are PlanStep (src/stacking-ai/surface-move.ts).
 */
export interface ColumnSlot {
  piece: number;
  /** Index of the orientation in the piece's list (docs/rules.md "Pieces" order). */
  orientation: number;
  column: number;
}

export interface PlacementTable {
  placements: ColumnSlot[];
  /** start[p] .. start[p+1] are piece p's placements. */
  start: Int32Array;
}

const tables = new Map<number, PlacementTable>();

/**
 * The placements of a `width`-column stack: every orientation at every left column, grouped by piece (made once
 * per width; the search kernel's records of them: src/kernels/search-format.ts placementRecords).
 */
export function placementTable(width: number): PlacementTable {
  let table = tables.get(width);
  if (table) return table;
  const placements: ColumnSlot[] = [];
  const start = new Int32Array(PIECE_COUNT + 1);
  for (let piece = 0; piece < PIECE_COUNT; piece++) {
    start[piece] = placements.length;
    ORIENTATIONS[piece].forEach((o, orientation) => {
      for (let column = 0; column + o.width <= width; column++) placements.push({ piece, orientation, column });
    });
  }
  start[PIECE_COUNT] = placements.length;
  table = { placements, start };
  tables.set(width, table);
  return table;
}

/** Heights after a move (placement id, or MOVE_TETRIS = -1) — the same arithmetic as the kernel. */
export function applyMove(table: PlacementTable, heights: readonly number[], move: number): number[] {
  if (move === MOVE_TETRIS) return heights.map((h) => h - TETRIS_ROWS);
  const p = table.placements[move];
  const o = ORIENTATIONS[p.piece][p.orientation];
  const base = heights[p.column] - o.bot[0];
  const out = heights.slice();
  for (let j = 0; j < o.width; j++) out[p.column + j] = base + o.top[j];
  return out;
}

/**
 * The moves of piece `id` legal on `heights` in the stacking game (docs/rules.md, "The stacking game"): every
 * hole-free placement that stays under the board's top, and for an I the Tetris where the rule allows it (where the
 * rule forces it, only the Tetris). The kernel's fit lookup decides the same (test/stacking-ai/rank-placements.test.ts).
 */
export function legalMoves(
  table: PlacementTable,
  heights: readonly number[],
  id: number,
  rules: Pick<StackingSettings, 'boardHeight' | 'tetrisThreshold' | 'tetris'>,
  /** A rule set's reach (src/stacking-ai/reach.ts): record id (placement id, or the placement count for the Tetris)
   * → whether the piece reaches it on these heights. A Tetris it refuses is not made, even when forced. */
  reached: (record: number) => boolean = () => true,
): number[] {
  const out: number[] = [];
  if (id === 0 && reached(table.placements.length)) {
    const tetris = tetrisOptions(heights, rules);
    if (tetris === 'forced') return [MOVE_TETRIS];
    if (tetris === 'optional') out.push(MOVE_TETRIS);
  }
  for (let m = table.start[id]; m < table.start[id + 1]; m++) {
    const p = table.placements[m];
    const o = ORIENTATIONS[p.piece][p.orientation];
    const base = heights[p.column] - o.bot[0];
    let fits = base >= 0;
    for (let j = 0; j < o.width && fits; j++)
      fits = heights[p.column + j] - o.bot[j] === base && base + o.top[j] <= rules.boardHeight;
    if (fits && reached(m)) out.push(m);
  }
  return out;
}

/**
 * Steep rule 'collapse' (src/stacking-ai/rules.ts): every step steeper than ±`maxStep` becomes ±`maxStep`; the
 * profile is shifted so its lowest column is as high as the lowest column was. assembly/search/rules.ts collapseSteps
 * does the same in the kernel.
 */
export function collapseSteps(heights: readonly number[], maxStep: number): number[] {
  const out = heights.slice();
  for (let i = 1; i < heights.length; i++)
    out[i] = out[i - 1] + Math.max(-maxStep, Math.min(maxStep, heights[i] - heights[i - 1]));
  const shift = Math.min(...heights) - Math.min(...out);
  return out.map((h) => h + shift);
}
