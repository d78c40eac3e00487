// Full-board player kernel (DESIGN §5, issue 6): a bitboard engine (one u32 mask per row, bit c = column c),
// the board features of seed 004 and Dellacherie/BCTS, 1-ply and 2-ply move choice, and the whole game loop
// including the project's PRNG (xoshiro128**, src/random.ts) so a game never leaves WebAssembly.
//
// Everything lives in one context block allocated by the TypeScript side (src/fullboard/kernel.ts), which also
// writes the piece tables into it, generated from src/pieces.ts: this file knows no piece shape. Layout below;
// keep it in step with src/fullboard/layout.ts. No allocation, no strings, no GC.
export { alloc } from './memory';

// ---- context layout (byte offsets) ----
const O_W: usize = 0; //          i32 board width (4..10)
const O_H: usize = 4; //          i32 board height (4..24); a cell in row >= H loses
const O_FULL: usize = 8; //       i32 mask of a full row
const O_USED: usize = 12; //      i32 bit f set when weight f != 0 (features with weight 0 are not computed)
const O_RNG: usize = 16; //       u32[4] xoshiro128** state
const O_MODE: usize = 32; //      i32 piece source: 0 = memoryless from the PRNG, 1 = piece buffer
const O_BUF: usize = 36; //       i32 ptr to u8 piece ids (mode 1)
const O_BUFLEN: usize = 40; //    i32 ids in the buffer
const O_BUFPOS: usize = 44; //    i32 ids consumed
const O_CUR: usize = 48; //       i32 current piece, -1 = not drawn yet
const O_NEXT: usize = 52; //      i32 preview piece (lookahead 1), -1 = not drawn yet
const O_LOOK: usize = 56; //      i32 lookahead: 0 = 1-ply, 1 = 2-ply over the known next piece
const O_LOST: usize = 60; //      i32 1 once the game is lost
const O_LINES: usize = 64; //     f64 lines cleared in this game
const O_PIECES: usize = 72; //    f64 pieces placed in this game
const O_BEST_SCORE: usize = 80; // f64 value of the last chosen move
const O_BOARD_A: usize = 88; //   i32 ptr: the current board (swapped with B after each move)
const O_BOARD_B: usize = 92; //   i32 ptr: scratch board for first-ply candidates
const O_BOARD_C: usize = 96; //   i32 ptr: scratch board for second-ply candidates
const O_LAST_LINES: usize = 100; // i32 lines cleared by the last place()
const O_LAST_ERODED: usize = 104; // i32 piece cells inside those lines
const O_NORIENT: usize = 128; //  i32[7] orientations per piece
const O_ORIENT: usize = 160; //   28 records of 64 bytes: piece p, orientation o at (p * 4 + o) * 64
const O_WEIGHTS: usize = 1984; // f64[16] weight per feature id
const O_FEAT: usize = 2112; //    f64[16] scratch feature vector
const O_BOARDS: usize = 2304; //  3 boards of BOARD_BYTES
const O_SRC: usize = 3072; //     source-board statistics for the incremental evaluator (see srcStats)
const CTX_BYTES: usize = 5120;

// O_SRC record (i32 words)
const S_ROWT: usize = 0;
const S_ROWTC: usize = 4;
const S_COLT: usize = 8;
const S_HOLES: usize = 12;
const S_ROWS_WITH_HOLES: usize = 16;
const S_WELLST: usize = 20;
const S_WELLST_COL: usize = 64; //  i32[16] wellsTriangle of each column
const S_HOLE_MASK: usize = 128; //  i32[32] holes of each row
const S_NEW_HEIGHTS: usize = 256; // i32[16] scratch: heights after the move being scored
const S_ROW_T: usize = 320; //      u8[32] rowTrans of each row
const S_ROW_TC: usize = 352; //     u8[32] rowTransC of each row (given the row below)
const S_COL_T: usize = 384; //      u8[32] column changes between row r-1 and row r
// bottom-up scan state (cumulativeWells, holeDepth), so a move only rescans rows from its landing row up
const S_CW_PREFIX: usize = 416; //  i32[33] cumulativeWells of rows below r
const S_HD_PREFIX: usize = 560; //  i32[33] holeDepth of rows below r
const S_AH: usize = 704; //         i32[32] filled cells directly above a hole run, after row r
const S_E: usize = 832; //          u16[5][32] bit-sliced empty-run counters after row r
const S_SLOW_OUT: usize = 1152; //  i32[2] slowScan's cumulativeWells and holeDepth

// orientation record (i32 words)
const OE_WIDTH: usize = 0;
const OE_HEIGHT: usize = 4;
const OE_BOT: usize = 16; //  i32[4] lowest cell per column
const OE_MASK: usize = 32; // i32[4] row masks (bit j = column j of the piece), rows counted up from its lowest
const OE_TOP: usize = 48; //  i32[4] row above the highest cell per column

// board record
const B_ROWS: usize = 0; //      u32[32]; rows at or above `top` are always 0
const B_HEIGHTS: usize = 128; // i32[16] column heights (row above the highest filled cell, 0 if empty)
const B_TOP: usize = 192; //     i32 max column height = number of rows up to the highest non-empty one
const BOARD_BYTES: usize = 256;

// feature ids (keep in step with FEATURES in src/fullboard/features.ts)
const F_ROWS_CLEARED: i32 = 0;
const F_ROW_TRANSITIONS: i32 = 1;
const F_ROW_TRANSITIONS_CONTINUOUS: i32 = 2;
const F_COLUMN_TRANSITIONS: i32 = 3;
const F_COLUMN_TRANSITIONS_BELOW_TOP: i32 = 4;
const F_HOLES: i32 = 5;
const F_HOLES_TIMES_TEN: i32 = 6;
const F_CUMULATIVE_WELLS: i32 = 7;
const F_WELLS_TRIANGLE: i32 = 8;
const F_MAX_HEIGHT: i32 = 9;
const F_LANDING_HEIGHT: i32 = 10;
const F_ERODED_PIECE_CELLS: i32 = 11;
const F_HOLE_DEPTH: i32 = 12;
const F_ROWS_WITH_HOLES: i32 = 13;
const NF: i32 = 14;

const LOSS: f64 = -1.0e300;

@inline function bit(f: i32): i32 {
  return 1 << f;
}
@inline function rowAt(b: usize, r: i32): i32 {
  return load<i32>(b + B_ROWS + ((<usize>r) << 2));
}
@inline function heightAt(b: usize, c: i32): i32 {
  return load<i32>(b + B_HEIGHTS + ((<usize>c) << 2));
}
@inline function orientRec(ctx: usize, p: i32, o: i32): usize {
  return ctx + O_ORIENT + (<usize>(p * 4 + o) << 6);
}

export function ctxBytes(): i32 {
  return <i32>CTX_BYTES;
}

/** Sets the board size and board pointers and clears the game. Piece tables and weights are written by TS. */
export function init(ctx: usize, w: i32, h: i32): void {
  store<i32>(ctx + O_W, w);
  store<i32>(ctx + O_H, h);
  store<i32>(ctx + O_FULL, (1 << w) - 1);
  store<i32>(ctx + O_BOARD_A, <i32>(ctx + O_BOARDS));
  store<i32>(ctx + O_BOARD_B, <i32>(ctx + O_BOARDS + BOARD_BYTES));
  store<i32>(ctx + O_BOARD_C, <i32>(ctx + O_BOARDS + 2 * BOARD_BYTES));
  store<i32>(ctx + O_MODE, 0);
  resetGame(ctx);
}

/** Empties the current board and zeroes the game counters (keeps weights, PRNG state and piece source). */
export function resetGame(ctx: usize): void {
  memory.fill(ctx + O_BOARDS, 0, 3 * BOARD_BYTES);
  store<i32>(ctx + O_CUR, -1);
  store<i32>(ctx + O_NEXT, -1);
  store<i32>(ctx + O_LOST, 0);
  store<f64>(ctx + O_LINES, 0);
  store<f64>(ctx + O_PIECES, 0);
  store<i32>(ctx + O_BUFPOS, 0);
  store<i32>(ctx + O_BUFLEN, 0);
}

/** Copies NF weights from `wptr` (f64) and records which features are needed. */
export function setWeights(ctx: usize, wptr: usize): void {
  let used: i32 = 0;
  for (let f: i32 = 0; f < NF; f++) {
    const w = load<f64>(wptr + ((<usize>f) << 3));
    store<f64>(ctx + O_WEIGHTS + ((<usize>f) << 3), w);
    if (w != 0) used |= bit(f);
  }
  store<i32>(ctx + O_USED, used);
}

export function weightsPtr(ctx: usize): usize {
  return ctx + O_WEIGHTS;
}
export function featPtr(ctx: usize): usize {
  return ctx + O_FEAT;
}
export function boardPtr(ctx: usize): usize {
  return <usize>load<i32>(ctx + O_BOARD_A);
}

// ---- PRNG: xoshiro128** exactly as src/random.ts (seeding stays in TS: the state is written here) ----

export function seedRng(ctx: usize, s0: u32, s1: u32, s2: u32, s3: u32): void {
  store<u32>(ctx + O_RNG, s0);
  store<u32>(ctx + O_RNG + 4, s1);
  store<u32>(ctx + O_RNG + 8, s2);
  store<u32>(ctx + O_RNG + 12, s3);
}

export function rngNextU32(ctx: usize): u32 {
  let s0 = load<u32>(ctx + O_RNG);
  let s1 = load<u32>(ctx + O_RNG + 4);
  let s2 = load<u32>(ctx + O_RNG + 8);
  let s3 = load<u32>(ctx + O_RNG + 12);
  const result = rotl<u32>(s1 * 5, 7) * 9;
  const t = s1 << 9;
  s2 ^= s0;
  s3 ^= s1;
  s1 ^= s2;
  s0 ^= s3;
  s2 ^= t;
  s3 = rotl<u32>(s3, 11);
  store<u32>(ctx + O_RNG, s0);
  store<u32>(ctx + O_RNG + 4, s1);
  store<u32>(ctx + O_RNG + 8, s2);
  store<u32>(ctx + O_RNG + 12, s3);
  return result;
}

/** Uniform integer in [0, n) by rejection on the top of the 32-bit range, as Rng.nextInt. */
export function rngNextInt(ctx: usize, n: u32): u32 {
  if (n <= 1) return 0;
  const limit: u64 = <u64>0x100000000 - (<u64>0x100000000 % <u64>n);
  for (;;) {
    const u = rngNextU32(ctx);
    if (<u64>u < limit) return u % n;
  }
  return 0;
}

/** Next piece id from the configured source, or -1 when the buffer is exhausted. */
function drawPiece(ctx: usize): i32 {
  if (load<i32>(ctx + O_MODE) == 0) return <i32>rngNextInt(ctx, 7);
  const pos = load<i32>(ctx + O_BUFPOS);
  if (pos >= load<i32>(ctx + O_BUFLEN)) return -1;
  store<i32>(ctx + O_BUFPOS, pos + 1);
  return <i32>load<u8>(<usize>load<i32>(ctx + O_BUF) + <usize>pos);
}

/** Switches to a piece buffer of `len` ids at `ptr` (mode 1), or back to the PRNG when len < 0. */
export function setPieceBuffer(ctx: usize, ptr: usize, len: i32): void {
  if (len < 0) {
    store<i32>(ctx + O_MODE, 0);
    return;
  }
  store<i32>(ctx + O_MODE, 1);
  store<i32>(ctx + O_BUF, <i32>ptr);
  store<i32>(ctx + O_BUFLEN, len);
  store<i32>(ctx + O_BUFPOS, 0);
}

/** Features scanned bottom-up: a move rescans them from its landing row (rows below it keep their terms). */
const SLOW_FEATURES: i32 = bit(F_CUMULATIVE_WELLS) | bit(F_HOLE_DEPTH);

// ---- engine ----

/** Recomputes column heights and top of board `b` from its rows (rows at or above `top` must be 0). */
function computeHeights(ctx: usize, b: usize, top: i32): void {
  const w = load<i32>(ctx + O_W);
  for (let c: i32 = 0; c < w; c++) store<i32>(b + B_HEIGHTS + ((<usize>c) << 2), 0);
  while (top > 0 && rowAt(b, top - 1) == 0) top--;
  store<i32>(b + B_TOP, top);
  let rem: i32 = load<i32>(ctx + O_FULL);
  for (let r: i32 = top - 1; r >= 0 && rem != 0; r--) {
    let nb = rowAt(b, r) & rem;
    rem &= ~nb;
    while (nb != 0) {
      const c = ctz<i32>(nb);
      store<i32>(b + B_HEIGHTS + ((<usize>c) << 2), r + 1);
      nb &= nb - 1;
    }
  }
}

/** Re-derives heights/top of the current board after TS wrote its rows. */
export function syncBoard(ctx: usize): void {
  const b = <usize>load<i32>(ctx + O_BOARD_A);
  computeHeights(ctx, b, 32);
}

/** Row where orientation `oe` comes to rest when dropped straight down with its left column at x. */
@inline function landingRow(b: usize, oe: usize, x: i32): i32 {
  const width = load<i32>(oe + OE_WIDTH);
  let y: i32 = 0;
  for (let j: i32 = 0; j < width; j++) {
    const v = heightAt(b, x + j) - load<i32>(oe + OE_BOT + ((<usize>j) << 2));
    if (v > y) y = v;
  }
  return y;
}

/**
 * Writes into dst the board src with orientation oe resting at (x, y), full rows removed. Records the lines
 * cleared and the piece cells inside them in the context. The caller has checked y + height <= H.
 */
function place(ctx: usize, src: usize, dst: usize, oe: usize, x: i32, y: i32): i32 {
  const full = load<i32>(ctx + O_FULL);
  const ph = load<i32>(oe + OE_HEIGHT);
  const srcTop = load<i32>(src + B_TOP);
  const dstTop = load<i32>(dst + B_TOP);
  let top = max<i32>(srcTop, y + ph);
  for (let r: i32 = 0; r < top; r++) store<i32>(dst + B_ROWS + ((<usize>r) << 2), rowAt(src, r));
  for (let r = top; r < dstTop; r++) store<i32>(dst + B_ROWS + ((<usize>r) << 2), 0);
  let lines: i32 = 0;
  let eroded: i32 = 0;
  for (let r: i32 = 0; r < ph; r++) {
    const m = load<i32>(oe + OE_MASK + ((<usize>r) << 2)) << x;
    const a = dst + B_ROWS + ((<usize>(y + r)) << 2);
    const row = load<i32>(a) | m;
    store<i32>(a, row);
    if (row == full) {
      lines++;
      eroded += popcnt<i32>(m);
    }
  }
  store<i32>(ctx + O_LAST_LINES, lines);
  store<i32>(ctx + O_LAST_ERODED, eroded);
  if (lines == 0) {
    const width = load<i32>(oe + OE_WIDTH);
    const w = load<i32>(ctx + O_W);
    for (let c: i32 = 0; c < w; c++) store<i32>(dst + B_HEIGHTS + ((<usize>c) << 2), heightAt(src, c));
    // the piece rests on or above every column it covers, so its top cell sets that column's height
    for (let j: i32 = 0; j < width; j++) {
      store<i32>(dst + B_HEIGHTS + ((<usize>(x + j)) << 2), y + load<i32>(oe + OE_TOP + ((<usize>j) << 2)));
    }
    store<i32>(dst + B_TOP, top);
    return 0;
  }
  let wr = y;
  for (let r = y; r < top; r++) {
    const row = rowAt(dst, r);
    if (row != full) {
      store<i32>(dst + B_ROWS + ((<usize>wr) << 2), row);
      wr++;
    }
  }
  for (let r = wr; r < top; r++) store<i32>(dst + B_ROWS + ((<usize>r) << 2), 0);
  computeHeights(ctx, dst, wr);
  return lines;
}

// ---- features (definitions: src/fullboard/features.ts, one doc comment per feature) ----

/**
 * Computes the features selected by `used` for board b (after the move and its line clears), given the rows
 * cleared, the move's eroded piece cells feature (its lines × its cells in them) and twice its landing height. Returns the weighted sum; when `out` is non-zero,
 * also stores every computed feature there as f64 (others 0).
 */
function evaluate(ctx: usize, b: usize, lines: i32, erodedProduct: i32, land2: i32, used: i32, out: usize): f64 {
  const w = load<i32>(ctx + O_W);
  const h = load<i32>(ctx + O_H);
  const full = load<i32>(ctx + O_FULL);
  const top = load<i32>(b + B_TOP);
  const lastBit = w - 1;

  let rowT: i32 = 0;
  let rowTC: i32 = 0;
  let colT: i32 = 0;
  let colTB: i32 = 0;
  let holes: i32 = 0;
  let rowsWithHoles: i32 = 0;
  let holeDepth: i32 = 0;
  let cwells: i32 = 0;
  let wellsT: i32 = 0;

  const scanMask =
    bit(F_ROW_TRANSITIONS) | bit(F_ROW_TRANSITIONS_CONTINUOUS) | bit(F_COLUMN_TRANSITIONS) | bit(F_COLUMN_TRANSITIONS_BELOW_TOP) |
    bit(F_HOLES) | bit(F_HOLES_TIMES_TEN) | bit(F_ROWS_WITH_HOLES);
  if ((used & scanMask) != 0) {
    const walls = 1 | (1 << (w + 1));
    const rowTMask = (1 << (w + 1)) - 1;
    let cover: i32 = 0; // columns with a filled cell strictly above the current row
    for (let r: i32 = top - 1; r >= 0; r--) {
      const row = rowAt(b, r);
      const below = r > 0 ? rowAt(b, r - 1) : full;
      const hb = ~row & cover & full;
      if (hb != 0) {
        holes += popcnt<i32>(hb);
        rowsWithHoles++;
      }
      cover |= row;
      const x = row ^ below;
      colT += popcnt<i32>(x);
      colTB += popcnt<i32>(x & cover);
      const s = (row << 1) | walls;
      rowT += popcnt<i32>((s ^ (s >> 1)) & rowTMask);
      const p = (below >> lastBit) & 1;
      const sc = (row << 1) | p;
      rowTC += popcnt<i32>((sc ^ (sc >> 1)) & full) + (((row >> lastBit) & 1) ^ 1);
    }
    // the row above the stack is empty: one more column change per non-empty column top (or W on an empty board)
    colT += top > 0 ? popcnt<i32>(rowAt(b, top - 1)) : w;
    // empty rows above the stack: 2 row transitions each (walls)
    rowT += 2 * (h - top);
    // continuous scan: the H + 1 - top empty rows each end against the right wall; the first starts against
    // the last cell of the row below (the left wall when the board is empty)
    const pTop = top > 0 ? (rowAt(b, top - 1) >> lastBit) & 1 : 1;
    rowTC += pTop + (h + 1 - top);
  }

  const wantDepth = (used & bit(F_HOLE_DEPTH)) != 0;
  const wantWells = (used & bit(F_CUMULATIVE_WELLS)) != 0;
  if (wantDepth || wantWells) {
    const rightWall = 1 << lastBit;
    let prev = full; // the floor: nothing below row 0 is a hole
    let aboveHoles: i32 = 0; // filled cells in an unbroken filled run directly above a hole
    // bit-sliced per-column counter of successive empty cells ending at the current row
    let e0: i32 = 0, e1: i32 = 0, e2: i32 = 0, e3: i32 = 0, e4: i32 = 0;
    for (let r: i32 = 0; r < top; r++) {
      const row = rowAt(b, r);
      aboveHoles = row & (~prev | aboveHoles);
      holeDepth += popcnt<i32>(aboveHoles);
      prev = row;
      const e = ~row & full;
      e0 &= e; e1 &= e; e2 &= e; e3 &= e; e4 &= e;
      let carry = e;
      let t = e0 & carry; e0 ^= carry; carry = t;
      t = e1 & carry; e1 ^= carry; carry = t;
      t = e2 & carry; e2 ^= carry; carry = t;
      t = e3 & carry; e3 ^= carry; carry = t;
      e4 ^= carry;
      const wb = e & ((row << 1) | 1) & ((row >> 1) | rightWall);
      if (wb != 0) {
        cwells += popcnt<i32>(wb & e0) + 2 * popcnt<i32>(wb & e1) + 4 * popcnt<i32>(wb & e2) + 8 * popcnt<i32>(wb & e3) + 16 * popcnt<i32>(wb & e4);
      }
    }
  }

  if ((used & bit(F_WELLS_TRIANGLE)) != 0) {
    for (let c: i32 = 0; c < w; c++) wellsT += wellColumn(b, b + B_HEIGHTS, 0, 0, 0, 0, c, w);
  }

  return combine(ctx, lines, rowT, rowTC, colT, colTB, holes, cwells, wellsT, top, land2, erodedProduct, holeDepth, rowsWithHoles, out);
}

/** Σ weight × feature (and the feature vector at `out` when non-zero). */
@inline function combine(
  ctx: usize, lines: i32, rowT: i32, rowTC: i32, colT: i32, colTB: i32, holes: i32, cwells: i32, wellsT: i32, top: i32,
  land2: i32, erodedProduct: i32, holeDepth: i32, rowsWithHoles: i32, out: usize,
): f64 {
  const wp = ctx + O_WEIGHTS;
  const fLines = <f64>lines;
  const fLand = <f64>land2 * 0.5;
  const fEroded = <f64>erodedProduct;
  let s: f64 =
    load<f64>(wp + 8 * F_ROWS_CLEARED) * fLines +
    load<f64>(wp + 8 * F_ROW_TRANSITIONS) * <f64>rowT +
    load<f64>(wp + 8 * F_ROW_TRANSITIONS_CONTINUOUS) * <f64>rowTC +
    load<f64>(wp + 8 * F_COLUMN_TRANSITIONS) * <f64>colT +
    load<f64>(wp + 8 * F_COLUMN_TRANSITIONS_BELOW_TOP) * <f64>colTB +
    load<f64>(wp + 8 * F_HOLES) * <f64>holes +
    load<f64>(wp + 8 * F_HOLES_TIMES_TEN) * <f64>(10 * holes) +
    load<f64>(wp + 8 * F_CUMULATIVE_WELLS) * <f64>cwells +
    load<f64>(wp + 8 * F_WELLS_TRIANGLE) * <f64>wellsT +
    load<f64>(wp + 8 * F_MAX_HEIGHT) * <f64>top +
    load<f64>(wp + 8 * F_LANDING_HEIGHT) * fLand +
    load<f64>(wp + 8 * F_ERODED_PIECE_CELLS) * fEroded +
    load<f64>(wp + 8 * F_HOLE_DEPTH) * <f64>holeDepth +
    load<f64>(wp + 8 * F_ROWS_WITH_HOLES) * <f64>rowsWithHoles;
  if (out != 0) {
    store<f64>(out + 8 * F_ROWS_CLEARED, fLines);
    store<f64>(out + 8 * F_ROW_TRANSITIONS, <f64>rowT);
    store<f64>(out + 8 * F_ROW_TRANSITIONS_CONTINUOUS, <f64>rowTC);
    store<f64>(out + 8 * F_COLUMN_TRANSITIONS, <f64>colT);
    store<f64>(out + 8 * F_COLUMN_TRANSITIONS_BELOW_TOP, <f64>colTB);
    store<f64>(out + 8 * F_HOLES, <f64>holes);
    store<f64>(out + 8 * F_HOLES_TIMES_TEN, <f64>(10 * holes));
    store<f64>(out + 8 * F_CUMULATIVE_WELLS, <f64>cwells);
    store<f64>(out + 8 * F_WELLS_TRIANGLE, <f64>wellsT);
    store<f64>(out + 8 * F_MAX_HEIGHT, <f64>top);
    store<f64>(out + 8 * F_LANDING_HEIGHT, fLand);
    store<f64>(out + 8 * F_ERODED_PIECE_CELLS, fEroded);
    store<f64>(out + 8 * F_HOLE_DEPTH, <f64>holeDepth);
    store<f64>(out + 8 * F_ROWS_WITH_HOLES, <f64>rowsWithHoles);
  }
  return s;
}

/**
 * wellsTriangle of column c (seed 004's convention) on board b, optionally with orientation oe overlaid at
 * (x, y) without writing it (width = ph = 0: the board as it is).
 */
@inline function overlayRow(b: usize, oe: usize, x: i32, y: i32, ph: i32, r: i32): i32 {
  const d = r - y;
  return rowAt(b, r) | (<u32>d < <u32>ph ? load<i32>(oe + OE_MASK + ((<usize>d) << 2)) << x : 0);
}
@inline function wellColumn(b: usize, hts: usize, oe: usize, x: i32, y: i32, ph: i32, c: i32, w: i32): i32 {
  const lastBit = w - 1;
  const hc = load<i32>(hts + ((<usize>c) << 2));
  const hl = c > 0 ? load<i32>(hts + ((<usize>(c - 1)) << 2)) : 0x7fff;
  const hr = c < lastBit ? load<i32>(hts + ((<usize>(c + 1)) << 2)) : 0x7fff;
  const lim = min<i32>(hl, hr);
  if (lim <= hc) return 0;
  let n: i32 = 0;
  for (let r = hc; r < lim; r++) {
    const row = overlayRow(b, oe, x, y, ph, r);
    const lf = c == 0 ? 1 : (row >> (c - 1)) & 1;
    const rf = c == lastBit ? 1 : (row >> (c + 1)) & 1;
    if ((lf & rf) != 0) {
      const d = r - hc + 1;
      n += (d * (d + 1)) >> 1;
    }
  }
  return n;
}

/** Row transitions of one row, walls filled (an empty row gives 2). */
@inline function rowTrans(row: i32, w: i32): i32 {
  const s = (row << 1) | 1 | (1 << (w + 1));
  return popcnt<i32>((s ^ (s >> 1)) & ((1 << (w + 1)) - 1));
}
/** The continuous scan's count for one row, given the row below (full for row 0: the left wall). */
@inline function rowTransC(row: i32, below: i32, w: i32, full: i32): i32 {
  const lastBit = w - 1;
  const sc = (row << 1) | ((below >> lastBit) & 1);
  return popcnt<i32>((sc ^ (sc >> 1)) & full) + (((row >> lastBit) & 1) ^ 1);
}

/** The bottom-up scan state of every row of b (cumulativeWells, holeDepth), for slowScan. */
function srcStatsSlow(ctx: usize, b: usize, top: i32): void {
  const w = load<i32>(ctx + O_W);
  const full = load<i32>(ctx + O_FULL);
  const st = ctx + O_SRC;
  const rightWall = 1 << (w - 1);
  let prev = full;
  let ah: i32 = 0;
  let e0: i32 = 0, e1: i32 = 0, e2: i32 = 0, e3: i32 = 0, e4: i32 = 0;
  let cw: i32 = 0, hd: i32 = 0;
  for (let r: i32 = 0; r < top; r++) {
    store<i32>(st + S_CW_PREFIX + ((<usize>r) << 2), cw);
    store<i32>(st + S_HD_PREFIX + ((<usize>r) << 2), hd);
    const row = rowAt(b, r);
    ah = row & (~prev | ah);
    hd += popcnt<i32>(ah);
    prev = row;
    const e = ~row & full;
    e0 &= e; e1 &= e; e2 &= e; e3 &= e; e4 &= e;
    let carry = e;
    let t = e0 & carry; e0 ^= carry; carry = t;
    t = e1 & carry; e1 ^= carry; carry = t;
    t = e2 & carry; e2 ^= carry; carry = t;
    t = e3 & carry; e3 ^= carry; carry = t;
    e4 ^= carry;
    const wb = e & ((row << 1) | 1) & ((row >> 1) | rightWall);
    if (wb != 0) {
      cw += popcnt<i32>(wb & e0) + 2 * popcnt<i32>(wb & e1) + 4 * popcnt<i32>(wb & e2) + 8 * popcnt<i32>(wb & e3) + 16 * popcnt<i32>(wb & e4);
    }
    store<i32>(st + S_AH + ((<usize>r) << 2), ah);
    const eo = st + S_E + ((<usize>r) << 1);
    store<u16>(eo, <u16>e0);
    store<u16>(eo + 64, <u16>e1);
    store<u16>(eo + 128, <u16>e2);
    store<u16>(eo + 192, <u16>e3);
    store<u16>(eo + 256, <u16>e4);
  }
  store<i32>(st + S_CW_PREFIX + ((<usize>top) << 2), cw);
  store<i32>(st + S_HD_PREFIX + ((<usize>top) << 2), hd);
}

/**
 * Statistics of the board a piece is placed on, so that moves that clear no row can be scored from the changed
 * rows only (rows y-1 .. y+height): totals of the row-local features over rows 0..H (rows above the stack
 * included), holes, rows with holes and each row's hole mask, and wellsTriangle per column.
 */
function srcStats(ctx: usize, b: usize): void {
  const w = load<i32>(ctx + O_W);
  const h = load<i32>(ctx + O_H);
  const full = load<i32>(ctx + O_FULL);
  const top = load<i32>(b + B_TOP);
  const st = ctx + O_SRC;
  let rowT: i32 = 0, rowTC: i32 = 0, colT: i32 = 0, holes: i32 = 0, rwh: i32 = 0;
  let cover: i32 = 0;
  for (let r: i32 = 31; r >= top; r--) store<i32>(st + S_HOLE_MASK + ((<usize>r) << 2), 0);
  // per-row terms of the empty rows above the stack (row `top` may start against a filled last cell)
  const lastTop = top > 0 ? rowAt(b, top - 1) : full;
  for (let r: i32 = top; r <= h; r++) {
    store<u8>(st + S_ROW_T + <usize>r, 2);
    store<u8>(st + S_ROW_TC + <usize>r, <u8>(r == top ? rowTransC(0, lastTop, w, full) : 1));
    store<u8>(st + S_COL_T + <usize>r, <u8>(r == top ? popcnt<i32>(lastTop) : 0));
  }
  for (let r: i32 = top - 1; r >= 0; r--) {
    const row = rowAt(b, r);
    const below = r > 0 ? rowAt(b, r - 1) : full;
    const hb = ~row & cover & full;
    store<i32>(st + S_HOLE_MASK + ((<usize>r) << 2), hb);
    if (hb != 0) {
      holes += popcnt<i32>(hb);
      rwh++;
    }
    cover |= row;
    const ct = popcnt<i32>(row ^ below);
    const rt = rowTrans(row, w);
    const rtc = rowTransC(row, below, w, full);
    store<u8>(st + S_COL_T + <usize>r, <u8>ct);
    store<u8>(st + S_ROW_T + <usize>r, <u8>rt);
    store<u8>(st + S_ROW_TC + <usize>r, <u8>rtc);
    colT += ct;
    rowT += rt;
    rowTC += rtc;
  }
  colT += top > 0 ? popcnt<i32>(rowAt(b, top - 1)) : w;
  rowT += 2 * (h - top);
  rowTC += (top > 0 ? (rowAt(b, top - 1) >> (w - 1)) & 1 : 1) + (h + 1 - top);
  store<i32>(st + S_ROWT, rowT);
  store<i32>(st + S_ROWTC, rowTC);
  store<i32>(st + S_COLT, colT);
  store<i32>(st + S_HOLES, holes);
  store<i32>(st + S_ROWS_WITH_HOLES, rwh);
  if ((load<i32>(ctx + O_USED) & SLOW_FEATURES) != 0) srcStatsSlow(ctx, b, top);
  if ((load<i32>(ctx + O_USED) & bit(F_WELLS_TRIANGLE)) != 0) {
    let total: i32 = 0;
    for (let c: i32 = 0; c < w; c++) {
      const v = wellColumn(b, b + B_HEIGHTS, 0, 0, 0, 0, c, w);
      store<i32>(st + S_WELLST_COL + ((<usize>c) << 2), v);
      total += v;
    }
    store<i32>(st + S_WELLST, total);
  }
}


/** cumulativeWells and holeDepth after a move that clears no row: the bottom-up scan resumed at row y. */
function slowScan(ctx: usize, src: usize, oe: usize, x: i32, y: i32, ph: i32, top: i32): void {
  const w = load<i32>(ctx + O_W);
  const full = load<i32>(ctx + O_FULL);
  const st = ctx + O_SRC;
  let cw: i32 = 0;
  let hd: i32 = 0;
  // resume the bottom-up scan of the source board at the landing row
  const rightWall = 1 << (w - 1);
  let prev = full;
  let ah: i32 = 0;
  let e0: i32 = 0, e1: i32 = 0, e2: i32 = 0, e3: i32 = 0, e4: i32 = 0;
  if (y > 0) {
    prev = rowAt(src, y - 1);
    ah = load<i32>(st + S_AH + ((<usize>(y - 1)) << 2));
    const eo = st + S_E + ((<usize>(y - 1)) << 1);
    e0 = <i32>load<u16>(eo);
    e1 = <i32>load<u16>(eo + 64);
    e2 = <i32>load<u16>(eo + 128);
    e3 = <i32>load<u16>(eo + 192);
    e4 = <i32>load<u16>(eo + 256);
  }
  cw = load<i32>(st + S_CW_PREFIX + ((<usize>y) << 2));
  hd = load<i32>(st + S_HD_PREFIX + ((<usize>y) << 2));
  for (let r = y; r < top; r++) {
    const row = overlayRow(src, oe, x, y, ph, r);
    ah = row & (~prev | ah);
    hd += popcnt<i32>(ah);
    prev = row;
    const e = ~row & full;
    e0 &= e; e1 &= e; e2 &= e; e3 &= e; e4 &= e;
    let carry = e;
    let t = e0 & carry; e0 ^= carry; carry = t;
    t = e1 & carry; e1 ^= carry; carry = t;
    t = e2 & carry; e2 ^= carry; carry = t;
    t = e3 & carry; e3 ^= carry; carry = t;
    e4 ^= carry;
    const wb = e & ((row << 1) | 1) & ((row >> 1) | rightWall);
    if (wb != 0) {
      cw += popcnt<i32>(wb & e0) + 2 * popcnt<i32>(wb & e1) + 4 * popcnt<i32>(wb & e2) + 8 * popcnt<i32>(wb & e3) + 16 * popcnt<i32>(wb & e4);
    }
  }
  store<i32>(st + S_SLOW_OUT, cw);
  store<i32>(st + S_SLOW_OUT + 4, hd);
}

/**
 * Value of orientation oe dropped at (x, y) on src when it clears no row: the board is not built; each feature
 * is the source total plus the change in rows y .. y+height (and columns x-1 .. x+width for the wells).
 */
function evalIncremental(ctx: usize, src: usize, oe: usize, x: i32, y: i32, linesBefore: i32, used: i32, out: usize): f64 {
  const w = load<i32>(ctx + O_W);
  const full = load<i32>(ctx + O_FULL);
  const st = ctx + O_SRC;
  const ph = load<i32>(oe + OE_HEIGHT);
  const width = load<i32>(oe + OE_WIDTH);
  let rowT = load<i32>(st + S_ROWT);
  let rowTC = load<i32>(st + S_ROWTC);
  let colT = load<i32>(st + S_COLT);
  // rows y .. y+ph-1 change; row y+ph changes its continuous-scan start and its column pairs
  let prevNew = y > 0 ? rowAt(src, y - 1) : full;
  for (let d: i32 = 0; d <= ph; d++) {
    const r = y + d;
    const old = rowAt(src, r);
    const nw = d < ph ? old | (load<i32>(oe + OE_MASK + ((<usize>d) << 2)) << x) : old;
    if (d < ph) rowT += rowTrans(nw, w) - <i32>load<u8>(st + S_ROW_T + <usize>r);
    rowTC += rowTransC(nw, prevNew, w, full) - <i32>load<u8>(st + S_ROW_TC + <usize>r);
    colT += popcnt<i32>(nw ^ prevNew) - <i32>load<u8>(st + S_COL_T + <usize>r);
    prevNew = nw;
  }
  // new holes: the empty cells between each covered column's height and the piece's lowest cell there
  let holes = load<i32>(st + S_HOLES);
  let lo: i32 = 0x7fff;
  let hi: i32 = 0;
  for (let j: i32 = 0; j < width; j++) {
    const hj = heightAt(src, x + j);
    const bj = y + load<i32>(oe + OE_BOT + ((<usize>j) << 2));
    holes += bj - hj;
    if (bj > hj) {
      lo = min<i32>(lo, hj);
      hi = max<i32>(hi, bj);
    }
  }
  let rwh = load<i32>(st + S_ROWS_WITH_HOLES);
  if ((used & bit(F_ROWS_WITH_HOLES)) != 0 || out != 0) {
    for (let r = lo; r < hi; r++) {
      if (load<i32>(st + S_HOLE_MASK + ((<usize>r) << 2)) != 0) continue;
      for (let j: i32 = 0; j < width; j++) {
        if (r >= heightAt(src, x + j) && r < y + load<i32>(oe + OE_BOT + ((<usize>j) << 2))) {
          rwh++;
          break;
        }
      }
    }
  }
  let wellsT: i32 = 0;
  if ((used & bit(F_WELLS_TRIANGLE)) != 0) {
    wellsT = load<i32>(st + S_WELLST);
    const c0 = max<i32>(0, x - 1);
    const c1 = min<i32>(w - 1, x + width);
    // heights after the move: the source's, with the piece's columns raised to its top cells
    const hts = st + S_NEW_HEIGHTS;
    // (a short loop: V8 runs small memory.copy calls out of line)
    const h0 = max<i32>(0, c0 - 1);
    const h1 = min<i32>(w - 1, c1 + 1);
    for (let c = h0; c <= h1; c++) store<i32>(hts + ((<usize>c) << 2), heightAt(src, c));
    for (let j: i32 = 0; j < width; j++) {
      store<i32>(hts + ((<usize>(x + j)) << 2), y + load<i32>(oe + OE_TOP + ((<usize>j) << 2)));
    }
    for (let c = c0; c <= c1; c++) {
      wellsT += wellColumn(src, hts, oe, x, y, ph, c, w) - load<i32>(st + S_WELLST_COL + ((<usize>c) << 2));
    }
  }
  const top = max<i32>(load<i32>(src + B_TOP), y + ph);
  let cw: i32 = 0;
  let hd: i32 = 0;
  if ((used & SLOW_FEATURES) != 0) {
    slowScan(ctx, src, oe, x, y, ph, top);
    cw = load<i32>(ctx + O_SRC + S_SLOW_OUT);
    hd = load<i32>(ctx + O_SRC + S_SLOW_OUT + 4);
  }
  return combine(ctx, linesBefore, rowT, rowTC, colT, colT - w, holes, cw, wellsT, top, 2 * y + ph - 1, 0, hd, rwh, out);
}

// ---- move choice ----

let bestO: i32 = -1;
let bestX: i32 = -1;

/**
 * Best placement of piece p on board `src` by 1-ply evaluation, using `scratch`; ties go to the first in
 * (orientation, column) order. `linesBefore` is added to the rows-cleared feature (2-ply leaves count both
 * moves' clears). Returns the best value, or LOSS when every placement loses; bestO/bestX hold the move.
 */
function best1(ctx: usize, src: usize, scratch: usize, p: i32, linesBefore: i32): f64 {
  const w = load<i32>(ctx + O_W);
  const h = load<i32>(ctx + O_H);
  const used = load<i32>(ctx + O_USED);
  const n = load<i32>(ctx + O_NORIENT + ((<usize>p) << 2));
  const full = load<i32>(ctx + O_FULL);
  srcStats(ctx, src);
  let best: f64 = LOSS;
  let bo: i32 = -1;
  let bx: i32 = -1;
  for (let o: i32 = 0; o < n; o++) {
    const oe = orientRec(ctx, p, o);
    const width = load<i32>(oe + OE_WIDTH);
    const ph = load<i32>(oe + OE_HEIGHT);
    for (let x: i32 = 0; x <= w - width; x++) {
      const y = landingRow(src, oe, x);
      if (y + ph > h) continue;
      let clears = false;
      for (let d: i32 = 0; d < ph; d++) {
        if ((rowAt(src, y + d) | (load<i32>(oe + OE_MASK + ((<usize>d) << 2)) << x)) == full) clears = true;
      }
      let v: f64;
      if (!clears) v = evalIncremental(ctx, src, oe, x, y, linesBefore, used, 0);
      else {
        const lines = place(ctx, src, scratch, oe, x, y);
        v = evaluate(ctx, scratch, lines + linesBefore, lines * load<i32>(ctx + O_LAST_ERODED), 2 * y + ph - 1, used, 0);
      }
      if (bo < 0 || v > best) {
        best = v;
        bo = o;
        bx = x;
      }
    }
  }
  bestO = bo;
  bestX = bx;
  return bo < 0 ? LOSS : best;
}

/** 2-ply: every placement of p, valued by the best placement of the known next piece q after it. */
function best2(ctx: usize, src: usize, p: i32, q: i32): f64 {
  const w = load<i32>(ctx + O_W);
  const h = load<i32>(ctx + O_H);
  const b1 = <usize>load<i32>(ctx + O_BOARD_B);
  const b2 = <usize>load<i32>(ctx + O_BOARD_C);
  const n = load<i32>(ctx + O_NORIENT + ((<usize>p) << 2));
  let best: f64 = LOSS;
  let bo: i32 = -1;
  let bx: i32 = -1;
  for (let o: i32 = 0; o < n; o++) {
    const oe = orientRec(ctx, p, o);
    const width = load<i32>(oe + OE_WIDTH);
    const ph = load<i32>(oe + OE_HEIGHT);
    for (let x: i32 = 0; x <= w - width; x++) {
      const y = landingRow(src, oe, x);
      if (y + ph > h) continue;
      const lines = place(ctx, src, b1, oe, x, y);
      const v = best1(ctx, b1, b2, q, lines);
      if (bo < 0 || v > best) {
        best = v;
        bo = o;
        bx = x;
      }
    }
  }
  bestO = bo;
  bestX = bx;
  return best;
}

/**
 * Best move for piece p on the current board (q = next piece for 2-ply, or -1). Returns o * 256 + x, or -1
 * when every placement loses; the value is stored at O_BEST_SCORE.
 */
export function bestMove(ctx: usize, p: i32, q: i32): i32 {
  const a = <usize>load<i32>(ctx + O_BOARD_A);
  const v = q >= 0 ? best2(ctx, a, p, q) : best1(ctx, a, <usize>load<i32>(ctx + O_BOARD_B), p, 0);
  store<f64>(ctx + O_BEST_SCORE, v);
  if (bestO < 0) return -1;
  return (bestO << 8) | bestX;
}

/**
 * Applies orientation o of piece p at column x to the current board. Returns the lines cleared, or -1 when the
 * move loses (the board is then unchanged). Counts the piece and lines in the game counters.
 */
export function applyMove(ctx: usize, p: i32, o: i32, x: i32): i32 {
  const a = <usize>load<i32>(ctx + O_BOARD_A);
  const b = <usize>load<i32>(ctx + O_BOARD_B);
  const oe = orientRec(ctx, p, o);
  const y = landingRow(a, oe, x);
  if (y + load<i32>(oe + OE_HEIGHT) > load<i32>(ctx + O_H)) return -1;
  const lines = place(ctx, a, b, oe, x, y);
  store<i32>(ctx + O_BOARD_A, <i32>b);
  store<i32>(ctx + O_BOARD_B, <i32>a);
  store<f64>(ctx + O_LINES, load<f64>(ctx + O_LINES) + <f64>lines);
  store<f64>(ctx + O_PIECES, load<f64>(ctx + O_PIECES) + 1);
  return lines;
}

/** All features of the current board as it stands (no move: rows cleared, landing height, eroded cells 0). */
export function boardFeatures(ctx: usize, out: usize): void {
  evaluate(ctx, <usize>load<i32>(ctx + O_BOARD_A), 0, 0, 0, -1, out);
}

/**
 * All features after placing orientation o of piece p at column x on the current board (the board is not
 * changed). Returns the lines cleared, or -1 when the move loses (out untouched).
 */
export function moveFeatures(ctx: usize, p: i32, o: i32, x: i32, out: usize): i32 {
  const a = <usize>load<i32>(ctx + O_BOARD_A);
  const b = <usize>load<i32>(ctx + O_BOARD_B);
  const oe = orientRec(ctx, p, o);
  const y = landingRow(a, oe, x);
  const ph = load<i32>(oe + OE_HEIGHT);
  if (y + ph > load<i32>(ctx + O_H)) return -1;
  const lines = place(ctx, a, b, oe, x, y);
  evaluate(ctx, b, lines, lines * load<i32>(ctx + O_LAST_ERODED), 2 * y + ph - 1, -1, out);
  return lines;
}

/**
 * Test hook: the incremental evaluator's features for a move that clears no row (-1 when the move loses or
 * clears rows). moveFeatures gives the full evaluator's for the same move.
 */
export function moveFeaturesIncremental(ctx: usize, p: i32, o: i32, x: i32, out: usize): i32 {
  const a = <usize>load<i32>(ctx + O_BOARD_A);
  const oe = orientRec(ctx, p, o);
  const y = landingRow(a, oe, x);
  const ph = load<i32>(oe + OE_HEIGHT);
  if (y + ph > load<i32>(ctx + O_H)) return -1;
  const full = load<i32>(ctx + O_FULL);
  for (let d: i32 = 0; d < ph; d++) {
    if ((rowAt(a, y + d) | (load<i32>(oe + OE_MASK + ((<usize>d) << 2)) << x)) == full) return -1;
  }
  const used = load<i32>(ctx + O_USED);
  store<i32>(ctx + O_USED, -1);
  srcStats(ctx, a);
  store<i32>(ctx + O_USED, used);
  evalIncremental(ctx, a, oe, x, y, 0, -1, out);
  return 0;
}

// ---- game loop ----

export function setLookahead(ctx: usize, look: i32): void {
  store<i32>(ctx + O_LOOK, look);
}

/**
 * Plays up to `budget` pieces of the current game. Returns 0 when the budget is used up, 1 when the game is
 * lost (the current piece has no placement that stays below row H), 2 when the piece buffer ran dry (refill
 * it and call again), 3 when the lines reached `lineCap`.
 */
export function playChunk(ctx: usize, budget: i32, lineCap: f64): i32 {
  if (load<i32>(ctx + O_LOST) != 0) return 1;
  const look = load<i32>(ctx + O_LOOK);
  for (let i: i32 = 0; i < budget; i++) {
    if (load<f64>(ctx + O_LINES) >= lineCap) return 3;
    let p = load<i32>(ctx + O_CUR);
    if (p < 0) {
      p = drawPiece(ctx);
      if (p < 0) return 2;
      store<i32>(ctx + O_CUR, p);
    }
    let q: i32 = -1;
    if (look > 0) {
      q = load<i32>(ctx + O_NEXT);
      if (q < 0) {
        q = drawPiece(ctx);
        if (q < 0) return 2;
        store<i32>(ctx + O_NEXT, q);
      }
    }
    const mv = bestMove(ctx, p, q);
    if (mv < 0) {
      store<i32>(ctx + O_LOST, 1);
      return 1;
    }
    applyMove(ctx, p, mv >> 8, mv & 255);
    store<i32>(ctx + O_CUR, q);
    store<i32>(ctx + O_NEXT, -1);
  }
  return 0;
}

/**
 * One whole memoryless game for the trainer: weights from wptr, PRNG state s0..s3, at most maxPieces pieces and
 * lineCap lines. Writes [lines, pieces, lost] as f64 at out.
 */
export function runGame(ctx: usize, wptr: usize, s0: u32, s1: u32, s2: u32, s3: u32, maxPieces: f64, lineCap: f64, out: usize): void {
  setWeights(ctx, wptr);
  store<i32>(ctx + O_MODE, 0);
  resetGame(ctx);
  seedRng(ctx, s0, s1, s2, s3);
  let status: i32 = 0;
  for (;;) {
    const left = maxPieces - load<f64>(ctx + O_PIECES);
    if (left <= 0) break;
    status = playChunk(ctx, left > 1.0e9 ? 1000000000 : <i32>left, lineCap);
    if (status != 0) break;
  }
  store<f64>(out, load<f64>(ctx + O_LINES));
  store<f64>(out + 8, load<f64>(ctx + O_PIECES));
  store<f64>(out + 16, status == 1 ? 1.0 : 0.0);
}
