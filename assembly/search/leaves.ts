// Search kernel: leaves and their values. The last level's leaves wait in the context's leaf buffer and are
// scored in batches (their table reads overlap); a leaf's value is its table read (rank, or expectimax over the
// unknown pieces), after its depth and, under excessFirst, its steepness beyond ±S. Dead ends and the best
// sequence found so far are kept here too.
import {
  CFG_BOARD_HEIGHT, CFG_EXCESS_FIRST, CFG_PIECE_MAX, CFG_PIECE_START, CFG_PLACEMENTS, CFG_ROWS_FOLD, CFG_STRATEGY,
  CFG_TABLE, CFG_WELL_COMBOS, CFG_WELL_FACTOR, CFG_WELL_WINDOW, CFG_WIDTH, CTX_BEST_LEN, CTX_BEST_PATH, CTX_BEST_VALUE,
  CTX_E2_CHILD, CTX_E2_HEIGHTS, CTX_E2_INDEX, CTX_E2_START,
  CTX_E2_TETRIS, CTX_LEAF_COUNT, CTX_LEAF_EXCESS, CTX_LEAF_INDEX, CTX_LEAF_PATH, CTX_LEAF_RAW, CTX_LEAF_TETRIS,
  CTX_NODES, CTX_PATH, CTX_PRE_EXCESS, CTX_PRE_INDEX, CTX_PRE_MAX, CTX_PRE_MIN, CTX_SCRATCH, CTX_WEIGHTS,
  CTX_WEIGHTS2, CTX_WEIGHTS_MIRROR, FOLD_LOW_BITS, FOLD_MIDDLE, FOLD_MIDDLE_BITS, FOLD_MIRROR_SLOT, LEAF_ROW_SHIFT,
  LEAF_ROW_SLOTS, LEAF_SLOT_AFTER_TETRIS, PL_WORDS, STRATEGY_EXPECT, STRATEGY_EXPECT2, STRATEGY_RANK, VALUE_DEPTH_SHIFT, VALUE_EXCESS_SHIFT,
  VALUE_RANK_SHIFT,
} from './layout';
import { cfgWord, heightsAt, word } from './records';
import { PIECE_I, TETRIS_FORCED, TETRIS_NO, TETRIS_OPTIONAL, applyMove, fittingPlacements, tetrisChoice, tetrisChoiceOf } from './rules';
import { CHILD_NONE, CHILD_RULE_SHIFT, childSums, parentSums, ruleAfterTetris } from './sums';

// The value layout (assembly/search/layout.ts VALUE_*), as i64 shifts.
export const DEPTH_SHIFT: i64 = VALUE_DEPTH_SHIFT;
const EXCESS_SHIFT: i64 = VALUE_EXCESS_SHIFT;
const RANK_SHIFT: i64 = VALUE_RANK_SHIFT;
const EXCESS_CAP: i32 = 0xffff;

export function recordLeaf(ctx: usize, depth: i32, value: i64): void {
  const bestPtr = ctx + ((<usize>CTX_BEST_VALUE) << 2);
  if (value > load<i64>(bestPtr)) {
    store<i64>(bestPtr, value);
    store<i32>(word(ctx, CTX_BEST_LEN), depth);
    memory.copy(word(ctx, CTX_BEST_PATH), word(ctx, CTX_PATH), (<usize>depth) << 2);
  }
}

/** A leaf row reference's bit saying the row is stored as its mirror image's (row addresses are 16-aligned). */
const ROW_MIRRORED: i32 = 1;
const ROW_ADDRESS: i32 = ~((1 << LEAF_ROW_SHIFT) - 1);

/**
 * The row of surface `index`: its address | ROW_MIRRORED when the surface reads its mirror image's row (slots
 * mirrored). `fold` is the fold block (layout.ts FOLD_*), or 0 for one row per surface; with a fold block, `index`
 * is the surface's mirror-pair index (its fields a, c, b), so the row is found without a division or a look-up.
 */
@inline export function leafRow(rows: usize, fold: usize, index: i32): i32 {
  if (fold == 0) return <i32>rows + (index << LEAF_ROW_SHIFT);
  const middle = <u32>load<i32>(word(fold, FOLD_MIDDLE));
  const lowBits = <u32>load<i32>(word(fold, FOLD_LOW_BITS));
  const middleBits = <u32>load<i32>(word(fold, FOLD_MIDDLE_BITS));
  const key = <u32>index;
  const b = key & ((1 << lowBits) - 1);
  const c = (key >> lowBits) & ((1 << middleBits) - 1);
  const a = key >> (lowBits + middleBits);
  const cMirror = middle - 1 - c;
  // Whether the surface is its pair's representative is as good as random: selects, not branches.
  const direct = <u32>(a < b) | (<u32>(a == b) & <u32>(c <= cMirror));
  const low = select<u32>(a, b, direct);
  const high = select<u32>(b, a, direct);
  const slot = (((high * (high + 1)) >> 1) + low) * middle + select<u32>(c, cMirror, direct);
  return <i32>(rows + (slot << LEAF_ROW_SHIFT)) | <i32>(direct ^ 1);
}

/**
 * Folded rows: the context's weights (CTX_WEIGHTS and CTX_WEIGHTS2, 8-word blocks) with each block's slots
 * mirrored, so a mirrored row is scored as sum over slots k of weight[mirror k] x stored[k]. Run when the weights
 * change (each search).
 */
export function mirrorWeights(cfg: usize, ctx: usize): void {
  const fold = <usize>cfgWord(cfg, CFG_ROWS_FOLD);
  if (fold == 0) return;
  // One block for one unknown piece; CTX_WEIGHTS2's seven more for two.
  const blocks: i32 = cfgWord(cfg, CFG_STRATEGY) == STRATEGY_EXPECT2 ? 8 : 1;
  for (let block: i32 = 0; block < blocks; block++) {
    for (let k: i32 = 0; k < LEAF_ROW_SLOTS; k++) {
      const from = load<i32>(word(fold, FOLD_MIRROR_SLOT + k));
      store<i32>(word(ctx, CTX_WEIGHTS_MIRROR + block * 8 + k), load<i32>(word(ctx, CTX_WEIGHTS + block * 8 + from)));
    }
  }
}

/**
 * Table read of a leaf: its u16 rank in `table`, or (expectimax) its leafRow in `rows`. The config words come in
 * as arguments so loops keep them in registers (a load from the config after a store to the context cannot be
 * hoisted).
 */
@inline export function leafRaw(strategy: i32, table: usize, rows: usize, fold: usize, index: i32): i32 {
  if (strategy == STRATEGY_RANK) return <i32>load<u16>(table + ((<usize>index) << 1));
  return leafRow(rows, fold, index);
}

/** The weights of a leafRow: `weights` (a block of CTX_WEIGHTS or CTX_WEIGHTS2) or their mirror image. */
@inline function rowWeights(ctx: usize, weights: usize, row: i32): usize {
  return select<usize>(weights + ((<usize>(CTX_WEIGHTS_MIRROR - CTX_WEIGHTS)) << 2), weights, (row & ROW_MIRRORED) != 0);
}

/**
 * Expected best rank after one unknown piece, x 65536: the sum over pieces of weight x the best rank after
 * placing that piece (8-slot row at `row`). For an I on which the Tetris rule fires, slot 7 (the surface's own
 * rank: a Tetris leaves the steps as they are) replaces or competes with slot 0.
 */
@inline export function expectScore(row: usize, weights: usize, tetris: i32): i64 {
  let forI = <i64>load<u16>(row);
  const afterTetris = row + ((<usize>LEAF_SLOT_AFTER_TETRIS) << 1);
  if (tetris == TETRIS_FORCED) forI = <i64>load<u16>(afterTetris);
  else if (tetris == TETRIS_OPTIONAL) forI = max<i64>(forI, <i64>load<u16>(afterTetris));
  let score = <i64>load<i32>(weights) * forI;
  for (let p: i32 = 1; p < 7; p++) score += <i64>load<i32>(word(weights, p)) * <i64>load<u16>(row + ((<usize>p) << 1));
  return score;
}

/**
 * Score of a leaf surface (`index`) from its table read: its rank; (expectimax) expectScore of its row; (two unknown
 * pieces) the score expect2Score already computed, as an unsigned 32-bit number; times CFG_WELL_FACTOR / 65536
 * where the surface keeps a 20G I from the well (CFG_WELL_WINDOW; TetrisAI's stack mode at 20G, docs/game.md).
 */
@inline export function leafValue(
  cfg: usize, strategy: i32, excessFirst: bool, ctx: usize, raw: i32, excess: i32, tetris: i32, index: i32,
): i64 {
  let score: i64;
  if (strategy == STRATEGY_RANK) score = (<i64>raw) << RANK_SHIFT;
  else if (strategy == STRATEGY_EXPECT) score = expectScore(<usize>(raw & ROW_ADDRESS), rowWeights(ctx, word(ctx, CTX_WEIGHTS), raw), tetris);
  else score = <i64><u32>raw;
  const window = <usize>cfgWord(cfg, CFG_WELL_WINDOW);
  if (window != 0 && load<u8>(window + <usize>(index % cfgWord(cfg, CFG_WELL_COMBOS))) == 0)
    score = (score * <i64>cfgWord(cfg, CFG_WELL_FACTOR)) >> 16;
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
export function expect2Score(cfg: usize, ctx: usize, h: usize): u32 {
  const width = cfgWord(cfg, CFG_WIDTH);
  const limit = cfgWord(cfg, CFG_BOARD_HEIGHT);
  const rows = <usize>cfgWord(cfg, CFG_PIECE_MAX);
  const fold = <usize>cfgWord(cfg, CFG_ROWS_FOLD);
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
  // Find every row, touch them all (independent loads in a tight loop, so many are in flight), then score them.
  for (let k: i32 = 0; k < n; k++) store<i32>(word(ctx, CTX_E2_INDEX + k), leafRow(rows, fold, load<i32>(word(ctx, CTX_E2_INDEX + k))));
  let touched: u32 = 0;
  for (let k: i32 = 0; k < n; k++) touched |= <u32>load<u16>(<usize>(load<i32>(word(ctx, CTX_E2_INDEX + k)) & ROW_ADDRESS));
  store<u32>(word(ctx, CTX_SCRATCH), touched); // keeps the touching loads
  let total: u64 = 0;
  for (let p1: i32 = 0; p1 < 7; p1++) {
    const w = load<i32>(word(weights1, p1));
    if (w == 0) continue;
    const end = p1 < 6 ? load<i32>(word(ctx, CTX_E2_START + p1 + 1)) : n;
    const weights2 = word(ctx, CTX_WEIGHTS2 + 8 * p1);
    let best: i64 = 0;
    for (let k = load<i32>(word(ctx, CTX_E2_START + p1)); k < end; k++) {
      const row = load<i32>(word(ctx, CTX_E2_INDEX + k));
      best = max<i64>(best, expectScore(<usize>(row & ROW_ADDRESS), rowWeights(ctx, weights2, row), load<i32>(word(ctx, CTX_E2_TETRIS + k))));
    }
    total += <u64>w * <u64>(best >> 16);
  }
  return <u32>min<u64>(total, 0xffffffff);
}

/**
 * Score of the surface of heights `h` as a leaf (read at once: used for dead ends only). Overwrites the context's
 * parent sums, so it runs only after a last level has buffered its leaves.
 */
@inline export function heightsValue(cfg: usize, ctx: usize, h: usize): i64 {
  parentSums(cfg, ctx, h, false);
  const all = cfgWord(cfg, CFG_WIDTH) - 1;
  const index = load<i32>(word(ctx, CTX_PRE_INDEX + all));
  const excess = load<i32>(word(ctx, CTX_PRE_EXCESS + all));
  const strategy = cfgWord(cfg, CFG_STRATEGY);
  const raw = strategy == STRATEGY_EXPECT2 ? <i32>expect2Score(cfg, ctx, h) : leafRaw(strategy, <usize>cfgWord(cfg, CFG_TABLE), <usize>cfgWord(cfg, CFG_PIECE_MAX), <usize>cfgWord(cfg, CFG_ROWS_FOLD), index);
  return leafValue(cfg, strategy, cfgWord(cfg, CFG_EXCESS_FIRST) != 0, ctx, raw, excess, tetrisChoice(cfg, h), index);
}

/**
 * A dead end: the piece at `depth` has no legal placement (moves packed in `path`); the sequence is ranked by how
 * far it got. A sequence that got further (a buffered leaf, or a best one) outranks it whatever its surface, so
 * then nothing is read.
 */
export function recordDeadEnd(cfg: usize, ctx: usize, depth: i32, h: usize, path: i64): void {
  if (load<i32>(word(ctx, CTX_LEAF_COUNT)) > 0) return;
  if ((load<i64>(ctx + ((<usize>CTX_BEST_VALUE) << 2)) >> DEPTH_SHIFT) > <i64>depth) return;
  unpackPath(ctx, path, depth);
  recordLeaf(ctx, depth, ((<i64>depth) << DEPTH_SHIFT) | heightsValue(cfg, ctx, h));
}

@inline export function addNodes(ctx: usize, count: i32): void {
  const nodesPtr = ctx + ((<usize>CTX_NODES) << 2);
  store<i64>(nodesPtr, load<i64>(nodesPtr) + <i64>count);
}

/** Puts a leaf (surface index, steepness beyond ±S, Tetris rule on it, moves packed in `path`) in slot `k`. */
@inline export function bufferLeaf(ctx: usize, k: i32, index: i32, excess: i32, tetris: i32, path: i64): void {
  store<i64>(ctx + ((<usize>(CTX_LEAF_PATH + 2 * k)) << 2), path);
  store<i32>(word(ctx, CTX_LEAF_INDEX + k), index);
  store<i32>(word(ctx, CTX_LEAF_EXCESS + k), excess);
  store<i32>(word(ctx, CTX_LEAF_TETRIS + k), tetris);
}

/** Path byte of a move: placement id + 1, 0 for a Tetris (placement ids stay below 255; checked in TypeScript). */
@inline export function pathByte(move: i32, depth: i32): i64 {
  return (<i64>(move + 1)) << (<i64>(depth << 3));
}

/**
 * Scores the buffered leaves (all at depth `leafDepth`) and keeps the best. The table reads go first, in a loop
 * of independent loads, so the processor overlaps their cache misses (reading each leaf when it is found is about
 * half as fast); leaves are then compared in the order they
 * were found, which keeps the first of equal leaves, as a depth-first scan would.
 */
export function flushLeaves(cfg: usize, ctx: usize, leafDepth: i32): void {
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
    const fold = <usize>cfgWord(cfg, CFG_ROWS_FOLD);
    for (let k: i32 = 0; k < count; k++) {
      const index = load<i32>(word(ctx, CTX_LEAF_EXCESS + k)) <= steepest ? load<i32>(word(ctx, CTX_LEAF_INDEX + k)) : 0;
      store<i32>(word(ctx, CTX_LEAF_RAW + k), leafRaw(strategy, table, rows, fold, index));
    }
  }
  for (let k: i32 = 0; k < count; k++) {
    const v =
      depthPart |
      leafValue(
        cfg, strategy, excessFirst, ctx, load<i32>(word(ctx, CTX_LEAF_RAW + k)),
        load<i32>(word(ctx, CTX_LEAF_EXCESS + k)), load<i32>(word(ctx, CTX_LEAF_TETRIS + k)),
        load<i32>(word(ctx, CTX_LEAF_INDEX + k)),
      );
    if (v > best) {
      best = v;
      const path = load<i64>(ctx + ((<usize>(CTX_LEAF_PATH + 2 * k)) << 2));
      for (let d: i32 = 0; d < leafDepth; d++) store<i32>(word(ctx, CTX_BEST_PATH + d), <i32>((path >> (<i64>(d << 3))) & 0xff) - 1);
      store<i32>(word(ctx, CTX_BEST_LEN), leafDepth);
    }
  }
  store<i64>(bestPtr, best);
}

/** Writes the first `depth` moves packed in `path` into the context's current path. */
@inline export function unpackPath(ctx: usize, path: i64, depth: i32): void {
  for (let d: i32 = 0; d < depth; d++) store<i32>(word(ctx, CTX_PATH + d), <i32>((path >> (<i64>(d << 3))) & 0xff) - 1);
}

