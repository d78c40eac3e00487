// Search kernel: the search tree. A depth-first visit of every sequence of placements of the known pieces, with a
// memo of visited states (transpositions), ending in lastLevel, which buffers the leaves for assembly/search/leaves.ts.
import {
  CFG_BOARD_HEIGHT, CFG_COLLAPSE, CFG_PIECE_START, CFG_PLACEMENTS, CFG_STRATEGY, CFG_WIDTH, CTX_BEST_LEN,
  CTX_BEST_PATH, CTX_BEST_VALUE, CTX_GENERATION, CTX_HOLD, CTX_HOLD_FROM, CTX_LEAF_COUNT, CTX_MEMO, CTX_PRE_EXCESS,
  CTX_PRE_INDEX, CTX_QUEUE_LENGTH, HOLD_EMPTY, HOLD_NONE, LEAF_CAP, MEMO_SLOTS, MEMO_SLOT_BITS, MEMO_WORDS, MOVE_NONE,
  MOVE_TETRIS, PL_WORDS, STRATEGY_EXPECT, STRATEGY_RANK,
} from './layout';
import { addNodes, bufferLeaf, flushLeaves, mirrorWeights, pathByte, recordDeadEnd } from './leaves';
import { cfgWord, heightsAt, placementAt, word } from './records';
import { PIECE_I, TETRIS_FORCED, TETRIS_NO, collapseSteps, dropTetris, fitCode, fittingPlacements, placeFitting, reachablePlacements, tetrisChoiceReached } from './rules';
import { CHILD_EXCESS_SHIFT, CHILD_NONE, CHILD_RULE_SHIFT, childSums, parentSums, ruleAfterTetris } from './sums';

const LEAF_FLUSH_AT: i32 = LEAF_CAP - 64; //  flush before a parent whose leaves might not fit
// A memo slot holds a state's key tagged with the search's generation (7 bits, MEMO_TAG_MASK, above the key's 57),
// so a new search finds older entries stale without clearing; the memo is cleared when the tag wraps.
const MEMO_KEY_BITS: i64 = 57; //             depth (3 bits) and 9 heights of 6 bits (src/surface.ts MAX_WIDTH)
const MEMO_TAG_MASK: i32 = 127; //            64 - MEMO_KEY_BITS bits

/** The last piece of the window (`piece`): every placement is a leaf, buffered for flushLeaves with its childSums. */
@inline function lastLevel(cfg: usize, ctx: usize, piece: i32, depth: i32, h: usize, path: i64): void {
  if (load<i32>(word(ctx, CTX_LEAF_COUNT)) > LEAF_FLUSH_AT) flushLeaves(cfg, ctx, depth + 1);
  const buffered = load<i32>(word(ctx, CTX_LEAF_COUNT));
  // Only one-unknown-piece leaves read the Tetris rule on the leaf (expect2Score works it out per child).
  const expect = cfgWord(cfg, CFG_STRATEGY) == STRATEGY_EXPECT;
  const width = cfgWord(cfg, CFG_WIDTH);
  const code = parentSums(cfg, ctx, h, expect);

  let count: i32 = 0;
  const tetris = piece == PIECE_I ? tetrisChoiceReached(cfg, h) : TETRIS_NO;
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
    let fitting = reachablePlacements(cfg, piece, h, fittingPlacements(cfg, piece, width, code));
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
    lastLevel(cfg, ctx, <i32>load<u8>(queue + <usize>depth), depth, h, path);
    return;
  }

  const piece = <i32>load<u8>(queue + <usize>depth);
  const next = heightsAt(ctx, depth + 1);
  const tetris = piece == PIECE_I ? tetrisChoiceReached(cfg, h) : TETRIS_NO;
  if (tetris != TETRIS_NO) {
    dropTetris(cfg, h, next);
    searchFrom(cfg, ctx, queue, depth + 1, last, path | pathByte(MOVE_TETRIS, depth));
  }
  if (tetris != TETRIS_FORCED) {
    const width = cfgWord(cfg, CFG_WIDTH);
    const limit = cfgWord(cfg, CFG_BOARD_HEIGHT);
    const first = load<i32>(word(<usize>cfgWord(cfg, CFG_PIECE_START), piece));
    const collapse = cfgWord(cfg, CFG_COLLAPSE) != 0;
    let fitting = reachablePlacements(cfg, piece, h, fittingPlacements(cfg, piece, width, fitCode(cfg, h)));
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

// ---- hold at every ply (rule sets with hold) ----
// A state is its heights, its depth, which queue piece is the current one (`index`: the depth, or one more once a
// piece went into an empty box) and the hold box (`held`: HOLD_NONE where hold can no longer be used, HOLD_EMPTY, or
// the piece + 1). Each ply places the current piece, or presses hold: the held piece is placed and the current one
// held, or into an empty box the current one goes and the piece after it is placed. Past the queue's end only the
// held piece can still be placed (hold brings in a piece no one has seen, which the search cannot use).

/** Memo key of a state with a hold box: stateKey's, then the box (4 bits) and whether a piece went into an empty box. */
@inline function heldKey(cfg: usize, h: usize, depth: i32, index: i32, held: i32): i64 {
  return (stateKey(cfg, h, depth) << 5) | ((<i64>held) << 1) | <i64>(index - depth);
}

/** searchFrom with a hold box. The memo holds exact keys (cleared before and after each such search). */
function searchHeld(cfg: usize, ctx: usize, queue: usize, depth: i32, last: i32, path: i64, index: i32, held: i32): void {
  const h = heightsAt(ctx, depth);
  addNodes(ctx, 1);
  if (depth >= 2) {
    const key = heldKey(cfg, h, depth, index, held);
    const slot = memoSlot(ctx, key);
    if (load<i64>(slot) == key) return;
    store<i64>(slot, key);
  }
  const length = load<i32>(word(ctx, CTX_QUEUE_LENGTH));
  const current = index < length ? <i32>load<u8>(queue + <usize>index) : -1;
  const canHold = held != HOLD_NONE && depth >= load<i32>(word(ctx, CTX_HOLD_FROM));
  // The piece hold brings: the held one (not when it is the current piece: the same move), or into an empty box the
  // piece after the current one; and the box after.
  let swapped: i32 = -1;
  let swappedIndex = index + 1;
  let heldAfter = current >= 0 ? current + 1 : HOLD_NONE;
  if (canHold) {
    if (held != HOLD_EMPTY) {
      if (held - 1 != current) swapped = held - 1;
    } else if (current >= 0 && index + 1 < length) {
      swapped = <i32>load<u8>(queue + <usize>(index + 1));
      swappedIndex = index + 2;
    }
  }
  if (depth == last) {
    if (current >= 0) lastLevel(cfg, ctx, current, depth, h, path);
    if (swapped >= 0) lastLevel(cfg, ctx, swapped, depth, h, path);
    return;
  }
  let placed = false;
  if (current >= 0) placed = placeHeld(cfg, ctx, queue, depth, last, path, h, current, index + 1, held);
  if (swapped >= 0) placed = placeHeld(cfg, ctx, queue, depth, last, path, h, swapped, swappedIndex, heldAfter) || placed;
  // No piece the state allows has a legal placement: the sequence dies here, ranked by how far it got.
  if (!placed) recordDeadEnd(cfg, ctx, depth, h, path);
}

/** Every placement of `piece` from the state at `depth` (heights `h`), searched on with the queue and box after it. */
function placeHeld(
  cfg: usize, ctx: usize, queue: usize, depth: i32, last: i32, path: i64, h: usize, piece: i32, index: i32, held: i32,
): bool {
  const next = heightsAt(ctx, depth + 1);
  const tetris = piece == PIECE_I ? tetrisChoiceReached(cfg, h) : TETRIS_NO;
  let placed = false;
  if (tetris != TETRIS_NO) {
    dropTetris(cfg, h, next);
    searchHeld(cfg, ctx, queue, depth + 1, last, path | pathByte(MOVE_TETRIS, depth), index, held);
    placed = true;
  }
  if (tetris != TETRIS_FORCED) {
    const width = cfgWord(cfg, CFG_WIDTH);
    const limit = cfgWord(cfg, CFG_BOARD_HEIGHT);
    const first = load<i32>(word(<usize>cfgWord(cfg, CFG_PIECE_START), piece));
    const collapse = cfgWord(cfg, CFG_COLLAPSE) != 0;
    let fitting = reachablePlacements(cfg, piece, h, fittingPlacements(cfg, piece, width, fitCode(cfg, h)));
    while (fitting != 0) {
      const p = first + <i32>ctz<u64>(fitting);
      fitting &= fitting - 1;
      if (!placeFitting(width, limit, h, placementAt(cfg, p), next)) continue;
      if (collapse) collapseSteps(cfg, next);
      placed = true;
      searchHeld(cfg, ctx, queue, depth + 1, last, path | pathByte(p, depth), index, held);
    }
  }
  return placed;
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
  if (cfgWord(cfg, CFG_STRATEGY) != STRATEGY_RANK) mirrorWeights(cfg, ctx);
  const held = load<i32>(word(ctx, CTX_HOLD));
  if (held == HOLD_NONE) searchFrom(cfg, ctx, queue, 0, lookahead, 0);
  else {
    // Keys with a hold box have no generation tag: the memo starts and ends empty, so no other search reads them.
    const memo = word(ctx, CTX_MEMO);
    const bytes = (<usize>(MEMO_SLOTS * MEMO_WORDS)) << 2;
    memory.fill(memo, 0, bytes);
    searchHeld(cfg, ctx, queue, 0, lookahead, 0, 0, held);
    memory.fill(memo, 0, bytes);
  }
  flushLeaves(cfg, ctx, lookahead + 1);
  if (load<i32>(word(ctx, CTX_BEST_LEN)) == 0) return MOVE_NONE;
  return load<i32>(word(ctx, CTX_BEST_PATH));
}
