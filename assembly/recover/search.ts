// Recover-search kernel: the inner loop of the recover mode's beam search (src/game/recover.ts). For one node (a
// board the beam keeps) and the placements of one piece on it, each placement is locked onto the board, full rows
// are cleared, the board's features are measured and the line's value is summed, with no allocation: the node,
// the placements' cells and the children's values live in buffers TypeScript allocated once.
//
// The features are those of src/game/evaluate.ts (the BCTS features of docs/fullboard.md on bit rows of any height,
// with the well column read as filled, plus the recover terms), and the sums are added in the order the
// independent TypeScript reference adds them (test/reference/recover-reference.ts), in f64, so the values are the
// reference's to the last bit.
import {
  CELL_WORDS, MAX_ROWS, N_ACC, N_TOP, O_BOARD, O_CHILD_ACCS, O_CHILD_CELLS, O_CHILD_VALUES, O_FEATURES, O_HEIGHT,
  O_MAX_FLOOR, O_ROW_COUNT, O_SCRATCH, O_VISIBLE, O_WEIGHTS, O_WELL, O_WIDTH, PIECE_CELLS, TOP_OUT,
  W_CLEAN, W_COLUMN_TRANSITIONS, W_CUMULATIVE_WELLS, W_ERODED_PIECE_CELLS, W_FLOOR_ROWS, W_HOLES, W_HOLE_DEPTH,
  W_LANDING_HEIGHT, W_ROWS_WITH_HOLES, W_ROW_TRANSITIONS, W_WELL_CELLS,
} from './layout';

@inline function rowAt(rows: usize, r: i32): u32 {
  return load<u32>(rows + ((<usize>r) << 2));
}
@inline function setRow(rows: usize, r: i32, v: u32): void {
  store<u32>(rows + ((<usize>r) << 2), v);
}
@inline function weight(ctx: usize, w: i32): f64 {
  return load<f64>(ctx + O_WEIGHTS + ((<usize>w) << 3));
}

// What the last lock did (the move's facts).
let lines: i32 = 0;
let eroded: i32 = 0;
let landingRow: i32 = 0;
let pieceHeight: i32 = 0;
/** Rows of the scratch board up to its highest non-empty one: every row from here up is 0. */
let scratchTop: i32 = 0;

/**
 * Writes into dst the board at src (rows up to srcTop; dst's rows from dstTop up are 0) with the piece's cells
 * (CELL_WORDS at `cells`) set and full rows cleared (rows above fall): src/game/grid.ts lockCells. Cells are empty
 * and on the board; the rows were not full before. Returns the new board's top (dst's rows from it up are 0).
 */
function lock(src: usize, srcTop: i32, cells: usize, dst: usize, dstTop: i32, full: u32): i32 {
  memory.copy(dst, src, (<usize>srcTop) << 2);
  for (let r = srcTop; r < dstTop; r++) setRow(dst, r, 0);
  let low: i32 = 0x7fffffff;
  let high: i32 = -1;
  for (let i = 0; i < PIECE_CELLS; i++) {
    const x = load<i32>(cells + ((<usize>(2 * i)) << 2));
    const y = load<i32>(cells + ((<usize>(2 * i + 1)) << 2));
    setRow(dst, y, rowAt(dst, y) | (<u32>1 << <u32>x));
    if (y < low) low = y;
    if (y > high) high = y;
  }
  const limit = max<i32>(srcTop, high + 1);
  let n: i32 = 0;
  let e: i32 = 0;
  // Only rows the piece touched can have become full.
  let write = low;
  for (let r = low; r <= high; r++) {
    if (rowAt(dst, r) == full) {
      n++;
      for (let i = 0; i < PIECE_CELLS; i++) if (load<i32>(cells + ((<usize>(2 * i + 1)) << 2)) == r) e++;
    } else {
      if (n > 0) setRow(dst, write, rowAt(dst, r));
      write++;
    }
  }
  if (n > 0) {
    for (let r = high + 1; r < limit; r++) setRow(dst, write++, rowAt(dst, r));
    for (let r = write; r < limit; r++) setRow(dst, r, 0);
  }
  lines = n;
  eroded = e;
  landingRow = low;
  pieceHeight = high - low + 1;
  let top = limit - n;
  while (top > 0 && rowAt(dst, top - 1) == 0) top--;
  return top;
}

/** Rows up to the highest non-empty one of the `rowCount` rows at `rows`. */
function topOf(rows: usize, rowCount: i32): i32 {
  for (let r = rowCount - 1; r >= 0; r--) if (rowAt(rows, r) != 0) return r + 1;
  return 0;
}

// The board features of the last measure() call.
let rowTransitions: i32 = 0;
let columnTransitions: i32 = 0;
let holes: i32 = 0;
let cumulativeWells: i32 = 0;
let holeDepth: i32 = 0;
let rowsWithHoles: i32 = 0;
let wellCells: i32 = 0;
let clean: i32 = 0;
let floorRows: i32 = 0;

/**
 * The features of the board at `rows` (after the move, rows already cleared; rows 0..top-1 hold every filled cell).
 * Definitions: src/game/evaluate.ts; the well column (-1: none) reads as filled for the row transitions and wells.
 */
function measure(ctx: usize, rows: usize, top: i32): void {
  const width = load<i32>(ctx + O_WIDTH);
  const height = load<i32>(ctx + O_HEIGHT);
  const wellColumn = load<i32>(ctx + O_WELL);
  const full: u32 = (<u32>1 << <u32>width) - 1;
  // Row transitions, walls filled: bit i of x = cell i - 1, bits 0 and width + 1 the walls.
  let rowT = 2 * (height - top);
  // Column transitions: the floor counts as filled; the row above the board as empty.
  let colT: i32 = 0;
  let prev = full;
  const wellBit: u32 = wellColumn >= 0 ? <u32>1 << <u32>wellColumn : 0;
  const walls: u32 = 1 | (<u32>1 << <u32>(width + 1));
  const inner: u32 = (<u32>1 << <u32>(width + 1)) - 1;
  for (let r = 0; r < top; r++) {
    const m = rowAt(rows, r);
    const x = ((m | wellBit) << 1) | walls;
    rowT += <i32>popcnt<u32>((x ^ (x >>> 1)) & inner);
    colT += <i32>popcnt<u32>(m ^ prev);
    prev = m;
  }
  colT += <i32>popcnt<u32>(prev);
  // Holes, rows with holes, hole depth: scan down with the columns already covered.
  let h: i32 = 0;
  let rwh: i32 = 0;
  let hd: i32 = 0;
  let covered: u32 = 0;
  let wc: i32 = 0;
  for (let r = top - 1; r >= 0; r--) {
    const m = rowAt(rows, r);
    const holeMask = ~m & covered & full;
    if (holeMask != 0) {
      h += <i32>popcnt<u32>(holeMask);
      rwh++;
      // each hole's depth: the filled cells directly above it, up to the first empty one
      for (let v = holeMask; v != 0; v &= v - 1) {
        const c = ctz<u32>(v);
        for (let k = r + 1; k < top && ((rowAt(rows, k) >> c) & 1) != 0; k++) hd++;
      }
    }
    covered |= m;
    if ((m & wellBit) != 0) wc++;
  }
  // Cumulative wells: a well cell (empty, both neighbours filled, walls filled) adds the empty run from it down.
  let cw: i32 = 0;
  const leftWall: u32 = <u32>1 << <u32>(width - 1);
  for (let r = 0; r < top; r++) {
    const w = rowAt(rows, r) | wellBit;
    const wells = ~w & ((w << 1) | 1) & ((w >> 1) | leftWall) & full;
    for (let v = wells; v != 0; v &= v - 1) {
      const c = ctz<u32>(v);
      for (let k = r; k >= 0 && ((rowAt(rows, k) >> c) & 1) == 0; k--) cw++;
    }
  }
  // A clean stack on the bottom (no holes, nothing in the well) or over a floor of buried rows.
  const floor = wellColumn < 0 ? -1 : h == 0 && wc == 0 ? 0 : stackFloor(rows, top, full, wellColumn);
  const isClean = floor >= 0 && floor <= load<i32>(ctx + O_MAX_FLOOR);
  rowTransitions = rowT;
  columnTransitions = colT;
  holes = h;
  cumulativeWells = cw;
  holeDepth = hd;
  rowsWithHoles = rwh;
  wellCells = wc;
  clean = isClean ? 1 : 0;
  floorRows = isClean ? floor : 0;
}

/**
 * The floor of the clean stack for a well in `wellColumn`, or -1 when there is none (src/game/grid.ts stackFloor:
 * the well column's height, when every row from it up is hole-free and every other column reaches it). The rows
 * from `top` up are empty (they change nothing below).
 */
function stackFloor(rows: usize, top: i32, full: u32, wellColumn: i32): i32 {
  let floor: i32 = 0;
  for (let r = top - 1; r >= 0; r--) {
    if (((rowAt(rows, r) >> <u32>wellColumn) & 1) != 0) {
      floor = r + 1;
      break;
    }
  }
  let covered: u32 = 0;
  for (let r = top - 1; r >= floor; r--) {
    const m = rowAt(rows, r);
    if ((~m & covered & full) != 0) return -1;
    covered |= m;
  }
  if (floor > 0 && (covered | rowAt(rows, floor - 1)) != full) return -1;
  return floor;
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
    weight(ctx, W_FLOOR_ROWS) * <f64>floorRows
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
 * (+ TOP_OUT when the move leaves a cell above the visible field).
 */
export function expand(ctx: usize, node: usize, first: i32, n: i32): void {
  const width = load<i32>(ctx + O_WIDTH);
  const visible = load<i32>(ctx + O_VISIBLE);
  const full: u32 = (<u32>1 << <u32>width) - 1;
  const cellsAt = <usize>load<i32>(ctx + O_CHILD_CELLS);
  const values = <usize>load<i32>(ctx + O_CHILD_VALUES);
  const accs = <usize>load<i32>(ctx + O_CHILD_ACCS);
  const scratch = ctx + O_SCRATCH;
  const nodeAcc = load<f64>(node + N_ACC);
  const nodeTop = load<i32>(node + N_TOP);
  const wLanding = weight(ctx, W_LANDING_HEIGHT);
  const wEroded = weight(ctx, W_ERODED_PIECE_CELLS);
  for (let i = first; i < first + n; i++) {
    const top = lock(node, nodeTop, cellsAt + <usize>i * (CELL_WORDS << 2), scratch, scratchTop, full);
    scratchTop = top;
    measure(ctx, scratch, top);
    let acc = nodeAcc + wLanding * landingHeight() + wEroded * <f64>(lines * eroded);
    // a cell at or above the visible field: the move topped out
    if (top > visible) acc += TOP_OUT;
    store<f64>(accs + ((<usize>i) << 3), acc);
    store<f64>(values + ((<usize>i) << 3), acc + boardTerms(ctx));
  }
}

/** Writes child `child` of the node at `node` (its board, acc and top) into the node at `dst`. */
export function materialize(ctx: usize, node: usize, child: i32, dst: usize): void {
  const width = load<i32>(ctx + O_WIDTH);
  const cellsAt = <usize>load<i32>(ctx + O_CHILD_CELLS);
  const cells = cellsAt + <usize>child * (CELL_WORDS << 2);
  const top = lock(node, load<i32>(node + N_TOP), cells, dst, MAX_ROWS, (<u32>1 << <u32>width) - 1);
  store<i32>(dst + N_TOP, top);
  store<f64>(dst + N_ACC, load<f64>(<usize>load<i32>(ctx + O_CHILD_ACCS) + ((<usize>child) << 3)));
}

/** Sets the top of the node at `node` from its rows (after TypeScript wrote them). */
export function setTop(ctx: usize, node: usize): void {
  store<i32>(node + N_TOP, topOf(node, load<i32>(ctx + O_ROW_COUNT)));
}

/**
 * The features of the board at O_BOARD after a move with these facts, into O_FEATURES (RecoverWeights order):
 * src/game/evaluate.ts boardFeatures.
 */
export function boardFeatures(ctx: usize, moveLines: i32, moveEroded: i32, moveLandingRow: i32, movePieceHeight: i32): void {
  measure(ctx, ctx + O_BOARD, topOf(ctx + O_BOARD, load<i32>(ctx + O_ROW_COUNT)));
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
}
