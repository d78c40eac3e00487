// Recover-search kernel: the inner loop of the recover mode's beam search (src/tetris-ai/recover.ts). For one node (a
// board the beam keeps) and the placements of one piece on it, each placement is locked onto the board, full rows
// are cleared, the board's features are measured and the line's value is summed, with no allocation: the node,
// the placements' cells and the children's values live in buffers TypeScript allocated once.
//
// A node keeps its board as bit rows and as column masks. Valuing a placement works on the columns alone (the node's
// rows only tell which rows it fills): the piece's cells are added to the node's columns (held while its placements
// are valued, and put back after each), cleared rows are cut out of each column, and every feature is a sum of
// per-column terms, defined once in assembly/features/columns.ts for this kernel and the full-board one. A child
// that clears no row is measured by difference from its node: only the terms of the columns it touches, and of the
// few pairs and wells beside them, are measured again (measureNear). Only a child the beam keeps gets its rows
// (materialize).
//
// The features are those of src/tetris-ai/evaluate.ts (the BCTS features of docs/fullboard.md on boards of any height,
// with the well column read as filled for the row transitions and the wells, plus the recover terms), and the sums
// are added in the order the independent TypeScript reference adds them (test/reference/recover-reference.ts), in
// f64, so the values are the reference's to the last bit.
import {
  CELL_WORDS, D_CLEAR_BELOW, D_COUNT, D_LIST, D_LOCK_TOP, DROP_TABLE_WORDS, LANDING_WORDS, MAX_COLUMNS, MAX_DROPS, MAX_ROWS, MAX_STATES, N_ACC, N_COLS, N_TOP, O_BOARD, O_CHILD_ACCS, PIECE_COUNT,
  O_CHILD_CELLS, O_CHILD_VALUES, O_FEATURES, O_GEOMETRY, O_DROPS, O_LANDINGS, O_HEIGHT, O_MAX_FLOOR, O_ROW_COUNT, O_VISIBLE, O_WEIGHTS, O_WELL, O_WIDTH, PIECE_CELLS, TOP_OUT,
  W_CLEAN, W_WELL_COVER, O_COVER_WELL, W_COLUMN_TRANSITIONS, W_CUMULATIVE_WELLS, W_ERODED_PIECE_CELLS, W_FLOOR_ROWS, W_HOLES, W_HOLE_DEPTH,
  W_LANDING_HEIGHT, W_ROWS_WITH_HOLES, W_ROW_TRANSITIONS, W_WELL_CELLS,
} from './layout';
import {
  columnHeight, columnTransitions as columnTransitionsOf, holeCells, holeDepth as holeDepthOf, lowBits, sumColumns,
  transitionsBetween, wellRuns,
} from '../features/columns';

@inline function rowAt(rows: usize, r: i32): u32 {
  return load<u32>(rows + ((<usize>r) << 2));
}
@inline function setRow(rows: usize, r: i32, v: u32): void {
  store<u32>(rows + ((<usize>r) << 2), v);
}
@inline function weight(ctx: usize, w: i32): f64 {
  return load<f64>(ctx + O_WEIGHTS + ((<usize>w) << 3));
}
@inline function cellX(cells: usize, i: i32): i32 {
  return load<i32>(cells + ((<usize>(2 * i)) << 2));
}
@inline function cellY(cells: usize, i: i32): i32 {
  return load<i32>(cells + ((<usize>(2 * i + 1)) << 2));
}

/** The columns of the board being valued (u64 each, bit y = row y). */
const cols = memory.data(MAX_COLUMNS << 3, 8);
@inline function colAt(c: i32): u64 {
  return load<u64>(cols + ((<usize>c) << 3));
}
@inline function setCol(c: i32, v: u64): void {
  store<u64>(cols + ((<usize>c) << 3), v);
}

// What the last move did (the move's facts).
let lines: i32 = 0;
let eroded: i32 = 0;
let landingRow: i32 = 0;
let pieceHeight: i32 = 0;
/** The leftmost and rightmost columns the move's cells are in. */
let leftColumn: i32 = 0;
let rightColumn: i32 = 0;

/**
 * The columns (into `cols`, which hold the node's: expandMeasured) of the node at `node` with the piece's cells
 * (CELL_WORDS at `cells`) added and the rows it fills cleared, and the move's facts. Cells are empty and on the board;
 * the rows were not full before. restoreColumns puts the node's columns back for the next placement.
 */
function place(node: usize, cells: usize, width: i32, full: u32): void {
  let low: i32 = 0x7fffffff;
  let high: i32 = -1;
  let xl: i32 = 0x7fffffff;
  let xr: i32 = -1;
  for (let i = 0; i < PIECE_CELLS; i++) {
    const x = cellX(cells, i);
    const y = cellY(cells, i);
    setCol(x, colAt(x) | (<u64>1 << <u64>y));
    if (y < low) low = y;
    if (y > high) high = y;
    if (x < xl) xl = x;
    if (x > xr) xr = x;
  }
  leftColumn = xl;
  rightColumn = xr;
  // The piece's cells of each row it spans (at most 4 rows), 16 bits a row from `low` up.
  let spans: u64 = 0;
  for (let i = 0; i < PIECE_CELLS; i++)
    spans |= (<u64>1 << <u64>cellX(cells, i)) << (<u64>(cellY(cells, i) - low) << 4);
  // Only rows the piece touched can have become full: the node's row with the piece's cells in it.
  let n: i32 = 0;
  let e: i32 = 0;
  let cleared: u64 = 0;
  for (let r = low; r <= high; r++) {
    const m = <u32>(spans >> (<u64>(r - low) << 4)) & 0xffff;
    if ((rowAt(node, r) | m) == full) {
      n++;
      e += <i32>popcnt<u32>(m);
      cleared |= <u64>1 << <u64>r;
    }
  }
  if (n > 0) {
    // cut the full rows out of every column, the highest first (the rows above fall)
    for (let c = 0; c < width; c++) {
      let col = colAt(c);
      let todo = cleared;
      while (todo != 0) {
        const r = 63 - <i32>clz<u64>(todo);
        col = (col & lowBits<u64>(r)) | ((col >> <u64>(r + 1)) << <u64>r);
        todo &= lowBits<u64>(r);
      }
      setCol(c, col);
    }
  }
  lines = n;
  eroded = e;
  landingRow = low;
  pieceHeight = high - low + 1;
}

/** `cols` := the node's columns again after place(): the columns the piece touched, or every one when rows cleared. */
@inline function restoreColumns(node: usize, width: i32): void {
  if (lines == 0) {
    for (let c = leftColumn; c <= rightColumn; c++) setCol(c, load<u64>(node + N_COLS + ((<usize>c) << 3)));
  } else memory.copy(cols, node + N_COLS, (<usize>width) << 3);
}

// The board features of the last measure() call, and the board's top (rows up to its highest non-empty one).
let top: i32 = 0;
let rowTransitions: i32 = 0;
let columnTransitions: i32 = 0;
let holes: i32 = 0;
let cumulativeWells: i32 = 0;
let holeDepth: i32 = 0;
let rowsWithHoles: i32 = 0;
let wellCells: i32 = 0;
let clean: i32 = 0;
let floorRows: i32 = 0;
let wellCover: i32 = 0;

/**
 * The features of the board in `cols` (rows already cleared). Definitions: src/tetris-ai/evaluate.ts, row by row; here
 * the same counts per column (rows below the top; the well column and the walls read as filled there):
 *   rowTransitions    = 2 × (height - top) + Σ over neighbouring columns (walls included) of popcnt(left ^ right);
 *   columnTransitions = Σ popcnt(col ^ ((col << 1) | 1)) (the floor filled, the row above the column empty);
 *   holes             = Σ popcnt(empty cells below the column's height); rowsWithHoles = popcnt(OR of those);
 *   holeDepth         = Σ (popcnt(col) - ctz(~col)): every filled cell but the run resting on the floor sits in a
 *                       run directly above a hole;
 *   cumulativeWells   = Σ over well cells (empty, both neighbours filled) of the empty run from it down;
 *   the floor         = the well column's height, when no hole lies at or above it and every column reaches it;
 *   wellCover         = in the covered well's column (O_COVER_WELL), the cells over its highest empty cell; that
 *                       column's empty cells under them count as no holes (nor their rows, nor their depth).
 * Each per-column term is one function below, read by the whole measure (sumColumns, assembly/features/columns.ts,
 * through ChildColumns) and by the difference one (measureNear) alike.
 */
function measure(ctx: usize, width: i32): void {
  startMeasure(ctx, width);
  sumColumns<u64, ChildColumns>(changetype<ChildColumns>(0), width);
}

// ---- the sums of the per-column terms: a small record (kernel-local) of expand's node, which measureNear reads ----
const S_TOP = 0; //        i32 the board's top (its highest column's height)
const S_PAIRS = 4; //      i32 Σ row transitions between neighbouring columns, walls included
const S_COL_T = 8; //      i32 Σ column transitions
const S_HOLES = 12; //     i32 Σ holes
const S_HOLE_DEPTH = 16; // i32 Σ hole depth
const S_WELLS = 20; //     i32 Σ well runs
const S_LOWEST = 24; //    i32 the lowest column's height
const S_COVER = 28; //     i32 the covered well's cover
const S_HOLE_ROWS = 32; // u64 OR of the hole masks
const SUMS_BYTES = 40;
/** The sums of expand's node (nodeTerms). */
const nodeSums = memory.data(SUMS_BYTES, 8);

@inline function storeSums(
  out: usize, t: i32, pairs: i32, colT: i32, h: i32, hd: i32, cw: i32, lowest: i32, cover: i32, holeRows: u64,
): void {
  store<i32>(out + S_TOP, t);
  store<i32>(out + S_PAIRS, pairs);
  store<i32>(out + S_COL_T, colT);
  store<i32>(out + S_HOLES, h);
  store<i32>(out + S_HOLE_DEPTH, hd);
  store<i32>(out + S_WELLS, cw);
  store<i32>(out + S_LOWEST, lowest);
  store<i32>(out + S_COVER, cover);
  store<u64>(out + S_HOLE_ROWS, holeRows);
}

/** The features from the sums of the board in `cols`, and the ones read from its well column. */
@inline function setFeaturesOf(
  ctx: usize, t: i32, pairs: i32, colT: i32, h: i32, hd: i32, cw: i32, lowest: i32, cover: i32, holeRows: u64,
): void {
  const wellColumn = load<i32>(ctx + O_WELL);
  const wc = wellColumn >= 0 ? <i32>popcnt<u64>(colAt(wellColumn)) : 0;
  // A clean stack on the bottom (no holes, nothing in the well) or over a floor of buried rows.
  let floor: i32 = -1;
  if (wellColumn >= 0) {
    const hw = columnHeight<u64>(colAt(wellColumn));
    if ((holeRows >> <u64>hw) == 0 && (hw == 0 || lowest >= hw)) floor = hw;
  }
  const isClean = floor >= 0 && floor <= load<i32>(ctx + O_MAX_FLOOR);
  top = t;
  rowTransitions = 2 * (load<i32>(ctx + O_HEIGHT) - t) + pairs;
  columnTransitions = colT;
  holes = h;
  cumulativeWells = cw;
  holeDepth = hd;
  rowsWithHoles = <i32>popcnt<u64>(holeRows);
  wellCells = wc;
  clean = isClean ? 1 : 0;
  floorRows = isClean ? floor : 0;
  wellCover = cover;
}

// ---- the per-column terms ----

/** Column c as the row transitions and wells read it: the walls and the well column are filled below the top. */
@inline function readAs(c: i32, width: i32, wellColumn: i32, filled: u64): u64 {
  return c < 0 || c >= width || c == wellColumn ? filled : colAt(c);
}

/** Row transitions of pair p: between column p - 1 and column p (the walls at -1 and width). */
@inline function pairAt(p: i32, width: i32, wellColumn: i32, filled: u64): i32 {
  return transitionsBetween<u64>(readAs(p - 1, width, wellColumn, filled), readAs(p, width, wellColumn, filled));
}

/** The hole mask column c adds to holes and rowsWithHoles (none for the covered well's column). */
@inline function holeMaskOf(c: i32, col: u64, hc: i32, coverWell: i32): u64 {
  return c == coverWell ? 0 : holeCells<u64>(col, hc);
}

/** The hole depth of a column whose hole mask is `mask` (none without holes, nor in the covered well's column). */
@inline function depthOf(col: u64, mask: u64): i32 {
  return mask != 0 ? holeDepthOf<u64>(col) : 0;
}

/** The well runs of column c (none in the well column): its empty cells with both neighbours (lr) filled. */
@inline function wellsIn(c: i32, col: u64, lr: u64, wellColumn: i32, filled: u64): i32 {
  if (c == wellColumn) return 0;
  const wells = ~col & lr & filled;
  return wells != 0 ? wellRuns<u64>(col, wells) : 0;
}

/** wellsIn for column c of the board in `cols`, its neighbours read as the row transitions read them. */
@inline function wellsOf(c: i32, width: i32, wellColumn: i32, filled: u64): i32 {
  if (c == wellColumn) return 0;
  return wellsIn(c, colAt(c), readAs(c - 1, width, wellColumn, filled) & readAs(c + 1, width, wellColumn, filled), wellColumn, filled);
}

/** The cells over the highest empty cell of a column with holes (the covered well's cover), else 0. */
@inline function coverOf(col: u64, hc: i32): i32 {
  const holeMask = holeCells<u64>(col, hc);
  return holeMask != 0 ? hc - (64 - <i32>clz<u64>(holeMask)) : 0;
}

// ---- the same features of a child by difference from its node's ----
// A placement that clears no row changes only the columns it touches: their own terms, the row transitions between
// them and their neighbours, and the wells of their neighbours. When it raises the board's top, the walls and the
// well column (read as filled below the top) change too, and with them the pairs and wells beside them. expand()
// measures its node once (nodeTerms: its sums and each column's terms) and such a child by difference
// (measureNear); a child that clears rows is measured whole. All the sums are integers, so the features, and the
// values made from them, are those of measure() to the last bit (the property tests hold both to the reference).
// The full-board kernel does the same for its moves (assembly/fullboard/incremental.ts), straight-line per piece
// width, from the fact that each piece column lands on its column's top. A reachable placement here may tuck under
// an overhang (a cell below its column's top), and the columns are u64 with the well and cover readings, so this
// kernel measures the touched columns again instead of adding a piece column to them.

/** Per column of the node (i32 each): its column transitions, holes, hole depth, well runs. */
const nodeColT = memory.data(MAX_COLUMNS << 2, 4);
const nodeHoles = memory.data(MAX_COLUMNS << 2, 4);
const nodeHoleDepth = memory.data(MAX_COLUMNS << 2, 4);
const nodeWells = memory.data(MAX_COLUMNS << 2, 4);
/** Row transitions of pair p (pairAt), p = 0 .. width. */
const nodePairs = memory.data((MAX_COLUMNS + 1) << 2, 4);
/** OR of the hole masks of the columns before c (prefix) and from c on (suffix), u64 each; lowest heights likewise. */
const holesBefore = memory.data((MAX_COLUMNS + 1) << 3, 8);
const holesFrom = memory.data((MAX_COLUMNS + 1) << 3, 8);
const lowestBefore = memory.data((MAX_COLUMNS + 1) << 2, 4);
const lowestFrom = memory.data((MAX_COLUMNS + 1) << 2, 4);

@inline function i32At(base: usize, c: i32): i32 {
  return load<i32>(base + ((<usize>c) << 2));
}
@inline function setI32(base: usize, c: i32, v: i32): void {
  store<i32>(base + ((<usize>c) << 2), v);
}
@inline function u64At(base: usize, c: i32): u64 {
  return load<u64>(base + ((<usize>c) << 3));
}
@inline function setU64(base: usize, c: i32, v: u64): void {
  store<u64>(base + ((<usize>c) << 3), v);
}

// What sumColumns is measuring, read by the board views' methods (module globals, like the features above).
let measureCtx: usize = 0;
let measureWidth: i32 = 0;
let measureTop: i32 = 0; //    the board's top (its highest column's height)
let filledRows: u64 = 0; //    rows below the board's top: the walls and the well column read as filled there
let wellAt: i32 = -1; //       the well column (O_WELL), -1 for none
let coverAt: i32 = -1; //      the covered well's column (O_COVER_WELL), -1 for none

/**
 * The board in `cols` as sumColumns (assembly/features/columns.ts) reads it: the walls and the well column filled
 * below the top for the row transitions and the wells, no holes in the covered well's column, no wells in the well
 * column. Holds nothing: its methods read the globals above, and its instances are null views. ChildColumns
 * (measure) sets the features; NodeColumns (nodeTerms) keeps each column's terms and the prefix ORs and minima
 * for measureNear, and the sums in nodeSums.
 */
@unmanaged class RecoverColumns {
  @inline side(c: i32): u64 {
    return readAs(c, measureWidth, wellAt, filledRows);
  }
  @inline column(c: i32, side: u64): u64 {
    return c == wellAt ? colAt(c) : side;
  }
  @inline height(c: i32, col: u64): i32 {
    return columnHeight<u64>(col);
  }
  @inline holes(c: i32, col: u64, hc: i32): u64 {
    return holeMaskOf(c, col, hc, coverAt);
  }
  @inline wells(c: i32, col: u64, lr: u64, hc: i32): i32 {
    return wellsIn(c, col, lr, wellAt, filledRows);
  }
  @inline triangle(c: i32, col: u64, lr: u64, hc: i32): i32 {
    return 0;
  }
  /** The covered well's cover (coverOf), 0 when there is none. */
  @inline cover(): i32 {
    return coverAt >= 0 && coverAt < measureWidth ? coverOf(colAt(coverAt), columnHeight<u64>(colAt(coverAt))) : 0;
  }
}

@final @unmanaged class ChildColumns extends RecoverColumns {
  @inline record(
    c: i32, pair: i32, colT: i32, holes: i32, depth: i32, wells: i32, triangle: i32, holeRowsSoFar: u64, lowestSoFar: i32,
  ): void {}
  @inline lastPair(pair: i32): void {}
  @inline done(
    pairs: i32, colT: i32, holes: i32, holeDepth: i32, wells: i32, triangle: i32, holeRows: u64, holeColumns: i32,
    lowest: i32,
  ): void {
    setFeaturesOf(measureCtx, measureTop, pairs, colT, holes, holeDepth, wells, lowest, this.cover(), holeRows);
  }
}

@final @unmanaged class NodeColumns extends RecoverColumns {
  @inline record(
    c: i32, pair: i32, colT: i32, holes: i32, depth: i32, wells: i32, triangle: i32, holeRowsSoFar: u64, lowestSoFar: i32,
  ): void {
    setI32(nodeColT, c, colT);
    setI32(nodeHoles, c, holes);
    setI32(nodeHoleDepth, c, depth);
    setI32(nodeWells, c, wells);
    setI32(nodePairs, c, pair);
    setU64(holesBefore, c, holeRowsSoFar);
    setI32(lowestBefore, c, lowestSoFar);
  }
  @inline lastPair(pair: i32): void {
    setI32(nodePairs, measureWidth, pair);
  }
  @inline done(
    pairs: i32, colT: i32, holes: i32, holeDepth: i32, wells: i32, triangle: i32, holeRows: u64, holeColumns: i32,
    lowest: i32,
  ): void {
    const width = measureWidth;
    setU64(holesFrom, width, 0);
    setI32(lowestFrom, width, 64);
    for (let c = width - 1; c >= 0; c--) {
      const col = colAt(c);
      const hc = columnHeight<u64>(col);
      setU64(holesFrom, c, u64At(holesFrom, c + 1) | holeMaskOf(c, col, hc, coverAt));
      setI32(lowestFrom, c, min<i32>(i32At(lowestFrom, c + 1), hc));
    }
    storeSums(nodeSums, measureTop, pairs, colT, holes, holeDepth, wells, lowest, this.cover(), holeRows);
  }
}

/** Sets what the board views read for the board in `cols`: its top, the well and covered columns. */
@inline function startMeasure(ctx: usize, width: i32): void {
  let t: i32 = 0;
  for (let c = 0; c < width; c++) t = max<i32>(t, columnHeight<u64>(colAt(c)));
  measureCtx = ctx;
  measureWidth = width;
  measureTop = t;
  filledRows = lowBits<u64>(t);
  wellAt = load<i32>(ctx + O_WELL);
  coverAt = load<i32>(ctx + O_COVER_WELL);
}

/** The sums and per-column terms of the node's board, which is in `cols` (expand's node, before any child). */
function nodeTerms(ctx: usize, width: i32): void {
  startMeasure(ctx, width);
  sumColumns<u64, NodeColumns>(changetype<NodeColumns>(0), width);
}

/** Bits lo .. hi of a u32 (lo <= hi + 1). */
@inline function bitRange(lo: i32, hi: i32): u32 {
  return hi < lo ? 0 : (<u32>-1 >>> <u32>(31 - hi + lo)) << <u32>lo;
}

/**
 * measure() for a child in `cols` that differs from expand's node only in columns xl .. xr (no row cleared), its
 * top `t`: the node's sums with the terms that can have changed measured again.
 */
function measureNear(ctx: usize, width: i32, xl: i32, xr: i32, t: i32): void {
  const wellColumn = load<i32>(ctx + O_WELL);
  const coverWell = load<i32>(ctx + O_COVER_WELL);
  const filled = lowBits<u64>(t);
  let colT = load<i32>(nodeSums + S_COL_T);
  let h = load<i32>(nodeSums + S_HOLES);
  let hd = load<i32>(nodeSums + S_HOLE_DEPTH);
  let cover = load<i32>(nodeSums + S_COVER);
  let holeRows = u64At(holesBefore, xl) | u64At(holesFrom, xr + 1);
  let lowest = min<i32>(i32At(lowestBefore, xl), i32At(lowestFrom, xr + 1));
  for (let c = xl; c <= xr; c++) {
    const col = colAt(c);
    const hc = columnHeight<u64>(col);
    const mask = holeMaskOf(c, col, hc, coverWell);
    colT += columnTransitionsOf<u64>(col) - i32At(nodeColT, c);
    h += <i32>popcnt<u64>(mask) - i32At(nodeHoles, c);
    hd += depthOf(col, mask) - i32At(nodeHoleDepth, c);
    if (c == coverWell) cover = coverOf(col, hc);
    holeRows |= mask;
    lowest = min<i32>(lowest, hc);
  }
  // The pairs and wells to measure again: those of the touched columns and, with a new top, those beside a column
  // read as filled (the walls, the well column).
  let pairsToDo = bitRange(xl, xr + 1);
  let wellsToDo = bitRange(max<i32>(xl - 1, 0), min<i32>(xr + 1, width - 1));
  if (t != load<i32>(nodeSums + S_TOP)) {
    pairsToDo |= 1 | (<u32>1 << <u32>width);
    wellsToDo |= 1 | (<u32>1 << <u32>(width - 1));
    if (wellColumn >= 0) {
      pairsToDo |= <u32>3 << <u32>wellColumn;
      wellsToDo |= bitRange(max<i32>(wellColumn - 1, 0), min<i32>(wellColumn + 1, width - 1));
    }
  }
  let pairs = load<i32>(nodeSums + S_PAIRS);
  while (pairsToDo != 0) {
    const p = <i32>ctz<u32>(pairsToDo);
    pairs += pairAt(p, width, wellColumn, filled) - i32At(nodePairs, p);
    pairsToDo &= pairsToDo - 1;
  }
  let cw = load<i32>(nodeSums + S_WELLS);
  while (wellsToDo != 0) {
    const c = <i32>ctz<u32>(wellsToDo);
    cw += wellsOf(c, width, wellColumn, filled) - i32At(nodeWells, c);
    wellsToDo &= wellsToDo - 1;
  }
  setFeaturesOf(ctx, t, pairs, colT, h, hd, cw, lowest, cover, holeRows);
}

/** Σ weight × feature over the board's terms, in RecoverWeights order from the row transitions on. */
@inline function boardTerms(ctx: usize): f64 {
  return (
    weight(ctx, W_ROW_TRANSITIONS) * <f64>rowTransitions +
    weight(ctx, W_COLUMN_TRANSITIONS) * <f64>columnTransitions +
    weight(ctx, W_HOLES) * <f64>holes +
    weight(ctx, W_CUMULATIVE_WELLS) * <f64>cumulativeWells +
    weight(ctx, W_HOLE_DEPTH) * <f64>holeDepth +
    weight(ctx, W_ROWS_WITH_HOLES) * <f64>rowsWithHoles +
    weight(ctx, W_WELL_CELLS) * <f64>wellCells +
    weight(ctx, W_CLEAN) * <f64>clean +
    weight(ctx, W_FLOOR_ROWS) * <f64>floorRows +
    weight(ctx, W_WELL_COVER) * <f64>wellCover
  );
}

/** landingRow + (pieceHeight - 1) / 2, exactly. */
@inline function landingHeight(): f64 {
  return <f64>landingRow + <f64>(pieceHeight - 1) / 2;
}

/**
 * Values children first .. first + n - 1 of the node at `node`: child i is the node's board with the placement
 * whose cells are at the context's child cells, i; its value and its line's Σ of move terms go to the child
 * arrays. value = acc + board terms, acc = the node's acc + the move's landing height and eroded cells terms
 * (+ TOP_OUT when the move leaves a cell at or above the visible field).
 */
export function expand(ctx: usize, node: usize, first: i32, n: i32): void {
  expandMeasured(ctx, node, first, n, false);
}

/**
 * expand(), where `measured` says the kernel's node terms are already this node's: the last expand or
 * expandLandings call was on the same node, with nothing written to it since (the chance ply's pieces on one line).
 */
function expandMeasured(ctx: usize, node: usize, first: i32, n: i32, measured: bool): void {
  const width = load<i32>(ctx + O_WIDTH);
  const full: u32 = (<u32>1 << <u32>width) - 1;
  const cellsAt = <usize>load<i32>(ctx + O_CHILD_CELLS);
  const values = <usize>load<i32>(ctx + O_CHILD_VALUES);
  const accs = <usize>load<i32>(ctx + O_CHILD_ACCS);
  holdNode(ctx, node, width, measured);
  for (let i = first; i < first + n; i++) {
    store<f64>(values + ((<usize>i) << 3), valuePlacement(ctx, node, cellsAt + <usize>i * (CELL_WORDS << 2), width, full));
    store<f64>(accs + ((<usize>i) << 3), placedAcc);
  }
}

/** `cols` := the node's columns, and nodeTerms its terms, unless `measured` says they already are (colsNode). */
@inline function holdNode(ctx: usize, node: usize, width: i32, measured: bool): void {
  if (!measured || colsNode != node) {
    memory.copy(cols, node + N_COLS, (<usize>width) << 3);
    nodeTerms(ctx, width);
    colsNode = node;
  }
}

/** The acc of the last valuePlacement: its line's Σ of move terms. */
let placedAcc: f64 = 0;

/**
 * The value of the placement whose cells (CELL_WORDS) are at `cells`, on the node whose columns `cols` holds (holdNode):
 * acc = the node's acc + the move's landing height and eroded cells terms (+ TOP_OUT when it leaves a cell at or above
 * the visible field), into placedAcc; the value is acc + the board terms. `cols` holds the node's columns again after.
 */
@inline function valuePlacement(ctx: usize, node: usize, cells: usize, width: i32, full: u32): f64 {
  place(node, cells, width, full);
  if (lines == 0)
    measureNear(ctx, width, leftColumn, rightColumn, max<i32>(load<i32>(nodeSums + S_TOP), landingRow + pieceHeight));
  else measure(ctx, width);
  let acc =
    load<f64>(node + N_ACC) +
    weight(ctx, W_LANDING_HEIGHT) * landingHeight() +
    weight(ctx, W_ERODED_PIECE_CELLS) * <f64>(lines * eroded);
  if (top > load<i32>(ctx + O_VISIBLE)) acc += TOP_OUT;
  placedAcc = acc;
  const value = acc + boardTerms(ctx);
  restoreColumns(node, width);
  return value;
}

/** The cells of a placement at (x, y) of the piece state whose cell offsets are at `offsets`, into `out` (CELL_WORDS). */
@inline function writeCells(out: usize, offsets: usize, x: i32, y: i32): void {
  for (let c = 0; c < CELL_WORDS; c += 2) {
    store<i32>(out + ((<usize>c) << 2), x + load<i32>(offsets + ((<usize>c) << 2)));
    store<i32>(out + ((<usize>(c + 1)) << 2), y + load<i32>(offsets + ((<usize>(c + 1)) << 2)));
  }
}

/**
 * The node whose columns `cols` holds between placements (and whose terms nodeTerms measured), 0 for none: a
 * `measured` expansion of another node, or after boardFeatures used `cols`, measures its node again.
 */
let colsNode: usize = 0;

/**
 * The same for placements given as the reachable kernel lists them (the LANDING_WORDS records at O_LANDINGS:
 * state, x, y) of piece `piece`: their cells (from the geometry table) become children first .. first + n - 1.
 * `again` (1): the node is the last call's, unchanged since (its terms are not measured again).
 */
export function expandLandings(ctx: usize, node: usize, first: i32, n: i32, piece: i32, again: i32): void {
  const cellsAt = <usize>load<i32>(ctx + O_CHILD_CELLS);
  const landings = <usize>load<i32>(ctx + O_LANDINGS);
  const geometry = ctx + O_GEOMETRY + ((<usize>(piece * MAX_STATES * CELL_WORDS)) << 2);
  for (let j = 0; j < n; j++) {
    const at = landings + ((<usize>(j * LANDING_WORDS)) << 2);
    const offsets = geometry + ((<usize>(load<i32>(at) * CELL_WORDS)) << 2);
    const x = load<i32>(at, 4);
    const y = load<i32>(at, 8);
    writeCells(cellsAt + <usize>(first + j) * (CELL_WORDS << 2), offsets, x, y);
  }
  expandMeasured(ctx, node, first, n, again != 0);
}

/** Column heights of the node dropLandings places on (i32 each). */
const dropHeights = memory.data(MAX_COLUMNS << 2, 4);

/**
 * Where piece `piece` lands on the node at `node` when it falls straight down at each state and column of its drop
 * table (O_DROPS), into O_LANDINGS as the reachable kernel lists them; returns how many, or -1 when the piece has no
 * table or the node's top is above the table's D_CLEAR_BELOW (then only the reachable kernel's search knows its
 * placements). On such boards this is that kernel's own answer (assembly/reachable.ts reachFromTop: the same
 * placements in the same order; the property tests compare the two): a piece falling from above rests where one
 * of its cells meets its column's top (restingRow). bestDrop places the same drops in the same order.
 */
export function dropLandings(ctx: usize, node: usize, piece: i32): i32 {
  const table = dropTableFor(ctx, node, piece);
  if (table == 0) return -1;
  const width = load<i32>(ctx + O_WIDTH);
  for (let c = 0; c < width; c++) setI32(dropHeights, c, columnHeight<u64>(load<u64>(node + N_COLS + ((<usize>c) << 3))));
  const n = load<i32>(table + (D_COUNT << 2));
  const lockTop = load<i32>(table + (D_LOCK_TOP << 2));
  const landings = <usize>load<i32>(ctx + O_LANDINGS);
  let count: i32 = 0;
  for (let i = 0; i < n; i++) {
    const at = table + ((<usize>(D_LIST + 2 * i)) << 2);
    const state = load<i32>(at);
    const s = piece * MAX_STATES + state;
    const y = restingRow(s, load<i32>(at, 4) + profileAt(s, P_MIN_DX));
    if (y + profileAt(s, P_HIGH_DY) + 1 > lockTop) continue;
    const out = landings + ((<usize>(count * LANDING_WORDS)) << 2);
    store<i32>(out, state);
    store<i32>(out, load<i32>(at, 4), 4);
    store<i32>(out, y, 8);
    count++;
  }
  return count;
}

/** The drop table of piece `piece` if it holds on the node at `node` (dropLandings), else 0. */
@inline function dropTableFor(ctx: usize, node: usize, piece: i32): usize {
  const tables = <usize>load<i32>(ctx + O_DROPS);
  if (tables == 0) return 0;
  const table = tables + ((<usize>(piece * DROP_TABLE_WORDS)) << 2);
  if (load<i32>(table + (D_COUNT << 2)) < 0 || load<i32>(node + N_TOP) > load<i32>(table + (D_CLEAR_BELOW << 2))) return 0;
  return table;
}

/**
 * Where a piece state (profile s: piece * MAX_STATES + state) dropped with its leftmost column at `left` comes to
 * rest on the columns of dropHeights: the highest of each column's height less that column's lowest cell.
 */
@inline function restingRow(s: i32, left: i32): i32 {
  let y: i32 = -64;
  for (let k = 0; k < profileAt(s, P_COLUMNS); k++)
    y = max<i32>(y, i32At(dropHeights, left + k) - profileAt(s, P_BOTTOM + k));
  return y;
}

// ---- the best drop of a piece, without valuing the placements that cannot be it (the chance ply's max) ----
// The chance ply asks, per piece, only for the best value of its placements on a line's board. Where the piece's
// drop table holds (dropLandings), each placement rests on its columns' tops, so a placement that clears no row
// changes the node's features in a way read from a few loads: the gaps under the piece's columns are its new holes
// (their cells, their rows, and +2 column transitions each), the cells over a column with holes add as many to the
// hole depth, the piece's own rows give the row transitions exactly, and its cells in the well column the well
// cells. Only the well runs of the touched columns and their neighbours need the columns: the bound takes the touched
// columns' own runs as gone and the neighbours' as unchanged (they only grow). The cover and the clean-stack terms
// are bounded likewise. With the usual signs of the weights (boundsHold), that is an upper bound on the placement's
// value. bestDrop values the placement with the highest bound first, then each other one only if its bound beats the
// best value found so far: the same best value, to the last bit, as valuing them all (test/tetris-ai/recover.test.ts).
// (The same bound on a beam level's children, leaving out those that cannot be among the few it keeps, gained 1.5 %
// on nes's long runs and nothing on classic's: not kept; bench/notes/benchmarks.md, "Real-game speed".)

/** Per drop of bestDrop, in the drop table's order: its bound, and its index in the table with where it lands (y). */
const dropBound = memory.data(MAX_DROPS << 3, 8);
const dropOrder = memory.data(MAX_DROPS << 2, 4);
/** The cells of the placement bestDrop values (CELL_WORDS). */
const dropCells = memory.data(CELL_WORDS << 2, 4);
/** How many placements the last bestDrop call had, and how many it valued. */
let dropPlacements: i32 = 0;
let dropValued: i32 = 0;

// The shape of each piece state, read from the geometry once it is written (profileGeometry): its columns from the
// leftmost (each one's lowest cell and cell count), its lowest and highest row, and each of its rows' cells as a mask
// from the leftmost.
const P_COLUMNS = 0; //  i32 columns the state spans
const P_MIN_DX = 1; //   i32 its leftmost column, from the placement's reference point
const P_LOW_DY = 2; //   i32 its lowest row, from the reference point
const P_HIGH_DY = 3; //  i32 its highest row
const P_BOTTOM = 4; //   i32[4] per column: its lowest cell's dy
const P_COUNT = 8; //    i32[4] per column: its cells
const P_ROW_MASK = 12; // i32[4] per row from the lowest: its cells, bit k = column P_MIN_DX + k
const PROFILE_WORDS = 16;
const profiles = memory.data((PIECE_COUNT * MAX_STATES * PROFILE_WORDS) << 2, 4);
@inline function profileAt(state: i32, word: i32): i32 {
  return load<i32>(profiles + ((<usize>(state * PROFILE_WORDS + word)) << 2));
}
@inline function setProfile(state: i32, word: i32, v: i32): void {
  store<i32>(profiles + ((<usize>(state * PROFILE_WORDS + word)) << 2), v);
}

/**
 * The profiles of every piece state from the context's geometry (O_GEOMETRY; every state slot, used or not): called
 * after TypeScript writes the geometry. A profile's state is piece * MAX_STATES + state.
 */
export function profileGeometry(ctx: usize): void {
  for (let s = 0; s < PIECE_COUNT * MAX_STATES; s++) {
    const offsets = ctx + O_GEOMETRY + ((<usize>(s * CELL_WORDS)) << 2);
    let minDx: i32 = 64;
    let maxDx: i32 = -64;
    let lowDy: i32 = 64;
    let highDy: i32 = -64;
    for (let c = 0; c < PIECE_CELLS; c++) {
      minDx = min<i32>(minDx, cellX(offsets, c));
      maxDx = max<i32>(maxDx, cellX(offsets, c));
      lowDy = min<i32>(lowDy, cellY(offsets, c));
      highDy = max<i32>(highDy, cellY(offsets, c));
    }
    for (let k = 0; k < 4; k++) {
      setProfile(s, P_BOTTOM + k, 64);
      setProfile(s, P_COUNT + k, 0);
      setProfile(s, P_ROW_MASK + k, 0);
    }
    for (let c = 0; c < PIECE_CELLS; c++) {
      const k = cellX(offsets, c) - minDx;
      const r = cellY(offsets, c) - lowDy;
      setProfile(s, P_BOTTOM + k, min<i32>(profileAt(s, P_BOTTOM + k), cellY(offsets, c)));
      setProfile(s, P_COUNT + k, profileAt(s, P_COUNT + k) + 1);
      setProfile(s, P_ROW_MASK + r, profileAt(s, P_ROW_MASK + r) | (1 << k));
    }
    setProfile(s, P_COLUMNS, maxDx - minDx + 1);
    setProfile(s, P_MIN_DX, minDx);
    setProfile(s, P_LOW_DY, lowDy);
    setProfile(s, P_HIGH_DY, highDy);
  }
}

/** Row transitions of one row below the top (bit x = column x, the well column's bit set): the walls are filled. */
@inline function rowTransitionsOf(bits: u32, width: i32): i32 {
  const ext = 1 | (bits << 1) | (<u32>1 << <u32>(width + 1));
  return <i32>popcnt<u32>((ext ^ (ext >> 1)) & ((<u32>1 << <u32>(width + 1)) - 1));
}

/**
 * Whether the weights of the terms the bound takes as at least their lower bounds are at most 0 (the recover and BCTS
 * weights are): with another sign bestDrop values every placement.
 */
@inline function boundsHold(ctx: usize): bool {
  return (
    weight(ctx, W_COLUMN_TRANSITIONS) <= 0 &&
    weight(ctx, W_HOLES) <= 0 &&
    weight(ctx, W_CUMULATIVE_WELLS) <= 0 &&
    weight(ctx, W_HOLE_DEPTH) <= 0 &&
    weight(ctx, W_ROWS_WITH_HOLES) <= 0 &&
    weight(ctx, W_WELL_CELLS) <= 0 &&
    weight(ctx, W_FLOOR_ROWS) <= 0 &&
    weight(ctx, W_WELL_COVER) <= 0
  );
}

/**
 * The best value among piece `piece`'s placements on the node at `node` (what expandLandings over dropLandings'
 * placements would give as its children's largest value), -Infinity when it has none, NaN when its drop table does
 * not hold there (dropLandings' -1). `again` as expandLandings'. No child is written.
 */
export function bestDrop(ctx: usize, node: usize, piece: i32, again: i32): f64 {
  const table = dropTableFor(ctx, node, piece);
  if (table == 0) return NaN;
  const n = load<i32>(table + (D_COUNT << 2));
  const width = load<i32>(ctx + O_WIDTH);
  const wellColumn = load<i32>(ctx + O_WELL);
  const coverWell = load<i32>(ctx + O_COVER_WELL);
  const full: u32 = (<u32>1 << <u32>width) - 1;
  holdNode(ctx, node, width, again != 0);
  for (let c = 0; c < width; c++) setI32(dropHeights, c, columnHeight<u64>(colAt(c)));
  const geometry = ctx + O_GEOMETRY + ((<usize>(piece * MAX_STATES * CELL_WORDS)) << 2);
  // What the bound starts from: the node's terms, and each growing penalty's weight.
  const nodeAcc = load<f64>(node + N_ACC);
  const wLanding = weight(ctx, W_LANDING_HEIGHT);
  const wColT = weight(ctx, W_COLUMN_TRANSITIONS);
  const wHoles = weight(ctx, W_HOLES);
  const wWells = weight(ctx, W_CUMULATIVE_WELLS);
  const wDepth = weight(ctx, W_HOLE_DEPTH);
  const wHoleRows = weight(ctx, W_ROWS_WITH_HOLES);
  const wWellCells = weight(ctx, W_WELL_CELLS);
  const bounded = boundsHold(ctx);
  // (a row at or over the node's top counts 2 row transitions only below the rows the feature counts)
  const height = load<i32>(ctx + O_HEIGHT);
  const nodeTop = load<i32>(nodeSums + S_TOP);
  const holeRows0 = load<u64>(nodeSums + S_HOLE_ROWS);
  const colT0 = load<i32>(nodeSums + S_COL_T);
  const holes0 = load<i32>(nodeSums + S_HOLES);
  const depth0 = load<i32>(nodeSums + S_HOLE_DEPTH);
  const wells0 = load<i32>(nodeSums + S_WELLS);
  const wellCells0 = wellColumn >= 0 ? <i32>popcnt<u64>(colAt(wellColumn)) : 0;
  const wRowT = weight(ctx, W_ROW_TRANSITIONS);
  const rowT0 = 2 * (height - nodeTop) + load<i32>(nodeSums + S_PAIRS);
  const wellBit: u32 = wellColumn >= 0 ? <u32>1 << <u32>wellColumn : 0;
  // The clean-stack terms: a stack stays off them if the node has hole rows over its well column's height, or too
  // high a floor, unless a piece cell in the well column raises that height; on one they cost at least its height.
  const wellHeight = wellColumn >= 0 ? columnHeight<u64>(colAt(wellColumn)) : 0;
  const cleanIfAny =
    wellColumn >= 0 ? max<f64>(0, weight(ctx, W_CLEAN) + weight(ctx, W_FLOOR_ROWS) * <f64>wellHeight) : 0;
  const floorFits = wellHeight <= load<i32>(ctx + O_MAX_FLOOR);
  const coverTerm = weight(ctx, W_WELL_COVER) * <f64>load<i32>(nodeSums + S_COVER);
  const lockTop = load<i32>(table + (D_LOCK_TOP << 2));
  let count: i32 = 0;
  let highest: f64 = -Infinity;
  let first: i32 = 0;
  for (let i = 0; i < n; i++) {
    const at = table + ((<usize>(D_LIST + 2 * i)) << 2);
    const s = piece * MAX_STATES + load<i32>(at);
    const left = load<i32>(at, 4) + profileAt(s, P_MIN_DX);
    const columns = profileAt(s, P_COLUMNS);
    const lowDy = profileAt(s, P_LOW_DY);
    const highDy = profileAt(s, P_HIGH_DY);
    const y = restingRow(s, left);
    if (y + highDy + 1 > lockTop) continue;
    let bound: f64 = Infinity;
    if (bounded && y + highDy < height) {
      let clears = false;
      for (let r = 0; r <= highDy - lowDy; r++)
        if ((rowAt(node, y + lowDy + r) | (<u32>profileAt(s, P_ROW_MASK + r) << <u32>left)) == full) clears = true;
      if (!clears) {
        // each column of the piece is a run of cells resting on the column's top, or over a gap of new holes
        let gapCells: i32 = 0;
        let gapColumns: i32 = 0;
        let depthCells: i32 = 0;
        let wellAdded: i32 = 0;
        let touchedWells: i32 = 0;
        let gapRows: u64 = 0;
        let touchesCover = false;
        for (let k = 0; k < columns; k++) {
          const c = left + k;
          if (c == coverWell) touchesCover = true;
          const h = i32At(dropHeights, c);
          const bottom = y + profileAt(s, P_BOTTOM + k);
          const cells = profileAt(s, P_COUNT + k);
          touchedWells += i32At(nodeWells, c);
          if (c == wellColumn) wellAdded += cells;
          if (bottom > h) {
            gapColumns++;
            if (c == coverWell) continue;
            gapCells += bottom - h;
            gapRows |= lowBits<u64>(bottom) & ~lowBits<u64>(h);
            depthCells += cells;
          } else if (c != coverWell && i32At(nodeHoles, c) > 0) depthCells += cells;
        }
        // the rows the piece is in, with the walls and the well column read as filled: exactly their row
        // transitions after; before, a row at or over the node's top counted 2
        let rowT = rowT0;
        for (let r = y + lowDy; r <= y + highDy; r++) {
          const before = rowAt(node, r) | wellBit;
          const after = before | (<u32>profileAt(s, P_ROW_MASK + r - y - lowDy) << <u32>left);
          rowT += rowTransitionsOf(after, width) - (r < nodeTop ? rowTransitionsOf(before, width) : 2);
        }
        const clean =
          wellAdded > 0 || (wellColumn >= 0 && floorFits && ((holeRows0 | gapRows) >> <u64>wellHeight) == 0)
            ? cleanIfAny
            : 0;
        bound =
          nodeAcc +
          wLanding * (<f64>(y + lowDy) + <f64>(highDy - lowDy) / 2) +
          wRowT * <f64>rowT +
          wColT * <f64>(colT0 + 2 * gapColumns) +
          wHoles * <f64>(holes0 + gapCells) +
          wWells * <f64>(wells0 - touchedWells) +
          wDepth * <f64>(depth0 + depthCells) +
          wHoleRows * <f64>popcnt<u64>(holeRows0 | gapRows) +
          wWellCells * <f64>(wellCells0 + wellAdded) +
          clean +
          (touchesCover ? 0 : coverTerm);
        // room for the rounding of a sum of a dozen terms added in another order
        bound += 1e-9 * (abs<f64>(bound) + 1e3);
      }
    }
    store<f64>(dropBound + ((<usize>count) << 3), bound);
    setI32(dropOrder, count, (y << 8) | i);
    if (bound > highest) {
      highest = bound;
      first = count;
    }
    count++;
  }
  dropPlacements = count;
  let best: f64 = -Infinity;
  let valued: i32 = 0;
  // the placement with the highest bound first (often the best), then the others in order, each only if its bound
  // can beat the best so far
  for (let o = 0; o < count; o++) {
    const j = o == 0 ? first : o <= first ? o - 1 : o;
    if (load<f64>(dropBound + ((<usize>j) << 3)) <= best) continue;
    const packed = i32At(dropOrder, j);
    const at = table + ((<usize>(D_LIST + 2 * (packed & 0xff))) << 2);
    writeCells(dropCells, geometry + ((<usize>(load<i32>(at) * CELL_WORDS)) << 2), load<i32>(at, 4), packed >> 8);
    const v = valuePlacement(ctx, node, dropCells, width, full);
    if (v > best) best = v;
    valued++;
  }
  dropValued = valued;
  return best;
}

/** The placements (high 16 bits) and the valued ones (low 16 bits) of the last bestDrop call. */
export function bestDropCounts(): i32 {
  return (dropPlacements << 16) | dropValued;
}

/**
 * Derives the node's top and columns from its rows (the first `rowCount`; the rest must be 0): after TypeScript
 * wrote them, or materialize did.
 */
function deriveColumns(node: usize, rowCount: i32): void {
  memory.fill(node + N_COLS, 0, MAX_COLUMNS << 3);
  let t: i32 = 0;
  for (let r = 0; r < rowCount; r++) {
    let m = rowAt(node, r);
    if (m != 0) t = r + 1;
    while (m != 0) {
      const at = node + N_COLS + ((<usize>ctz<u32>(m)) << 3);
      store<u64>(at, load<u64>(at) | (<u64>1 << <u64>r));
      m &= m - 1;
    }
  }
  store<i32>(node + N_TOP, t);
}

/** Prepares the node at `node` after TypeScript wrote its rows (its top and columns). */
export function prepareNode(ctx: usize, node: usize): void {
  deriveColumns(node, load<i32>(ctx + O_ROW_COUNT));
}

/**
 * Writes child `child` of the node at `node` into the node at `dst`: the rows with the piece locked and full rows
 * cleared (src/tetris-ai/grid.ts lockCells), its columns and top, its acc.
 */
export function materialize(ctx: usize, node: usize, child: i32, dst: usize): void {
  const width = load<i32>(ctx + O_WIDTH);
  const full: u32 = (<u32>1 << <u32>width) - 1;
  const cells = <usize>load<i32>(ctx + O_CHILD_CELLS) + <usize>child * (CELL_WORDS << 2);
  const srcTop = load<i32>(node + N_TOP);
  memory.copy(dst, node, (<usize>srcTop) << 2);
  memory.fill(dst + ((<usize>srcTop) << 2), 0, (<usize>(MAX_ROWS - srcTop)) << 2);
  let low: i32 = 0x7fffffff;
  let high: i32 = -1;
  for (let i = 0; i < PIECE_CELLS; i++) {
    const y = cellY(cells, i);
    setRow(dst, y, rowAt(dst, y) | (<u32>1 << <u32>cellX(cells, i)));
    if (y < low) low = y;
    if (y > high) high = y;
  }
  const limit = max<i32>(srcTop, high + 1);
  let write = low;
  for (let r = low; r < limit; r++) if (r > high || rowAt(dst, r) != full) setRow(dst, write++, rowAt(dst, r));
  for (let r = write; r < limit; r++) setRow(dst, r, 0);
  deriveColumns(dst, limit);
  store<f64>(dst + N_ACC, load<f64>(<usize>load<i32>(ctx + O_CHILD_ACCS) + ((<usize>child) << 3)));
}

/**
 * The features of the board at O_BOARD after a move with these facts, into O_FEATURES (RecoverWeights order):
 * src/tetris-ai/evaluate.ts boardFeatures.
 */
export function boardFeatures(ctx: usize, moveLines: i32, moveEroded: i32, moveLandingRow: i32, movePieceHeight: i32): void {
  const board = ctx + O_BOARD;
  const width = load<i32>(ctx + O_WIDTH);
  deriveColumns(board, load<i32>(ctx + O_ROW_COUNT));
  memory.copy(cols, board + N_COLS, (<usize>width) << 3);
  colsNode = 0;
  measure(ctx, width);
  landingRow = moveLandingRow;
  pieceHeight = movePieceHeight;
  const out = ctx + O_FEATURES;
  store<f64>(out + (W_LANDING_HEIGHT << 3), landingHeight());
  store<f64>(out + (W_ERODED_PIECE_CELLS << 3), <f64>(moveLines * moveEroded));
  store<f64>(out + (W_ROW_TRANSITIONS << 3), <f64>rowTransitions);
  store<f64>(out + (W_COLUMN_TRANSITIONS << 3), <f64>columnTransitions);
  store<f64>(out + (W_HOLES << 3), <f64>holes);
  store<f64>(out + (W_CUMULATIVE_WELLS << 3), <f64>cumulativeWells);
  store<f64>(out + (W_HOLE_DEPTH << 3), <f64>holeDepth);
  store<f64>(out + (W_ROWS_WITH_HOLES << 3), <f64>rowsWithHoles);
  store<f64>(out + (W_WELL_CELLS << 3), <f64>wellCells);
  store<f64>(out + (W_CLEAN << 3), <f64>clean);
  store<f64>(out + (W_FLOOR_ROWS << 3), <f64>floorRows);
  store<f64>(out + (W_WELL_COVER << 3), <f64>wellCover);
}
