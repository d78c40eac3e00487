/**
 * FullBoard: a plain TypeScript full Tetris board (docs/fullboard.md, "Rules"), one bit mask per row (bit c = column c, row 0 at
 * the bottom). It is the reference the WebAssembly engine is tested against and the value the API passes around;
 * games themselves run in the kernel (src/kernels/fullboard.ts).
 *
 * Rules: width 4..10, height 4..24 (default 10 × 20); a move is an orientation and a left column, dropped
 * straight down until it rests on a filled cell or the floor; full rows are then removed; a move that would put
 * any cell in row `height` or above loses (checked before rows are cleared, as in the CS3243 rules of the GA report).
 */
import { StackRankError, describe, optionNames, optionsObject, requireDenseArray } from '../errors.js';
import {
  ORIENTATIONS,
  PIECES,
  orientationRowMasks,
  pieceHeight,
  requireOrientation,
  toPieceId,
  type Orientation,
  type Piece,
} from '../pieces.js';
import { columnHeights, countHoles, maxHeight, popcount, rowStrings } from '../board-rows.js';

export const MIN_WIDTH = 4;
export const MAX_WIDTH = 10;
export const MIN_HEIGHT = 4;
export const MAX_HEIGHT = 24;
/** The standard board. */
export const DEFAULT_WIDTH = 10;
export const DEFAULT_HEIGHT = 20;

export interface BoardSize {
  width?: number;
  height?: number;
}

const BOARD_SIZE_OPTIONS = optionNames<BoardSize>({ width: true, height: true });

/** A move of the full board: the piece, an orientation index into ORIENTATIONS[piece] and its left column. */
export interface FullMove {
  piece: Piece;
  orientation: number;
  x: number;
}

/** What dropping a move did: the board after it, and the inputs of the move-dependent features. */
export interface DropResult {
  board: FullBoard;
  lines: number;
  /** Cells of the placed piece inside the removed rows. */
  erodedCells: number;
  /** Row of the piece's lowest cell after the drop, before rows are removed. */
  landingRow: number;
  pieceHeight: number;
}

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

export class FullBoard {
  readonly width: number;
  readonly height: number;
  /** rows[r] = bit mask of filled cells in row r (bottom row 0). */
  readonly rows: Uint32Array;

  constructor(size: BoardSize = {}, rows?: ArrayLike<number>) {
    const sz = optionsObject('FullBoard', size, BOARD_SIZE_OPTIONS);
    const { width, height } = checkSize(sz.width ?? DEFAULT_WIDTH, sz.height ?? DEFAULT_HEIGHT);
    this.width = width;
    this.height = height;
    this.rows = new Uint32Array(height);
    if (rows !== undefined && rows !== null) {
      if (typeof rows !== 'object' || typeof rows.length !== 'number')
        throw new StackRankError('BAD_ARGUMENT', `rows must be an array of row masks; got ${describe(rows)}`);
      if (rows.length > height)
        throw new StackRankError('BAD_ARGUMENT', `a ${width}×${height} board has ${height} rows; got ${rows.length}`);
      const full = this.fullMask;
      for (let r = 0; r < rows.length; r++) {
        const m = rows[r];
        if (!Number.isInteger(m) || m < 0 || m > full) {
          throw new StackRankError('BAD_ARGUMENT', `row ${r} must be a mask from 0 to ${full}; got ${describe(m)}`);
        }
        // As fromRows refuses one: the moves on such a board would clear it without counting it.
        if (m === full)
          throw new StackRankError('BAD_ARGUMENT', `row ${r} is full; full rows are cleared and cannot stand`);
        this.rows[r] = m;
      }
    }
  }

  /** Mask of a full row. */
  get fullMask(): number {
    return (1 << this.width) - 1;
  }

  /**
   * Parses ASCII rows, TOP row first: '#', 'X' or 'x' is a filled cell, '.' or ' ' an empty one, every row exactly
   * `width` characters (width defaults to the first row's length). The given rows are the bottom of the board;
   * rows above them are empty. A full row cannot stand (it would have been cleared) and is rejected.
   */
  static fromRows(lines: readonly string[] | string, options: BoardSize = {}): FullBoard {
    const size = optionsObject('FullBoard.fromRows', options, BOARD_SIZE_OPTIONS);
    const list = typeof lines === 'string' ? lines.split('\n').filter((l) => l.trim() !== '') : lines;
    if (!Array.isArray(list))
      throw new StackRankError('BAD_ARGUMENT', `board rows must be an array of strings; got ${describe(lines)}`);
    requireDenseArray('BAD_ARGUMENT', 'board rows', list);
    const first: unknown = list[0];
    if (list.length > 0 && typeof first !== 'string') {
      throw new StackRankError(
        'BAD_ARGUMENT',
        `board row 1 (from the top) must be a string of '#' and '.'; got ${describe(first)}`,
      );
    }
    const width = size.width ?? (list.length > 0 ? (first as string).length : 10);
    const height = size.height ?? 20;
    checkSize(width, height);
    if (list.length > height) {
      throw new StackRankError('BAD_ARGUMENT', `board has ${list.length} rows but its height is ${height}`);
    }
    const masks: number[] = [];
    for (let i = list.length - 1; i >= 0; i--) {
      const line = list[i];
      if (typeof line !== 'string' || line.length !== width) {
        throw new StackRankError(
          'BAD_ARGUMENT',
          `board row ${i + 1} (from the top) must be ${width} characters of '#' or '.'; got ${describe(line)}`,
        );
      }
      let m = 0;
      for (let c = 0; c < width; c++) {
        const ch = line[c];
        if (ch === '#' || ch === 'X' || ch === 'x') m |= 1 << c;
        else if (ch !== '.' && ch !== ' ') {
          throw new StackRankError(
            'BAD_ARGUMENT',
            `board row ${i + 1} (from the top) has ${describe(ch)} at column ${c}; use '#' for filled and '.' for empty`,
          );
        }
      }
      if (m === (1 << width) - 1)
        throw new StackRankError(
          'BAD_ARGUMENT',
          `board row ${i + 1} (from the top) is full; full rows are cleared and cannot stand`,
        );
      masks.push(m);
    }
    return new FullBoard({ width, height }, masks);
  }

  /** ASCII rows, top first, from the highest non-empty row down (an empty board gives []); '#' filled, '.' empty. */
  toRows(): string[] {
    return rowStrings(this.rows, this.width, this.maxHeight());
  }

  toString(): string {
    return this.toRows().join('\n');
  }

  clone(): FullBoard {
    return new FullBoard({ width: this.width, height: this.height }, this.rows);
  }

  filled(row: number, col: number): boolean {
    if (typeof row !== 'number' || typeof col !== 'number')
      throw new StackRankError(
        'BAD_ARGUMENT',
        `filled(row, col) takes two numbers; got ${describe(row)}, ${describe(col)}`,
      );
    return row >= 0 && row < this.height && col >= 0 && col < this.width && ((this.rows[row] >> col) & 1) === 1;
  }

  /** Column heights: the row above each column's highest filled cell (0 for an empty column). */
  heights(): number[] {
    return columnHeights(this.rows, this.width);
  }

  /** Highest column height. */
  maxHeight(): number {
    return maxHeight(this.rows);
  }

  /** Empty cells with at least one filled cell above them in their column. */
  holes(): number {
    return countHoles(this.rows, this.width);
  }

  /** Number of filled cells. */
  cells(): number {
    let n = 0;
    for (let r = 0; r < this.height; r++) n += popcount(this.rows[r]);
    return n;
  }

  /**
   * Every move of `piece` that does not lose, in the kernel's order (orientation, then left column). On an
   * empty 10-wide board: O 9, I 17, T/L/J 34, S/Z 17.
   */
  legalMoves(piece: number | string): FullMove[] {
    const p = toPieceId(piece);
    const moves: FullMove[] = [];
    ORIENTATIONS[p].forEach((o, oi) => {
      for (let x = 0; x + o.width <= this.width; x++) {
        if (this.landing(o, x) + pieceHeight(o) <= this.height) moves.push({ piece: PIECES[p], orientation: oi, x });
      }
    });
    return moves;
  }

  /**
   * Row of the lowest cell of orientation `o` (one of ORIENTATIONS[piece]) dropped straight down with its left
   * column at x.
   */
  landingRow(o: Orientation, x: number): number {
    requireOrientation('landingRow', o);
    if (!Number.isInteger(x) || x < 0 || x + o.width > this.width)
      throw new StackRankError(
        'BAD_ARGUMENT',
        `column x must be an integer from 0 to ${this.width - o.width} for this orientation; got ${describe(x)}`,
      );
    return this.landing(o, x);
  }

  /** landingRow on checked arguments (legalMoves' and place's own). */
  private landing(o: Orientation, x: number): number {
    const h = this.heights();
    let y = 0;
    for (let j = 0; j < o.width; j++) y = Math.max(y, h[x + j] - o.bot[j]);
    return y;
  }

  /**
   * Places a move and removes full rows. Returns null when the move loses (a cell would reach row `height`);
   * throws BAD_ARGUMENT for an orientation or column that does not exist.
   */
  place(piece: number | string, orientation: number, x: number): DropResult | null {
    const p = toPieceId(piece);
    const os = ORIENTATIONS[p];
    if (!Number.isInteger(orientation) || orientation < 0 || orientation >= os.length) {
      throw new StackRankError(
        'BAD_ARGUMENT',
        `piece ${PIECES[p]} has orientations 0..${os.length - 1}; got ${describe(orientation)}`,
      );
    }
    const o = os[orientation];
    if (!Number.isInteger(x) || x < 0 || x + o.width > this.width) {
      throw new StackRankError(
        'BAD_ARGUMENT',
        `column x must be an integer from 0 to ${this.width - o.width} for this orientation; got ${describe(x)}`,
      );
    }
    const y = this.landing(o, x);
    const ph = pieceHeight(o);
    if (y + ph > this.height) return null;
    const masks = orientationRowMasks(o);
    const rows = Array.from(this.rows);
    let lines = 0;
    let eroded = 0;
    for (let r = 0; r < ph; r++) {
      rows[y + r] |= masks[r] << x;
      if (rows[y + r] === this.fullMask) {
        lines++;
        for (let v = masks[r]; v; v &= v - 1) eroded++;
      }
    }
    const kept = rows.filter((m) => m !== this.fullMask);
    const board = new FullBoard({ width: this.width, height: this.height }, kept);
    return { board, lines, erodedCells: eroded, landingRow: y, pieceHeight: ph };
  }
}
