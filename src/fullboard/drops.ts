/**
 * The full board's rules over the library's one Board (src/rules/board.ts; docs/fullboard.md, "Rules"): every move
 * is a drop, an orientation of the piece at a left column, dropped straight down until it rests on a filled cell or
 * the floor; full rows are then removed; a move that would put any cell in row `height` or above loses (checked
 * before rows are cleared, as in the CS3243 rules of the GA report). Boards are 4..10 × 4..24 (the kernel's rows)
 * and hold no full row. These functions are the pure-TypeScript reference the WebAssembly engine is tested
 * against; games themselves run in the kernel (src/kernels/fullboard.ts).
 */
import { StackRankError, describe, fieldsOnce } from '../errors.js';
import { ORIENTATIONS, PIECES, orientationRowMasks, pieceHeight, toPieceId, type Orientation } from '../pieces.js';
import { columnHeights } from '../board-rows.js';
import { Board } from '../rules/board.js';
import { classicMove } from '../rules/rotation-systems.js';
import type { PieceMove } from '../rules/types.js';

export const MIN_WIDTH = 4;
export const MAX_WIDTH = 10;
export const MIN_HEIGHT = 4;
export const MAX_HEIGHT = 24;
/** The standard board. */
export const DEFAULT_WIDTH = 10;
export const DEFAULT_HEIGHT = 20;

/**
 * Which drop: the piece, its rotation (the classic rule set's state name, the orientation index as a string '0'…)
 * and its left column: the first fields of a PieceMove, whose `y` and `cells` follow from the board.
 */
export type Drop = Pick<PieceMove, 'piece' | 'rotation' | 'x'>;

/** The figures of a drop that the move-dependent features read (zeros for a board on its own: NO_DROP). */
export interface DropFigures {
  /** Rows removed by the drop. */
  lines: number;
  /** Cells of the placed piece inside the removed rows. */
  erodedCells: number;
  /** Row of the piece's lowest cell after the drop (before rows are removed): the move's `y`. */
  landingRow: number;
  /** Height of the placed orientation in rows. */
  pieceHeight: number;
}

/** What a drop did: the move (where the piece came to rest), the board after it and its figures. */
export interface DropResult extends DropFigures {
  move: PieceMove;
  board: Board;
}

/** Width and height of a full board given as options (playFullGame, playFullGames, trainWeights). */
export function checkSize(width: unknown, height: unknown): { width: number; height: number } {
  if (typeof width !== 'number' || !Number.isInteger(width) || width < MIN_WIDTH || width > MAX_WIDTH) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `board width must be an integer from ${MIN_WIDTH} to ${MAX_WIDTH}; got ${describe(width)}`,
    );
  }
  if (typeof height !== 'number' || !Number.isInteger(height) || height < MIN_HEIGHT || height > MAX_HEIGHT) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `board height must be an integer from ${MIN_HEIGHT} to ${MAX_HEIGHT}; got ${describe(height)}`,
    );
  }
  return { width, height };
}

/**
 * A board the full-board player takes: a Board at most MAX_HEIGHT rows high with no full row (a full row is
 * removed when it fills; the kernel would clear one left standing without counting it).
 */
export function checkFullBoard(board: unknown, what: string): Board {
  if (!isBoard(board, what)) {
    throw new StackRankError(
      'BAD_BOARD',
      `${what} takes a Board (Board.fromRows(rows, height), Board.empty(width, height)); got ${describe(board)}`,
    );
  }
  if (board.height > MAX_HEIGHT) {
    throw new StackRankError(
      'BAD_BOARD',
      `${what} plays boards ${MIN_WIDTH}..${MAX_WIDTH} wide and ${MIN_HEIGHT}..${MAX_HEIGHT} high; got ${board.width} × ${board.height}`,
    );
  }
  const full = (1 << board.width) - 1;
  for (let y = 0; y < board.height; y++) {
    if (board.rows[y] === full) {
      throw new StackRankError(
        'BAD_BOARD',
        `${what} takes a board with no full row (full rows are cleared when they fill: board.clearLines()); row ${y} is full`,
      );
    }
  }
  return board;
}

/** `board instanceof Board`, a Proxy whose getPrototypeOf trap throws (or a revoked one) BAD_ARGUMENT naming `what`. */
function isBoard(board: unknown, what: string): board is Board {
  try {
    return board instanceof Board;
  } catch (e) {
    throw new StackRankError('BAD_ARGUMENT', `${what}: the board could not be read`, { cause: e });
  }
}

/** Row of the lowest cell of orientation `o` dropped straight down with its left column at x. */
function landing(heights: readonly number[], o: Orientation, x: number): number {
  let y = 0;
  for (let j = 0; j < o.width; j++) y = Math.max(y, heights[x + j] - o.bot[j]);
  return y;
}

/**
 * Every drop of `piece` that does not lose, in the kernel's order (orientation, then left column), as the moves
 * every AI answers with (classic terms: `rotation` the orientation index, `x` the left column, `y` the lowest row).
 * On an empty 10-wide board: O 9, I 17, T/L/J 34, S/Z 17.
 */
export function legalDrops(board: Board, piece: number | string): PieceMove[] {
  checkFullBoard(board, 'legalDrops');
  const p = toPieceId(piece);
  const h = columnHeights(board.rows, board.width);
  const moves: PieceMove[] = [];
  ORIENTATIONS[p].forEach((o, oi) => {
    for (let x = 0; x + o.width <= board.width; x++) {
      const y = landing(h, o, x);
      if (y + pieceHeight(o) <= board.height) moves.push(classicMove(p, oi, x, y));
    }
  });
  return moves;
}

/** The orientation index of a drop's rotation, checked ('0' … one less than the piece's orientation count). */
export function dropOrientation(p: number, rotation: unknown): number {
  const count = ORIENTATIONS[p].length;
  const oi = typeof rotation === 'string' && /^[0-3]$/.test(rotation) ? Number(rotation) : -1;
  if (oi < 0 || oi >= count) {
    const names = Array.from({ length: count }, (_, i) => `'${i}'`).join(', ');
    throw new StackRankError(
      'BAD_ARGUMENT',
      `piece ${PIECES[p]} has rotations ${names} (the orientation index); got ${describe(rotation)}`,
    );
  }
  return oi;
}

/**
 * A caller's drop checked on `board`: its piece, orientation and column, each field read once (a getter answering
 * one column to the check and another to the kernel would index outside the board). BAD_ARGUMENT naming `what`.
 */
export function checkDrop(board: Board, drop: unknown, what: string): { p: number; orientation: number; x: number } {
  if (drop === null || typeof drop !== 'object')
    throw new StackRankError('BAD_ARGUMENT', `${what}: a drop is { piece, rotation, x }; got ${describe(drop)}`);
  const { piece, rotation, x } = fieldsOnce(what, drop, ['piece', 'rotation', 'x']);
  const p = toPieceId(piece);
  const orientation = dropOrientation(p, rotation);
  const o = ORIENTATIONS[p][orientation];
  if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x + o.width > board.width)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `column x must be an integer from 0 to ${board.width - o.width} for this rotation; got ${describe(x)}`,
    );
  return { p, orientation, x };
}

/**
 * Drops a piece (`{ piece, rotation, x }`: any PieceMove will do) and removes full rows. Returns null when the drop
 * loses (a cell would reach row `height`); throws BAD_ARGUMENT for a rotation or column that does not exist.
 */
export function dropPiece(board: Board, drop: Drop): DropResult | null {
  checkFullBoard(board, 'dropPiece');
  const { p, orientation, x } = checkDrop(board, drop, 'dropPiece');
  const o = ORIENTATIONS[p][orientation];
  const y = landing(columnHeights(board.rows, board.width), o, x);
  const ph = pieceHeight(o);
  if (y + ph > board.height) return null;
  const masks = orientationRowMasks(o);
  const full = (1 << board.width) - 1;
  const rows = Array.from(board.rows);
  let lines = 0;
  let eroded = 0;
  for (let r = 0; r < ph; r++) {
    rows[y + r] |= masks[r] << x;
    if (rows[y + r] === full) {
      lines++;
      for (let v = masks[r]; v; v &= v - 1) eroded++;
    }
  }
  const kept = rows.filter((m) => m !== full);
  return {
    move: classicMove(p, orientation, x, y),
    board: Board.fromBits(kept, board.width, board.height),
    lines,
    erodedCells: eroded,
    landingRow: y,
    pieceHeight: ph,
  };
}
