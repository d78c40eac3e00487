/**
 * The search kernel's data formats, as TypeScript writes and reads them: the placement records, legal-move and
 * step lookups (written from src/pieces.ts), the reach records of a rule set (written by src/stacking-ai/reach.ts
 * through the functions here), and the codes the rest of src/ speaks with the kernel (move codes, leaf-row slots,
 * weight words). Every word of these formats is defined once, in assembly/search/layout.ts; this module is where
 * src/ reads it (test/kernel-layout.test.ts checks the kernel's copy).
 */
import { StackRankError, describe, requireInt } from '../errors.js';
import { MIRROR_PIECE, ORIENTATIONS, PIECE_COUNT } from '../pieces.js';
import { surfaceBase } from '../surface.js';
import {
  FIT_STEP_BITS,
  FIT_WINDOW,
  PL_BOT,
  PL_FIT_MASK,
  PL_FIT_PATTERN,
  PL_FIT_SHIFT,
  PL_INNER_EXCESS,
  PL_INNER_INDEX,
  PL_MAX_TOP,
  PL_MIN_TOP,
  PL_TOP,
  PL_WIDTH,
  PL_WORDS,
  PL_X,
  RC_ANY_STEPS,
  RC_BOX_COUNT,
  RC_BOX_START,
  RC_FIRST,
  RC_HEIGHT_LIMIT,
  RC_LAST,
  RC_WORDS,
  REACH_DIGIT_BITS,
  REACH_DIGITS,
  REACH_GUARD,
  STEP_INFO_ROW,
  STEP_ROW,
  STEP_ZERO,
  WEIGHT_WORDS_EXPECT,
  WEIGHT_WORDS_EXPECT2,
} from '../../assembly/search/layout.js';

// The codes the rest of src/ speaks with the kernel. MOVE_NONE: the search found no move (every sequence dies at
// once); MOVE_TETRIS: an I down the well (a placement's move code is its id); TETRIS_ROWS: the rows a Tetris clears;
// LEAF_ROW_SLOTS: u16 values per surface in the leaf rows (slot p: piece p next; LEAF_SLOT_AFTER_TETRIS: after a
// Tetris); WEIGHT_WORDS_EXPECT(2): i32 weights of one unknown piece's chances (distributionWeights), of two
// (pairWeights); REACH_DIGITS: steps a reach record's boxes cover at most.
export {
  LEAF_ROW_SLOTS,
  LEAF_SLOT_AFTER_TETRIS,
  MOVE_NONE,
  MOVE_TETRIS,
  REACH_DIGITS,
  TETRIS_ROWS,
  WEIGHT_WORDS_EXPECT,
  WEIGHT_WORDS_EXPECT2,
} from '../../assembly/search/layout.js';

/** Unknown pieces a leaf averages over: 0 for 'rank', 1 or 2 for 'expectimax'. */
export type UnknownPieces = 0 | 1 | 2;

/** Slot k of a mirrored surface's leaf row (or preview row) is slot MIRROR_SLOT[k] of the original's. */
export const MIRROR_SLOT: readonly number[] = [...MIRROR_PIECE, 7];

/**
 * What step digit `digit` (0..2S: the step truncated to ±S, plus S) at step position `i` adds to the index the
 * kernel reads leaves by.
 */
export type DigitShare = (i: number, digit: number) => number;

/** Weight of step i's digit in a surface index (step 0 most significant; src/surface.ts). */
export function digitWeight(width: number, maxStep: number, i: number): number {
  return surfaceBase(maxStep) ** (width - 2 - i);
}

/** The kernel's placement tables for a `width`-column stack (the placements of src/stacking-ai/placements.ts). */
export interface PlacementRecords {
  /** PL_WORDS i32 per placement, in placementTable's order. */
  records: Int32Array;
  /** Legal-move lookup (fitLookup below). */
  fit: BigUint64Array;
  /** What each step contributes (stepLookup below). */
  steps: Int32Array;
}

/**
 * The records of every placement (every orientation at every left column, grouped by piece: placementTable's
 * order) of a `width`-column stack whose surfaces are indexed with steps truncated to ±`maxStep`; `share`: how
 * the kernel indexes surfaces (default: the surface index of src/surface.ts; an engine over folded leaf rows uses
 * the mirror-pair index of ./search-folded-rows.ts).
 */
export function placementRecords(
  width: number,
  maxStep: number,
  share: DigitShare = (i, digit) => digit * digitWeight(width, maxStep, i),
): PlacementRecords {
  const records: number[] = [];
  for (let piece = 0; piece < PIECE_COUNT; piece++) {
    for (const o of ORIENTATIONS[piece]) {
      for (let column = 0; column + o.width <= width; column++) {
        const rec = new Array<number>(PL_WORDS).fill(0);
        rec[PL_X] = column;
        rec[PL_WIDTH] = o.width;
        o.bot.forEach((b, j) => {
          rec[PL_BOT + j] = b;
        });
        o.top.forEach((t, j) => {
          rec[PL_TOP + j] = t;
        });
        // Fit test (assembly/search/rules.ts): the placement fits without a hole exactly when the steps under its
        // columns equal its bottom profile's. Steps are coded FIT_STEP_BITS bits each (clamped to ±3, shifted by
        // 3); this placement compares the codes of steps column..column+width-2.
        rec[PL_FIT_SHIFT] = FIT_STEP_BITS * column;
        let mask = 0;
        let pattern = 0;
        for (let j = 0; j + 1 < o.width; j++) {
          mask |= ((1 << FIT_STEP_BITS) - 1) << (FIT_STEP_BITS * j);
          pattern |= (o.bot[j + 1] - o.bot[j] + 3) << (FIT_STEP_BITS * j);
        }
        rec[PL_FIT_MASK] = mask;
        rec[PL_FIT_PATTERN] = pattern;
        rec[PL_MAX_TOP] = Math.max(...o.top) - o.bot[0]; // highest new top, relative to the height of the left column
        rec[PL_MIN_TOP] = Math.min(...o.top) - o.bot[0]; //  lowest new top, the same way
        // The steps between the piece's own columns after it lands are fixed: their share of the surface index
        // (digits truncated to ±S) and of the steepness beyond ±S, so a leaf's index is found from its parent's.
        for (let j = 0; j + 1 < o.width; j++) {
          const step = o.top[j + 1] - o.top[j];
          rec[PL_INNER_INDEX] += share(column + j, Math.max(-maxStep, Math.min(maxStep, step)) + maxStep);
          rec[PL_INNER_EXCESS] += Math.max(0, Math.abs(step) - maxStep);
        }
        records.push(...rec);
      }
    }
  }
  return { records: Int32Array.from(records), fit: fitLookup(width), steps: stepLookup(width, maxStep, share) };
}

/**
 * The legal-move lookup: for piece p, left column x and the fit code w of the three steps from x, the u64 at
 * (p * width + x) * FIT_WINDOW + w has bit i set when the piece's i-th placement is at column x and its bottom
 * fits those steps. Steps past the right wall read as code 0 (a drop of 3 or more), which no bottom profile has,
 * so a placement that would stick out never fits.
 */
function fitLookup(width: number): BigUint64Array {
  const fit = new BigUint64Array(PIECE_COUNT * width * FIT_WINDOW);
  for (let piece = 0; piece < PIECE_COUNT; piece++) {
    let offset = 0;
    for (const o of ORIENTATIONS[piece]) {
      for (let window = 0; window < FIT_WINDOW; window++) {
        let fits = true;
        for (let j = 0; j + 1 < o.width; j++) {
          if (((window >> (FIT_STEP_BITS * j)) & ((1 << FIT_STEP_BITS) - 1)) !== o.bot[j + 1] - o.bot[j] + 3)
            fits = false;
        }
        if (!fits) continue;
        for (let x = 0; x + o.width <= width; x++)
          fit[(piece * width + x) * FIT_WINDOW + window] |= 1n << BigInt(offset + x);
      }
      offset += width - o.width + 1;
    }
    // The kernel keeps one piece's legal placements as bits of a 64-bit mask.
    if (offset > 64)
      throw new Error(`piece ${piece} has ${offset} placements on ${width} columns; the kernel takes 64`);
  }
  return fit;
}

/**
 * What a step d between two columns (|d| <= 63: heights fit 6 bits) contributes: row i < 16, its share of the
 * kernel's index at step position i (`share` of the step truncated to ±S); row STEP_INFO_ROW, its fit-code digit |
 * its steepness beyond ±S << FIT_STEP_BITS. Layout: assembly/search/layout.ts STEP_*.
 */
function stepLookup(width: number, maxStep: number, share: DigitShare): Int32Array {
  if (width - 1 > STEP_INFO_ROW) throw new Error(`the kernel's step lookup takes at most ${STEP_INFO_ROW + 1} columns`);
  const steps = new Int32Array((STEP_INFO_ROW + 1) * STEP_ROW);
  for (let d = -(STEP_ZERO - 1); d < STEP_ZERO; d++) {
    const digit = Math.max(-maxStep, Math.min(maxStep, d)) + maxStep;
    for (let i = 0; i + 1 < width; i++) steps[i * STEP_ROW + d + STEP_ZERO] = share(i, digit);
    const fitDigit = Math.max(-3, Math.min(3, d)) + 3;
    steps[STEP_INFO_ROW * STEP_ROW + d + STEP_ZERO] = fitDigit | (Math.max(0, Math.abs(d) - maxStep) << FIT_STEP_BITS);
  }
  return steps;
}

/**
 * A rule set's reach records, as the kernel reads them (assembly/search/rules.ts recordReached): one record per
 * placement, then the Tetris's. A record is reachable on heights h when every column from its first to its last is
 * at most its height limit high and, unless it takes any steps, the surface's steps lie in one of its boxes.
 */
export interface ReachRecords {
  /** RC_WORDS i32 per record. */
  readonly records: Int32Array;
  /** Two u64 per box: (REACH_GUARD - lo) and (REACH_GUARD + hi) per step digit. */
  readonly boxes: BigUint64Array;
}

/** Bytes of one reach record (a reach file stores them as the kernel reads them). */
export const REACH_RECORD_BYTES = RC_WORDS * 4;

/** Room for `count` reach records. */
export function newReachRecords(count: number): Int32Array {
  return new Int32Array(count * RC_WORDS);
}

export function reachRecordCount(records: Int32Array): number {
  return records.length / RC_WORDS;
}

/**
 * Record r := columns first..last at most `heightLimit` high; with `boxes` (start and count in the box list) the
 * steps must also lie in one of them, else any steps do.
 */
export function setReachRecord(
  records: Int32Array,
  r: number,
  first: number,
  last: number,
  heightLimit: number,
  boxes?: { start: number; count: number },
): void {
  const at = r * RC_WORDS;
  records[at + RC_FIRST] = first;
  records[at + RC_LAST] = last;
  records[at + RC_HEIGHT_LIMIT] = heightLimit;
  records[at + RC_BOX_START] = boxes ? boxes.start : 0;
  records[at + RC_BOX_COUNT] = boxes ? boxes.count : RC_ANY_STEPS;
}

/** Whether record r restricts anything on a board `boardHeight` high (boxes, or a height limit under it). */
export function reachRecordRestricts(records: Int32Array, r: number, boardHeight: number): boolean {
  const at = r * RC_WORDS;
  return records[at + RC_BOX_COUNT] !== RC_ANY_STEPS || records[at + RC_HEIGHT_LIMIT] < boardHeight;
}

/** Whether record r is well formed for a `width`-column surface with `boxCount` boxes (a reach file's check). */
export function reachRecordValid(records: Int32Array, r: number, width: number, boxCount: number): boolean {
  const rec = records.subarray(r * RC_WORDS, (r + 1) * RC_WORDS);
  const boxesOk =
    rec[RC_BOX_COUNT] === RC_ANY_STEPS ||
    (rec[RC_BOX_COUNT] >= 0 && rec[RC_BOX_START] >= 0 && rec[RC_BOX_START] + rec[RC_BOX_COUNT] <= boxCount);
  return rec[RC_FIRST] >= 0 && rec[RC_FIRST] <= rec[RC_LAST] && rec[RC_LAST] < width && boxesOk;
}

/** A box over window digits (from surface step `first`) as the kernel's two u64 over every step digit. */
export function reachBoxWords(
  lo: readonly number[],
  hi: readonly number[],
  first: number,
  width: number,
  maxStep: number,
): [bigint, bigint] {
  let low = 0n;
  let high = 0n;
  for (let k = 0; k < REACH_DIGITS; k++) {
    // Window digits 0..2S are fields 1..2S+1; a steep step (field 0 or 2S+2) lies only in the other digits' ranges.
    const inWindow = k >= first && k < first + lo.length && k < width - 1;
    const l = inWindow ? lo[k - first] + 1 : 0;
    const h = inWindow ? hi[k - first] + 1 : 2 * maxStep + 2;
    const shift = BigInt(REACH_DIGIT_BITS * k);
    low |= BigInt(REACH_GUARD - l) << shift;
    high |= BigInt(REACH_GUARD + h) << shift;
  }
  return [low, high];
}

/**
 * TypeScript's reading of a reach record (the kernel's is assembly/search/rules.ts recordReached): whether record
 * `record` (a placement id, or the placement count for the Tetris) is reachable on `heights` (checked).
 */
export function readReachRecord(
  table: ReachRecords,
  record: number,
  heights: readonly number[],
  maxStep: number,
): boolean {
  const rec = table.records.subarray(record * RC_WORDS, (record + 1) * RC_WORDS);
  for (let x = rec[RC_FIRST]; x <= rec[RC_LAST]; x++) if (heights[x] > rec[RC_HEIGHT_LIMIT]) return false;
  if (rec[RC_BOX_COUNT] === RC_ANY_STEPS) return true;
  for (let k = 0; k < rec[RC_BOX_COUNT]; k++) {
    const low = table.boxes[2 * (rec[RC_BOX_START] + k)];
    const high = table.boxes[2 * (rec[RC_BOX_START] + k) + 1];
    let inside = true;
    for (let i = 0; i + 1 < heights.length && inside; i++) {
      const d = Math.max(-maxStep - 1, Math.min(maxStep + 1, heights[i + 1] - heights[i])) + maxStep + 1;
      const shift = BigInt(REACH_DIGIT_BITS * i);
      const mask = BigInt((1 << REACH_DIGIT_BITS) - 1);
      const lo = REACH_GUARD - Number((low >> shift) & mask);
      const hi = Number((high >> shift) & mask) - REACH_GUARD;
      inside = d >= lo && d <= hi;
    }
    if (inside) return true;
  }
  return false;
}

/**
 * Integer weights (x 65536) of a next-piece distribution; uniform when none is given. They sum to exactly 65536
 * (the rounding remainder goes to the likeliest piece), so a weighted sum of u16 ranks stays below 2^32. Written
 * to `out[at..at+8)` (slot 7 zero) when given, so a caller filling a buffer allocates nothing.
 */
function checkWeightsTarget(out: unknown, at: unknown, words: number): void {
  if (!(out instanceof Int32Array))
    throw new StackRankError('BAD_ARGUMENT', `out must be an Int32Array; got ${describe(out)}`);
  requireInt('at', at, 0, Math.max(-1, out.length - words));
}

export function distributionWeights(
  dist?: ArrayLike<number>,
  out: Int32Array = new Int32Array(WEIGHT_WORDS_EXPECT),
  at = 0,
): Int32Array {
  checkWeightsTarget(out, at, WEIGHT_WORDS_EXPECT);
  if (dist !== undefined) checkChances(dist, 7, 'dist');
  return fillDistributionWeights(dist, out, at);
}

/** distributionWeights without the argument checks (the simulator's per-piece path, arguments made here). */
export function fillDistributionWeights(dist: ArrayLike<number> | undefined, out: Int32Array, at: number): Int32Array {
  let sum = 0;
  let likeliest = 0;
  for (let p = 0; p < 7; p++) {
    out[at + p] = Math.round((dist ? dist[p] : 1 / 7) * 65536);
    sum += out[at + p];
    if (out[at + p] > out[at + likeliest]) likeliest = p;
  }
  out[at + 7] = 0;
  if (sum > 0) out[at + likeliest] += 65536 - sum;
  return out;
}

const firstPiece = new Float64Array(7);
const secondGivenFirst = new Float64Array(7);

/**
 * Weights for two unknown pieces from a pair distribution (49 numbers, p1 * 7 + p2 = P(p1) P(p2 | p1)): the first
 * piece's 8 weights, then for each p1 the 8 weights of the second given p1 (zeros where p1 is impossible).
 * Uniform pairs when none is given. Written to `out[at..at+64)` when given.
 */
/** A distribution argument: `count` finite non-negative numbers (normalised by the callers' checks or not). */
function checkChances(values: unknown, count: number, name: string): void {
  const ok =
    values !== null &&
    typeof values === 'object' &&
    (values as ArrayLike<unknown>).length === count &&
    Array.from({ length: count }, (_, i) => (values as ArrayLike<unknown>)[i]).every(
      (x) => typeof x === 'number' && Number.isFinite(x) && x >= 0,
    );
  if (!ok)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${name} must be ${count} finite non-negative numbers; got ${describe(values)}`,
    );
}

export function pairWeights(
  pair?: ArrayLike<number>,
  out: Int32Array = new Int32Array(WEIGHT_WORDS_EXPECT2),
  at = 0,
): Int32Array {
  checkWeightsTarget(out, at, WEIGHT_WORDS_EXPECT2);
  if (pair !== undefined) checkChances(pair, 49, 'pair');
  return fillPairWeights(pair, out, at);
}

/** pairWeights without the argument checks (the simulator's per-piece path). */
export function fillPairWeights(pair: ArrayLike<number> | undefined, out: Int32Array, at: number): Int32Array {
  const chance = (p1: number, p2: number) => (pair ? pair[p1 * 7 + p2] : 1 / 49);
  firstPiece.fill(0);
  for (let p1 = 0; p1 < 7; p1++) for (let p2 = 0; p2 < 7; p2++) firstPiece[p1] += chance(p1, p2);
  fillDistributionWeights(firstPiece, out, at);
  for (let p1 = 0; p1 < 7; p1++) {
    if (firstPiece[p1] <= 0) {
      out.fill(0, at + WEIGHT_WORDS_EXPECT * (p1 + 1), at + WEIGHT_WORDS_EXPECT * (p1 + 2));
      continue;
    }
    for (let p2 = 0; p2 < 7; p2++) secondGivenFirst[p2] = chance(p1, p2) / firstPiece[p1];
    fillDistributionWeights(secondGivenFirst, out, at + WEIGHT_WORDS_EXPECT * (p1 + 1));
  }
  return out;
}
