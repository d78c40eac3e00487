// Full-board player kernel (DESIGN §5, issue 6): a bitboard engine (each board kept both as one u32 mask per row,
// bit c = column c, and as one u32 mask per column, bit r = row r), the board features of seed 004 and
// Dellacherie/BCTS, 1-ply and 2-ply move choice, and the whole game loop including the project's PRNG
// (xoshiro128**, src/random.ts) so a game never leaves WebAssembly.
//
// Everything lives in one context block allocated by the TypeScript side (src/fullboard/kernel.ts), which also
// writes the piece tables into it, generated from src/pieces.ts: this file knows no piece shape. Layout below;
// keep the offsets kernel.ts uses in step with it. No allocation, no strings, no GC.
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
const O_SCAN_X: usize = 108; //     i32 column found by bestColumn
const O_NORIENT: usize = 128; //  i32[7] orientations per piece
const O_ORIENT: usize = 160; //   28 records of 64 bytes: piece p, orientation o at (p * 4 + o) * 64
const O_WEIGHTS: usize = 1984; // f64[16] weight per feature id
const O_FEAT: usize = 2112; //    f64[16] scratch feature vector
const O_BOARDS: usize = 2304; //  3 boards of BOARD_BYTES
const O_SRC: usize = 3328; //     statistics of the board a piece is placed on (ST_* below), for evalIncremental
const O_EVAL: usize = 3840; //    the same statistics of a board being evaluated in full
const O_TRI: usize = 4352; //     u8[256]: Σ T(k + 1) over the set bits k of the index (wellsTriangle of one column)
const O_RUN: usize = 4608; //     u8[256]: Σ (k + 1) over the set bits k of the index (cumulativeWells above a column)
const CTX_BYTES: usize = 4864;

// board statistics (boardStats): feature totals, then per-column and per-column-pair terms
const ST_ROWT: usize = 0; //       rowTransitions
const ST_ROWTC: usize = 4; //      rowTransitionsContinuous
const ST_COLT: usize = 8; //       columnTransitions
const ST_HOLES: usize = 12;
const ST_CW: usize = 16; //        cumulativeWells
const ST_WT: usize = 20; //        wellsTriangle
const ST_HD: usize = 24; //        holeDepth
const ST_EDGE: usize = 28; //      the continuous scan's wall terms (see boardStats)
const ST_HOLE_ROWS: usize = 32; // bit r: row r has a hole
const ST_HOLE_COLS: usize = 36; // bit c: column c has a hole
const ST_PAIR: usize = 64; //      i32[16] at c + 1: cells that differ between columns c and c + 1 (c = -1 .. w-1, walls included)
const ST_WT_COL: usize = 128; //   i32[16] at c + 1: wellsTriangle of column c (c = -1 .. w; 0 for the walls)
const ST_CW_COL: usize = 192; //   i32[16] at c + 1: cumulativeWells of column c (c = -1 .. w; 0 for the walls)
// (a statistics block is 256 bytes)

// orientation record (i32 words)
const OE_WIDTH: usize = 0;
const OE_HEIGHT: usize = 4;
const OE_BOT: usize = 16; //  i32[4] lowest cell per column
const OE_MASK: usize = 32; // i32[4] row masks (bit j = column j of the piece), rows counted up from its lowest
const OE_TOP: usize = 48; //  i32[4] row above the highest cell per column

// board record: the same cells as rows and as columns. Columns c = -2 .. w+1 are stored at index c + 2; the two
// outside each side are walls (rows 0 .. H-1 filled, height H), so evaluating a move needs no bounds test.
const B_ROWS: usize = 0; //      u32[32] row masks (bit c = column c); rows at or above `top` are always 0
const B_HEIGHTS: usize = 128; // i32[16] column heights (row above the highest filled cell, 0 if empty), at c + 2
const B_TOP: usize = 192; //     i32 max column height = number of rows up to the highest non-empty one
const B_COLS: usize = 256; //    u32[16] column masks (bit r = row r), at c + 2
const BOARD_BYTES: usize = 320;

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
  return load<i32>(b + B_HEIGHTS + ((<usize>(c + 2)) << 2));
}
@inline function colAt(b: usize, c: i32): i32 {
  return load<i32>(b + B_COLS + ((<usize>(c + 2)) << 2));
}
@inline function setHeight(b: usize, c: i32, v: i32): void {
  store<i32>(b + B_HEIGHTS + ((<usize>(c + 2)) << 2), v);
}
@inline function setCol(b: usize, c: i32, v: i32): void {
  store<i32>(b + B_COLS + ((<usize>(c + 2)) << 2), v);
}
/** Bits 0 .. n-1 (n <= 31). */
@inline function lowMask(n: i32): i32 {
  return (1 << n) - 1;
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
  for (let m: i32 = 0; m < 256; m++) {
    let tri: i32 = 0;
    let run: i32 = 0;
    for (let k: i32 = 0; k < 8; k++) {
      if (((m >> k) & 1) != 0) {
        tri += ((k + 1) * (k + 2)) >> 1;
        run += k + 1;
      }
    }
    store<u8>(ctx + O_TRI + <usize>m, <u8>tri);
    store<u8>(ctx + O_RUN + <usize>m, <u8>run);
  }
  resetGame(ctx);
}

/** Empties the current board and zeroes the game counters (keeps weights, PRNG state and piece source). */
export function resetGame(ctx: usize): void {
  memory.fill(ctx + O_BOARDS, 0, 3 * BOARD_BYTES);
  const w = load<i32>(ctx + O_W);
  const h = load<i32>(ctx + O_H);
  for (let i: i32 = 0; i < 3; i++) {
    const b = ctx + O_BOARDS + <usize>i * BOARD_BYTES;
    for (let c: i32 = -2; c < w + 2; c += c == -1 ? w + 1 : 1) {
      setCol(b, c, lowMask(h));
      setHeight(b, c, h);
    }
  }
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

// ---- engine ----

/**
 * Derives the column masks, heights and top of board `b` from its rows at or above row `from` (the columns keep
 * their bits below `from`). Rows at or above `top` must be 0.
 */
function deriveColumns(ctx: usize, b: usize, from: i32, top: i32): void {
  const w = load<i32>(ctx + O_W);
  while (top > from && rowAt(b, top - 1) == 0) top--;
  const keep = lowMask(from);
  for (let c: i32 = 0; c < w; c++) setCol(b, c, colAt(b, c) & keep);
  for (let r: i32 = from; r < top; r++) {
    let m = rowAt(b, r);
    while (m != 0) {
      const c = ctz<i32>(m);
      setCol(b, c, colAt(b, c) | (1 << r));
      m &= m - 1;
    }
  }
  let mx: i32 = 0;
  for (let c: i32 = 0; c < w; c++) {
    const hc = 32 - clz<i32>(colAt(b, c));
    setHeight(b, c, hc);
    mx = max<i32>(mx, hc);
  }
  store<i32>(b + B_TOP, mx);
}

/** Re-derives columns, heights and top of the current board after TS wrote its rows. */
export function syncBoard(ctx: usize): void {
  const b = <usize>load<i32>(ctx + O_BOARD_A);
  deriveColumns(ctx, b, 0, 32);
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
  const w = load<i32>(ctx + O_W);
  const ph = load<i32>(oe + OE_HEIGHT);
  const width = load<i32>(oe + OE_WIDTH);
  const srcTop = load<i32>(src + B_TOP);
  const dstTop = load<i32>(dst + B_TOP);
  let top = max<i32>(srcTop, y + ph);
  for (let r: i32 = 0; r < top; r++) store<i32>(dst + B_ROWS + ((<usize>r) << 2), rowAt(src, r));
  for (let r = top; r < dstTop; r++) store<i32>(dst + B_ROWS + ((<usize>r) << 2), 0);
  let lines: i32 = 0;
  let eroded: i32 = 0;
  let cleared: i32 = 0; // bit d: row y + d is full
  for (let r: i32 = 0; r < ph; r++) {
    const m = load<i32>(oe + OE_MASK + ((<usize>r) << 2)) << x;
    const a = dst + B_ROWS + ((<usize>(y + r)) << 2);
    const row = load<i32>(a) | m;
    store<i32>(a, row);
    if (row == full) {
      lines++;
      eroded += popcnt<i32>(m);
      cleared |= 1 << r;
    }
  }
  store<i32>(ctx + O_LAST_LINES, lines);
  store<i32>(ctx + O_LAST_ERODED, eroded);
  // columns and heights: the source's, with the piece's column runs added (its top cell sets the height)
  for (let c: i32 = 0; c < w; c++) {
    setCol(dst, c, colAt(src, c));
    setHeight(dst, c, heightAt(src, c));
  }
  for (let j: i32 = 0; j < width; j++) {
    const t = y + load<i32>(oe + OE_TOP + ((<usize>j) << 2));
    const bo = y + load<i32>(oe + OE_BOT + ((<usize>j) << 2));
    setCol(dst, x + j, colAt(dst, x + j) | ((1 << t) - (1 << bo)));
    setHeight(dst, x + j, t);
  }
  if (lines == 0) {
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
  // remove the full rows from every column, the highest first
  const hiRow = 31 - clz<i32>(cleared);
  let mx: i32 = 0;
  for (let c: i32 = 0; c < w; c++) {
    let col = colAt(dst, c);
    for (let d = hiRow; d >= 0; d--) {
      if (((cleared >> d) & 1) != 0) {
        const r = y + d;
        col = (col & lowMask(r)) | ((col >>> (r + 1)) << r);
      }
    }
    setCol(dst, c, col);
    const hc = 32 - clz<i32>(col);
    setHeight(dst, c, hc);
    mx = max<i32>(mx, hc);
  }
  store<i32>(dst + B_TOP, mx);
  return lines;
}

// ---- features (definitions: src/fullboard/features.ts, one doc comment per feature) ----
//
// Every feature is a sum of per-column or per-column-pair terms over the column masks (bit r = row r; a wall is
// rows 0 .. H-1 filled), so a move that clears no row changes only the terms of its own columns and of their
// two neighbours:
//   rowTransitions     = Σ over the w + 1 neighbour pairs (walls included) of popcnt(left ^ right);
//   rowTransitionsContinuous (the seed's scan over rows 0 .. H) = Σ over the w - 1 inner pairs of
//                        popcnt(left ^ right) + popcnt((((last << 1) | 1) ^ first) & rows 0..H) (each row starts
//                        against the last cell of the row below, row 0 against the filled wall)
//                        + H + 1 - popcnt(last) (each row ends against the right wall);
//   columnTransitions  = Σ popcnt(((col << 1) | 1) ^ col) (floor filled, the row above the column empty);
//   holes              = Σ (height - popcnt(col));
//   holeDepth          = Σ (popcnt(col) - ctz(~col)): every filled cell except the run resting on the floor sits
//                        in a run directly above a hole;
//   rowsWithHoles      = popcnt(OR of the columns' hole masks);
//   cumulativeWells    = Σ over well cells (empty, both neighbours filled) of the empty run ending there;
//   wellsTriangle      = Σ over the cells above a column's height with both neighbours filled of T(row - height + 1).

/** wellsTriangle of a column of height hc between neighbours whose filled cells are lr (left & right). */
@inline function triangleSum(ctx: usize, lr: i32, hc: i32): i32 {
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
@inline function wellSum(ctx: usize, col: i32, lr: i32, hc: i32): i32 {
  const wells = ~col & lr;
  // above the column's height the run ending at row r is r - hc + 1
  const m = wells >>> hc;
  let n = <i32>load<u8>(ctx + O_RUN + <usize>(m & 255));
  if (m > 255) n += runHigh(m);
  const below = wells & lowMask(hc);
  if (below != 0) n += wellsBelow(col, below);
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
/** Well cells m below the column's height (empty cells between filled ones): r - (highest filled row below r). */
function wellsBelow(col: i32, m: i32): i32 {
  let n: i32 = 0;
  while (m != 0) {
    const r = ctz<i32>(m);
    n += r - 31 + clz<i32>(col & lowMask(r)); // clz(0) = 32: the run reaches the floor
    m &= m - 1;
  }
  return n;
}

/** The continuous scan's terms that involve the walls, from the first and last columns. */
@inline function edgeTerm(first: i32, last: i32, h: i32): i32 {
  return popcnt<i32>((((last << 1) | 1) ^ first) & lowMask(h + 1)) - popcnt<i32>(last);
}

/**
 * Statistics of board b at st (ST_*): the feature totals and the per-column terms that a move changes. The
 * well sums are computed only when `used` asks for them.
 */
function boardStats(ctx: usize, b: usize, st: usize, used: i32): void {
  const w = load<i32>(ctx + O_W);
  const h = load<i32>(ctx + O_H);
  const wantWT = (used & bit(F_WELLS_TRIANGLE)) != 0;
  const wantCW = (used & bit(F_CUMULATIVE_WELLS)) != 0;
  let pairs: i32 = 0, colT: i32 = 0, holes: i32 = 0, hd: i32 = 0, cw: i32 = 0, wt: i32 = 0;
  let holeRows: i32 = 0, holeCols: i32 = 0;
  let prev = colAt(b, -1); // the wall
  let cur = colAt(b, 0);
  const first = cur;
  const lastCol = colAt(b, w - 1);
  store<i32>(st + ST_WT_COL, 0);
  store<i32>(st + ST_CW_COL, 0);
  store<i32>(st + ST_WT_COL + ((<usize>(w + 1)) << 2), 0);
  store<i32>(st + ST_CW_COL + ((<usize>(w + 1)) << 2), 0);
  {
    const p = popcnt<i32>(prev ^ cur);
    store<i32>(st + ST_PAIR, p);
    pairs += p;
  }
  for (let c: i32 = 0; c < w; c++) {
    const next = colAt(b, c + 1);
    const hc = heightAt(b, c);
    const p = popcnt<i32>(cur ^ next);
    store<i32>(st + ST_PAIR + ((<usize>(c + 1)) << 2), p);
    pairs += p;
    colT += popcnt<i32>(((cur << 1) | 1) ^ cur);
    const hm = ~cur & lowMask(hc);
    if (hm != 0) {
      holes += popcnt<i32>(hm);
      holeRows |= hm;
      holeCols |= 1 << c;
    }
    hd += popcnt<i32>(cur) - ctz<i32>(~cur);
    const lr = prev & next;
    if (wantWT) {
      const v = triangleSum(ctx, lr, hc);
      store<i32>(st + ST_WT_COL + ((<usize>(c + 1)) << 2), v);
      wt += v;
    }
    if (wantCW) {
      const v = wellSum(ctx, cur, lr, hc);
      store<i32>(st + ST_CW_COL + ((<usize>(c + 1)) << 2), v);
      cw += v;
    }
    prev = cur;
    cur = next;
  }
  const edge = edgeTerm(first, lastCol, h);
  const wallPairs = 2 * h - popcnt<i32>(first) - popcnt<i32>(lastCol);
  store<i32>(st + ST_ROWT, pairs);
  store<i32>(st + ST_ROWTC, pairs - wallPairs + edge + h + 1);
  store<i32>(st + ST_COLT, colT);
  store<i32>(st + ST_HOLES, holes);
  store<i32>(st + ST_CW, cw);
  store<i32>(st + ST_WT, wt);
  store<i32>(st + ST_HD, hd);
  store<i32>(st + ST_EDGE, edge);
  store<i32>(st + ST_HOLE_ROWS, holeRows);
  store<i32>(st + ST_HOLE_COLS, holeCols);
}

/**
 * Computes the features selected by `used` for board b (after the move and its line clears), given the rows
 * cleared, the move's eroded piece cells feature (its lines × its cells in them) and twice its landing height.
 * Returns the weighted sum; when `out` is non-zero, also stores every computed feature there as f64 (others 0).
 */
function evaluate(ctx: usize, b: usize, lines: i32, erodedProduct: i32, land2: i32, used: i32, out: usize): f64 {
  const st = ctx + O_EVAL;
  boardStats(ctx, b, st, used);
  const w = load<i32>(ctx + O_W);
  const colT = load<i32>(st + ST_COLT);
  return combine(
    ctx, lines, load<i32>(st + ST_ROWT), load<i32>(st + ST_ROWTC), colT, colT - w, load<i32>(st + ST_HOLES),
    load<i32>(st + ST_CW), load<i32>(st + ST_WT), load<i32>(b + B_TOP), land2, erodedProduct, load<i32>(st + ST_HD),
    popcnt<i32>(load<i32>(st + ST_HOLE_ROWS)), out,
  );
}

/**
 * Σ weight × feature, summed in feature-id order (and the feature vector at `out` when non-zero). The fast
 * path adds the weighted features only: a zero weight adds ±0, which leaves a non-zero sum unchanged, so only a
 * zero sum is recomputed in full (for its sign).
 */
@inline function combine(
  ctx: usize, lines: i32, rowT: i32, rowTC: i32, colT: i32, colTB: i32, holes: i32, cwells: i32, wellsT: i32, top: i32,
  land2: i32, erodedProduct: i32, holeDepth: i32, rowsWithHoles: i32, out: usize,
): f64 {
  const wp = ctx + O_WEIGHTS;
  const fLines = <f64>lines;
  const fLand = <f64>land2 * 0.5;
  const fEroded = <f64>erodedProduct;
  if (out == 0) {
    const used = load<i32>(ctx + O_USED);
    let q: f64 = 0;
    if ((used & bit(F_ROWS_CLEARED)) != 0) q += load<f64>(wp + 8 * F_ROWS_CLEARED) * fLines;
    if ((used & bit(F_ROW_TRANSITIONS)) != 0) q += load<f64>(wp + 8 * F_ROW_TRANSITIONS) * <f64>rowT;
    if ((used & bit(F_ROW_TRANSITIONS_CONTINUOUS)) != 0) q += load<f64>(wp + 8 * F_ROW_TRANSITIONS_CONTINUOUS) * <f64>rowTC;
    if ((used & bit(F_COLUMN_TRANSITIONS)) != 0) q += load<f64>(wp + 8 * F_COLUMN_TRANSITIONS) * <f64>colT;
    if ((used & bit(F_COLUMN_TRANSITIONS_BELOW_TOP)) != 0) q += load<f64>(wp + 8 * F_COLUMN_TRANSITIONS_BELOW_TOP) * <f64>colTB;
    if ((used & bit(F_HOLES)) != 0) q += load<f64>(wp + 8 * F_HOLES) * <f64>holes;
    if ((used & bit(F_HOLES_TIMES_TEN)) != 0) q += load<f64>(wp + 8 * F_HOLES_TIMES_TEN) * <f64>(10 * holes);
    if ((used & bit(F_CUMULATIVE_WELLS)) != 0) q += load<f64>(wp + 8 * F_CUMULATIVE_WELLS) * <f64>cwells;
    if ((used & bit(F_WELLS_TRIANGLE)) != 0) q += load<f64>(wp + 8 * F_WELLS_TRIANGLE) * <f64>wellsT;
    if ((used & bit(F_MAX_HEIGHT)) != 0) q += load<f64>(wp + 8 * F_MAX_HEIGHT) * <f64>top;
    if ((used & bit(F_LANDING_HEIGHT)) != 0) q += load<f64>(wp + 8 * F_LANDING_HEIGHT) * fLand;
    if ((used & bit(F_ERODED_PIECE_CELLS)) != 0) q += load<f64>(wp + 8 * F_ERODED_PIECE_CELLS) * fEroded;
    if ((used & bit(F_HOLE_DEPTH)) != 0) q += load<f64>(wp + 8 * F_HOLE_DEPTH) * <f64>holeDepth;
    if ((used & bit(F_ROWS_WITH_HOLES)) != 0) q += load<f64>(wp + 8 * F_ROWS_WITH_HOLES) * <f64>rowsWithHoles;
    if (q != 0) return q;
  }
  return combineAll(ctx, lines, rowT, rowTC, colT, colTB, holes, cwells, wellsT, top, land2, erodedProduct, holeDepth, rowsWithHoles, out);
}

/** combine's full sum over every feature. */
function combineAll(
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

/** Statistics of the board a piece is placed on (O_SRC), for evalIncremental. */
@inline function srcStats(ctx: usize, b: usize): void {
  boardStats(ctx, b, ctx + O_SRC, load<i32>(ctx + O_USED));
}

// A move that clears no row, column by column. Piece column j (0 <= j < pw) lands on column x + j at rows
// y + bot[j] .. y + top[j] - 1; nothing else changes.
@inline function pieceBot(oe: usize, j: i32, y: i32): i32 {
  return y + load<i32>(oe + OE_BOT + ((<usize>j) << 2));
}
@inline function pieceTop(oe: usize, j: i32, y: i32): i32 {
  return y + load<i32>(oe + OE_TOP + ((<usize>j) << 2));
}
/** Column x + j after the move. */
@inline function newCol(src: usize, oe: usize, x: i32, y: i32, j: i32): i32 {
  return colAt(src, x + j) | ((1 << pieceTop(oe, j, y)) - (1 << pieceBot(oe, j, y)));
}
/** Empty cells left below piece column j (new holes). */
@inline function gapAt(src: usize, oe: usize, x: i32, y: i32, j: i32): i32 {
  return pieceBot(oe, j, y) - heightAt(src, x + j);
}
/** Rows of those new holes. */
@inline function gapRows(src: usize, oe: usize, x: i32, y: i32, j: i32): i32 {
  return (1 << pieceBot(oe, j, y)) - (1 << heightAt(src, x + j));
}
/**
 * holeDepth added by piece column j: its cells sit in a run directly above a hole when it leaves a gap, or when
 * it extends the top run of a column that has a hole (holeCols bit j, relative to x).
 */
@inline function depthAdd(src: usize, oe: usize, x: i32, y: i32, j: i32, holeCols: i32): i32 {
  const covers = <i32>(gapAt(src, oe, x, y, j) > 0) | ((holeCols >> j) & 1);
  return covers != 0 ? pieceTop(oe, j, y) - pieceBot(oe, j, y) : 0;
}

/**
 * Value of orientation oe (width pw, a constant after inlining) dropped at (x, y) on src when it clears no row,
 * from the statistics of src (srcStats) without building the board: only the terms of columns x-1 .. x+pw and of
 * the pairs among them change. Straight-line code per width: n0 .. n3 are the piece's columns after the move,
 * l1/r1 the columns beside the piece and l2/r2 the next ones out (walls beyond the board).
 */
@inline function evalMoveW(ctx: usize, src: usize, oe: usize, x: i32, y: i32, pw: i32, linesBefore: i32, used: i32, out: usize): f64 {
  const w = load<i32>(ctx + O_W);
  const h = load<i32>(ctx + O_H);
  const st = ctx + O_SRC;
  const ph = load<i32>(oe + OE_HEIGHT);
  const holeCols = load<i32>(st + ST_HOLE_COLS) >> x;
  const l2 = colAt(src, x - 2);
  const l1 = colAt(src, x - 1);
  const r1 = colAt(src, x + pw);
  const r2 = colAt(src, x + pw + 1);
  const n0 = newCol(src, oe, x, y, 0);
  const n1 = pw > 1 ? newCol(src, oe, x, y, 1) : 0;
  const n2 = pw > 2 ? newCol(src, oe, x, y, 2) : 0;
  const n3 = pw > 3 ? newCol(src, oe, x, y, 3) : 0;
  const nLast = pw == 1 ? n0 : pw == 2 ? n1 : pw == 3 ? n2 : n3;
  // holes, column transitions (+2 per gap), hole rows, hole depth
  const g0 = gapAt(src, oe, x, y, 0);
  const g1 = pw > 1 ? gapAt(src, oe, x, y, 1) : 0;
  const g2 = pw > 2 ? gapAt(src, oe, x, y, 2) : 0;
  const g3 = pw > 3 ? gapAt(src, oe, x, y, 3) : 0;
  const holes = load<i32>(st + ST_HOLES) + g0 + g1 + g2 + g3;
  const colT = load<i32>(st + ST_COLT) + 2 * (<i32>(g0 > 0) + <i32>(g1 > 0) + <i32>(g2 > 0) + <i32>(g3 > 0));
  let holeRows = load<i32>(st + ST_HOLE_ROWS) | gapRows(src, oe, x, y, 0);
  if (pw > 1) holeRows |= gapRows(src, oe, x, y, 1);
  if (pw > 2) holeRows |= gapRows(src, oe, x, y, 2);
  if (pw > 3) holeRows |= gapRows(src, oe, x, y, 3);
  let hd = load<i32>(st + ST_HD) + depthAdd(src, oe, x, y, 0, holeCols);
  if (pw > 1) hd += depthAdd(src, oe, x, y, 1, holeCols);
  if (pw > 2) hd += depthAdd(src, oe, x, y, 2, holeCols);
  if (pw > 3) hd += depthAdd(src, oe, x, y, 3, holeCols);
  // the pairs (x-1, x) .. (x+pw-1, x+pw), stored at x .. x+pw
  const pp = st + ST_PAIR + ((<usize>x) << 2);
  let pairD = popcnt<i32>(l1 ^ n0) + popcnt<i32>(nLast ^ r1) - load<i32>(pp) - load<i32>(pp + 4);
  if (pw > 1) pairD += popcnt<i32>(n0 ^ n1) - load<i32>(pp + 8);
  if (pw > 2) pairD += popcnt<i32>(n1 ^ n2) - load<i32>(pp + 12);
  if (pw > 3) pairD += popcnt<i32>(n2 ^ n3) - load<i32>(pp + 16);
  let rowT = load<i32>(st + ST_ROWT) + pairD;
  let rowTC = load<i32>(st + ST_ROWTC) + pairD;
  const atLeft = x == 0;
  const atRight = x + pw == w;
  if (atLeft || atRight) {
    // the wall pairs are not in the continuous scan, which has its own wall terms
    const first = atLeft ? n0 : colAt(src, 0);
    const last = atRight ? nLast : colAt(src, w - 1);
    if (atLeft) rowTC += pieceTop(oe, 0, y) - pieceBot(oe, 0, y);
    if (atRight) rowTC += pieceTop(oe, pw - 1, y) - pieceBot(oe, pw - 1, y);
    rowTC += edgeTerm(first, last, h) - load<i32>(st + ST_EDGE);
  }
  // wells of the columns x-1 .. x+pw (stored at x .. x+pw+1)
  let wt = load<i32>(st + ST_WT);
  if ((used & bit(F_WELLS_TRIANGLE)) != 0) {
    const wc = st + ST_WT_COL + ((<usize>x) << 2);
    wt += triangleSum(ctx, l2 & n0, heightAt(src, x - 1)) - load<i32>(wc);
    wt += triangleSum(ctx, l1 & (pw > 1 ? n1 : r1), pieceTop(oe, 0, y)) - load<i32>(wc + 4);
    if (pw > 1) wt += triangleSum(ctx, n0 & (pw > 2 ? n2 : r1), pieceTop(oe, 1, y)) - load<i32>(wc + 8);
    if (pw > 2) wt += triangleSum(ctx, n1 & (pw > 3 ? n3 : r1), pieceTop(oe, 2, y)) - load<i32>(wc + 12);
    if (pw > 3) wt += triangleSum(ctx, n2 & r1, pieceTop(oe, 3, y)) - load<i32>(wc + 16);
    wt += triangleSum(ctx, nLast & r2, heightAt(src, x + pw)) - load<i32>(wc + 4 + ((<usize>pw) << 2));
  }
  let cw = load<i32>(st + ST_CW);
  if ((used & bit(F_CUMULATIVE_WELLS)) != 0) {
    const wc = st + ST_CW_COL + ((<usize>x) << 2);
    cw += wellSum(ctx, l1, l2 & n0, heightAt(src, x - 1)) - load<i32>(wc);
    cw += wellSum(ctx, n0, l1 & (pw > 1 ? n1 : r1), pieceTop(oe, 0, y)) - load<i32>(wc + 4);
    if (pw > 1) cw += wellSum(ctx, n1, n0 & (pw > 2 ? n2 : r1), pieceTop(oe, 1, y)) - load<i32>(wc + 8);
    if (pw > 2) cw += wellSum(ctx, n2, n1 & (pw > 3 ? n3 : r1), pieceTop(oe, 2, y)) - load<i32>(wc + 12);
    if (pw > 3) cw += wellSum(ctx, n3, n2 & r1, pieceTop(oe, 3, y)) - load<i32>(wc + 16);
    cw += wellSum(ctx, r1, nLast & r2, heightAt(src, x + pw)) - load<i32>(wc + 4 + ((<usize>pw) << 2));
  }
  const top = max<i32>(load<i32>(src + B_TOP), y + ph);
  return combine(ctx, linesBefore, rowT, rowTC, colT, colT - w, holes, cw, wt, top, 2 * y + ph - 1, 0, hd, popcnt<i32>(holeRows), out);
}

/**
 * Value of orientation oe dropped at (x, y) on src when it clears no row (srcStats must describe src): one
 * straight-line evaluator per piece width.
 */
function evalIncremental(ctx: usize, src: usize, oe: usize, x: i32, y: i32, linesBefore: i32, used: i32, out: usize): f64 {
  const pw = load<i32>(oe + OE_WIDTH);
  if (pw == 2) return evalMoveW(ctx, src, oe, x, y, 2, linesBefore, used, out);
  if (pw == 3) return evalMoveW(ctx, src, oe, x, y, 3, linesBefore, used, out);
  if (pw == 1) return evalMoveW(ctx, src, oe, x, y, 1, linesBefore, used, out);
  return evalMoveW(ctx, src, oe, x, y, 4, linesBefore, used, out);
}

/** Landing row of piece column j at column x + j: the piece rests where its lowest cell there meets the column. */
@inline function restRow(src: usize, oe: usize, x: i32, j: i32): i32 {
  return heightAt(src, x + j) - load<i32>(oe + OE_BOT + ((<usize>j) << 2));
}

/**
 * The best column for orientation oe (width pw, a constant after inlining) on src, by 1-ply evaluation; ties go
 * to the leftmost. Returns its value and stores the column at O_SCAN_X (-1 when every column loses).
 */
@inline function bestColumn(ctx: usize, src: usize, scratch: usize, oe: usize, pw: i32, linesBefore: i32, used: i32): f64 {
  const w = load<i32>(ctx + O_W);
  const h = load<i32>(ctx + O_H);
  const full = load<i32>(ctx + O_FULL);
  const ph = load<i32>(oe + OE_HEIGHT);
  const m0 = load<i32>(oe + OE_MASK);
  const m1 = load<i32>(oe + OE_MASK + 4);
  const m2 = load<i32>(oe + OE_MASK + 8);
  const m3 = load<i32>(oe + OE_MASK + 12);
  let best: f64 = LOSS;
  let bx: i32 = -1;
  for (let x: i32 = 0; x <= w - pw; x++) {
    let y = max<i32>(0, restRow(src, oe, x, 0));
    if (pw > 1) y = max<i32>(y, restRow(src, oe, x, 1));
    if (pw > 2) y = max<i32>(y, restRow(src, oe, x, 2));
    if (pw > 3) y = max<i32>(y, restRow(src, oe, x, 3));
    if (y + ph > h) continue;
    // does the piece complete one of its own rows (the only rows that can become full)?
    let clears = (rowAt(src, y) | (m0 << x)) == full;
    clears |= (rowAt(src, y + 1) | (m1 << x)) == full && ph > 1;
    clears |= (rowAt(src, y + 2) | (m2 << x)) == full && ph > 2;
    clears |= (rowAt(src, y + 3) | (m3 << x)) == full && ph > 3;
    let v: f64;
    if (!clears) v = evalMoveW(ctx, src, oe, x, y, pw, linesBefore, used, 0);
    else {
      const lines = place(ctx, src, scratch, oe, x, y);
      v = evaluate(ctx, scratch, lines + linesBefore, lines * load<i32>(ctx + O_LAST_ERODED), 2 * y + ph - 1, used, 0);
    }
    if (bx < 0 || v > best) {
      best = v;
      bx = x;
    }
  }
  store<i32>(ctx + O_SCAN_X, bx);
  return best;
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
  const used = load<i32>(ctx + O_USED);
  const n = load<i32>(ctx + O_NORIENT + ((<usize>p) << 2));
  srcStats(ctx, src);
  let best: f64 = LOSS;
  let bo: i32 = -1;
  let bx: i32 = -1;
  for (let o: i32 = 0; o < n; o++) {
    const oe = orientRec(ctx, p, o);
    const pw = load<i32>(oe + OE_WIDTH);
    let v: f64;
    if (pw == 2) v = bestColumn(ctx, src, scratch, oe, 2, linesBefore, used);
    else if (pw == 3) v = bestColumn(ctx, src, scratch, oe, 3, linesBefore, used);
    else if (pw == 1) v = bestColumn(ctx, src, scratch, oe, 1, linesBefore, used);
    else v = bestColumn(ctx, src, scratch, oe, 4, linesBefore, used);
    const x = load<i32>(ctx + O_SCAN_X);
    if (x >= 0 && (bo < 0 || v > best)) {
      best = v;
      bo = o;
      bx = x;
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
