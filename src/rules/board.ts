/**
 * Board: a real Tetris playfield for the rules layer, one bit row per row (bit x = column x, row 0 at the bottom).
 * Width 4..10, height 4..40 (the guideline's full 40-row matrix fits). Coordinates as everywhere in the rules
 * layer: `x` = column from the left (0), `y` = row from the bottom (0); docs/rules.md ("Real games").
 *
 * Operations that build a new board (`withCells`, `withHeight`, `clone`) leave this one alone; `clearLines()` is
 * the one mutating call (a game loop places a piece, then clears in place).
 */
import { StackRankError, describe, fieldsOnce } from '../errors.js';
import { columnHeights, countHoles, rowBits, rowStrings } from '../board-rows.js';
import type { BoardLike, Cell } from './types.js';

export const BOARD_MIN_WIDTH = 4;
export const BOARD_MAX_WIDTH = 10;
export const BOARD_MIN_HEIGHT = 4;
export const BOARD_MAX_HEIGHT = 40;
/** The constructor's first argument from this module's factories; a caller's `new Board(...)` is refused. */
const INTERNAL: unique symbol = Symbol('Board');

function checkWidth(width: unknown): number {
  if (typeof width !== 'number' || !Number.isInteger(width) || width < BOARD_MIN_WIDTH || width > BOARD_MAX_WIDTH) {
    throw new StackRankError(
      'BAD_BOARD',
      `board width must be an integer from ${BOARD_MIN_WIDTH} to ${BOARD_MAX_WIDTH}; got ${describe(width)}`,
    );
  }
  return width;
}

function checkHeight(height: unknown): number {
  if (
    typeof height !== 'number' ||
    !Number.isInteger(height) ||
    height < BOARD_MIN_HEIGHT ||
    height > BOARD_MAX_HEIGHT
  ) {
    throw new StackRankError(
      'BAD_BOARD',
      `board height must be an integer from ${BOARD_MIN_HEIGHT} to ${BOARD_MAX_HEIGHT}; got ${describe(height)}`,
    );
  }
  return height;
}

export class Board {
  readonly width: number;
  readonly height: number;
  /** rows[y] = bit mask of the filled cells of row y (bottom row 0). Treat as read-only outside this class. */
  readonly rows: Uint16Array;

  private constructor(token: typeof INTERNAL, width: number, height: number, rows: Uint16Array) {
    if (token !== INTERNAL)
      throw new StackRankError(
        'BAD_ARGUMENT',
        'Board has no public constructor: use Board.empty(width, height), Board.fromRows(rows), Board.fromBits(rows, width) or Board.from(board)',
      );
    this.width = width;
    this.height = height;
    this.rows = rows;
  }

  /** An empty board (default 10 × 20). */
  static empty(width = 10, height = 20): Board {
    return new Board(INTERNAL, checkWidth(width), checkHeight(height), new Uint16Array(height));
  }

  /**
   * Rows of strings, top row first: `.` is an empty cell, any other character a filled one. All rows must have
   * the same length (the width). `height` (default: the number of rows) pads the board with empty rows on top,
   * so a test can draw only the bottom of a 20-row board.
   */
  static fromRows(rowsTopFirst: readonly string[], height?: number): Board {
    if (!Array.isArray(rowsTopFirst) || rowsTopFirst.length === 0) {
      throw new StackRankError(
        'BAD_BOARD',
        `a board must be a non-empty array of row strings, top row first; got ${describe(rowsTopFirst)}`,
      );
    }
    for (const row of rowsTopFirst) {
      if (typeof row !== 'string')
        throw new StackRankError(
          'BAD_BOARD',
          `every board row must be a string ('.' empty, anything else filled); got ${describe(row)}`,
        );
    }
    const width = rowsTopFirst[0].length;
    rowsTopFirst.forEach((row, i) => {
      if (row.length !== width) {
        throw new StackRankError(
          'BAD_BOARD',
          `board rows must all have the same width: row ${i} (from the top) has ${row.length} cells, row 0 has ${width}`,
        );
      }
    });
    checkWidth(width);
    if (height === undefined && rowsTopFirst.length < BOARD_MIN_HEIGHT)
      throw new StackRankError(
        'BAD_BOARD',
        `a board has ${BOARD_MIN_HEIGHT} to ${BOARD_MAX_HEIGHT} rows; got ${rowsTopFirst.length} (give the height, e.g. fromRows(rows, 20), to pad the rows given with empty rows on top)`,
      );
    const h = checkHeight(height ?? rowsTopFirst.length);
    if (rowsTopFirst.length > h) {
      throw new StackRankError('BAD_BOARD', `${rowsTopFirst.length} rows do not fit a board of height ${h}`);
    }
    const rows = new Uint16Array(h);
    const n = rowsTopFirst.length;
    for (let i = 0; i < n; i++) {
      rows[n - 1 - i] = rowBits(rowsTopFirst[i], width);
    }
    return new Board(INTERNAL, width, h, rows);
  }

  /**
   * Bit rows, bottom row first (bit x set = column x filled), as the library's other boards store them.
   * `height` defaults to the number of rows given; rows above the given ones are empty.
   */
  static fromBits(rowsBottomFirst: ArrayLike<number>, width: number, height?: number): Board {
    checkWidth(width);
    if (rowsBottomFirst == null || typeof rowsBottomFirst.length !== 'number') {
      throw new StackRankError(
        'BAD_BOARD',
        `bit rows must be an array of integers, bottom row first; got ${describe(rowsBottomFirst)}`,
      );
    }
    const h = checkHeight(height ?? rowsBottomFirst.length);
    if (rowsBottomFirst.length > h)
      throw new StackRankError('BAD_BOARD', `${rowsBottomFirst.length} rows do not fit a board of height ${h}`);
    const rows = new Uint16Array(h);
    const full = (1 << width) - 1;
    for (let y = 0; y < rowsBottomFirst.length; y++) {
      const v = rowsBottomFirst[y];
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > full) {
        throw new StackRankError(
          'BAD_BOARD',
          `bit row ${y} must be an integer from 0 to ${full} (width ${width}); got ${describe(v)}`,
        );
      }
      rows[y] = v;
    }
    return new Board(INTERNAL, width, h, rows);
  }

  /** A Board, rows of strings (top first) or `{ width, rows }` bit rows (bottom first): the shapes BoardLike allows. */
  static from(board: Board | BoardLike): Board {
    if (board !== null && typeof board === 'object') {
      // A Board of ours is returned at once (hot paths pass them); a caller's object is read once (docs/errors.md):
      // a Proxy whose getPrototypeOf or has trap throws, a revoked one, a getter that throws is BAD_ARGUMENT.
      let isArray: boolean;
      try {
        if (board instanceof Board) return board;
        isArray = Array.isArray(board);
      } catch (e) {
        throw new StackRankError('BAD_ARGUMENT', 'Board.from: the board could not be read', { cause: e });
      }
      if (isArray) return Board.fromRows(board as readonly string[]);
      const fields = fieldsOnce('Board.from', board, ['rows', 'width', 'height']);
      if ('rows' in fields && 'width' in fields) {
        // A height given beside the bit rows is the board's (checked by fromBits), as nextMove reads it.
        return Board.fromBits(
          fields.rows as ArrayLike<number>,
          fields.width as number,
          fields.height as number | undefined,
        );
      }
    }
    throw new StackRankError(
      'BAD_BOARD',
      `a board is a Board, an array of row strings (top row first) or { width, rows } bit rows (bottom row first); got ${describe(board)}`,
    );
  }

  /** Whether (x, y) is blocked: filled cells, the walls (x < 0 or x ≥ width) and the floor (y < 0). Above the top is open. */
  filled(x: number, y: number): boolean {
    if (!Number.isInteger(x) || !Number.isInteger(y))
      throw new StackRankError('BAD_ARGUMENT', `a cell is integers x, y; got x ${describe(x)}, y ${describe(y)}`);
    if (x < 0 || x >= this.width || y < 0) return true;
    if (y >= this.height) return false;
    return ((this.rows[y] >> x) & 1) === 1;
  }

  /** Column heights: 1 + the highest filled row of each column, 0 for an empty column. */
  heights(): number[] {
    return columnHeights(this.rows, this.width);
  }

  /** Empty cells with a filled cell somewhere above them in the same column. */
  holes(): number {
    return countHoles(this.rows, this.width);
  }

  /** Rows of strings, top row first: `.` empty, `#` filled (the format `fromRows` reads). */
  toRows(): string[] {
    return rowStrings(this.rows, this.width, this.height);
  }

  toString(): string {
    return this.toRows().join('\n');
  }

  clone(): Board {
    return new Board(INTERNAL, this.width, this.height, this.rows.slice());
  }

  equals(other: Board): boolean {
    if (!(other instanceof Board))
      throw new StackRankError('BAD_ARGUMENT', `a board compares with a Board; got ${describe(other)}`);
    if (other.width !== this.width || other.height !== this.height) return false;
    for (let y = 0; y < this.height; y++) if (other.rows[y] !== this.rows[y]) return false;
    return true;
  }

  /**
   * The same stack in a board of another height (4..40): taller adds empty rows on top; shorter drops empty top
   * rows and refuses to drop filled ones. Guideline placements may rest in rows 20..39 of the 40-row matrix, so a
   * 20-row board takes them after `withHeight(40)`.
   */
  withHeight(height: number): Board {
    const h = checkHeight(height);
    for (let y = h; y < this.height; y++) {
      if (this.rows[y] !== 0)
        throw new StackRankError('BAD_BOARD', `cannot shrink the board to ${h} rows: row ${y} is not empty`);
    }
    const rows = new Uint16Array(h);
    rows.set(this.rows.subarray(0, Math.min(h, this.height)));
    return new Board(INTERNAL, this.width, h, rows);
  }

  /** A new board with the given cells filled (no lines cleared). Each cell must be inside the board and empty. */
  withCells(cells: readonly Cell[]): Board {
    if (!Array.isArray(cells))
      throw new StackRankError('BAD_ARGUMENT', `cells must be an array of [x, y] pairs; got ${describe(cells)}`);
    const rows = this.rows.slice();
    for (const c of cells) {
      const ok = Array.isArray(c) && c.length === 2 && Number.isInteger(c[0]) && Number.isInteger(c[1]);
      if (!ok) throw new StackRankError('BAD_ARGUMENT', `a cell is an [x, y] pair of integers; got ${describe(c)}`);
      const [x, y] = c;
      if (x < 0 || x >= this.width || y < 0 || y >= this.height) {
        throw new StackRankError(
          'BAD_ARGUMENT',
          `cell [${x}, ${y}] is outside the ${this.width} × ${this.height} board (x 0..${this.width - 1}, y 0..${this.height - 1})`,
        );
      }
      if ((rows[y] >> x) & 1) throw new StackRankError('BAD_ARGUMENT', `cell [${x}, ${y}] is already filled`);
      rows[y] |= 1 << x;
    }
    return new Board(INTERNAL, this.width, this.height, rows);
  }

  /** Removes every full row of THIS board (rows above move down) and returns how many were removed. */
  clearLines(): number {
    const full = (1 << this.width) - 1;
    let to = 0;
    for (let y = 0; y < this.height; y++) {
      const r = this.rows[y];
      if (r !== full) this.rows[to++] = r;
    }
    const cleared = this.height - to;
    this.rows.fill(0, to);
    return cleared;
  }

  /** `withCells(cells)` then `clearLines()` on the new board: the board after a piece locks, and the lines it cleared. */
  place(cells: readonly Cell[]): { board: Board; lines: number } {
    const board = this.withCells(cells);
    const lines = board.clearLines();
    return { board, lines };
  }
}
