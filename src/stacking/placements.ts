/**
 * Game placements (docs/rules.md, "The stacking game") for a W-column stack, generated from src/pieces.ts: every orientation at every
 * left column, grouped by piece. Unlike the rank moves, steps may become steeper than ±S in the game.
 */
import { ORIENTATIONS, PIECE_COUNT } from '../pieces.js';
import { surfaceBase } from '../surface.js';
import {
  FIT_STEP_BITS,
  FIT_WINDOW,
  MOVE_TETRIS,
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
  STEP_INFO_ROW,
  STEP_ROW,
  STEP_ZERO,
} from './layout.js';
import { TETRIS_ROWS, tetrisOptions, type StackingRules } from './rules.js';

export interface Placement {
  piece: number;
  /** Index of the orientation in the piece's list (docs/rules.md "Pieces" order). */
  orientation: number;
  column: number;
}

export interface PlacementTable {
  placements: Placement[];
  /** start[p] .. start[p+1] are piece p's placements. */
  start: Int32Array;
  /** Legal-move lookup for the kernel (fitLookup below). */
  fit: BigUint64Array;
  /** What each step contributes, for the kernel (stepLookup below). */
  steps: Int32Array;
  /** PL_WORDS i32 per placement, fields PL_* (assembly/search/layout.ts). */
  records: Int32Array;
}

/**
 * What step digit `digit` (0..2S: the step truncated to ±S, plus S) at step position `i` adds to the index the
 * kernel reads leaves by.
 */
export type DigitShare = (i: number, digit: number) => number;

/**
 * Placements of a `width`-column stack whose surfaces are indexed with steps truncated to ±`maxStep`; `share`:
 * how the kernel indexes surfaces (default: the surface index of src/surface.ts; an engine over folded leaf rows
 * uses the mirror-pair index of src/kernels/search-folded-rows.ts).
 */
export function placementTable(
  width: number,
  maxStep: number,
  share: DigitShare = (i, digit) => digit * digitWeight(width, maxStep, i),
): PlacementTable {
  const placements: Placement[] = [];
  const start = new Int32Array(PIECE_COUNT + 1);
  const records: number[] = [];
  for (let piece = 0; piece < PIECE_COUNT; piece++) {
    start[piece] = placements.length;
    ORIENTATIONS[piece].forEach((o, orientation) => {
      for (let column = 0; column + o.width <= width; column++) {
        placements.push({ piece, orientation, column });
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
    });
  }
  start[PIECE_COUNT] = placements.length;
  return {
    placements,
    start,
    records: Int32Array.from(records),
    fit: fitLookup(width),
    steps: stepLookup(width, maxStep, share),
  };
}

/** Weight of step i's digit in a surface index (step 0 most significant; src/surface.ts). */
function digitWeight(width: number, maxStep: number, i: number): number {
  return surfaceBase(maxStep) ** (width - 2 - i);
}

/** Heights after a move (placement id, or MOVE_TETRIS = -1) — the same arithmetic as the kernel. */
export function applyMove(table: PlacementTable, heights: readonly number[], move: number): number[] {
  if (move === MOVE_TETRIS) return heights.map((h) => h - TETRIS_ROWS);
  const p = table.placements[move];
  const o = ORIENTATIONS[p.piece][p.orientation];
  const base = heights[p.column] - o.bot[0];
  const out = heights.slice();
  for (let j = 0; j < o.width; j++) out[p.column + j] = base + o.top[j];
  return out;
}

/**
 * The moves of piece `id` legal on `heights` in the stacking game (docs/rules.md, "The stacking game"): every
 * hole-free placement that stays under the board's top, and for an I the Tetris where the rule allows it (where the
 * rule forces it, only the Tetris). The kernel's fit lookup decides the same (test/stacking/rank-placements.test.ts).
 */
export function legalMoves(
  table: PlacementTable,
  heights: readonly number[],
  id: number,
  rules: Pick<StackingRules, 'boardHeight' | 'tetrisThreshold' | 'tetris'>,
  /** A rule set's reach (src/stacking/reach.ts): record id (placement id, or the placement count for the Tetris)
   * → whether the piece reaches it on these heights. A Tetris it refuses is not made, even when forced. */
  reached: (record: number) => boolean = () => true,
): number[] {
  const out: number[] = [];
  if (id === 0 && reached(table.placements.length)) {
    const tetris = tetrisOptions(heights, rules);
    if (tetris === 'forced') return [MOVE_TETRIS];
    if (tetris === 'optional') out.push(MOVE_TETRIS);
  }
  for (let m = table.start[id]; m < table.start[id + 1]; m++) {
    const p = table.placements[m];
    const o = ORIENTATIONS[p.piece][p.orientation];
    const base = heights[p.column] - o.bot[0];
    let fits = base >= 0;
    for (let j = 0; j < o.width && fits; j++)
      fits = heights[p.column + j] - o.bot[j] === base && base + o.top[j] <= rules.boardHeight;
    if (fits && reached(m)) out.push(m);
  }
  return out;
}

/**
 * Steep rule 'collapse' (src/stacking/rules.ts): every step steeper than ±`maxStep` becomes ±`maxStep`; the
 * profile is shifted so its lowest column is as high as the lowest column was. assembly/search/rules.ts collapseSteps
 * does the same in the kernel.
 */
export function collapseSteps(heights: readonly number[], maxStep: number): number[] {
  const out = heights.slice();
  for (let i = 1; i < heights.length; i++)
    out[i] = out[i - 1] + Math.max(-maxStep, Math.min(maxStep, heights[i] - heights[i - 1]));
  const shift = Math.min(...heights) - Math.min(...out);
  return out.map((h) => h + shift);
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
 * kernel's index at step position i (`share` of the step truncated to ±S); row STEP_INFO_ROW, its fit-code digit | its steepness beyond ±S
 * << FIT_STEP_BITS. Layout: assembly/search/layout.ts STEP_*.
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
