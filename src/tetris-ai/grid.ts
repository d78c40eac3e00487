/**
 * The game AI's moves on bit rows (src/board-rows.ts): locking, clearing, stack floors, cell keys. Its searches work
 * on the rows themselves rather than on the rules layer's Board, so they copy plain typed arrays, not objects.
 */
import type { Cell } from '../rules/types.js';

/** True when no empty cell has a filled cell above it in its column. */
export function isHoleFree(rows: ArrayLike<number>, width: number): boolean {
  const full = (1 << width) - 1;
  let covered = 0;
  for (let r = rows.length - 1; r >= 0; r--) {
    if (~rows[r] & covered & full) return false;
    covered |= rows[r];
  }
  return true;
}

/** Filled cells in a column. */
export function columnCells(rows: ArrayLike<number>, column: number): number {
  let n = 0;
  for (let r = 0; r < rows.length; r++) n += (rows[r] >> column) & 1;
  return n;
}

/**
 * Whether the board is a clean stack for a well in `wellColumn`: no holes anywhere and nothing in the well.
 * (With no holes, a well no higher than the lowest stack column is an empty well: any filled well cell would sit
 * in a row full across the board, and full rows are cleared.)
 */
export function isCleanStack(rows: ArrayLike<number>, width: number, wellColumn: number): boolean {
  return isHoleFree(rows, width) && columnCells(rows, wellColumn) === 0;
}

export interface Locked {
  /** Rows after the piece locked and full rows were cleared (same length as the input). */
  rows: Uint32Array;
  lines: number;
  /** Cells of the piece in the cleared rows. */
  erodedCells: number;
  /** Lowest and highest row of the piece before clearing. */
  landingRow: number;
  pieceHeight: number;
}

/**
 * The floor of the clean stack on this board for a well in `wellColumn`, or -1 when there is none. The floor is the
 * well column's height: a clean stack stands on it when every row from the floor up is hole-free and every other
 * column reaches at least the floor. The rows under the floor are buried (garbage, covered holes) and are played
 * over as if they were the field's bottom: an I down the well lands on the floor and clears the four rows above it
 * exactly when the surface model says so. Floor 0 is a clean stack (isCleanStack).
 */
export function stackFloor(rows: ArrayLike<number>, width: number, wellColumn: number): number {
  const full = (1 << width) - 1;
  let floor = 0;
  for (let r = rows.length - 1; r >= 0; r--) {
    if ((rows[r] >> wellColumn) & 1) {
      floor = r + 1;
      break;
    }
  }
  let covered = 0;
  for (let r = rows.length - 1; r >= floor; r--) {
    if (~rows[r] & covered & full) return -1;
    covered |= rows[r];
  }
  if (floor > 0 && (covered | rows[floor - 1]) !== full) return -1;
  return floor;
}

/**
 * Bytes of the blocks lockCells's boards are cut from. A typed array of a board's size gets memory of its own
 * (allocated and later freed outside the JS heap), which cost more than the lock itself; a view into a shared block
 * is an ordinary object. Blocks are never reused: a board keeps its block alive, and the block is freed with the last.
 */
const ROWS_BLOCK_BYTES = 1 << 16;
let rowsBlock: ArrayBuffer | null = null;
let rowsBlockUsed = 0;

/** A zeroed Uint32Array of `length` words that no other array shares words with. */
function freshRows(length: number): Uint32Array {
  const bytes = length * 4;
  if (bytes > ROWS_BLOCK_BYTES) return new Uint32Array(length);
  if (!rowsBlock || rowsBlockUsed + bytes > ROWS_BLOCK_BYTES) {
    rowsBlock = new ArrayBuffer(ROWS_BLOCK_BYTES);
    rowsBlockUsed = 0;
  }
  const out = new Uint32Array(rowsBlock, rowsBlockUsed, length);
  rowsBlockUsed += bytes;
  return out;
}

/** Locks `cells` onto `rows` and clears full rows (rows above fall). Cells must be empty and on the board. */
export function lockCells(rows: ArrayLike<number>, width: number, cells: readonly Cell[]): Locked {
  // The game's searches lock thousands of pieces per move: plain loops, no iterators or destructuring.
  const out = freshRows(rows.length);
  out.set(rows);
  let low = Infinity;
  let high = -Infinity;
  for (let i = 0; i < cells.length; i++) {
    const y = cells[i][1];
    out[y] |= 1 << cells[i][0];
    if (y < low) low = y;
    if (y > high) high = y;
  }
  const full = (1 << width) - 1;
  let erodedCells = 0;
  for (let i = 0; i < cells.length; i++) if (out[cells[i][1]] === full) erodedCells++;
  const lines = clearFullRows(out, full, low, high);
  return { rows: out, lines, erodedCells, landingRow: low, pieceHeight: high - low + 1 };
}

/**
 * A canonical key of a piece's four cells (order-free), to compare placements by the cells they occupy: the cells
 * as y * 64 + x (under 4096 for rows below 64), sorted, as digits of base 4096 (exact in a double).
 */
export function cellsKey(cells: readonly Cell[]): number {
  if (cells.length !== 4) throw new Error(`cellsKey takes a piece's 4 cells; got ${cells.length}`);
  return cellsKeyOf(
    cells[0][1] * 64 + cells[0][0],
    cells[1][1] * 64 + cells[1][0],
    cells[2][1] * 64 + cells[2][0],
    cells[3][1] * 64 + cells[3][0],
  );
}

/** cellsKey of four cells given as y * 64 + x each, in any order (no array needed). */
export function cellsKeyOf(a: number, b: number, c: number, d: number): number {
  let t: number;
  // A sorting network for four values.
  if (a > b) (t = a), (a = b), (b = t);
  if (c > d) (t = c), (c = d), (d = t);
  if (a > c) (t = a), (a = c), (c = t);
  if (b > d) (t = b), (b = d), (d = t);
  if (b > c) (t = b), (b = c), (c = t);
  return ((a * 4096 + b) * 4096 + c) * 4096 + d;
}

/**
 * Moving four cells by (x, y) adds 64 y + x to each digit and keeps their order, so the key grows by
 * (64 y + x) · CELLS_KEY_SHIFT: a rotation state's key around its reference point gives every placement's key.
 */
export const CELLS_KEY_SHIFT = ((4096 + 1) * 4096 + 1) * 4096 + 1;

/**
 * How many rows of `rows` the cells, moved by (x, y), fill: the lines locking them clears (lockCells's `lines`),
 * without locking them.
 */
export function rowsFilled(rows: ArrayLike<number>, width: number, cells: readonly Cell[], x = 0, y = 0): number {
  const full = (1 << width) - 1;
  let filled = 0;
  for (let i = 0; i < cells.length; i++) {
    const row = cells[i][1];
    let counted = false;
    for (let j = 0; j < i; j++) counted ||= cells[j][1] === row;
    if (counted) continue; // each row once
    let m = rows[y + row];
    for (let j = i; j < cells.length; j++) if (cells[j][1] === row) m |= 1 << (x + cells[j][0]);
    if (m === full) filled++;
  }
  return filled;
}

/**
 * Whether locking the cells empties the board (a perfect clear): every row of `rows`, with the cells in it, ends full
 * (cleared) or empty. The cells must lie in rows below rows.length.
 */
export function clearsBoard(rows: ArrayLike<number>, width: number, cells: readonly Cell[]): boolean {
  const full = (1 << width) - 1;
  for (let y = 0; y < rows.length; y++) {
    let m = rows[y];
    for (const c of cells) if (c[1] === y) m |= 1 << c[0];
    if (m !== 0 && m !== full) return false;
  }
  return true;
}

/**
 * Whether the cells, moved by (x, y), fill a row of `rows` (rowsFilled > 0), read from the cells' own row masks
 * (made once per cells array: the rules layer's piece states are fixed arrays) instead of cell by cell: stack mode
 * asks it of every reachable placement when it looks for a smaller clear.
 */
export function fillsARow(
  rows: ArrayLike<number>,
  width: number,
  cells: readonly Cell[],
  x: number,
  y: number,
): boolean {
  const masks = rowMasksOf(cells);
  const full = (1 << width) - 1;
  const shift = x + masks[0];
  for (let i = 1; i < masks.length; i += 2) if ((rows[y + masks[i]] | (masks[i + 1] << shift)) === full) return true;
  return false;
}

/** [lowest dx, then per row the cells are in: dy, the row's cells as a mask from lowest dx] of a cells array. */
function rowMasksOf(cells: readonly Cell[]): Int32Array {
  let masks = ROW_MASKS.get(cells);
  if (masks) return masks;
  const minDx = Math.min(...cells.map((c) => c[0]));
  const dys = [...new Set(cells.map((c) => c[1]))];
  masks = new Int32Array(1 + 2 * dys.length);
  masks[0] = minDx;
  dys.forEach((dy, i) => {
    masks![1 + 2 * i] = dy;
    for (const [dx, cy] of cells) if (cy === dy) masks![2 + 2 * i] |= 1 << (dx - minDx);
  });
  ROW_MASKS.set(cells, masks);
  return masks;
}
const ROW_MASKS = new WeakMap<readonly Cell[], Int32Array>();

/**
 * Locks `cells` onto `rows` in place and clears full rows (rows above fall); returns the lines cleared. The rows
 * before the lock hold no full row. (lockCells's result, without a new array: the simulator's own board.)
 */
export function lockInPlace(rows: Uint32Array, width: number, cells: readonly Cell[]): number {
  const full = (1 << width) - 1;
  let low = rows.length;
  let high = -1;
  for (let i = 0; i < cells.length; i++) {
    const y = cells[i][1];
    rows[y] |= 1 << cells[i][0];
    if (y < low) low = y;
    if (y > high) high = y;
  }
  return clearFullRows(rows, full, low, high);
}

/**
 * Clears the full rows among rows low..high (the rows a piece just locked into; no other row can be full) and lets
 * the rows above fall; returns the lines cleared.
 */
function clearFullRows(rows: Uint32Array, full: number, low: number, high: number): number {
  let lines = 0;
  let write = low;
  for (let r = low; r < rows.length; r++) {
    if (r <= high && rows[r] === full) {
      lines++;
      continue;
    }
    if (lines === 0) {
      if (r >= high) break; // nothing cleared: the rows stay where they are
      write++;
      continue;
    }
    rows[write++] = rows[r];
  }
  if (lines > 0) rows.fill(0, write);
  return lines;
}

/**
 * Column heights of the stack over a floor for a well side, written to `out` (width - 1 columns, the well left out):
 * the heights of the rows from `floor` up, mirrored for a left well (column c is board column width - 1 - c).
 */
export function frameHeightsInto(
  rows: ArrayLike<number>,
  width: number,
  side: 'right' | 'left',
  floor: number,
  out: number[],
): number[] {
  for (let c = 0; c < width - 1; c++) out[c] = 0;
  const full = (1 << width) - 1;
  let seen = 0;
  for (let r = rows.length - 1; r >= floor && seen !== full; r--) {
    for (let v = rows[r] & ~seen; v; v &= v - 1) {
      const x = 31 - Math.clz32(v & -v);
      const c = side === 'right' ? x : width - 1 - x;
      if (c < width - 1) out[c] = r + 1 - floor;
    }
    seen |= rows[r];
  }
  return out;
}

/**
 * Whether every row from `from` up is empty: after a lock and its clears, whether the game goes on (no cell at or
 * above the visible field, `from` = its height; docs/game.md).
 */
export function emptyFrom(rows: ArrayLike<number>, from: number): boolean {
  for (let r = from; r < rows.length; r++) if (rows[r] !== 0) return false;
  return true;
}
