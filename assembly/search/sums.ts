// Search kernel: children from their parent's step sums. A placement changes only the steps at its own columns
// (fixed by the piece: PL_INNER_*) and the two beside them, so once a parent's prefix sums are in the context a
// child's surface index, steepness and Tetris rule take a few operations instead of placing and re-indexing it.
import {
  CFG_COLLAPSE, CFG_STEPS, CFG_WIDTH, CTX_E2_CHILD, CTX_PRE_EXCESS, CTX_PRE_INDEX, CTX_PRE_MAX, CTX_PRE_MIN,
  CTX_SUF_MAX, CTX_SUF_MIN, FIT_STEP_BITS, PL_BOT, PL_INNER_EXCESS, PL_INNER_INDEX, PL_MAX_TOP, PL_MIN_TOP, PL_TOP,
  PL_WIDTH, PL_X, TETRIS_ROWS,
} from './layout';
import { cfgWord, stepInfo, stepShare, word } from './records';
import { TETRIS_NO, collapseSteps, placeFitting, tetrisChoice, tetrisChoiceOf } from './rules';

/**
 * Step sums of a parent with heights `h`, from which each child's surface index, excess and Tetris rule follow in
 * a few operations (childSums): prefix sums of the index shares and excess of steps 0..i-1 (CTX_PRE_INDEX,
 * CTX_PRE_EXCESS; entry W-1 is the parent's own index and excess), and with `withMinMax` the min and max of heights
 * 0..i-1 and i..W-1. Returns the parent's fit code.
 */
@inline export function parentSums(cfg: usize, ctx: usize, h: usize, withMinMax: bool): i32 {
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
export const CHILD_NONE: i64 = -1;
export const CHILD_EXCESS_SHIFT: i64 = 32;
export const CHILD_RULE_SHIFT: i64 = 48;

/**
 * The surface placement `pl` leaves on the parent `h` (whose parentSums are in the context): a placement changes
 * only the steps at its own columns (fixed by the piece: PL_INNER_*) and the two beside them. Packed as
 * index | excess << 32 | Tetris rule on it << 48 (the rule only `withRule`, else TETRIS_NO), or CHILD_NONE.
 */
@inline export function childSums(cfg: usize, ctx: usize, h: usize, pl: usize, limit: i32, withRule: bool): i64 {
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

/** The Tetris rule on the parent of parentSums(withMinMax) after a Tetris (every height TETRIS_ROWS lower). */
@inline export function ruleAfterTetris(cfg: usize, ctx: usize): i32 {
  const width = cfgWord(cfg, CFG_WIDTH);
  return tetrisChoiceOf(cfg, load<i32>(word(ctx, CTX_PRE_MIN + width)) - TETRIS_ROWS, load<i32>(word(ctx, CTX_PRE_MAX + width)) - TETRIS_ROWS);
}
