// The board measures of the BCTS features as terms of one column (or of two neighbouring columns), shared by the
// full-board kernel (assembly/fullboard/features.ts, u32 columns of boards up to 24 rows) and the recover kernel
// (assembly/recover/search.ts, u64 columns of the game's boards up to 48 rows): one definition of each, generic over
// the column mask type T (bit r = row r filled). Definitions of the features: src/fullboard/features.ts.

/** Bits 0 .. n-1 of a T (n below T's width). */
@inline export function lowBits<T>(n: i32): T {
  return (<T>1 << <T>n) - 1;
}

/** Height of a column: the row above its highest filled cell, 0 when empty. */
@inline export function columnHeight<T>(col: T): i32 {
  return <i32>(sizeof<T>() << 3) - <i32>clz<T>(col);
}

/** Row transitions between two neighbouring columns: the rows where one is filled and the other not. */
@inline export function transitionsBetween<T>(left: T, right: T): i32 {
  return <i32>popcnt<T>(left ^ right);
}

/** Column transitions of one column: the floor counts as filled, the row above the column as empty. */
@inline export function columnTransitions<T>(col: T): i32 {
  return <i32>popcnt<T>(((col << 1) | 1) ^ col);
}

/** The column's holes: its empty cells below its height `hc`. */
@inline export function holeCells<T>(col: T, hc: i32): T {
  return ~col & lowBits<T>(hc);
}

/**
 * Hole depth of one column (per hole, the filled cells directly above it up to the next empty one): every filled
 * cell but the run resting on the floor sits in a run directly above a hole.
 */
@inline export function holeDepth<T>(col: T): i32 {
  return <i32>popcnt<T>(col) - <i32>ctz<T>(~col);
}

/**
 * Σ over the well cells m of a column (empty cells with both neighbours filled) of the empty run from each one
 * down: r - (the highest filled row below r), the floor at -1.
 */
export function wellRuns<T>(col: T, m: T): i32 {
  const top = <i32>(sizeof<T>() << 3) - 1;
  let n: i32 = 0;
  while (m != 0) {
    const r = <i32>ctz<T>(m);
    n += r - top + <i32>clz<T>(col & lowBits<T>(r)); // clz(0) = the width: the run reaches the floor
    m &= m - 1;
  }
  return n;
}

/**
 * The loop over a board's columns that both kernels measure boards with: per column its row transitions with the
 * column to its left (the pair; the walls at -1 and width), column transitions, holes and hole depth, its well
 * terms, and, over the board, the rows with holes (OR of the hole masks), the columns with holes (bit c) and the
 * lowest column's height. Each sum is added column by column, left to right.
 *
 * The kernel reads its board through `b`, a view of its own class whose methods are all `@inline` (so the loop
 * compiles as if written in the kernel; the class holds only what its methods read):
 *   side(c): T                    column c as its neighbours read it, c = -1 .. width (the walls at -1 and width)
 *   column(c, side): T            column c's own cells, given side(c)
 *   height(c, col): i32           its height
 *   holes(c, col, hc): T          the hole mask it adds to holes, hole depth and rows with holes
 *   wells(c, col, lr, hc): i32    its well term (lr = side(c - 1) & side(c + 1))
 *   triangle(c, col, lr, hc): i32 a second well term (the full board's wellsTriangle), 0 if the kernel has none
 *   record(c, pair, colT, holes, depth, wells, triangle, holeRowsBefore, lowestBefore): the terms of column c and
 *                                 pair c, for a kernel that keeps them (holeRowsBefore, lowestBefore: of columns < c)
 *   lastPair(pair)                pair `width` (the last column and the right wall)
 *   done(pairs, colT, holes, holeDepth, wells, triangle, holeRows, holeColumns, lowest): the sums
 */
@inline export function sumColumns<T, B>(b: B, width: i32): void {
  let colT: i32 = 0;
  let holes: i32 = 0;
  let depths: i32 = 0;
  let wells: i32 = 0;
  let triangles: i32 = 0;
  let pairs: i32 = 0;
  let holeRows: T = <T>0;
  let holeColumns: i32 = 0;
  let lowest: i32 = <i32>(sizeof<T>() << 3);
  let left = b.side(-1);
  let here = b.side(0);
  for (let c: i32 = 0; c < width; c++) {
    const right = b.side(c + 1);
    const col = b.column(c, here);
    const hc = b.height(c, col);
    const pair = transitionsBetween<T>(left, here);
    const ct = columnTransitions<T>(col);
    const mask = b.holes(c, col, hc);
    const holesHere = <i32>popcnt<T>(mask);
    const depth = mask != 0 ? holeDepth<T>(col) : 0;
    const lr = left & right;
    const wellsHere = b.wells(c, col, lr, hc);
    const triangle = b.triangle(c, col, lr, hc);
    b.record(c, pair, ct, holesHere, depth, wellsHere, triangle, holeRows, lowest);
    pairs += pair;
    colT += ct;
    holes += holesHere;
    depths += depth;
    wells += wellsHere;
    triangles += triangle;
    if (mask != 0) holeColumns |= 1 << c;
    holeRows |= mask;
    lowest = min<i32>(lowest, hc);
    left = here;
    here = right;
  }
  const lastPair = transitionsBetween<T>(left, here);
  b.lastPair(lastPair);
  b.done(pairs + lastPair, colT, holes, depths, wells, triangles, holeRows, holeColumns, lowest);
}
