/**
 * Locking the player's piece on play mode's field (docs/demo.md, "Play"). The game ends when a cell stays at or
 * above the visible field once full rows clear: the rule of the library's game simulator and of `rankPlacements`'
 * `topsOut` (docs/game.md). A piece that pokes over the top while it completes the rows under it plays on.
 */
import type { Board, Cell, Piece } from 'stackrank';
import type { Paint } from './draw.js';

/** Rows over the field a locked piece may reach: pieces appear in the two rows over it and stand up to 4 tall. */
const ROWS_OVER = 6;

export interface Locked {
  /** The field after the lock (full rows cleared); unchanged when the piece tops out. */
  board: Board;
  /** The colours of the field's cells, the piece's included (on a top-out, its cells inside the field). */
  paint: Paint[][];
  lines: number;
  toppedOut: boolean;
}

export function lockOnField(
  board: Board,
  paint: readonly (readonly Paint[])[],
  cells: readonly Cell[],
  piece: Piece,
): Locked {
  const rows = board.height;
  const painted = paint.map((row) => row.slice());
  const reach = Math.max(...cells.map(([, y]) => y)) + 1;
  const placed = reach <= rows + ROWS_OVER ? board.withHeight(rows + ROWS_OVER).place(cells) : null;
  if (placed === null || placed.board.rows.subarray(rows).some((r) => r !== 0)) {
    for (const [x, y] of cells) if (y < rows) painted[y][x] = piece;
    return { board, paint: painted, lines: 0, toppedOut: true };
  }
  for (let i = 0; i < ROWS_OVER; i++) painted.push(new Array<Paint>(board.width).fill(null));
  for (const [x, y] of cells) painted[y][x] = piece;
  const kept = painted.filter((row) => row.some((c) => c === null)).slice(0, rows);
  return { board: placed.board.withHeight(rows), paint: kept, lines: placed.lines, toppedOut: false };
}
