/**
 * The moves StackingAI answers with (./ai.ts) and ranks (./rank-placements.ts): a placement on the surface game's
 * board, and the best one with the sequence it was chosen for.
 */
import type { PieceMove } from '../rules/types.js';

/**
 * One move of the surface game in the shape every AI answers with (PieceMove: docs/api.md, "Moves"): `rotation`,
 * `x`, `y`, `cells` as the classic rule set states them on the board whose first `width` columns are the stack and
 * whose next column is the well (x = the column from the left, y = the row from the bottom; `rotation` is the
 * orientation index as a string). A Tetris is the upright I in the well, cells from row 0 up.
 */
export interface PlanStep extends PieceMove {
  /** Index of the orientation in ORIENTATIONS[piece] (docs/rules.md, "Pieces"; 1 for the Tetris's upright I). */
  orientation: number;
  /** Left column of the placement (the stack's width, i.e. the well, for a Tetris). */
  column: number;
  /** Whether this is the I down the well (every column falls by 4). */
  tetris: boolean;
}

export interface BestPlacement extends PlanStep {
  /** Column heights after this move. */
  heights: number[];
  /** Steps after this move (may exceed ±S). */
  steps: number[];
  /** Rank of the surface after this move (steep steps truncated). */
  rank: number;
  /** The whole best sequence for the known pieces, this move first. */
  plan: PlanStep[];
  /** Pieces of the known window the best sequence places (lookahead + 1 when it survives all of them). */
  survives: number;
}
