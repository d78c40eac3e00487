// Search kernel: the rules of the stacking game on a heights array: which placements fit (no hole), placing a
// piece, the Tetris rule, and the 'collapse' steep rule. docs/rules.md states the rules; src/stacking-ai/rules.ts
// holds their TypeScript side.
import {
  CFG_BOARD_HEIGHT, CFG_COLLAPSE, CFG_FIT, CFG_MAX_STEP, CFG_PIECE_START, CFG_REACH, CFG_REACH_BOXES, CFG_STEPS,
  CFG_TETRIS_MODE, CFG_TETRIS_THRESHOLD, CFG_WIDTH, FIT_STEP_BITS, FIT_WINDOW, FIT_WINDOW_BITS, MOVE_TETRIS, PL_BOT,
  PL_FIT_MASK, PL_FIT_PATTERN, PL_FIT_SHIFT, PL_MAX_TOP, PL_TOP, PL_WIDTH, PL_X, RC_ANY_STEPS, RC_BOX_COUNT,
  RC_BOX_START, RC_FIRST, RC_HEIGHT_LIMIT, RC_LAST, RC_WORDS, REACH_BOX_WORDS, REACH_DIGITS, REACH_DIGIT_BITS,
  REACH_GUARD, TETRIS_MODE_CHOICE, TETRIS_MODE_NEVER, TETRIS_ROWS,
} from './layout';
import { cfgWord, placementAt, stepInfo, word } from './records';

export const PIECE_I: i32 = 0;

// What an I may do on a stack (tetrisChoice):
export const TETRIS_NO: i32 = 0; //        only placements
export const TETRIS_FORCED: i32 = 1; //    only the Tetris
export const TETRIS_OPTIONAL: i32 = 2; //  the Tetris or any placement

/**
 * The Tetris rule (docs/rules.md), the kernel's one copy: what it allows an I on a stack whose lowest column is
 * `low` and highest `high`. The I goes down the well when the lowest column is at least TETRIS_ROWS and the
 * highest at least the threshold (forced); under TETRIS_MODE_CHOICE it may also whenever the lowest column is.
 */
@inline export function tetrisChoiceOf(cfg: usize, low: i32, high: i32): i32 {
  const mode = cfgWord(cfg, CFG_TETRIS_MODE);
  if (mode == TETRIS_MODE_NEVER || low < TETRIS_ROWS) return TETRIS_NO;
  if (high >= cfgWord(cfg, CFG_TETRIS_THRESHOLD)) return TETRIS_FORCED;
  return mode == TETRIS_MODE_CHOICE ? TETRIS_OPTIONAL : TETRIS_NO;
}

/** What the Tetris rule allows an I on heights `h` (TETRIS_NO / TETRIS_FORCED / TETRIS_OPTIONAL). */
@inline export function tetrisChoice(cfg: usize, h: usize): i32 {
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

/** The guard bit of every step field of a reach box (REACH_GUARD in each of REACH_DIGITS fields). */
const REACH_GUARDS: u64 = guards();

function guards(): u64 {
  let g: u64 = 0;
  for (let i: i32 = 0; i < REACH_DIGITS; i++) g |= (<u64>REACH_GUARD) << (<u64>(REACH_DIGIT_BITS * i));
  return g;
}

/**
 * The steps of heights `h` as reach-box digits, REACH_DIGIT_BITS bits each: step d is d + S + 1 within ±S, and 0 or
 * 2S + 2 beyond it (a steep step, which no box of a window step contains).
 */
@inline function reachDigits(cfg: usize, h: usize): u64 {
  const width = cfgWord(cfg, CFG_WIDTH);
  const s = cfgWord(cfg, CFG_MAX_STEP) + 1;
  let digits: u64 = 0;
  let prev = load<i32>(h);
  for (let i: i32 = 1; i < width; i++) {
    const cur = load<i32>(word(h, i));
    digits |= (<u64>(min<i32>(s, max<i32>(-s, cur - prev)) + s)) << (<u64>(REACH_DIGIT_BITS * (i - 1)));
    prev = cur;
  }
  return digits;
}

/** Whether reach record `record` (RC_*) lets the piece reach its placement on heights `h` with those digits. */
@inline function recordReached(cfg: usize, record: i32, h: usize, digits: u64): bool {
  const rec = <usize>cfgWord(cfg, CFG_REACH) + ((<usize>(record * RC_WORDS)) << 2);
  const limit = load<i32>(word(rec, RC_HEIGHT_LIMIT));
  const last = load<i32>(word(rec, RC_LAST));
  for (let x = load<i32>(word(rec, RC_FIRST)); x <= last; x++) if (load<i32>(word(h, x)) > limit) return false;
  const count = load<i32>(word(rec, RC_BOX_COUNT));
  if (count == RC_ANY_STEPS) return true;
  let box = <usize>cfgWord(cfg, CFG_REACH_BOXES) + ((<usize>(load<i32>(word(rec, RC_BOX_START)) * REACH_BOX_WORDS)) << 2);
  for (let k: i32 = 0; k < count; k++) {
    if ((((digits + load<u64>(box)) & (load<u64>(box + 8) - digits)) & REACH_GUARDS) == REACH_GUARDS) return true;
    box += (<usize>REACH_BOX_WORDS) << 2;
  }
  return false;
}

/**
 * The placements of `fitting` (a piece's placement bits, as fittingPlacements gives) that the rule set lets the
 * piece reach on heights `h`; all of them when the engine has no reach records (the classic game). Only this test
 * is inlined into the search; the records are read out of line, so the classic game's hot functions stay as small
 * as they were (inlining the loop made the classic search measurably slower).
 */
@inline export function reachablePlacements(cfg: usize, piece: i32, h: usize, fitting: u64): u64 {
  if (cfgWord(cfg, CFG_REACH) == 0 || fitting == 0) return fitting;
  return reachedOf(cfg, piece, h, fitting);
}

function reachedOf(cfg: usize, piece: i32, h: usize, fitting: u64): u64 {
  const first = load<i32>(word(<usize>cfgWord(cfg, CFG_PIECE_START), piece));
  const digits = reachDigits(cfg, h);
  let reached: u64 = 0;
  let bits = fitting;
  while (bits != 0) {
    const i = <i32>ctz<u64>(bits);
    bits &= bits - 1;
    if (recordReached(cfg, first + i, h, digits)) reached |= (<u64>1) << (<u64>i);
  }
  return reached;
}

/**
 * What the Tetris rule allows an I on heights `h` when the rule set must also let it reach the well (its record
 * follows the placements'): an I that cannot reach the well is placed instead, even when the rule forces it.
 */
@inline export function tetrisChoiceReached(cfg: usize, h: usize): i32 {
  const choice = tetrisChoice(cfg, h);
  if (choice == TETRIS_NO || cfgWord(cfg, CFG_REACH) == 0) return choice;
  return wellReached(cfg, h) ? choice : TETRIS_NO;
}

function wellReached(cfg: usize, h: usize): bool {
  const record = load<i32>(word(<usize>cfgWord(cfg, CFG_PIECE_START), 7));
  return recordReached(cfg, record, h, reachDigits(cfg, h));
}

/** Writes the heights after a Tetris (every column TETRIS_ROWS lower) into `out` (may be `h`). */
@inline export function dropTetris(cfg: usize, h: usize, out: usize): void {
  const width = cfgWord(cfg, CFG_WIDTH);
  for (let i = 0; i < width; i++) store<i32>(word(out, i), load<i32>(word(h, i)) - TETRIS_ROWS);
}

/**
 * Steep rule 'collapse': the game's state is the truncated surface, so a step steeper than ±S becomes ±S. The
 * truncated steps are summed from column 0 and the whole profile is shifted so its lowest column is as high as the
 * lowest column was: the lowest height, which decides whether a Tetris is possible, never changes.
 */
export function collapseSteps(cfg: usize, h: usize): void {
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

/** Fit code of heights `h`: each step's fit digit (the step lookup's), FIT_STEP_BITS bits each, step 0 lowest. */
@inline export function fitCode(cfg: usize, h: usize): i32 {
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
 * placements at that column that fit the three steps from it (src/kernels/search-format.ts fitLookup).
 */
@inline export function fittingPlacements(cfg: usize, piece: i32, width: i32, code: i32): u64 {
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
@inline export function placeFitting(width: i32, limit: i32, h: usize, pl: usize, out: usize): bool {
  const x = load<i32>(word(pl, PL_X));
  const left = load<i32>(word(h, x));
  if (left + load<i32>(word(pl, PL_MAX_TOP)) > limit) return false;
  for (let i: i32 = 0; i < width; i++) store<i32>(word(out, i), load<i32>(word(h, i)));
  const base = left - load<i32>(word(pl, PL_BOT));
  const w = load<i32>(word(pl, PL_WIDTH));
  for (let j: i32 = 0; j < w; j++) store<i32>(word(out, x + j), base + load<i32>(word(pl, PL_TOP + j)));
  return true;
}

/** Applies move `move` to heights `h` in place (placement id or MOVE_TETRIS); `scratch` holds a heights array. */
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
