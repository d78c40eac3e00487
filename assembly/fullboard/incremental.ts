// Full-board kernel: the incremental evaluator. A move that clears no row changes only the measures of its own
// columns and their neighbours (assembly/fullboard/features.ts), so its value follows from the statistics of the
// board it is placed on (srcStats) without building the board: one straight-line evaluator per piece width.
import { colAt, heightAt } from './board';
import { ST_CW, ST_CW_COL, ST_EDGE, ST_HD, ST_HOLES, ST_HOLE_COLS, ST_HOLE_ROWS, ST_COLT, ST_PAIR, ST_ROWT, ST_ROWTC, ST_WT, ST_WT_COL, bit, combine, edgeTerm, triangleSum, wellSum } from './features';
import { B_TOP, F_CUMULATIVE_WELLS, F_WELLS_TRIANGLE, OE_BOT, OE_HEIGHT, OE_TOP, OE_WIDTH, O_H, O_SRC, O_W } from './layout';


// A move that clears no row, column by column. Piece column j (0 <= j < pw) lands on column x + j at rows
// y + bot[j] .. y + top[j] - 1; nothing else changes.
@inline export function pieceBot(oe: usize, j: i32, y: i32): i32 {
  return y + load<i32>(oe + OE_BOT + ((<usize>j) << 2));
}
@inline export function pieceTop(oe: usize, j: i32, y: i32): i32 {
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
@inline export function evalMoveW(ctx: usize, src: usize, oe: usize, x: i32, y: i32, pw: i32, linesBefore: i32, used: i32, out: usize): f64 {
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
  return combine(ctx, linesBefore, rowT, rowTC, colT, w, holes, cw, wt, top, 2 * y + ph - 1, 0, hd, popcnt<i32>(holeRows), out);
}

/**
 * Value of orientation oe dropped at (x, y) on src when it clears no row (srcStats must describe src): one
 * straight-line evaluator per piece width.
 */
export function evalIncremental(ctx: usize, src: usize, oe: usize, x: i32, y: i32, linesBefore: i32, used: i32, out: usize): f64 {
  const pw = load<i32>(oe + OE_WIDTH);
  if (pw == 2) return evalMoveW(ctx, src, oe, x, y, 2, linesBefore, used, out);
  if (pw == 3) return evalMoveW(ctx, src, oe, x, y, 3, linesBefore, used, out);
  if (pw == 1) return evalMoveW(ctx, src, oe, x, y, 1, linesBefore, used, out);
  return evalMoveW(ctx, src, oe, x, y, 4, linesBefore, used, out);
}

