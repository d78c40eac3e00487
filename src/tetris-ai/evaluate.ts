/**
 * The recover mode's board evaluator (docs/game.md, "Recover"): the BCTS features of docs/fullboard.md computed on
 * bit rows of any height (real boards reach 40 rows; the full-board player stops at 24), plus four terms that point the way
 * back to a clean stack: the filled cells of the well column, a bonus when the board is a clean stack again, the
 * rows of the floor under it, and a covered well's cover.
 *
 * The BCTS features have the exact definition of its namesake in src/fullboard/features.ts (the reference the tests
 * hold these equal to); only the arithmetic differs (bit masks instead of cell loops). The features are computed in
 * WebAssembly (assembly/recover/search.ts); the weights and the definitions' words live here.
 */
import { describe, fieldsOnce, firstUnknownKey, StackRankError } from '../errors.js';
import { PRESETS } from '../fullboard/presets.js';
import { RecoverKernel } from '../kernels/recover.js';
import type { BoardFeatures, MoveFacts, RecoverWeights } from '../kernels/recover.js';
import { isTimed, NES_TIMELINE, type RuleSet } from '../rules/rule-sets.js';

const bcts = (name: (typeof PRESETS.bcts.features)[number]): number =>
  PRESETS.bcts.weights[PRESETS.bcts.features.indexOf(name)];

/** The BCTS player's weights alone (the full-board baseline, policy 'fullBoardOnly'): no well, no clean stack. */
export const PLAIN_BCTS_WEIGHTS: RecoverWeights = Object.freeze({
  landingHeight: bcts('landingHeight'),
  erodedPieceCells: bcts('erodedPieceCells'),
  rowTransitions: bcts('rowTransitions'),
  columnTransitions: bcts('columnTransitions'),
  holes: bcts('holes'),
  cumulativeWells: bcts('cumulativeWells'),
  holeDepth: bcts('holeDepth'),
  rowsWithHoles: bcts('rowsWithHoles'),
  wellCells: 0,
  clean: 0,
  floorRows: 0,
  wellCover: 0,
});

/**
 * Recover mode's weights: the BCTS features (docs/fullboard.md) and the recover terms, tuned for this game by
 * bench/tune-recover.ts (a cross-entropy search under nes/nes in two stages from BCTS's weights with hand-set recover
 * terms; bench/notes/results.md, "Recover weights tuned"). Against those starting weights: nes/nes +1.3 points of Tetris
 * rate and 13 top-outs against 16 (20 games of 20,000 pieces, seeds 1–6), classic/tgm1 +0.3 point, tgm20g +1.3.
 * Each cell in the well column costs about one hole's worth, being back on a clean stack is worth more than the rows
 * with holes it takes to get there, a floor row under it costs a little less than a well cell, and a covered well's
 * cover costs about as much per cell: a row to clear before the well is open again, where BCTS would count every
 * covered cell as a hole and a row with holes.
 */
export const RECOVER_WEIGHTS: RecoverWeights = Object.freeze({
  landingHeight: -14.437,
  erodedPieceCells: 7.565,
  rowTransitions: -9.73,
  columnTransitions: -28.8,
  holes: -7.238,
  cumulativeWells: -7.245,
  holeDepth: -1.4,
  rowsWithHoles: -19.633,
  wellCells: -9.077,
  clean: 31.546,
  floorRows: -6.065,
  wellCover: -7.673,
});

/**
 * Recover mode's weights under a timed rule set (NES Tetris as the competition plays it: docs/game.md, "NES Tetris:
 * the competition format"), tuned by bench/tune-recover.ts --nes-max-level 29 from RECOVER_WEIGHTS for the average
 * score (bench/notes/nes.md, "Recover weights tuned for the timed game"): on 1,000 held-out games capped at 29,
 * +14,678 a game, the Tetris rate 1.2–2.5 points higher at 18 and at 19–28. Column transitions cost about twice as
 * much (a ragged surface is what leaves the holes there), and a clean stack again is worth a little more.
 */
export const NES_RECOVER_WEIGHTS: RecoverWeights = Object.freeze({
  landingHeight: -13.647,
  erodedPieceCells: 7.685,
  rowTransitions: -14.172,
  columnTransitions: -59.9,
  holes: -6.182,
  cumulativeWells: -7.172,
  holeDepth: -0.954,
  rowsWithHoles: -18.705,
  wellCells: -8.933,
  clean: 37.193,
  floorRows: -5.204,
  wellCover: -8.209,
});

/**
 * Recover mode's weights in a timed game where the stack's limit is at its floor (with `X.` from the double
 * killscreen at 39, where every move is a recover move; defaultRecoverWeightSet): tuned by
 * bench/tune-recover.ts from BCTS's (PLAIN_BCTS_WEIGHTS) on games played wholly at the double killscreen's speed with
 * the limit at its floor (start 15, two rows a frame from 15, capped at 16: 100 lines, about what a game has from 39
 * to the cap at 49), scored by the average NES score, i.e. the lines a game lasts (bench/notes/nes.md, "Floor recover
 * weights tuned for the double killscreen"). On the competition format's 1,000 held-out games (seeds 700 and 900,
 * 500 each) the score from 39 rose +3,385 and +3,609 a game (87,859 → 91,244 and 96,138 → 99,747) and 320 games
 * reached the cap against 272; from start 29 with no cap, +35,931 and +29,953 a game. Against BCTS's: a piece's
 * landing height costs a third less, its eroded cells 15 % less, the hole terms 9–19 % less, the transitions and
 * wells within about 6 %; the recover terms stay 0 (no well is kept at the floor).
 */
export const FLOOR_RECOVER_WEIGHTS: RecoverWeights = Object.freeze({
  landingHeight: -8.495,
  erodedPieceCells: 5.602,
  rowTransitions: -9.138,
  columnTransitions: -20.129,
  holes: -11.734,
  cumulativeWells: -9.848,
  holeDepth: -1.314,
  rowsWithHoles: -21.788,
  wellCells: 0,
  clean: 0,
  floorRows: 0,
  wellCover: 0,
});

/** Recover mode's weights in each place a game plays it (defaultRecoverWeightSet). */
export interface RecoverWeightSet {
  /** Every recover move of a game without time, and of a timed game where a piece waits out the reaction. */
  readonly usual: RecoverWeights;
  /** Where a timed game's stack limit is at its floor (src/tetris-ai/policy.ts LevelPlay.atFloor). */
  readonly floor: RecoverWeights;
  /** Where a timed game's piece is placed before the next is known (LevelPlay.droughtReach set). */
  readonly blind: RecoverWeights;
}

/**
 * The recover weights a rule set plays unless given others (TetrisAI's `recover.weights` replaces any term of all
 * three), each tuned set where it was tuned or measured (bench/notes/nes.md):
 * - `usual`: NES_RECOVER_WEIGHTS under a timed rule set tapping the competition's `X.` (the timeline they were
 *   tuned at), else RECOVER_WEIGHTS. At 12 Hz (`X....`, capped at 29) the tuned weights made 825,083 a game against
 *   836,517 on the report's 1,000 games, 119 of them ending at 18 against 68 ("The tuned weights by timeline").
 * - `floor`: FLOOR_RECOVER_WEIGHTS at every timeline. Tuned tapping `X.` at the double killscreen's speed: +3,385
 *   and +3,609 a game from 39 against BCTS's on 500 held-out games each ("Floor recover weights tuned for the double
 *   killscreen"). With `X....` the floor comes at 29, where games last a few lines: there they made 838,886 from 18
 *   against BCTS's 838,989, and 11,810 from start 29 against 11,381, on 500 games each ("The floor weights at 12 Hz").
 *   No clean stack is built at the floor, so the recover terms have nothing to aim for and are 0.
 * - `blind`: RECOVER_WEIGHTS. NES_RECOVER_WEIGHTS there lost 94,135 a game from start 29 on the report's 1,000
 *   games, 129 more of them ending at 29 ("The tuned weights by level"); weights tuned for 29–38 themselves did not
 *   win on held-out games ("Blind recover weights tuned for 29–38").
 */
export function defaultRecoverWeightSet(ruleSet: RuleSet): RecoverWeightSet {
  return {
    usual: isTimed(ruleSet) && ruleSet.timeline === NES_TIMELINE ? NES_RECOVER_WEIGHTS : RECOVER_WEIGHTS,
    floor: FLOOR_RECOVER_WEIGHTS,
    blind: RECOVER_WEIGHTS,
  };
}

/** The terms' names, in the order of RecoverWeights and of the kernel's weights (test/kernel-layout.test.ts). */
export const RECOVER_TERMS = Object.freeze(Object.keys(PLAIN_BCTS_WEIGHTS) as (keyof BoardFeatures)[]);

/** Largest weight (either sign) a caller may give: keeps every line's value far above a top-out's (-1e9). */
export const MAX_RECOVER_WEIGHT = 1000;

/**
 * `base` with the caller's weights (TetrisAIOptions.recover.weights: some of the terms, by name) put in its place,
 * checked: known names, finite numbers within ±MAX_RECOVER_WEIGHT.
 */
export function withRecoverWeights(base: RecoverWeights, given: unknown, what: string): RecoverWeights {
  const terms = checkRecoverWeights(given, what);
  return terms === undefined ? base : Object.freeze({ ...base, ...terms });
}

/**
 * The caller's weights (some of the terms, by name) read once and checked: known names, finite numbers within
 * ±MAX_RECOVER_WEIGHT; a plain copy, so weights built from it for several uses read the caller's object once.
 */
export function checkRecoverWeights(given: unknown, what: string): Readonly<Partial<RecoverWeights>> | undefined {
  if (given === undefined) return undefined;
  if (given === null || typeof given !== 'object' || Array.isArray(given))
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${what} must be an object of weights by name (${RECOVER_TERMS.join(', ')}); got ${describe(given)}`,
    );
  const terms = fieldsOnce(what, given);
  const unknown = firstUnknownKey(terms, RECOVER_TERMS);
  if (unknown !== undefined)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${what}: unknown term ${describe(unknown)}; terms are ${RECOVER_TERMS.join(', ')}`,
    );
  const weights: Record<string, number> = {};
  for (const [name, value] of Object.entries(terms)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > MAX_RECOVER_WEIGHT)
      throw new StackRankError(
        'BAD_ARGUMENT',
        `${what}.${name} must be a finite number from -${MAX_RECOVER_WEIGHT} to ${MAX_RECOVER_WEIGHT}; got ${describe(value)}`,
      );
    weights[name] = value;
  }
  return Object.freeze(weights as Partial<RecoverWeights>);
}

/**
 * The features of a board after a move (rows already cleared). `rows` bottom first (at most 48), `height` rows
 * counted for the row-transition feature (every empty row counts 2, as in the reference); `wellColumn` -1 for none;
 * `coverWell` the column of a well a piece may cover (with `wellColumn` -1), -1 for none; `maxFloor` the highest
 * floor a clean stack may stand on (TetrisAI's depends on the rule set: policy.ts, MAX_FLOOR).
 * Computed by the recover kernel (assembly/recover/search.ts), the code the recover search values its boards with.
 */
export function boardFeatures(
  rows: ArrayLike<number>,
  width: number,
  height: number,
  move: MoveFacts,
  wellColumn: number,
  coverWell = -1,
  maxFloor = 0,
): BoardFeatures {
  const kernel = RecoverKernel.get();
  kernel.configure({
    width,
    height,
    visibleHeight: height,
    wellColumn,
    coverWell,
    rowCount: rows.length,
    maxFloor,
    weights: RECOVER_WEIGHTS,
  });
  return kernel.boardFeatures(rows, move);
}
