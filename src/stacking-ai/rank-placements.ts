/**
 * Ranking every placement of the surface game's current piece for a person (docs/api.md, "StackingAI"): each legal
 * first move is played, the search runs on over the rest of the known window, and the line is valued in expected
 * pieces of perfect-stack survival, the unit `TetrisAI.rankPlacements` uses in stack mode (docs/game.md, "Ranking
 * placements").
 */
import { PIECES, type Piece } from '../pieces.js';
import type { RankTable } from '../rank/table.js';
import { surfaceFromHeights } from '../surface.js';
import type { StackingEngine } from '../kernels/search.js';
import type { PlanStep } from './surface-move.js';
import { MOVE_NONE } from '../kernels/search-format.js';
import { applyMove, collapseSteps, legalMoves } from './placements.js';
import { recordReached } from './reach.js';
import type { StackingSettings } from './rules.js';

/** Per-piece survival q = r^(1/k) of a rank r after k iterations (the chance of placing k random pieces), and the
 * expected pieces a geometric survival with that q places before it fails: q / (1 − q). Monotone in r. */
export function expectedPiecesFromRank(rank: number, iterations: number): number {
  if (!(rank > 0)) return 0;
  const q = Math.min(rank, 1 - 2 ** -24) ** (1 / Math.max(1, iterations));
  return q / (1 - q);
}

/** A placement in bestPlacement's move shape (PlanStep: piece, rotation, x, y, cells, orientation, column, tetris). */
export interface RankedSurfacePlacement extends PlanStep {
  /** Column heights after this move. */
  heights: number[];
  /** Pieces of the known window the best line after this move places (1 + lookahead when it survives them all). */
  survives: number;
  /** Expected pieces of perfect-stack survival: `survives` when the window kills the stack, else survives plus
   * expectedPiecesFromRank of the line's leaf. */
  value: number;
  /** The first entry's value minus this one's. */
  loss: number;
}

export interface SurfacePlacementRanking {
  unit: 'expectedPieces';
  /** bestPlacement's move first, then the rest by value, best first; at most `limit`. Empty: no legal placement. */
  placements: RankedSurfacePlacement[];
  /** For the first entry: the expected pieces after it if each piece (I O T S Z L J) came next with nothing known
   * after it (0: that piece would have no legal placement). Null when there is no placement. */
  afterNextPiece: { piece: Piece; value: number }[] | null;
}

export interface SurfaceRankingInput {
  engine: StackingEngine;
  table: RankTable;
  stacking: StackingSettings;
  heights: readonly number[];
  ids: readonly number[];
  lookahead: number;
  weights: Int32Array;
  /** bestPlacement's first move (placement id or MOVE_TETRIS), MOVE_NONE when there is none. */
  bestMove: number;
  limit: number;
  /** A move code of the current piece on `heights`, in bestPlacement's shape. */
  describe(move: number, heights: readonly number[]): PlanStep;
}

export function rankSurfacePlacements(input: SurfaceRankingInput): SurfacePlacementRanking {
  const { engine, table, stacking, heights, ids, lookahead, weights } = input;
  const iterations = table.iterations;
  const after = (h: readonly number[], move: number) => {
    const placed = applyMove(engine.placements, h, move);
    return stacking.steep === 'collapse' ? collapseSteps(placed, table.maxStep) : placed;
  };
  /** The leaf after a move with nothing known beyond it: the surface's rank (steep steps truncated). */
  const rankOf = (h: readonly number[]) => table.rank(surfaceFromHeights(h, { maxStep: table.maxStep }));
  const window = lookahead + 1;

  const scored: (RankedSurfacePlacement & { move: number })[] = [];
  // Under a rule set with reach records only the placements its piece reaches are listed, as the search plays.
  const reach = engine.reach;
  const reached = reach ? (record: number) => recordReached(reach, record, heights, table.maxStep) : undefined;
  for (const move of legalMoves(engine.placements, heights, ids[0], stacking, reached)) {
    const child = after(heights, move);
    let survives = 1;
    let leaf = rankOf(child);
    if (lookahead > 0) {
      const outcome = engine.search(child, ids.slice(1), lookahead - 1, weights);
      if (outcome.move === MOVE_NONE) leaf = 0;
      else {
        survives += outcome.depth;
        leaf = (outcome.leafScore / 65536) * engine.rankScale;
      }
    }
    const value = survives < window ? survives : survives + expectedPiecesFromRank(leaf, iterations);
    scored.push({
      move,
      ...input.describe(move, heights),
      heights: child,
      survives,
      value,
      loss: 0,
    });
  }
  scored.sort((a, b) => b.value - a.value);
  const at = scored.findIndex((s) => s.move === input.bestMove);
  if (at > 0) scored.unshift(...scored.splice(at, 1));
  const top = scored[0]?.value ?? 0;
  const placements = scored.slice(0, input.limit).map(({ move: _move, ...s }) => ({ ...s, loss: top - s.value }));
  let afterNextPiece: SurfacePlacementRanking['afterNextPiece'] = null;
  if (scored.length > 0) {
    const child = scored[0].heights;
    afterNextPiece = PIECES.map((piece, id) => {
      const outcome = engine.search(child, [id], 0, weights);
      const value =
        outcome.move === MOVE_NONE
          ? 0
          : 1 + expectedPiecesFromRank((outcome.leafScore / 65536) * engine.rankScale, iterations);
      return { piece, value };
    });
  }
  return { unit: 'expectedPieces', placements, afterNextPiece };
}
