/**
 * Ranking every placement of a turn for a person (docs/game.md, "Ranking placements"): nextMove's search values each
 * first move as if it were forced (src/tetris-ai/stack.ts scoreStackMoves, src/tetris-ai/recover.ts recoverRootValues), and
 * this module turns those values into units a person reads.
 */
import { PIECES, type Piece } from '../pieces.js';
import type { Cell, GamePlacement } from '../rules/types.js';
import { cellsKey, emptyFrom, lockCells } from './grid.js';
import type { Decision, GameMode, GameMove } from './decision.js';
import { recoverRootValues } from './recover.js';
import { TOP_OUT } from '../kernels/recover.js';
import { versusRootValues } from './versus.js';
import { expectedPiecesFromRank } from '../stacking-ai/rank-placements.js';
import { nextPieceRanks, scoreStackMoves } from './stack.js';

export type PlacementUnit = 'expectedPieces' | 'evaluatorScore';

export interface RankedPlacement extends GameMove {
  /** stack: expected pieces of perfect-stack survival (0: the placement breaks the perfect stack); recover and
   * versus: the evaluator's value of the best line after it. Unit in PlacementRanking.unit. */
  value: number;
  /** The first entry's value minus this one's: how much worse than the AI's move, in the same unit (negative: this
   * one is valued higher; docs/game.md, "Ranking placements"). */
  loss: number;
  /** The game ends with this move (a cell at or above the visible field once its rows clear), or in recover mode
   * the best line of known pieces the search finds after it does. Such a line's value holds the top-out's cost
   * (TOP_OUT, about -1e9 for each move that leaves the stack over the top), so `loss` is then not in the unit's
   * scale: read this flag instead. */
  topsOut: boolean;
}

export interface PlacementRanking {
  mode: GameMode | null;
  unit: PlacementUnit;
  /** nextMove's move first, then the rest best first; at most `limit`. */
  placements: RankedPlacement[];
  /** Stack mode: for the best move, the expected pieces after it if each piece came next with nothing known after
   * it (0: that piece has no stack move there), I O T S Z L J. */
  afterNextPiece: { piece: Piece; value: number }[] | null;
}

// The conversion from a rank to expected pieces is the surface game's (one definition for both AIs).
export { expectedPiecesFromRank };

type Describe = (hold: boolean, p: GamePlacement, mode: GameMode, value: number) => GameMove;

/**
 * A recover value at or under this holds at least one TOP_OUT: every line that does not top out is worth far more
 * (MAX_RECOVER_WEIGHT keeps each term's weight small enough), and one that does at most half a TOP_OUT more.
 */
export const TOPPED_OUT_VALUE = TOP_OUT / 2;

/** The field the ranking's top-outs are read on: its width and visible rows. */
export interface RankedField {
  width: number;
  visibleHeight: number;
}

/** Whether locking `cells` on `rows` leaves a cell at or above the visible field once full rows clear. */
export function leavesCellAbove(rows: Uint32Array, field: RankedField, cells: readonly Cell[]): boolean {
  return !emptyFrom(lockCells(rows, field.width, cells).rows, field.visibleHeight);
}

export function rankDecision(
  d: Decision,
  iterations: number,
  limit: number,
  field: RankedField,
  describeMove: Describe,
): PlacementRanking {
  const chosen = d.move;
  const scored: { hold: boolean; placement: GamePlacement; value: number; order: number }[] = [];
  const keyOf = (hold: boolean, p: GamePlacement) => `${hold ? 'h' : '-'}${p.piece}${cellsKey(p.cells)}`;
  let mode: GameMode | null = chosen ? chosen.mode : null;
  let afterNextPiece: PlacementRanking['afterNextPiece'] = null;
  if (d.stack) {
    const { ctx, choice } = d.stack;
    for (const m of scoreStackMoves(ctx, d.rows, d.options, choice.side)) {
      // Lines the known queue kills inside the window survive `depth` pieces; full lines add the leaf's survival.
      const value = m.depth < m.window ? m.depth : m.depth + expectedPiecesFromRank(m.value, iterations);
      scored.push({ hold: m.option.hold, placement: m.placement, value, order: m.order });
    }
    afterNextPiece = nextPieceRanks(ctx, d.rows, choice.placement.cells, choice.side).map((r, i) => ({
      piece: PIECES[i],
      value: r === null ? 0 : 1 + expectedPiecesFromRank(r, iterations),
    }));
  } else if (d.recover || d.versusSearch) {
    const best = new Map<string, (typeof scored)[number]>();
    const values = d.recover
      ? recoverRootValues(d.recover.ctx, d.recover.state, d.reachRoot)
      : versusRootValues(d.versusSearch!.ctx, d.versusSearch!.state, d.reachRoot);
    for (const c of values) {
      const k = keyOf(c.hold, c.placement);
      const had = best.get(k);
      if (!had || c.value > had.value)
        best.set(k, { hold: c.hold, placement: c.placement, value: c.value, order: c.value });
    }
    scored.push(...best.values());
  }
  // Every other reachable placement: in stack mode it breaks the perfect stack (0 pieces); it is listed last.
  const seen = new Set(scored.map((s) => keyOf(s.hold, s.placement)));
  const seenCells = new Set<string>();
  for (const o of d.options) {
    for (const p of o.reach.list) {
      const k = keyOf(o.hold, p);
      if (seen.has(k) || seenCells.has(k)) continue;
      seenCells.add(k);
      if (d.stack) scored.push({ hold: o.hold, placement: p, value: 0, order: -1 });
    }
  }
  scored.sort((a, b) => b.order - a.order || b.value - a.value);
  if (chosen) {
    const k = keyOf(chosen.hold, chosen as unknown as GamePlacement);
    const i = scored.findIndex((s) => keyOf(s.hold, s.placement) === k);
    if (i > 0) scored.unshift(...scored.splice(i, 1));
  }
  if (!mode && scored.length > 0) mode = 'recover';
  const top = scored[0]?.value ?? 0;
  const placements = scored.slice(0, limit).map((s) => ({
    ...describeMove(s.hold, s.placement, mode ?? 'recover', s.value),
    loss: top - s.value,
    topsOut:
      ((d.recover !== null || d.versusSearch !== undefined) && s.value <= TOPPED_OUT_VALUE) ||
      leavesCellAbove(d.rows, field, s.placement.cells),
  }));
  const unit = mode === 'recover' || mode === 'versus' ? 'evaluatorScore' : 'expectedPieces';
  return { mode, unit, placements, afterNextPiece };
}
