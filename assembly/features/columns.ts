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
