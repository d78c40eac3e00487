/**
 * Bit rows: how every board in the library holds its cells (the one Board, which the rules layer, the game AI and
 * the full-board player share; the game AI's searches): one integer per row, row 0 at the bottom, bit x set = column x filled.
 * The measures and the text form of such rows, written once here for all of them.
 */

/** Set bits in a 32-bit word. */
export function popcount(v: number): number {
  v = v - ((v >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Column heights of bit rows (bottom first): the row above each column's highest filled cell (0 when empty). */
export function columnHeights(rows: ArrayLike<number>, width: number): number[] {
  const h = new Array<number>(width).fill(0);
  let seen = 0;
  const full = (1 << width) - 1;
  for (let r = rows.length - 1; r >= 0 && seen !== full; r--) {
    const fresh = rows[r] & ~seen;
    for (let v = fresh; v; v &= v - 1) h[31 - Math.clz32(v & -v)] = r + 1;
    seen |= rows[r];
  }
  return h;
}

/** The highest column's height: the row above the highest non-empty row (0 for an empty board). */
export function maxHeight(rows: ArrayLike<number>): number {
  for (let r = rows.length - 1; r >= 0; r--) if (rows[r] !== 0) return r + 1;
  return 0;
}

/** Holes (empty cells with a filled cell above them in their column). */
export function countHoles(rows: ArrayLike<number>, width: number): number {
  const full = (1 << width) - 1;
  let covered = 0;
  let n = 0;
  for (let r = rows.length - 1; r >= 0; r--) {
    for (let v = ~rows[r] & covered & full; v; v &= v - 1) n++;
    covered |= rows[r];
  }
  return n;
}

/** The bit row of one row string: `.` an empty cell, any other character a filled one (its first `width` cells). */
export function rowBits(row: string, width: number): number {
  let m = 0;
  for (let x = 0; x < width; x++) if (row[x] !== '.') m |= 1 << x;
  return m;
}

/** Rows `top - 1` down to 0 as strings, top row first: `#` filled, `.` empty (the form rowBits reads). */
export function rowStrings(rows: ArrayLike<number>, width: number, top: number): string[] {
  const out: string[] = [];
  for (let y = top - 1; y >= 0; y--) {
    let s = '';
    for (let x = 0; x < width; x++) s += (rows[y] >> x) & 1 ? '#' : '.';
    out.push(s);
  }
  return out;
}
