// Full-board kernel: the bitboard. Each board is kept both as one u32 mask per row (bit c = column c) and as one
// u32 mask per column (bit r = row r), with the column heights and the top (layout: assembly/fullboard/layout.ts
// B_*); this file reads and writes boards, drops a piece and clears full rows.
import { B_COLS, B_HEIGHTS, B_ROWS, B_TOP, OE_BOT, OE_BYTES, OE_HEIGHT, OE_MASK, OE_TOP, OE_WIDTH, ORIENT_SLOTS, O_FULL, O_LAST_ERODED, O_LAST_LINES, O_BOARD_A, O_ORIENT, O_W } from './layout';

@inline export function rowAt(b: usize, r: i32): i32 {
  return load<i32>(b + B_ROWS + ((<usize>r) << 2));
}
@inline export function heightAt(b: usize, c: i32): i32 {
  return load<i32>(b + B_HEIGHTS + ((<usize>(c + 2)) << 2));
}
@inline export function colAt(b: usize, c: i32): i32 {
  return load<i32>(b + B_COLS + ((<usize>(c + 2)) << 2));
}
@inline export function setHeight(b: usize, c: i32, v: i32): void {
  store<i32>(b + B_HEIGHTS + ((<usize>(c + 2)) << 2), v);
}
@inline export function setCol(b: usize, c: i32, v: i32): void {
  store<i32>(b + B_COLS + ((<usize>(c + 2)) << 2), v);
}
/** Bits 0 .. n-1 (n <= 31). */
@inline export function lowMask(n: i32): i32 {
  return (1 << n) - 1;
}
@inline export function orientRec(ctx: usize, p: i32, o: i32): usize {
  return ctx + O_ORIENT + <usize>(p * ORIENT_SLOTS + o) * OE_BYTES;
}




/**
 * Derives the column masks, heights and top of board `b` from its rows at or above row `from` (the columns keep
 * their bits below `from`). Rows at or above `top` must be 0.
 */
export function deriveColumns(ctx: usize, b: usize, from: i32, top: i32): void {
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
@inline export function landingRow(b: usize, oe: usize, x: i32): i32 {
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
export function place(ctx: usize, src: usize, dst: usize, oe: usize, x: i32, y: i32): i32 {
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
