// Full-board kernel: a context's life and the game loop: setting it up (sizes, boards, lookup tables, weights),
// applying and inspecting moves for TypeScript, and playing whole games (playChunk, runGame) so a game never
// leaves WebAssembly. Piece tables and weights are written into the context by TypeScript (src/kernels/fullboard.ts).
import { landingRow, orientRec, place, rowAt, setCol, setHeight, lowMask } from './board';
import { bestMove } from './choice';
import { bit, evaluate, srcStats } from './features';
import { evalIncremental } from './incremental';
import {
  BOARD_BYTES, CHUNK_BUDGET_USED, CHUNK_LINE_CAP, CHUNK_LOST, CHUNK_NEEDS_PIECES, CTX_BYTES, FEATURE_COUNT, MOVE_ORIENT_SHIFT,
  NO_PIECE, OE_HEIGHT, OE_MASK, O_BOARDS, O_BOARD_A, O_BOARD_B, O_BOARD_C, O_CUR, O_FEAT, O_FULL, O_H, O_LAST_ERODED,
  O_LINES, O_LOOK, O_LOST, O_MODE, O_NEXT, O_PIECES, O_RUN, O_TRI, O_USED, O_W, O_WEIGHTS, O_BUFLEN, O_BUFPOS,
  PIECES_FROM_RNG, RESULT_LINES, RESULT_LOST, RESULT_PIECES,
} from './layout';
import { drawPiece, seedRng } from './rng';

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
  store<i32>(ctx + O_MODE, PIECES_FROM_RNG);
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
  store<i32>(ctx + O_CUR, NO_PIECE);
  store<i32>(ctx + O_NEXT, NO_PIECE);
  store<i32>(ctx + O_LOST, 0);
  store<f64>(ctx + O_LINES, 0);
  store<f64>(ctx + O_PIECES, 0);
  store<i32>(ctx + O_BUFPOS, 0);
  store<i32>(ctx + O_BUFLEN, 0);
}

/** Copies FEATURE_COUNT weights from `wptr` (f64) and records which features are needed. */
export function setWeights(ctx: usize, wptr: usize): void {
  let used: i32 = 0;
  for (let f: i32 = 0; f < FEATURE_COUNT; f++) {
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

export function setLookahead(ctx: usize, look: i32): void {
  store<i32>(ctx + O_LOOK, look);
}

/**
 * Plays up to `budget` pieces of the current game. Returns CHUNK_BUDGET_USED, CHUNK_LOST (the current piece has no
 * placement that stays below row H), CHUNK_NEEDS_PIECES (the piece buffer ran dry: refill it and call again) or
 * CHUNK_LINE_CAP (the lines reached `lineCap`).
 */
export function playChunk(ctx: usize, budget: i32, lineCap: f64): i32 {
  if (load<i32>(ctx + O_LOST) != 0) return CHUNK_LOST;
  const look = load<i32>(ctx + O_LOOK);
  for (let i: i32 = 0; i < budget; i++) {
    if (load<f64>(ctx + O_LINES) >= lineCap) return CHUNK_LINE_CAP;
    let p = load<i32>(ctx + O_CUR);
    if (p < 0) {
      p = drawPiece(ctx);
      if (p < 0) return CHUNK_NEEDS_PIECES;
      store<i32>(ctx + O_CUR, p);
    }
    let q: i32 = NO_PIECE;
    if (look > 0) {
      q = load<i32>(ctx + O_NEXT);
      if (q < 0) {
        q = drawPiece(ctx);
        if (q < 0) return CHUNK_NEEDS_PIECES;
        store<i32>(ctx + O_NEXT, q);
      }
    }
    const mv = bestMove(ctx, p, q);
    if (mv < 0) {
      store<i32>(ctx + O_LOST, 1);
      return CHUNK_LOST;
    }
    applyMove(ctx, p, mv >> MOVE_ORIENT_SHIFT, mv & ((1 << MOVE_ORIENT_SHIFT) - 1));
    store<i32>(ctx + O_CUR, q);
    store<i32>(ctx + O_NEXT, NO_PIECE);
  }
  return CHUNK_BUDGET_USED;
}

/**
 * One whole memoryless game for the trainer: weights from wptr, PRNG state s0..s3, at most maxPieces pieces and
 * lineCap lines. Writes [lines, pieces, lost] as f64 at out.
 */
export function runGame(ctx: usize, wptr: usize, s0: u32, s1: u32, s2: u32, s3: u32, maxPieces: f64, lineCap: f64, out: usize): void {
  setWeights(ctx, wptr);
  store<i32>(ctx + O_MODE, PIECES_FROM_RNG);
  resetGame(ctx);
  seedRng(ctx, s0, s1, s2, s3);
  let status = CHUNK_BUDGET_USED;
  for (;;) {
    const left = maxPieces - load<f64>(ctx + O_PIECES);
    if (left <= 0) break;
    status = playChunk(ctx, left > 1.0e9 ? 1000000000 : <i32>left, lineCap);
    if (status != CHUNK_BUDGET_USED) break;
  }
  store<f64>(out + RESULT_LINES, load<f64>(ctx + O_LINES));
  store<f64>(out + RESULT_PIECES, load<f64>(ctx + O_PIECES));
  store<f64>(out + RESULT_LOST, status == CHUNK_LOST ? 1.0 : 0.0);
}
