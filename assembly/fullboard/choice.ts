// Full-board kernel: move choice. The best placement of a piece by 1-ply evaluation (best1: every orientation,
// every column, the incremental evaluator where the move clears no row) or 2-ply over a known next piece (best2).
import { landingRow, orientRec, place, rowAt, heightAt } from './board';
import { evaluate, srcStats } from './features';
import { evalMoveW } from './incremental';
import { MOVE_LOSES, MOVE_ORIENT_SHIFT, OE_BOT, OE_HEIGHT, OE_MASK, OE_WIDTH, O_BEST_SCORE, O_BOARD_A, O_BOARD_B, O_BOARD_C, O_FULL, O_H, O_LAST_ERODED, O_NORIENT, O_SCAN_X, O_USED, O_W } from './layout';

/** The value of a move that loses (below every evaluation). */
export const LOSS: f64 = -1.0e300;

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
 * Best move for piece p on the current board (q = next piece for 2-ply, or NO_PIECE). Returns
 * o << MOVE_ORIENT_SHIFT | x, or MOVE_LOSES
 * when every placement loses; the value is stored at O_BEST_SCORE.
 */
export function bestMove(ctx: usize, p: i32, q: i32): i32 {
  const a = <usize>load<i32>(ctx + O_BOARD_A);
  const v = q >= 0 ? best2(ctx, a, p, q) : best1(ctx, a, <usize>load<i32>(ctx + O_BOARD_B), p, 0);
  store<f64>(ctx + O_BEST_SCORE, v);
  if (bestO < 0) return MOVE_LOSES;
  return (bestO << MOVE_ORIENT_SHIFT) | bestX;
}
