// Stacking search and game kernel (DESIGN §3): lookahead search over the known queue and whole games played
// without leaving WebAssembly. Layouts of the config, context and game records are mirrored in
// src/stacking/layout.ts (keep the two in step).
export { alloc } from './memory';

// ---- config (i32 words) ----
const CFG_WIDTH: i32 = 0;
const CFG_MAX_STEP: i32 = 1; //           S (the step lookup already carries it; kept for the layout)
const CFG_BOARD_HEIGHT: i32 = 2;
const CFG_TETRIS_THRESHOLD: i32 = 3; //   highest column needed for a Tetris (lowest column must be >= 4)
const CFG_EXCESS_FIRST: i32 = 4; //       1: less steepness beyond ±S wins before rank; 0: pure truncation
const CFG_TABLE: i32 = 5; //              ptr to u16 ranks, one per surface (order-preserving quantised ranks)
const CFG_PLACEMENTS: i32 = 6; //         ptr to placement records (PL_* words each)
const CFG_PIECE_START: i32 = 7; //        ptr to i32[8]: placements of piece p are [start[p], start[p+1])
const CFG_TETRIS_MODE: i32 = 8; //        TETRIS_MODE_*: when an I may go down the well
const CFG_STRATEGY: i32 = 9; //           STRATEGY_RANK: leaves scored by their rank; STRATEGY_EXPECT: by the expected
//                                        best rank after one more, unknown piece (weights in the context)
const CFG_PIECE_MAX: i32 = 10; //         ptr to u16[8] per surface (expectimax leaves): value with piece p next, slot 7 after a Tetris
const CFG_FIT: i32 = 11; //                ptr to the legal-move lookup (src/stacking/placements.ts fitLookup)
const CFG_STEPS: i32 = 12; //              ptr to the step lookup (src/stacking/placements.ts stepLookup; STEP_*)
const CFG_COLLAPSE: i32 = 13; //           1: steps steeper than ±S collapse to ±S after every move (steep 'collapse')
const STRATEGY_RANK: i32 = 0;
const STRATEGY_EXPECT: i32 = 1; //        one unknown piece: leaves scored from their 8-slot piece-max rows
const STRATEGY_EXPECT2: i32 = 2; //       two unknown pieces: each leaf's children for every first one, scored as EXPECT
const FIT_WINDOW_BITS: i32 = 9;
const FIT_WINDOW: i32 = 1 << FIT_WINDOW_BITS; // fit codes of three steps

// ---- step lookup (i32): what a step d (-63..63: heights fit 6 bits) between two columns contributes ----
// Row i < STEP_INFO_ROW: its share of a surface index at step position i (the step truncated to ±S); row
// STEP_INFO_ROW: its fit-code digit (FIT_STEP_BITS bits) | its steepness beyond ±S << FIT_STEP_BITS. One load each
// instead of clamping and multiplying per step.
const STEP_ROW_BITS: i32 = 7;
const STEP_ZERO: i32 = 64;
const STEP_INFO_ROW: i32 = 16;

@inline function stepShare(steps: usize, i: i32, d: i32): i32 {
  return load<i32>(steps + ((<usize>((i << STEP_ROW_BITS) + d + STEP_ZERO)) << 2));
}
@inline function stepInfo(steps: usize, d: i32): i32 {
  return load<i32>(steps + ((<usize>((STEP_INFO_ROW << STEP_ROW_BITS) + d + STEP_ZERO)) << 2));
}

// ---- placement record (i32 words) ----
const PL_WORDS: i32 = 17;
const PL_X: i32 = 0; //      left column
const PL_WIDTH: i32 = 1;
const PL_BOT: i32 = 2; //    bot[0..3]: lowest cell per column
const PL_TOP: i32 = 6; //    top[0..3]: row above the highest cell per column
const PL_FIT_SHIFT: i32 = 10; // the placement fits when (fit code >> shift) & mask == pattern (fitCode)
const PL_FIT_MASK: i32 = 11;
const PL_FIT_PATTERN: i32 = 12;
const PL_MAX_TOP: i32 = 13; //   highest new top minus the height of the left column
const PL_INNER_INDEX: i32 = 14; // share in the surface index of the steps between the piece's columns after it lands
const PL_INNER_EXCESS: i32 = 15; // their steepness beyond ±S
const PL_MIN_TOP: i32 = 16; //   lowest new top minus the height of the left column
const FIT_STEP_BITS: i32 = 3; // bits per step in a fit code (src/stacking/layout.ts)

// ---- search context (i32 words unless noted) ----
const MAX_DEPTH: i32 = 8; //                          current piece + up to 7 known pieces
const CTX_HEIGHTS: i32 = 0; //                        (MAX_DEPTH + 1) x 16 i32: heights at each depth
const CTX_PATH: i32 = CTX_HEIGHTS + (MAX_DEPTH + 1) * 16; // MAX_DEPTH i32: choice at each depth
const CTX_BEST_PATH: i32 = CTX_PATH + MAX_DEPTH; //   MAX_DEPTH i32: the best sequence found
const CTX_BEST_LEN: i32 = CTX_BEST_PATH + MAX_DEPTH;
const CTX_BEST_VALUE: i32 = CTX_BEST_LEN + 2; //      i64 (8-byte aligned word index)
const CTX_NODES: i32 = CTX_BEST_VALUE + 2; //         i64: nodes visited, for benchmarks
const CTX_GENERATION: i32 = CTX_NODES + 2; //         search counter: memo entries of older searches are stale
const CTX_WEIGHTS: i32 = CTX_GENERATION + 2; //     8 i32: chance of each piece being the next unknown one, x 65536
const CTX_WEIGHTS2: i32 = CTX_WEIGHTS + 8; //      7 x 8 i32: chances of the second unknown piece given the first
const CTX_LEAF_COUNT: i32 = CTX_WEIGHTS2 + 56; //   leaves waiting in the buffer
const CTX_SCRATCH: i32 = CTX_LEAF_COUNT + 1; //     one word: where expect2Score keeps its touching loads
// Per-parent sums for the leaf level (16 i32 each): surface-index share and excess of steps 0..i-1, min and max
// of heights 0..i-1 and of heights i..W-1.
const CTX_PRE_INDEX: i32 = CTX_SCRATCH + 1;
const CTX_PRE_EXCESS: i32 = CTX_PRE_INDEX + 16;
const CTX_PRE_MIN: i32 = CTX_PRE_EXCESS + 16;
const CTX_PRE_MAX: i32 = CTX_PRE_MIN + 16;
const CTX_SUF_MIN: i32 = CTX_PRE_MAX + 16;
const CTX_SUF_MAX: i32 = CTX_SUF_MIN + 16;
// The leaf buffer: leaves of the last level wait here and are scored in batches, so their cache-missing table
// reads are independent of one another and overlap (the search's cost is one table read per leaf).
const LEAF_CAP: i32 = 512;
const LEAF_FLUSH_AT: i32 = LEAF_CAP - 64; //        flush before a parent whose leaves might not fit
const CTX_LEAF_PATH: i32 = CTX_SUF_MAX + 16; //   LEAF_CAP i64: the leaf's moves, one byte per depth (move + 1)
const CTX_LEAF_INDEX: i32 = CTX_LEAF_PATH + 2 * LEAF_CAP; // LEAF_CAP i32: surface index
const CTX_LEAF_EXCESS: i32 = CTX_LEAF_INDEX + LEAF_CAP; //    LEAF_CAP i32: steepness beyond ±S
const CTX_LEAF_TETRIS: i32 = CTX_LEAF_EXCESS + LEAF_CAP; //   LEAF_CAP i32: what the Tetris rule allows on the leaf
const CTX_LEAF_RAW: i32 = CTX_LEAF_TETRIS + LEAF_CAP; //      LEAF_CAP i32: the gathered table value
// Two unknown pieces: a leaf's heights, one child's, where each first piece's children start, and per child its
// surface index and Tetris rule (7 pieces x at most 35 moves).
const E2_CAP: i32 = 256;
const CTX_E2_HEIGHTS: i32 = CTX_LEAF_RAW + LEAF_CAP;
const CTX_E2_CHILD: i32 = CTX_E2_HEIGHTS + 16;
const CTX_E2_START: i32 = CTX_E2_CHILD + 16;
const CTX_E2_INDEX: i32 = CTX_E2_START + 8;
const CTX_E2_TETRIS: i32 = CTX_E2_INDEX + E2_CAP;
// The memo: one i64 per slot, a state's key tagged with the search's generation (7 bits, MEMO_TAG_MASK, above the
// key's 57), so a new search finds older entries stale without clearing; the memo is cleared when the tag wraps.
// 16 KB, so it stays in the L1 cache.
const CTX_MEMO: i32 = CTX_E2_TETRIS + E2_CAP; //   MEMO_SLOTS x 2 words
const MEMO_SLOT_BITS: i32 = 11;
const MEMO_SLOTS: i32 = 1 << MEMO_SLOT_BITS;
const MEMO_WORDS: i32 = 2;
const MEMO_KEY_BITS: i64 = 57; //                 depth (3 bits) and 9 heights of 6 bits (src/surface.ts MAX_WIDTH)
const MEMO_TAG_MASK: i32 = 127; //                64 - MEMO_KEY_BITS bits
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

/** What the Tetris rule allows an I on a stack whose lowest column is `low` and highest `high`. */
@inline function tetrisChoiceOf(cfg: usize, low: i32, high: i32): i32 {
  const mode = cfgWord(cfg, CFG_TETRIS_MODE);
  if (mode == TETRIS_MODE_NEVER || low < TETRIS_ROWS) return TETRIS_NO;
  if (high >= cfgWord(cfg, CFG_TETRIS_THRESHOLD)) return TETRIS_FORCED;
  return mode == TETRIS_MODE_CHOICE ? TETRIS_OPTIONAL : TETRIS_NO;
}

/** What the Tetris rule allows an I on heights `h` (TETRIS_NO / TETRIS_FORCED / TETRIS_OPTIONAL). */
@inline function tetrisChoice(cfg: usize, h: usize): i32 {
  const width = cfgWord(cfg, CFG_WIDTH);
  let low = load<i32>(h);
  let high = low;
  for (let i = 1; i < width; i++) {
    const v = load<i32>(word(h, i));
    if (v < low) low = v;
    if (v > high) high = v;
  }
  return tetrisChoiceOf(cfg, low, high);
}

/** Writes the heights after a Tetris (every column 4 lower) into `out` (may be `h`). */
@inline function dropTetris(cfg: usize, h: usize, out: usize): void {
  const width = cfgWord(cfg, CFG_WIDTH);
  for (let i = 0; i < width; i++) store<i32>(word(out, i), load<i32>(word(h, i)) - TETRIS_ROWS);
}

/**
 * Steep rule 'collapse': the game's state is the truncated surface, so a step steeper than ±S becomes ±S. The
 * truncated steps are summed from column 0 and the whole profile is shifted so its lowest column is as high as the
 * lowest column was: the lowest height, which decides whether a Tetris is possible, never changes.
 */
function collapseSteps(cfg: usize, h: usize): void {
  const width = cfgWord(cfg, CFG_WIDTH);
  const s = cfgWord(cfg, CFG_MAX_STEP);
  let was = load<i32>(h);
  let low = was;
  let newLow = was;
  for (let i: i32 = 1; i < width; i++) {
    const cur = load<i32>(word(h, i));
    const v = load<i32>(word(h, i - 1)) + min<i32>(s, max<i32>(-s, cur - was));
    store<i32>(word(h, i), v);
    low = min<i32>(low, cur);
    newLow = min<i32>(newLow, v);
    was = cur;
  }
  const shift = low - newLow;
  for (let i: i32 = 0; i < width; i++) store<i32>(word(h, i), load<i32>(word(h, i)) + shift);
}

/** Address of placement record `p`. */
@inline function placementAt(cfg: usize, p: i32): usize {
  return <usize>cfgWord(cfg, CFG_PLACEMENTS) + ((<usize>(p * PL_WORDS)) << 2);
}

/** Fit code of heights `h`: each step's fit digit (the step lookup's), FIT_STEP_BITS bits each, step 0 lowest. */
@inline function fitCode(cfg: usize, h: usize): i32 {
  const width = cfgWord(cfg, CFG_WIDTH);
  const steps = <usize>cfgWord(cfg, CFG_STEPS);
  let code: i32 = 0;
  let prev = load<i32>(h);
  for (let i: i32 = 1; i < width; i++) {
    const cur = load<i32>(word(h, i));
    code |= (stepInfo(steps, cur - prev) & ((1 << FIT_STEP_BITS) - 1)) << (FIT_STEP_BITS * (i - 1));
    prev = cur;
  }
  return code;
}

/**
 * The placements of `piece` whose bottoms fit the steps of fit code `code` (no hole), as bits (bit i: the
 * piece's i-th placement, so ascending bits keep placement order): one independent lookup per column, each the
 * placements at that column that fit the three steps from it (src/stacking/placements.ts fitLookup).
 */
@inline function fittingPlacements(cfg: usize, piece: i32, width: i32, code: i32): u64 {
  const masks = <usize>cfgWord(cfg, CFG_FIT) + ((<usize>(piece * width * FIT_WINDOW)) << 3);
  let bits: u64 = 0;
  for (let x: i32 = 0; x < width; x++) {
    bits |= load<u64>(masks + ((<usize>((x << FIT_WINDOW_BITS) | ((code >> (FIT_STEP_BITS * x)) & (FIT_WINDOW - 1)))) << 3));
  }
  return bits;
}

/**
 * Writes the heights after placement `pl` on `h` (fit code `code`) into `out`; false if it would leave a hole
 * (its bottom profile does not match the steps under it) or pass the top of the board.
 */
@inline function place(width: i32, limit: i32, h: usize, code: i32, pl: usize, out: usize): bool {
  if (((code >> load<i32>(word(pl, PL_FIT_SHIFT))) & load<i32>(word(pl, PL_FIT_MASK))) != load<i32>(word(pl, PL_FIT_PATTERN))) return false;
  return placeFitting(width, limit, h, pl, out);
}

/** place() for a placement known to fit: false if it would pass the top of the board. */
@inline function placeFitting(width: i32, limit: i32, h: usize, pl: usize, out: usize): bool {
  const x = load<i32>(word(pl, PL_X));
  const left = load<i32>(word(h, x));
  if (left + load<i32>(word(pl, PL_MAX_TOP)) > limit) return false;
  for (let i: i32 = 0; i < width; i++) store<i32>(word(out, i), load<i32>(word(h, i)));
  const base = left - load<i32>(word(pl, PL_BOT));
  const w = load<i32>(word(pl, PL_WIDTH));
  for (let j: i32 = 0; j < w; j++) store<i32>(word(out, x + j), base + load<i32>(word(pl, PL_TOP + j)));
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

/**
 * Table read of a leaf: its u16 rank in `table`, or (expectimax) the address of its 8-slot row in `rows`. The
 * config words come in as arguments so loops keep them in registers (a load from the config after a store to the
 * context cannot be hoisted).
 */
@inline function leafRaw(strategy: i32, table: usize, rows: usize, index: i32): i32 {
  if (strategy == STRATEGY_RANK) return <i32>load<u16>(table + ((<usize>index) << 1));
  return <i32>rows + (index << 4);
}

/**
 * Expected best rank after one unknown piece, x 65536: the sum over pieces of weight x the best rank after
 * placing that piece (8-slot row at `row`). For an I on which the Tetris rule fires, slot 7 (the surface's own
 * rank: a Tetris leaves the steps as they are) replaces or competes with slot 0.
 */
@inline function expectScore(row: usize, weights: usize, tetris: i32): i64 {
  let forI = <i64>load<u16>(row);
  if (tetris == TETRIS_FORCED) forI = <i64>load<u16>(row + 14);
  else if (tetris == TETRIS_OPTIONAL) forI = max<i64>(forI, <i64>load<u16>(row + 14));
  let score = <i64>load<i32>(weights) * forI;
  for (let p: i32 = 1; p < 7; p++) score += <i64>load<i32>(word(weights, p)) * <i64>load<u16>(row + ((<usize>p) << 1));
  return score;
}

/**
 * Score of a leaf surface from its table read: its rank; (expectimax) expectScore of its row; (two unknown
 * pieces) the score expect2Score already computed, as an unsigned 32-bit number.
 */
@inline function leafValue(strategy: i32, excessFirst: bool, ctx: usize, raw: i32, excess: i32, tetris: i32): i64 {
  let score: i64;
  if (strategy == STRATEGY_RANK) score = (<i64>raw) << RANK_SHIFT;
  else if (strategy == STRATEGY_EXPECT) score = expectScore(<usize>raw, word(ctx, CTX_WEIGHTS), tetris);
  else score = <i64><u32>raw;
  if (!excessFirst) return score;
  const e = excess < EXCESS_CAP ? excess : EXCESS_CAP;
  return (<i64>(EXCESS_CAP - e) << EXCESS_SHIFT) | score;
}

/**
 * Two unknown pieces: the expected best one-unknown-piece score after the first, for the surface of heights `h`.
 * Sum over first pieces p1 (chance w1) of the best over p1's moves of expectScore with the chances of the second
 * piece given p1, scaled by 1/65536 so the result stays below 2^32. A first piece with no move scores 0.
 * Children are listed first and their rows read after, so the reads overlap.
 */
function expect2Score(cfg: usize, ctx: usize, h: usize): u32 {
  const width = cfgWord(cfg, CFG_WIDTH);
  const limit = cfgWord(cfg, CFG_BOARD_HEIGHT);
  const rows = <usize>cfgWord(cfg, CFG_PIECE_MAX);
  const records = <usize>cfgWord(cfg, CFG_PLACEMENTS);
  const weights1 = word(ctx, CTX_WEIGHTS);
  // Children from the parent's step sums, as at the last level (their excess is not needed).
  const code = parentSums(cfg, ctx, h, true);
  const tetrisOnParent = tetrisChoiceOf(cfg, load<i32>(word(ctx, CTX_PRE_MIN + width)), load<i32>(word(ctx, CTX_PRE_MAX + width)));
  let n: i32 = 0;
  for (let p1: i32 = 0; p1 < 7; p1++) {
    store<i32>(word(ctx, CTX_E2_START + p1), n);
    if (load<i32>(word(weights1, p1)) == 0) continue;
    const tetris = p1 == PIECE_I ? tetrisOnParent : TETRIS_NO;
    if (tetris != TETRIS_NO) {
      store<i32>(word(ctx, CTX_E2_INDEX + n), load<i32>(word(ctx, CTX_PRE_INDEX + width - 1)));
      store<i32>(word(ctx, CTX_E2_TETRIS + n), ruleAfterTetris(cfg, ctx));
      n++;
    }
    if (tetris == TETRIS_FORCED) continue;
    const first = load<i32>(word(<usize>cfgWord(cfg, CFG_PIECE_START), p1));
    let fitting = fittingPlacements(cfg, p1, width, code);
    while (fitting != 0) {
      const p = first + <i32>ctz<u64>(fitting);
      fitting &= fitting - 1;
      const child = childSums(cfg, ctx, h, records + ((<usize>(p * PL_WORDS)) << 2), limit, true);
      if (child == CHILD_NONE) continue;
      store<i32>(word(ctx, CTX_E2_INDEX + n), <i32>child);
      store<i32>(word(ctx, CTX_E2_TETRIS + n), <i32>(child >> CHILD_RULE_SHIFT));
      n++;
    }
  }
  // Touch every row first (independent loads), then score them.
  let touched: u32 = 0;
  for (let k: i32 = 0; k < n; k++) touched |= <u32>load<u16>(rows + ((<usize>load<i32>(word(ctx, CTX_E2_INDEX + k))) << 4));
  store<u32>(word(ctx, CTX_SCRATCH), touched); // keeps the touching loads
  let total: u64 = 0;
  for (let p1: i32 = 0; p1 < 7; p1++) {
    const w = load<i32>(word(weights1, p1));
    if (w == 0) continue;
    const end = p1 < 6 ? load<i32>(word(ctx, CTX_E2_START + p1 + 1)) : n;
    const weights2 = word(ctx, CTX_WEIGHTS2 + 8 * p1);
    let best: i64 = 0;
    for (let k = load<i32>(word(ctx, CTX_E2_START + p1)); k < end; k++) {
      const row = rows + ((<usize>load<i32>(word(ctx, CTX_E2_INDEX + k))) << 4);
      best = max<i64>(best, expectScore(row, weights2, load<i32>(word(ctx, CTX_E2_TETRIS + k))));
    }
    total += <u64>w * <u64>(best >> 16);
  }
  return <u32>min<u64>(total, 0xffffffff);
}

/**
 * Score of the surface of heights `h` as a leaf (read at once: used for dead ends only). Overwrites the context's
 * parent sums, so it runs only after a last level has buffered its leaves.
 */
@inline function heightsValue(cfg: usize, ctx: usize, h: usize): i64 {
  parentSums(cfg, ctx, h, false);
  const all = cfgWord(cfg, CFG_WIDTH) - 1;
  const index = load<i32>(word(ctx, CTX_PRE_INDEX + all));
  const excess = load<i32>(word(ctx, CTX_PRE_EXCESS + all));
  const strategy = cfgWord(cfg, CFG_STRATEGY);
  const raw = strategy == STRATEGY_EXPECT2 ? <i32>expect2Score(cfg, ctx, h) : leafRaw(strategy, <usize>cfgWord(cfg, CFG_TABLE), <usize>cfgWord(cfg, CFG_PIECE_MAX), index);
  return leafValue(strategy, cfgWord(cfg, CFG_EXCESS_FIRST) != 0, ctx, raw, excess, tetrisChoice(cfg, h));
}

/**
 * A dead end: the piece at `depth` has no legal placement (moves packed in `path`); the sequence is ranked by how
 * far it got. A sequence that got further (a buffered leaf, or a best one) outranks it whatever its surface, so
 * then nothing is read.
 */
function recordDeadEnd(cfg: usize, ctx: usize, depth: i32, h: usize, path: i64): void {
  if (load<i32>(word(ctx, CTX_LEAF_COUNT)) > 0) return;
  if ((load<i64>(ctx + ((<usize>CTX_BEST_VALUE) << 2)) >> DEPTH_SHIFT) > <i64>depth) return;
  unpackPath(ctx, path, depth);
  recordLeaf(ctx, depth, ((<i64>depth) << DEPTH_SHIFT) | heightsValue(cfg, ctx, h));
}

@inline function addNodes(ctx: usize, count: i32): void {
  const nodesPtr = ctx + ((<usize>CTX_NODES) << 2);
  store<i64>(nodesPtr, load<i64>(nodesPtr) + <i64>count);
}

/** Puts a leaf (surface index, steepness beyond ±S, Tetris rule on it, moves packed in `path`) in slot `k`. */
@inline function bufferLeaf(ctx: usize, k: i32, index: i32, excess: i32, tetris: i32, path: i64): void {
  store<i64>(ctx + ((<usize>(CTX_LEAF_PATH + 2 * k)) << 2), path);
  store<i32>(word(ctx, CTX_LEAF_INDEX + k), index);
  store<i32>(word(ctx, CTX_LEAF_EXCESS + k), excess);
  store<i32>(word(ctx, CTX_LEAF_TETRIS + k), tetris);
}

/** Path byte of a move: placement id + 1, 0 for a Tetris (placement ids stay below 255; checked in TypeScript). */
@inline function pathByte(move: i32, depth: i32): i64 {
  return (<i64>(move + 1)) << (<i64>(depth << 3));
}

/**
 * Scores the buffered leaves (all at depth `leafDepth`) and keeps the best. The table reads go first, in a loop
 * of independent loads, so the processor overlaps their cache misses (reading each leaf when it is found is about
 * half as fast); leaves are then compared in the order they
 * were found, which keeps the first of equal leaves, as a depth-first scan would.
 */
function flushLeaves(cfg: usize, ctx: usize, leafDepth: i32): void {
  const count = load<i32>(word(ctx, CTX_LEAF_COUNT));
  if (count == 0) return;
  store<i32>(word(ctx, CTX_LEAF_COUNT), 0);
  const bestPtr = ctx + ((<usize>CTX_BEST_VALUE) << 2);
  const depthPart = (<i64>leafDepth) << DEPTH_SHIFT;
  let best = load<i64>(bestPtr);
  // excessFirst: a leaf steeper than the least steep one (buffered or best so far) cannot win, so its table
  // read is skipped (it reads surface 0, which stays in cache); its value still compares lower.
  const strategy = cfgWord(cfg, CFG_STRATEGY);
  const excessFirst = cfgWord(cfg, CFG_EXCESS_FIRST) != 0;
  let steepest = i32.MAX_VALUE;
  if (excessFirst) {
    if ((best >> DEPTH_SHIFT) == <i64>leafDepth) steepest = EXCESS_CAP - <i32>((best >> EXCESS_SHIFT) & EXCESS_CAP);
    for (let k: i32 = 0; k < count; k++) steepest = min<i32>(steepest, load<i32>(word(ctx, CTX_LEAF_EXCESS + k)));
  }
  if (strategy == STRATEGY_EXPECT2) {
    // Two unknown pieces: each leaf that can still win is rebuilt from the root along its path and scored.
    const leafHeights = word(ctx, CTX_E2_HEIGHTS);
    const width = cfgWord(cfg, CFG_WIDTH);
    for (let k: i32 = 0; k < count; k++) {
      let raw: i32 = 0;
      if (load<i32>(word(ctx, CTX_LEAF_EXCESS + k)) <= steepest) {
        memory.copy(leafHeights, heightsAt(ctx, 0), (<usize>width) << 2);
        const path = load<i64>(ctx + ((<usize>(CTX_LEAF_PATH + 2 * k)) << 2));
        for (let d: i32 = 0; d < leafDepth; d++) applyMove(cfg, leafHeights, <i32>((path >> (<i64>(d << 3))) & 0xff) - 1, word(ctx, CTX_E2_CHILD));
        raw = <i32>expect2Score(cfg, ctx, leafHeights);
      }
      store<i32>(word(ctx, CTX_LEAF_RAW + k), raw);
    }
  } else {
    const table = <usize>cfgWord(cfg, CFG_TABLE);
    const rows = <usize>cfgWord(cfg, CFG_PIECE_MAX);
    for (let k: i32 = 0; k < count; k++) {
      const index = load<i32>(word(ctx, CTX_LEAF_EXCESS + k)) <= steepest ? load<i32>(word(ctx, CTX_LEAF_INDEX + k)) : 0;
      store<i32>(word(ctx, CTX_LEAF_RAW + k), leafRaw(strategy, table, rows, index));
    }
  }
  for (let k: i32 = 0; k < count; k++) {
    const v =
      depthPart |
      leafValue(strategy, excessFirst, ctx, load<i32>(word(ctx, CTX_LEAF_RAW + k)), load<i32>(word(ctx, CTX_LEAF_EXCESS + k)), load<i32>(word(ctx, CTX_LEAF_TETRIS + k)));
    if (v > best) {
      best = v;
      const path = load<i64>(ctx + ((<usize>(CTX_LEAF_PATH + 2 * k)) << 2));
      for (let d: i32 = 0; d < leafDepth; d++) store<i32>(word(ctx, CTX_BEST_PATH + d), <i32>((path >> (<i64>(d << 3))) & 0xff) - 1);
      store<i32>(word(ctx, CTX_BEST_LEN), leafDepth);
    }
  }
  store<i64>(bestPtr, best);
}

/**
 * Step sums of a parent with heights `h`, from which each child's surface index, excess and Tetris rule follow in
 * a few operations (childSums): prefix sums of the index shares and excess of steps 0..i-1 (CTX_PRE_INDEX,
 * CTX_PRE_EXCESS; entry W-1 is the parent's own index and excess), and with `withMinMax` the min and max of heights
 * 0..i-1 and i..W-1. Returns the parent's fit code.
 */
@inline function parentSums(cfg: usize, ctx: usize, h: usize, withMinMax: bool): i32 {
  const width = cfgWord(cfg, CFG_WIDTH);
  const steps = <usize>cfgWord(cfg, CFG_STEPS);
  const preIndex = word(ctx, CTX_PRE_INDEX);
  const preExcess = word(ctx, CTX_PRE_EXCESS);
  let code: i32 = 0;
  let index: i32 = 0;
  let excess: i32 = 0;
  store<i32>(preIndex, 0);
  store<i32>(preExcess, 0);
  let prev = load<i32>(h);
  for (let i: i32 = 1; i < width; i++) {
    const cur = load<i32>(word(h, i));
    const d = cur - prev;
    prev = cur;
    const info = stepInfo(steps, d);
    code |= (info & ((1 << FIT_STEP_BITS) - 1)) << (FIT_STEP_BITS * (i - 1));
    index += stepShare(steps, i - 1, d);
    excess += info >> FIT_STEP_BITS;
    store<i32>(word(preIndex, i), index);
    store<i32>(word(preExcess, i), excess);
  }
  if (withMinMax) {
    const preMin = word(ctx, CTX_PRE_MIN);
    const preMax = word(ctx, CTX_PRE_MAX);
    const sufMin = word(ctx, CTX_SUF_MIN);
    const sufMax = word(ctx, CTX_SUF_MAX);
    let lo = i32.MAX_VALUE;
    let hi = i32.MIN_VALUE;
    for (let i: i32 = 0; i < width; i++) {
      store<i32>(word(preMin, i), lo);
      store<i32>(word(preMax, i), hi);
      const v = load<i32>(word(h, i));
      lo = min<i32>(lo, v);
      hi = max<i32>(hi, v);
    }
    store<i32>(word(preMin, width), lo);
    store<i32>(word(preMax, width), hi);
    lo = i32.MAX_VALUE;
    hi = i32.MIN_VALUE;
    store<i32>(word(sufMin, width), lo);
    store<i32>(word(sufMax, width), hi);
    for (let i: i32 = width - 1; i >= 0; i--) {
      const v = load<i32>(word(h, i));
      lo = min<i32>(lo, v);
      hi = max<i32>(hi, v);
      store<i32>(word(sufMin, i), lo);
      store<i32>(word(sufMax, i), hi);
    }
  }
  return code;
}

/** childSums' answer when the placement would pass the top of the board. */
const CHILD_NONE: i64 = -1;
const CHILD_EXCESS_SHIFT: i64 = 32;
const CHILD_RULE_SHIFT: i64 = 48;

/**
 * The surface placement `pl` leaves on the parent `h` (whose parentSums are in the context): a placement changes
 * only the steps at its own columns (fixed by the piece: PL_INNER_*) and the two beside them. Packed as
 * index | excess << 32 | Tetris rule on it << 48 (the rule only `withRule`, else TETRIS_NO), or CHILD_NONE.
 */
@inline function childSums(cfg: usize, ctx: usize, h: usize, pl: usize, limit: i32, withRule: bool): i64 {
  const width = cfgWord(cfg, CFG_WIDTH);
  const steps = <usize>cfgWord(cfg, CFG_STEPS);
  const preIndex = word(ctx, CTX_PRE_INDEX);
  const preExcess = word(ctx, CTX_PRE_EXCESS);
  const x = load<i32>(word(pl, PL_X));
  const left = load<i32>(word(h, x));
  if (left + load<i32>(word(pl, PL_MAX_TOP)) > limit) return CHILD_NONE;
  const w = load<i32>(word(pl, PL_WIDTH));
  const base = left - load<i32>(word(pl, PL_BOT));
  // Steps firstStep..lastStep change: the piece's inner steps and the ones beside it.
  const firstStep = x > 0 ? x - 1 : x;
  const lastStep = x + w < width ? x + w - 1 : x + w - 2;
  const all = width - 1;
  let excess = load<i32>(word(preExcess, all)) - (load<i32>(word(preExcess, lastStep + 1)) - load<i32>(word(preExcess, firstStep))) + load<i32>(word(pl, PL_INNER_EXCESS));
  let index = load<i32>(word(preIndex, all)) - (load<i32>(word(preIndex, lastStep + 1)) - load<i32>(word(preIndex, firstStep))) + load<i32>(word(pl, PL_INNER_INDEX));
  if (x > 0) {
    const d = base + load<i32>(word(pl, PL_TOP)) - load<i32>(word(h, x - 1));
    index += stepShare(steps, x - 1, d);
    excess += stepInfo(steps, d) >> FIT_STEP_BITS;
  }
  if (x + w < width) {
    const d = load<i32>(word(h, x + w)) - base - load<i32>(word(pl, PL_TOP + w - 1));
    index += stepShare(steps, x + w - 1, d);
    excess += stepInfo(steps, d) >> FIT_STEP_BITS;
  }
  let rule = TETRIS_NO;
  if (withRule) {
    if (excess > 0 && cfgWord(cfg, CFG_COLLAPSE) != 0) {
      // A collapsing child's highest column is only known from its collapsed heights (its lowest stays).
      const child = word(ctx, CTX_E2_CHILD);
      placeFitting(width, i32.MAX_VALUE, h, pl, child);
      collapseSteps(cfg, child);
      rule = tetrisChoice(cfg, child);
    } else {
      const low = min<i32>(min<i32>(load<i32>(word(ctx, CTX_PRE_MIN + x)), load<i32>(word(ctx, CTX_SUF_MIN + x + w))), left + load<i32>(word(pl, PL_MIN_TOP)));
      const high = max<i32>(max<i32>(load<i32>(word(ctx, CTX_PRE_MAX + x)), load<i32>(word(ctx, CTX_SUF_MAX + x + w))), left + load<i32>(word(pl, PL_MAX_TOP)));
      rule = tetrisChoiceOf(cfg, low, high);
    }
  }
  return <i64><u32>index | ((<i64>excess) << CHILD_EXCESS_SHIFT) | ((<i64>rule) << CHILD_RULE_SHIFT);
}

/** The Tetris rule on the parent of parentSums(withMinMax) after a Tetris (every height 4 lower). */
@inline function ruleAfterTetris(cfg: usize, ctx: usize): i32 {
  const width = cfgWord(cfg, CFG_WIDTH);
  return tetrisChoiceOf(cfg, load<i32>(word(ctx, CTX_PRE_MIN + width)) - TETRIS_ROWS, load<i32>(word(ctx, CTX_PRE_MAX + width)) - TETRIS_ROWS);
}

/** The last piece of the window: every placement is a leaf, buffered for flushLeaves with its childSums. */
function lastLevel(cfg: usize, ctx: usize, queue: usize, depth: i32, h: usize, path: i64): void {
  if (load<i32>(word(ctx, CTX_LEAF_COUNT)) > LEAF_FLUSH_AT) flushLeaves(cfg, ctx, depth + 1);
  const buffered = load<i32>(word(ctx, CTX_LEAF_COUNT));
  const piece = <i32>load<u8>(queue + <usize>depth);
  // Only one-unknown-piece leaves read the Tetris rule on the leaf (expect2Score works it out per child).
  const expect = cfgWord(cfg, CFG_STRATEGY) == STRATEGY_EXPECT;
  const width = cfgWord(cfg, CFG_WIDTH);
  const code = parentSums(cfg, ctx, h, expect);

  let count: i32 = 0;
  const tetris = piece == PIECE_I ? tetrisChoice(cfg, h) : TETRIS_NO;
  if (tetris != TETRIS_NO) {
    // A Tetris lowers every column by 4: the steps, so the index and excess, stay.
    const index = load<i32>(word(ctx, CTX_PRE_INDEX + width - 1));
    const excess = load<i32>(word(ctx, CTX_PRE_EXCESS + width - 1));
    bufferLeaf(ctx, buffered, index, excess, expect ? ruleAfterTetris(cfg, ctx) : TETRIS_NO, path | pathByte(MOVE_TETRIS, depth));
    count = 1;
  }
  if (tetris != TETRIS_FORCED) {
    const limit = cfgWord(cfg, CFG_BOARD_HEIGHT);
    const first = load<i32>(word(<usize>cfgWord(cfg, CFG_PIECE_START), piece));
    const records = <usize>cfgWord(cfg, CFG_PLACEMENTS);
    let fitting = fittingPlacements(cfg, piece, width, code);
    while (fitting != 0) {
      const p = first + <i32>ctz<u64>(fitting);
      fitting &= fitting - 1;
      const child = childSums(cfg, ctx, h, records + ((<usize>(p * PL_WORDS)) << 2), limit, expect);
      if (child == CHILD_NONE) continue;
      const index = <i32>child;
      const excess = <i32>((child >> CHILD_EXCESS_SHIFT) & 0xffff);
      bufferLeaf(ctx, buffered + count, index, excess, <i32>(child >> CHILD_RULE_SHIFT), path | pathByte(p, depth));
      count++;
    }
  }
  store<i32>(word(ctx, CTX_LEAF_COUNT), buffered + count);
  addNodes(ctx, count);
  if (count == 0) {
    recordDeadEnd(cfg, ctx, depth, h, path);
  }
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
  const slot = <i32>(hash >> (64 - <u64>MEMO_SLOT_BITS));
  return word(ctx, CTX_MEMO + slot * MEMO_WORDS);
}

/**
 * Visits every state reachable from depth `depth` (heights at heightsAt(depth), reached by the moves in `path`).
 * The search only needs the best leaf, so a state already visited at the same depth (different orders of
 * commuting placements) is skipped: its leaves were seen at its first visit, which comes first in scan order and
 * so also wins ties. The memo is a lossy cache; a missed duplicate is only scanned twice.
 */
function searchFrom(cfg: usize, ctx: usize, queue: usize, depth: i32, last: i32, path: i64): void {
  const h = heightsAt(ctx, depth);
  addNodes(ctx, 1);
  if (depth >= 2) {
    const key = stateKey(cfg, h, depth);
    const tagged = key | ((<i64>(load<i32>(word(ctx, CTX_GENERATION)) & MEMO_TAG_MASK)) << MEMO_KEY_BITS);
    const slot = memoSlot(ctx, key);
    if (load<i64>(slot) == tagged) return;
    store<i64>(slot, tagged);
  }
  if (depth == last) {
    lastLevel(cfg, ctx, queue, depth, h, path);
    return;
  }

  const piece = <i32>load<u8>(queue + <usize>depth);
  const next = heightsAt(ctx, depth + 1);
  const tetris = piece == PIECE_I ? tetrisChoice(cfg, h) : TETRIS_NO;
  if (tetris != TETRIS_NO) {
    dropTetris(cfg, h, next);
    searchFrom(cfg, ctx, queue, depth + 1, last, path | pathByte(MOVE_TETRIS, depth));
  }
  if (tetris != TETRIS_FORCED) {
    const width = cfgWord(cfg, CFG_WIDTH);
    const limit = cfgWord(cfg, CFG_BOARD_HEIGHT);
    const first = load<i32>(word(<usize>cfgWord(cfg, CFG_PIECE_START), piece));
    const collapse = cfgWord(cfg, CFG_COLLAPSE) != 0;
    let fitting = fittingPlacements(cfg, piece, width, fitCode(cfg, h));
    let placed = false;
    while (fitting != 0) {
      const p = first + <i32>ctz<u64>(fitting);
      fitting &= fitting - 1;
      if (!placeFitting(width, limit, h, placementAt(cfg, p), next)) continue;
      if (collapse) collapseSteps(cfg, next);
      placed = true;
      searchFrom(cfg, ctx, queue, depth + 1, last, path | pathByte(p, depth));
    }
    if (!placed && tetris == TETRIS_NO) {
      // The piece has no legal placement: the sequence dies here, ranked by how far it got.
      recordDeadEnd(cfg, ctx, depth, h, path);
    }
  }
}

/** Writes the first `depth` moves packed in `path` into the context's current path. */
@inline function unpackPath(ctx: usize, path: i64, depth: i32): void {
  for (let d: i32 = 0; d < depth; d++) store<i32>(word(ctx, CTX_PATH + d), <i32>((path >> (<i64>(d << 3))) & 0xff) - 1);
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
  let generation = load<i32>(word(ctx, CTX_GENERATION)) + 1;
  if ((generation & MEMO_TAG_MASK) == 0) {
    // The tag wrapped: entries of 128 searches ago would look current. Tag 0 is never used (a zeroed slot).
    memory.fill(word(ctx, CTX_MEMO), 0, (<usize>(MEMO_SLOTS * MEMO_WORDS)) << 2);
    generation++;
  }
  store<i32>(word(ctx, CTX_GENERATION), generation);
  store<i32>(word(ctx, CTX_LEAF_COUNT), 0);
  searchFrom(cfg, ctx, queue, 0, lookahead, 0);
  flushLeaves(cfg, ctx, lookahead + 1);
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
const WEIGHT_WORDS_EXPECT: i32 = 8; //   weights per buffered piece (src/stacking/layout.ts WEIGHT_WORDS)
const WEIGHT_WORDS_EXPECT2: i32 = 64;
const G_WEIGHTS: i32 = 26; //      ptr to i32[8] per buffered piece: its chances before it was dealt (x 65536);
//                                 two unknown pieces: i32[64], then for each piece p1 the next one's chances given p1
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
  const width = cfgWord(cfg, CFG_WIDTH);
  if (place(width, cfgWord(cfg, CFG_BOARD_HEIGHT), h, fitCode(cfg, h), placementAt(cfg, move), scratch)) {
    memory.copy(h, scratch, (<usize>width) << 2);
    if (cfgWord(cfg, CFG_COLLAPSE) != 0) collapseSteps(cfg, h);
  }
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
    const strategy = cfgWord(cfg, CFG_STRATEGY);
    if (strategy != STRATEGY_RANK) {
      // The chances of the first unknown piece (and, for two, of the second given the first): WEIGHT_WORDS[...]
      // words per buffered piece, copied to the context's CTX_WEIGHTS (and CTX_WEIGHTS2, which follows it).
      const words = strategy == STRATEGY_EXPECT2 ? WEIGHT_WORDS_EXPECT2 : WEIGHT_WORDS_EXPECT;
      const weights = <usize>load<i32>(word(game, G_WEIGHTS));
      memory.copy(word(ctx, CTX_WEIGHTS), weights + ((<usize>((position + lookahead + 1) * words)) << 2), (<usize>words) << 2);
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
