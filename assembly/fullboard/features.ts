// Full-board kernel: the board features, as one registry (featureSum below: one line per feature, in the manner
// of MdpTetris's all_features[]). Definitions: src/fullboard/features.ts, one TypeScript reference function each,
// which the tests compare with this file feature by feature.
//
// Adding a feature: its id in assembly/fullboard/layout.ts (F_*, FEATURE_COUNT), one line in featureSum, and its
// reference function and FEATURES entry in src/fullboard/features.ts. A feature that needs a board measure the
// evaluators do not compute yet also adds that measure to boardStats (full boards), to evalMoveW
// (assembly/fullboard/incremental.ts, moves that clear no row) and to combine's arguments.
//
// The measures. Every one is a sum of per-column or per-column-pair terms over the column masks (bit r = row r; a
// wall is rows 0 .. H-1 filled), so a move that clears no row changes only the terms of its own columns and of
// their two neighbours:
//   rowT   (rowTransitions) = Σ over the w + 1 neighbour pairs (walls included) of popcnt(left ^ right);
//   rowTC  (rowTransitionsContinuous: the CS3243 GA report code's one scan over rows 0 .. H) = Σ over the w - 1
//          inner pairs of popcnt(left ^ right) + popcnt((((last << 1) | 1) ^ first) & rows 0..H) (each row starts
//          against the last cell of the row below, row 0 against the filled wall) + H + 1 - popcnt(last) (each
//          row ends against the right wall);
//   colT   (columnTransitions) = Σ popcnt(((col << 1) | 1) ^ col) (floor filled, the row above the column empty);
//   holes  = Σ (height - popcnt(col));
//   holeDepth = Σ (popcnt(col) - ctz(~col)): every filled cell except the run resting on the floor sits in a run
//          directly above a hole;
//   rowsWithHoles = popcnt(OR of the columns' hole masks);
//   cwells (cumulativeWells) = Σ over well cells (empty, both neighbours filled) of the empty run ending there;
//   wellsT (wellsTriangle) = Σ over the cells above a column's height with both neighbours filled of
//          T(row - height + 1);
// and of the move: lines (rows it removed), erodedProduct (lines × its cells in them), land2 (twice the height of
// its middle: 2 × landing row + piece height - 1), top (the highest column after it).
// The per-column terms (transitions, holes, hole depth, well runs) and the loop that sums them over a board
// (sumColumns) are defined once, in assembly/features/columns.ts, which the recover kernel (assembly/recover/search.ts)
// uses too.
import { colAt, heightAt, lowMask } from './board';
import { holeCells, sumColumns, wellRuns } from '../features/columns';
import {
  B_TOP, F_COLUMN_TRANSITIONS, F_COLUMN_TRANSITIONS_BELOW_TOP, F_CUMULATIVE_WELLS, F_ERODED_PIECE_CELLS, F_HOLES,
  F_HOLES_TIMES_TEN, F_HOLE_DEPTH, F_LANDING_HEIGHT, F_MAX_HEIGHT, F_ROWS_CLEARED, F_ROWS_WITH_HOLES,
  F_ROW_TRANSITIONS, F_ROW_TRANSITIONS_CONTINUOUS, F_WELLS_TRIANGLE, O_EVAL, O_H, O_RUN, O_SRC, O_TRI, O_USED,
  O_W, O_WEIGHTS,
} from './layout';

// Board statistics block (boardStats; O_SRC and O_EVAL in the context): measure totals, then per-column and
// per-column-pair terms. Kernel-only (TypeScript never reads it).
export const ST_ROWT: usize = 0; //       rowT
export const ST_ROWTC: usize = 4; //      rowTC
export const ST_COLT: usize = 8; //       colT
export const ST_HOLES: usize = 12;
export const ST_CW: usize = 16; //        cwells
export const ST_WT: usize = 20; //        wellsT
export const ST_HD: usize = 24; //        holeDepth
export const ST_EDGE: usize = 28; //      the continuous scan's wall terms (see boardStats)
export const ST_HOLE_ROWS: usize = 32; // bit r: row r has a hole
export const ST_HOLE_COLS: usize = 36; // bit c: column c has a hole
export const ST_PAIR: usize = 64; //      i32[16] at c + 1: cells that differ between columns c and c + 1 (c = -1 .. w-1, walls included)
export const ST_WT_COL: usize = 128; //   i32[16] at c + 1: wellsT of column c (c = -1 .. w; 0 for the walls)
export const ST_CW_COL: usize = 192; //   i32[16] at c + 1: cwells of column c (c = -1 .. w; 0 for the walls)
// (a statistics block is 256 bytes)

/** Bit of feature `f` in a used-features mask (O_USED). */
@inline export function bit(f: i32): i32 {
  return 1 << f;
}

/** wellsTriangle of a column of height hc between neighbours whose filled cells are lr (left & right). */
@inline export function triangleSum(ctx: usize, lr: i32, hc: i32): i32 {
  const m = lr >>> hc;
  const n = <i32>load<u8>(ctx + O_TRI + <usize>(m & 255));
  return m > 255 ? n + triangleHigh(m) : n;
}
/** triangleSum's terms for the bits k >= 8 of m (wells deeper than 8: rare, kept out of line). */
function triangleHigh(m: i32): i32 {
  m &= ~255;
  let n: i32 = 0;
  while (m != 0) {
    const k = ctz<i32>(m) + 1;
    n += (k * (k + 1)) >> 1;
    m &= m - 1;
  }
  return n;
}

/** cumulativeWells of one column: each empty cell with both neighbours filled (lr) adds the empty run ending there. */
@inline export function wellSum(ctx: usize, col: i32, lr: i32, hc: i32): i32 {
  const wells = ~col & lr;
  // above the column's height the run ending at row r is r - hc + 1
  const m = wells >>> hc;
  let n = <i32>load<u8>(ctx + O_RUN + <usize>(m & 255));
  if (m > 255) n += runHigh(m);
  const below = wells & lowMask(hc);
  if (below != 0) n += wellRuns<i32>(col, below);
  return n;
}
/** Σ (k + 1) over the bits k >= 8 of m (out of line: rare). */
function runHigh(m: i32): i32 {
  m &= ~255;
  let n: i32 = 0;
  while (m != 0) {
    n += ctz<i32>(m) + 1;
    m &= m - 1;
  }
  return n;
}
/** The continuous scan's terms that involve the walls, from the first and last columns. */
@inline export function edgeTerm(first: i32, last: i32, h: i32): i32 {
  return popcnt<i32>((((last << 1) | 1) ^ first) & lowMask(h + 1)) - popcnt<i32>(last);
}

// What boardStats is measuring besides the board, read by BoardColumns' methods: module globals, so each instance of
// the kernel (one per thread over a shared memory) has its own.
let statsCtx: usize = 0;
let statsAt: usize = 0;
let statsWidth: i32 = 0;
let statsHeight: i32 = 0;
let wantTriangles: bool = false;
let wantWells: bool = false;

/**
 * A full board as sumColumns (assembly/features/columns.ts) reads it: its stored columns (the walls at -1 and w
 * filled), heights, hole masks and well sums, recording the per-column terms a move changes (ST_PAIR, ST_WT_COL,
 * ST_CW_COL). The view's address is the board's (`this`); the rest its methods read from the globals above.
 */
@final @unmanaged class BoardColumns {
  @inline side(c: i32): i32 {
    return colAt(changetype<usize>(this), c);
  }
  @inline column(c: i32, side: i32): i32 {
    return side;
  }
  @inline height(c: i32, col: i32): i32 {
    return heightAt(changetype<usize>(this), c);
  }
  @inline holes(c: i32, col: i32, hc: i32): i32 {
    return holeCells<i32>(col, hc);
  }
  @inline wells(c: i32, col: i32, lr: i32, hc: i32): i32 {
    return wantWells ? wellSum(statsCtx, col, lr, hc) : 0;
  }
  @inline triangle(c: i32, col: i32, lr: i32, hc: i32): i32 {
    return wantTriangles ? triangleSum(statsCtx, lr, hc) : 0;
  }
  @inline record(
    c: i32, pair: i32, colT: i32, holes: i32, depth: i32, wells: i32, triangle: i32, holeRowsBefore: i32, lowestBefore: i32,
  ): void {
    store<i32>(statsAt + ST_PAIR + ((<usize>c) << 2), pair);
    if (wantTriangles) store<i32>(statsAt + ST_WT_COL + ((<usize>(c + 1)) << 2), triangle);
    if (wantWells) store<i32>(statsAt + ST_CW_COL + ((<usize>(c + 1)) << 2), wells);
  }
  @inline lastPair(pair: i32): void {
    store<i32>(statsAt + ST_PAIR + ((<usize>statsWidth) << 2), pair);
  }
  @inline done(
    pairs: i32, colT: i32, holes: i32, holeDepth: i32, wells: i32, triangle: i32, holeRows: i32, holeColumns: i32,
    lowest: i32,
  ): void {
    const st = statsAt;
    const h = statsHeight;
    const first = colAt(changetype<usize>(this), 0);
    const lastCol = colAt(changetype<usize>(this), statsWidth - 1);
    const edge = edgeTerm(first, lastCol, h);
    const wallPairs = 2 * h - popcnt<i32>(first) - popcnt<i32>(lastCol);
    store<i32>(st + ST_ROWT, pairs);
    store<i32>(st + ST_ROWTC, pairs - wallPairs + edge + h + 1);
    store<i32>(st + ST_COLT, colT);
    store<i32>(st + ST_HOLES, holes);
    store<i32>(st + ST_CW, wells);
    store<i32>(st + ST_WT, triangle);
    store<i32>(st + ST_HD, holeDepth);
    store<i32>(st + ST_EDGE, edge);
    store<i32>(st + ST_HOLE_ROWS, holeRows);
    store<i32>(st + ST_HOLE_COLS, holeColumns);
  }
}

/**
 * Statistics of board b at st (ST_*): the feature totals and the per-column terms that a move changes. The
 * well sums are computed only when `used` asks for them.
 */
export function boardStats(ctx: usize, b: usize, st: usize, used: i32): void {
  const w = load<i32>(ctx + O_W);
  statsCtx = ctx;
  statsAt = st;
  statsWidth = w;
  statsHeight = load<i32>(ctx + O_H);
  wantTriangles = (used & bit(F_WELLS_TRIANGLE)) != 0;
  wantWells = (used & bit(F_CUMULATIVE_WELLS)) != 0;
  store<i32>(st + ST_WT_COL, 0);
  store<i32>(st + ST_CW_COL, 0);
  store<i32>(st + ST_WT_COL + ((<usize>(w + 1)) << 2), 0);
  store<i32>(st + ST_CW_COL + ((<usize>(w + 1)) << 2), 0);
  sumColumns<i32, BoardColumns>(changetype<BoardColumns>(b), w);
}

/**
 * Computes the features selected by `used` for board b (after the move and its line clears), given the rows
 * cleared, the move's eroded piece cells feature (its lines × its cells in them) and twice its landing height.
 * Returns the weighted sum; when `out` is non-zero, also stores every computed feature there as f64 (others 0).
 */
export function evaluate(ctx: usize, b: usize, lines: i32, erodedProduct: i32, land2: i32, used: i32, out: usize): f64 {
  const st = ctx + O_EVAL;
  boardStats(ctx, b, st, used);
  return combine(
    ctx, lines, load<i32>(st + ST_ROWT), load<i32>(st + ST_ROWTC), load<i32>(st + ST_COLT), load<i32>(ctx + O_W), load<i32>(st + ST_HOLES),
    load<i32>(st + ST_CW), load<i32>(st + ST_WT), load<i32>(b + B_TOP), land2, erodedProduct, load<i32>(st + ST_HD),
    popcnt<i32>(load<i32>(st + ST_HOLE_ROWS)), out,
  );
}

/**
 * Σ weight × feature over the features, in id order, from the measures of a board after a move (and the feature
 * vector at `out` when non-zero). The fast path adds the weighted features only: a zero weight adds ±0, which
 * leaves a non-zero sum unchanged, so only a zero sum is recomputed in full (for its sign).
 */
@inline export function combine(
  ctx: usize, lines: i32, rowT: i32, rowTC: i32, colT: i32, w: i32, holes: i32, cwells: i32, wellsT: i32, top: i32,
  land2: i32, erodedProduct: i32, holeDepth: i32, rowsWithHoles: i32, out: usize,
): f64 {
  if (out == 0) {
    const q = featureSum(0, load<i32>(ctx + O_USED), ctx + O_WEIGHTS, 0, lines, rowT, rowTC, colT, w, holes, cwells, wellsT, top, land2, erodedProduct, holeDepth, rowsWithHoles);
    if (q != 0) return q;
  }
  return combineAll(ctx, lines, rowT, rowTC, colT, w, holes, cwells, wellsT, top, land2, erodedProduct, holeDepth, rowsWithHoles, out);
}

/** combine's full sum over every feature (out of line: rare). Starts from -0, the identity of IEEE addition. */
function combineAll(
  ctx: usize, lines: i32, rowT: i32, rowTC: i32, colT: i32, w: i32, holes: i32, cwells: i32, wellsT: i32, top: i32,
  land2: i32, erodedProduct: i32, holeDepth: i32, rowsWithHoles: i32, out: usize,
): f64 {
  return featureSum(-0.0, -1, ctx + O_WEIGHTS, out, lines, rowT, rowTC, colT, w, holes, cwells, wellsT, top, land2, erodedProduct, holeDepth, rowsWithHoles);
}

/** One registry line: `sum` plus weight × `value` of feature `f` when `used` selects it; `value` stored at `out`. */
@inline function term(sum: f64, used: i32, weights: usize, out: usize, f: i32, value: f64): f64 {
  if (out != 0) store<f64>(out + ((<usize>f) << 3), value);
  if ((used & bit(f)) != 0) sum += load<f64>(weights + ((<usize>f) << 3)) * value;
  return sum;
}

/**
 * The feature registry: one entry per feature, in id order: its definition (in short; exactly: its reference
 * function in src/fullboard/features.ts) and its value from the measures described at the top of this file.
 */
@inline function featureSum(
  sum: f64, used: i32, weights: usize, out: usize,
  lines: i32, rowT: i32, rowTC: i32, colT: i32, w: i32, holes: i32, cwells: i32, wellsT: i32, top: i32, land2: i32,
  erodedProduct: i32, holeDepth: i32, rowsWithHoles: i32,
): f64 {
  // rowsCleared: rows the move removed
  sum = term(sum, used, weights, out, F_ROWS_CLEARED, <f64>lines);
  // rowTransitions: horizontally adjacent cells that differ, walls filled, rows 0 .. H-1
  sum = term(sum, used, weights, out, F_ROW_TRANSITIONS, <f64>rowT);
  // rowTransitionsContinuous: the same over one row-major scan of rows 0 .. H, not reset between rows
  sum = term(sum, used, weights, out, F_ROW_TRANSITIONS_CONTINUOUS, <f64>rowTC);
  // columnTransitions: vertically adjacent cells that differ, floor filled, one empty row above the board
  sum = term(sum, used, weights, out, F_COLUMN_TRANSITIONS, <f64>colT);
  // columnTransitionsBelowTop: the same scan stopped at each column's top, which drops its last change
  sum = term(sum, used, weights, out, F_COLUMN_TRANSITIONS_BELOW_TOP, <f64>(colT - w));
  // holes: empty cells below their column's height
  sum = term(sum, used, weights, out, F_HOLES, <f64>holes);
  // holesTimesTen: 10 × holes
  sum = term(sum, used, weights, out, F_HOLES_TIMES_TEN, <f64>(10 * holes));
  // cumulativeWells: per well cell (empty, both neighbours filled), the empty run from it downwards
  sum = term(sum, used, weights, out, F_CUMULATIVE_WELLS, <f64>cwells);
  // wellsTriangle: per cell above its column's height with both neighbours filled, T(row - height + 1)
  sum = term(sum, used, weights, out, F_WELLS_TRIANGLE, <f64>wellsT);
  // maxHeight: the highest column
  sum = term(sum, used, weights, out, F_MAX_HEIGHT, <f64>top);
  // landingHeight: the middle of the placed piece, landing row + (piece height - 1) / 2
  sum = term(sum, used, weights, out, F_LANDING_HEIGHT, <f64>land2 * 0.5);
  // erodedPieceCells: rows removed × the piece's cells in them
  sum = term(sum, used, weights, out, F_ERODED_PIECE_CELLS, <f64>erodedProduct);
  // holeDepth: per hole, the filled cells directly above it up to the next empty one
  sum = term(sum, used, weights, out, F_HOLE_DEPTH, <f64>holeDepth);
  // rowsWithHoles: rows with at least one hole
  sum = term(sum, used, weights, out, F_ROWS_WITH_HOLES, <f64>rowsWithHoles);
  return sum;
}

/** Statistics of the board a piece is placed on (O_SRC), for the incremental evaluator. */
@inline export function srcStats(ctx: usize, b: usize): void {
  boardStats(ctx, b, ctx + O_SRC, load<i32>(ctx + O_USED));
}
