/**
 * Small bit-row helpers the game AI runs on: rows bottom first, bit x = column x filled. Kept apart from the rules
 * layer's Board so the searches copy plain typed arrays instead of objects.
 */
import type { Cell } from '../rules/types.js';

export { columnHeights, popcount } from '../rules/board.js';

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

/** Locks `cells` onto `rows` and clears full rows (rows above fall). Cells must be empty and on the board. */
export function lockCells(rows: ArrayLike<number>, width: number, cells: readonly Cell[]): Locked {
  const out = Uint32Array.from(rows);
  let low = Infinity;
  let high = -Infinity;
  for (const [x, y] of cells) {
    out[y] |= 1 << x;
    if (y < low) low = y;
    if (y > high) high = y;
  }
  const full = (1 << width) - 1;
  let lines = 0;
  let erodedCells = 0;
  let write = 0;
  for (let r = 0; r < out.length; r++) {
    if (out[r] === full) {
      lines++;
      for (const [, y] of cells) if (y === r) erodedCells++;
      continue;
    }
    out[write++] = out[r];
  }
  out.fill(0, write);
  return { rows: out, lines, erodedCells, landingRow: low, pieceHeight: high - low + 1 };
}

/** The board mirrored left-right. */
export function mirrorRows(rows: ArrayLike<number>, width: number): Uint32Array {
  const out = new Uint32Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    let m = 0;
    for (let v = rows[r]; v; v &= v - 1) m |= 1 << (width - 1 - (31 - Math.clz32(v & -v)));
    out[r] = m;
  }
  return out;
}

/** A canonical key of a set of cells (order-free), to compare placements by the cells they occupy. */
export function cellsKey(cells: readonly Cell[]): string {
  return cells
    .map(([x, y]) => y * 64 + x)
    .sort((a, b) => a - b)
    .join(',');
}
