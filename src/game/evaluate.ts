/**
 * The recover mode's board evaluator (docs/game.md, "Recover"): the BCTS features of docs/fullboard.md computed on
 * bit rows of any height (real boards reach 40 rows; FullBoard stops at 24), plus two terms that point the way
 * back to a clean stack: the filled cells of the well column and a bonus when the board is a clean stack again.
 *
 * Every feature has the exact definition of its namesake in src/fullboard/features.ts (the reference the tests
 * hold these equal to); only the arithmetic differs (bit masks instead of cell loops). The features are computed in
 * WebAssembly (assembly/recover/search.ts); the weights and the definitions' words live here.
 */
import { PRESETS } from '../fullboard/presets.js';
import { RecoverKernel } from './recover-kernel.js';

/**
 * Highest floor (rows buried under a clean stack: garbage, covered holes, a filled well; grid.ts stackFloor) the
 * AI stacks over: stack mode plays the surface above it, recover mode counts a clean stack over it as clean.
 * Under classic/tgm1 (20 games of 5,000 pieces, seed 1) stacking over floors up to 4 rows raised the Tetris rate
 * from 92.1 % to 94.2 % (docs/results.md).
 */
export const MAX_FLOOR = 4;

/** The eight BCTS features (Thiery & Scherrer 2009) plus the recover terms, in the order of RecoverWeights. */
export interface BoardFeatures {
  landingHeight: number;
  erodedPieceCells: number;
  rowTransitions: number;
  columnTransitions: number;
  holes: number;
  cumulativeWells: number;
  holeDepth: number;
  rowsWithHoles: number;
  /** Filled cells in the well column (a well holding them is not Tetris-ready). */
  wellCells: number;
  /** 1 when the board is a clean stack with the well open (docs/game.md), on the field's bottom or over a floor of
   * at most MAX_FLOOR buried rows, else 0. */
  clean: number;
  /** The floor of that clean stack (rows buried under it), 0 when the board is not one. */
  floorRows: number;
  /** In the column of a well a piece may cover (tall boards near the top: docs/game.md, "Recover mode"), the cells
   * over its highest empty cell, 0 elsewhere; that column's empty cells under them are not holes. */
  wellCover: number;
}

export type RecoverWeights = { readonly [K in keyof BoardFeatures]: number };

const bcts = (name: (typeof PRESETS.bcts.features)[number]): number =>
  PRESETS.bcts.weights[PRESETS.bcts.features.indexOf(name)];

/**
 * BCTS weights (the `bcts` preset of docs/fullboard.md, Thiery & Scherrer 2009) with the recover terms: each cell
 * in the well column costs about one hole's worth, being back on a clean stack is worth more than the rows with
 * holes it takes to get there, and each row of a floor under it costs as much again as its well cell. A covered
 * well's cover costs as much per cell: a row to clear before the well is open again, where BCTS would count every
 * covered cell as a hole and a row with holes (about 37 each).
 */
export const RECOVER_WEIGHTS: RecoverWeights = Object.freeze({
  landingHeight: bcts('landingHeight'),
  erodedPieceCells: bcts('erodedPieceCells'),
  rowTransitions: bcts('rowTransitions'),
  columnTransitions: bcts('columnTransitions'),
  holes: bcts('holes'),
  cumulativeWells: bcts('cumulativeWells'),
  holeDepth: bcts('holeDepth'),
  rowsWithHoles: bcts('rowsWithHoles'),
  wellCells: -10,
  clean: 60,
  floorRows: -10,
  wellCover: -10,
});

/** What a move did, for the move-dependent features. */
export interface MoveFacts {
  /** Rows the move cleared. */
  lines: number;
  /** Cells of the placed piece inside the cleared rows. */
  erodedCells: number;
  /** Row of the piece's lowest cell, before rows were cleared. */
  landingRow: number;
  /** Rows the piece spans (highest cell row − lowest + 1). */
  pieceHeight: number;
}

/**
 * The features of a board after a move (rows already cleared). `rows` bottom first (at most 48), `height` rows
 * counted for the row-transition feature (every empty row counts 2, as in the reference); `wellColumn` -1 for none;
 * `coverWell` the column of a well a piece may cover (with `wellColumn` -1), -1 for none.
 * Computed by the recover kernel (assembly/recover/search.ts), the code the recover search values its boards with.
 */
export function boardFeatures(
  rows: ArrayLike<number>,
  width: number,
  height: number,
  move: MoveFacts,
  wellColumn: number,
  coverWell = -1,
): BoardFeatures {
  const kernel = RecoverKernel.get();
  kernel.configure({
    width,
    height,
    visibleHeight: height,
    wellColumn,
    coverWell,
    rowCount: rows.length,
    maxFloor: MAX_FLOOR,
    weights: RECOVER_WEIGHTS,
  });
  return kernel.boardFeatures(rows, move);
}
