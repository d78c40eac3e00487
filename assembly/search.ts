// Stacking search and game kernel (DESIGN §3): lookahead search over the known queue and whole games played
// without leaving WebAssembly. Layouts of the config, context and game records are mirrored in
// src/stacking/layout.ts (keep the two in step).
export { alloc } from './memory';

// ---- config (i32 words) ----
const CFG_WIDTH: i32 = 0;
const CFG_MAX_STEP: i32 = 1;
const CFG_BOARD_HEIGHT: i32 = 2;
const CFG_TETRIS_THRESHOLD: i32 = 3; //   highest column needed for a Tetris (lowest column must be >= 4)
const CFG_EXCESS_FIRST: i32 = 4; //       1: less steepness beyond ±S wins before rank; 0: pure truncation
const CFG_TABLE: i32 = 5; //              ptr to u16 ranks, one per surface (order-preserving quantised ranks)
const CFG_PLACEMENTS: i32 = 6; //         ptr to placement records (PL_* words each)
const CFG_PIECE_START: i32 = 7; //        ptr to i32[8]: placements of piece p are [start[p], start[p+1])
const CFG_TETRIS_MODE: i32 = 8; //        TETRIS_MODE_*: when an I may go down the well
const CFG_STRATEGY: i32 = 9; //           STRATEGY_RANK: leaves scored by their rank; STRATEGY_EXPECT: by the expected
//                                        best rank after one more, unknown piece (weights in the context)
const CFG_PIECE_MAX: i32 = 10; //         ptr to u16[8] per surface: best rank per piece after it, slot 7 = its own rank
const STRATEGY_RANK: i32 = 0;

// ---- placement record (i32 words) ----
const PL_WORDS: i32 = 10;
const PL_X: i32 = 0; //      left column
const PL_WIDTH: i32 = 1;
const PL_BOT: i32 = 2; //    bot[0..3]: lowest cell per column
const PL_TOP: i32 = 6; //    top[0..3]: row above the highest cell per column

// ---- search context (i32 words unless noted) ----
const MAX_DEPTH: i32 = 8; //                          current piece + up to 7 known pieces
const CTX_HEIGHTS: i32 = 0; //                        (MAX_DEPTH + 1) x 16 i32: heights at each depth
const CTX_PATH: i32 = CTX_HEIGHTS + (MAX_DEPTH + 1) * 16; // MAX_DEPTH i32: choice at each depth
const CTX_BEST_PATH: i32 = CTX_PATH + MAX_DEPTH; //   MAX_DEPTH i32: the best sequence found
const CTX_BEST_LEN: i32 = CTX_BEST_PATH + MAX_DEPTH;
const CTX_BEST_VALUE: i32 = CTX_BEST_LEN + 2; //      i64 (8-byte aligned word index)
const CTX_NODES: i32 = CTX_BEST_VALUE + 2; //         i64: nodes visited, for benchmarks
const CTX_GENERATION: i32 = CTX_NODES + 2; //         search counter: memo entries of older searches are stale
const CTX_LEAF_INDEX: i32 = CTX_GENERATION + 2; //    64 i32: surface index of each leaf of one parent
const CTX_LEAF_EXCESS: i32 = CTX_LEAF_INDEX + 64; //  64 i32
const CTX_LEAF_MOVE: i32 = CTX_LEAF_EXCESS + 64; //   64 i32
const CTX_LEAF_TETRIS: i32 = CTX_LEAF_MOVE + 64; //   64 i32: 1 where the Tetris rule fires on the leaf
const CTX_WEIGHTS: i32 = CTX_LEAF_TETRIS + 64; //     8 i32: chance of each piece being the next unknown one, x 65536
const CTX_MEMO: i32 = CTX_WEIGHTS + 8; //          MEMO_SLOTS x 8 words: key i64, value i64, generation i32
const MEMO_SLOTS: i32 = 4096;
const MEMO_WORDS: i32 = 8;
export const CTX_WORDS: i32 = CTX_MEMO + MEMO_SLOTS * MEMO_WORDS;

// ---- move codes ----
const MOVE_TETRIS: i32 = -1;
const MOVE_NONE: i32 = -2;
const PIECE_I: i32 = 0;
const TETRIS_ROWS: i32 = 4;

// Values compare as i64: depth reached (dead sequences rank below survivors, longer first), then (excessFirst)
// less steepness beyond ±S, then a 32-bit score of the final surface (rank << 16, or the expected best rank).
const DEPTH_SHIFT: i64 = 56;
const EXCESS_SHIFT: i64 = 32;
const RANK_SHIFT: i64 = 16;
const EXCESS_CAP: i32 = 0xffff;

@inline function cfgWord(cfg: usize, field: i32): i32 {
  return load<i32>(cfg + ((<usize>field) << 2));
}
@inline function word(ptr: usize, index: i32): usize {
  return ptr + ((<usize>index) << 2);
}

// Tetris modes: the seed's rule sends an I down the well exactly when the lowest column is >= 4 and the highest
// >= the threshold (forced); 'choice' also lets the search send it down whenever the lowest column is >= 4.
const TETRIS_MODE_NEVER: i32 = 0;
const TETRIS_MODE_FORCED: i32 = 1;
const TETRIS_MODE_CHOICE: i32 = 2;
// What an I may do on a stack:
const TETRIS_NO: i32 = 0; //        only placements
const TETRIS_FORCED: i32 = 1; //    only the Tetris
const TETRIS_OPTIONAL: i32 = 2; //  the Tetris or any placement

/** What the Tetris rule allows an I on heights `h` (TETRIS_NO / TETRIS_FORCED / TETRIS_OPTIONAL). */
@inline function tetrisChoice(cfg: usize, h: usize): i32 {
  const mode = cfgWord(cfg, CFG_TETRIS_MODE);
  if (mode == TETRIS_MODE_NEVER) return TETRIS_NO;
  const width = cfgWord(cfg, CFG_WIDTH);
  let low = load<i32>(h);
  let high = low;
  for (let i = 1; i < width; i++) {
    const v = load<i32>(word(h, i));
    if (v < low) low = v;
    if (v > high) high = v;
  }
  if (low < TETRIS_ROWS) return TETRIS_NO;
  if (high >= cfgWord(cfg, CFG_TETRIS_THRESHOLD)) return TETRIS_FORCED;
  return mode == TETRIS_MODE_CHOICE ? TETRIS_OPTIONAL : TETRIS_NO;
}

/** Writes the heights after a Tetris (every column 4 lower) into `out` (may be `h`). */
@inline function dropTetris(cfg: usize, h: usize, out: usize): void {
  const width = cfgWord(cfg, CFG_WIDTH);
  for (let i = 0; i < width; i++) store<i32>(word(out, i), load<i32>(word(h, i)) - TETRIS_ROWS);
}

/** Address of placement record `p`. */
@inline function placementAt(cfg: usize, p: i32): usize {
  return <usize>cfgWord(cfg, CFG_PLACEMENTS) + ((<usize>(p * PL_WORDS)) << 2);
}

/** Writes the heights after placement `pl` on `h` into `out`; false if it leaves a hole or passes the top. */
@inline function place(cfg: usize, h: usize, pl: usize, out: usize): bool {
  const x = load<i32>(word(pl, PL_X));
  const w = load<i32>(word(pl, PL_WIDTH));
  const base = load<i32>(word(h, x)) - load<i32>(word(pl, PL_BOT));
  for (let j = 1; j < w; j++) {
    if (load<i32>(word(h, x + j)) - load<i32>(word(pl, PL_BOT + j)) != base) return false;
  }
  const limit = cfgWord(cfg, CFG_BOARD_HEIGHT);
  for (let j = 0; j < w; j++) if (base + load<i32>(word(pl, PL_TOP + j)) > limit) return false;
  memory.copy(out, h, (<usize>cfgWord(cfg, CFG_WIDTH)) << 2);
  for (let j = 0; j < w; j++) store<i32>(word(out, x + j), base + load<i32>(word(pl, PL_TOP + j)));
  return true;
}

@inline function heightsAt(ctx: usize, depth: i32): usize {
  return ctx + ((<usize>(CTX_HEIGHTS + depth * 16)) << 2);
}

function recordLeaf(ctx: usize, depth: i32, value: i64): void {
  const bestPtr = ctx + ((<usize>CTX_BEST_VALUE) << 2);
  if (value > load<i64>(bestPtr)) {
    store<i64>(bestPtr, value);
    store<i32>(word(ctx, CTX_BEST_LEN), depth);
    memory.copy(word(ctx, CTX_BEST_PATH), word(ctx, CTX_PATH), (<usize>depth) << 2);
  }
}

/** Surface index (steps truncated to ±S) and total steepness beyond ±S of heights `h`. */
@inline function surfaceIndexOf(cfg: usize, h: usize, excessOut: usize): i32 {
  const width = cfgWord(cfg, CFG_WIDTH);
  const s = cfgWord(cfg, CFG_MAX_STEP);
  const base = 2 * s + 1;
  let index: i32 = 0;
  let excess: i32 = 0;
  let prev = load<i32>(h);
  for (let i = 1; i < width; i++) {
    const cur = load<i32>(word(h, i));
    let d = cur - prev;
    prev = cur;
    if (d > s) {
      excess += d - s;
      d = s;
    } else if (d < -s) {
      excess += -s - d;
      d = -s;
    }
    index = index * base + d + s;
  }
  store<i32>(excessOut, excess);
  return index;
}

/**
 * Score of a leaf surface: its rank, or (expectimax) the sum over pieces of weight x the best rank after placing
 * that piece (for an I on which the Tetris rule fires: the surface's own rank, a Tetris leaves the steps as they are).
 */
@inline function leafValue(cfg: usize, ctx: usize, index: i32, excess: i32, tetris: i32): i64 {
  let score: i64;
  if (cfgWord(cfg, CFG_STRATEGY) == STRATEGY_RANK) {
    score = (<i64>load<u16>(<usize>cfgWord(cfg, CFG_TABLE) + ((<usize>index) << 1))) << RANK_SHIFT;
  } else {
    const row = <usize>cfgWord(cfg, CFG_PIECE_MAX) + ((<usize>index) << 4);
    const weights = word(ctx, CTX_WEIGHTS);
    // The I: a forced Tetris keeps the surface (its own rank, slot 7); an optional one is the better of the two.
    let forI = <i64>load<u16>(row);
    if (tetris == TETRIS_FORCED) forI = <i64>load<u16>(row + 14);
    else if (tetris == TETRIS_OPTIONAL) forI = max<i64>(forI, <i64>load<u16>(row + 14));
    score = <i64>load<i32>(weights) * forI;
    for (let p: i32 = 1; p < 7; p++) score += <i64>load<i32>(word(weights, p)) * <i64>load<u16>(row + ((<usize>p) << 1));
  }
  if (cfgWord(cfg, CFG_EXCESS_FIRST) == 0) return score;
  const e = excess < EXCESS_CAP ? excess : EXCESS_CAP;
  return (<i64>(EXCESS_CAP - e) << EXCESS_SHIFT) | score;
}

/** Score of the surface of heights `h` as a leaf. */
@inline function heightsValue(cfg: usize, ctx: usize, h: usize): i64 {
  const excess = word(ctx, CTX_LEAF_EXCESS);
  const index = surfaceIndexOf(cfg, h, excess);
  return leafValue(cfg, ctx, index, load<i32>(excess), tetrisChoice(cfg, h));
}

/**
 * The last piece of the window: every placement is a leaf. Indices are computed first and the table read after,
 * so the (cache-missing) reads of one parent's leaves are independent and overlap.
 */
function lastLevel(cfg: usize, ctx: usize, queue: usize, depth: i32, h: usize): i64 {
  const piece = <i32>load<u8>(queue + <usize>depth);
  const next = heightsAt(ctx, depth + 1);
  const leafIndex = word(ctx, CTX_LEAF_INDEX);
  const leafExcess = word(ctx, CTX_LEAF_EXCESS);
  const leafMove = word(ctx, CTX_LEAF_MOVE);
  const leafTetris = word(ctx, CTX_LEAF_TETRIS);
  const expect = cfgWord(cfg, CFG_STRATEGY) != STRATEGY_RANK;
  let count: i32 = 0;
  const tetris = piece == PIECE_I ? tetrisChoice(cfg, h) : TETRIS_NO;
  if (tetris != TETRIS_NO) {
    dropTetris(cfg, h, next);
    store<i32>(word(leafIndex, 0), surfaceIndexOf(cfg, next, word(leafExcess, 0)));
    store<i32>(word(leafMove, 0), MOVE_TETRIS);
    store<i32>(word(leafTetris, 0), expect ? tetrisChoice(cfg, next) : TETRIS_NO);
    count = 1;
  }
  if (tetris != TETRIS_FORCED) {
    const starts = <usize>cfgWord(cfg, CFG_PIECE_START);
    const end = load<i32>(word(starts, piece + 1));
    for (let p = load<i32>(word(starts, piece)); p < end; p++) {
      if (!place(cfg, h, placementAt(cfg, p), next)) continue;
      store<i32>(word(leafIndex, count), surfaceIndexOf(cfg, next, word(leafExcess, count)));
      store<i32>(word(leafMove, count), p);
      store<i32>(word(leafTetris, count), expect ? tetrisChoice(cfg, next) : TETRIS_NO);
      count++;
    }
  }
  const nodesPtr = ctx + ((<usize>CTX_NODES) << 2);
  store<i64>(nodesPtr, load<i64>(nodesPtr) + <i64>count);
  if (count == 0) {
    const v = ((<i64>depth) << DEPTH_SHIFT) | heightsValue(cfg, ctx, h);
    recordLeaf(ctx, depth, v);
    return v;
  }
  const depthPart = (<i64>(depth + 1)) << DEPTH_SHIFT;
  let best: i64 = -1;
  for (let k: i32 = 0; k < count; k++) {
    const v = depthPart | leafValue(cfg, ctx, load<i32>(word(leafIndex, k)), load<i32>(word(leafExcess, k)), load<i32>(word(leafTetris, k)));
    if (v > best) {
      best = v;
      store<i32>(word(ctx, CTX_PATH + depth), load<i32>(word(leafMove, k)));
      recordLeaf(ctx, depth + 1, v);
    }
  }
  return best;
}

/** Memo key of a state: its heights (6 bits each; board height <= 63) and its depth. */
@inline function stateKey(cfg: usize, h: usize, depth: i32): i64 {
  const width = cfgWord(cfg, CFG_WIDTH);
  let key: i64 = <i64>depth;
  for (let i = 0; i < width; i++) key = (key << 6) | <i64>load<i32>(word(h, i));
  return key;
}

@inline function memoSlot(ctx: usize, key: i64): usize {
  const hash = <u64>key * 0x9e3779b97f4a7c15;
  const slot = <i32>(hash >> 52); // 12 bits: MEMO_SLOTS = 4096
  return word(ctx, CTX_MEMO + slot * MEMO_WORDS);
}

function searchFrom(cfg: usize, ctx: usize, queue: usize, depth: i32, last: i32): i64 {
  const h = heightsAt(ctx, depth);
  const nodesPtr = ctx + ((<usize>CTX_NODES) << 2);
  store<i64>(nodesPtr, load<i64>(nodesPtr) + 1);
  if (depth == last) return lastLevel(cfg, ctx, queue, depth, h);

  // Different orders of commuting placements reach the same state at the same depth; its subtree value is
  // known. The best path recorded at its first visit stays correct (a later visit cannot beat it).
  const generation = load<i32>(word(ctx, CTX_GENERATION));
  let slot: usize = 0;
  let key: i64 = 0;
  if (depth >= 2) {
    key = stateKey(cfg, h, depth);
    slot = memoSlot(ctx, key);
    if (load<i32>(slot + 16) == generation && load<i64>(slot) == key) return load<i64>(slot + 8);
  }

  const piece = <i32>load<u8>(queue + <usize>depth);
  const next = heightsAt(ctx, depth + 1);
  let best: i64 = -1;
  const tetris = piece == PIECE_I ? tetrisChoice(cfg, h) : TETRIS_NO;
  if (tetris != TETRIS_NO) {
    dropTetris(cfg, h, next);
    store<i32>(word(ctx, CTX_PATH + depth), MOVE_TETRIS);
    best = searchFrom(cfg, ctx, queue, depth + 1, last);
  }
  if (tetris != TETRIS_FORCED) {
    const starts = <usize>cfgWord(cfg, CFG_PIECE_START);
    const end = load<i32>(word(starts, piece + 1));
    for (let p = load<i32>(word(starts, piece)); p < end; p++) {
      if (!place(cfg, h, placementAt(cfg, p), next)) continue;
      store<i32>(word(ctx, CTX_PATH + depth), p);
      const v = searchFrom(cfg, ctx, queue, depth + 1, last);
      if (v > best) best = v;
    }
    if (best < 0) {
      // The piece has no legal placement: the sequence dies here, ranked by how far it got.
      best = ((<i64>depth) << DEPTH_SHIFT) | heightsValue(cfg, ctx, h);
      recordLeaf(ctx, depth, best);
    }
  }
  if (depth >= 2) {
    store<i64>(slot, key);
    store<i64>(slot + 8, best);
    store<i32>(slot + 16, generation);
  }
  return best;
}

/**
 * Best first move for `heights` and the queue (queue[0] is the current piece, lookahead more are known):
 * a placement id, MOVE_TETRIS, or MOVE_NONE when the current piece has no legal placement. The best value and
 * whole best sequence are left in the context.
 */
export function search(cfg: usize, ctx: usize, heights: usize, queue: usize, lookahead: i32): i32 {
  memory.copy(heightsAt(ctx, 0), heights, (<usize>cfgWord(cfg, CFG_WIDTH)) << 2);
  store<i64>(ctx + ((<usize>CTX_BEST_VALUE) << 2), -1);
  store<i32>(word(ctx, CTX_BEST_LEN), 0);
  store<i32>(word(ctx, CTX_GENERATION), load<i32>(word(ctx, CTX_GENERATION)) + 1);
  searchFrom(cfg, ctx, queue, 0, lookahead);
  if (load<i32>(word(ctx, CTX_BEST_LEN)) == 0) return MOVE_NONE;
  return load<i32>(word(ctx, CTX_BEST_PATH));
}

// ---- games ----
// Game record (i32 words): the state of one game, advanced by playGame until it dies, reaches its piece cap or
// runs out of known pieces (the caller then refills the piece buffer and calls again).
const G_HEIGHTS: i32 = 0; //       16 i32
const G_PIECES: i32 = 16; //       ptr to u8 piece ids
const G_AVAILABLE: i32 = 17; //    pieces in the buffer
const G_POSITION: i32 = 18; //     index of the current piece in the buffer
const G_PLAYED: i32 = 19; //       pieces placed so far (Tetrises included)
const G_CAP: i32 = 20; //          stop after this many pieces (censored game)
const G_STATUS: i32 = 21; //       0 running, 1 dead, 2 reached the cap
const G_DEATH_PIECE: i32 = 22; //  piece id that found no placement
const G_TETRISES: i32 = 23;
const G_LOOKAHEAD: i32 = 24;
const G_CTX: i32 = 25; //          ptr to this game's search context
const G_WEIGHTS: i32 = 26; //      ptr to i32[8] per buffered piece: its chances before it was dealt (x 65536)
export const GAME_WORDS: i32 = 27;

const STATUS_RUNNING: i32 = 0;
const STATUS_DEAD: i32 = 1;
const STATUS_CAPPED: i32 = 2;

/** Applies move `move` to heights `h` in place (placement id or MOVE_TETRIS). */
export function applyMove(cfg: usize, h: usize, move: i32, scratch: usize): void {
  if (move == MOVE_TETRIS) {
    dropTetris(cfg, h, h);
    return;
  }
  if (place(cfg, h, placementAt(cfg, move), scratch)) memory.copy(h, scratch, (<usize>cfgWord(cfg, CFG_WIDTH)) << 2);
}

/** Plays `game` until it dies, reaches its cap or needs more pieces; returns its status (0 = needs pieces). */
export function playGame(cfg: usize, game: usize): i32 {
  const h = word(game, G_HEIGHTS);
  const pieces = <usize>load<i32>(word(game, G_PIECES));
  const lookahead = load<i32>(word(game, G_LOOKAHEAD));
  const ctx = <usize>load<i32>(word(game, G_CTX));
  const scratch = heightsAt(ctx, MAX_DEPTH);
  let position = load<i32>(word(game, G_POSITION));
  let played = load<i32>(word(game, G_PLAYED));
  let tetrises = load<i32>(word(game, G_TETRISES));
  const available = load<i32>(word(game, G_AVAILABLE));
  const cap = load<i32>(word(game, G_CAP));
  let status = STATUS_RUNNING;
  while (true) {
    if (played >= cap) {
      status = STATUS_CAPPED;
      break;
    }
    // One piece past the window must be buffered: its chances are the expectimax weights.
    if (position + lookahead + 1 >= available) break;
    if (cfgWord(cfg, CFG_STRATEGY) != STRATEGY_RANK) {
      const weights = <usize>load<i32>(word(game, G_WEIGHTS));
      memory.copy(word(ctx, CTX_WEIGHTS), weights + ((<usize>(position + lookahead + 1)) << 5), 32);
    }
    const move = search(cfg, ctx, h, pieces + <usize>position, lookahead);
    if (move == MOVE_NONE) {
      status = STATUS_DEAD;
      store<i32>(word(game, G_DEATH_PIECE), <i32>load<u8>(pieces + <usize>position));
      break;
    }
    if (move == MOVE_TETRIS) tetrises++;
    applyMove(cfg, h, move, scratch);
    position++;
    played++;
  }
  store<i32>(word(game, G_POSITION), position);
  store<i32>(word(game, G_PLAYED), played);
  store<i32>(word(game, G_TETRISES), tetrises);
  store<i32>(word(game, G_STATUS), status);
  return status;
}
