/**
 * An independent perfect-clear search for the tests of src/tetris-ai/perfect-clear.ts: plain recursion over the
 * public rules layer (reachablePlacements, Board.place), every hold choice the guideline allows (one hold per piece;
 * an empty box takes the current piece and brings the queue's first), no pruning but the rows a line can use (a line
 * that empties the board clears every cell it places, so each placement lies in the rows still to clear) and the
 * pieces left. Returns the fewest pieces of a line that empties the board, or null. Slow; small positions only.
 */
import type { Piece } from '../../src/pieces.js';
import { type Board, reachablePlacements } from '../../src/rules/index.js';

export interface RefPerfectClearPosition {
  board: Board;
  current: Piece;
  queue: readonly Piece[];
  hold: Piece | null;
  canHold: boolean;
  /** The tallest perfect clear looked for (rows). */
  maxLines: number;
}

function filledCells(board: Board): number {
  let n = 0;
  for (const row of board.rows) for (let v = row; v; v &= v - 1) n++;
  return n;
}

/** The fewest pieces of a perfect clear of at most maxLines rows, or null when the known pieces make none. */
export function refShortestPerfectClear(pos: RefPerfectClearPosition): number | null {
  const pieces = [pos.current, ...pos.queue];
  const width = pos.board.width;
  const failed = new Set<string>();
  /** Whether `left` more placements from (board, next piece index p, hold box h) can empty the board. */
  const can = (board: Board, cleared: number, p: number, h: Piece | null, holdOk: boolean, left: number): boolean => {
    const cells = filledCells(board);
    if (cells === 0 && left === 0) return true;
    if (left === 0) return false;
    // every cell of the board and of the pieces to come is cleared: that many rows, within the rows looked for
    if ((cells + 4 * left) % width !== 0 || cleared + (cells + 4 * left) / width > pos.maxLines) return false;
    const key = `${board.rows.join()}|${p}|${h}|${holdOk}|${left}`;
    if (failed.has(key)) return false;
    const choices: { piece: Piece; p: number; h: Piece | null }[] = [];
    if (p < pieces.length) {
      choices.push({ piece: pieces[p], p: p + 1, h });
      if (holdOk) {
        if (h !== null) choices.push({ piece: h, p: p + 1, h: pieces[p] });
        else if (p + 1 < pieces.length) choices.push({ piece: pieces[p + 1], p: p + 2, h: pieces[p] });
      }
    }
    const rowsLeft = pos.maxLines - cleared;
    for (const c of choices) {
      for (const placement of reachablePlacements(board, c.piece, { rules: 'guideline' })) {
        if (placement.cells.some(([, y]) => y >= rowsLeft)) continue;
        const placed = board.place(placement.cells);
        if (can(placed.board, cleared + placed.lines, c.p, c.h, true, left - 1)) return true;
      }
    }
    failed.add(key);
    return false;
  };
  const most = pieces.length + (pos.hold !== null ? 1 : 0);
  for (let n = 1; n <= most; n++) if (can(pos.board, 0, 0, pos.hold, pos.canHold, n)) return n;
  return null;
}
