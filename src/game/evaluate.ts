/**
 * The recover mode's board evaluator (docs/game.md, "Recover"): the BCTS features of docs/fullboard.md computed on
 * bit rows of any height (real boards reach 40 rows; FullBoard stops at 24), plus two terms that point the way
 * back to a clean stack: the filled cells of the well column and a bonus when the board is a clean stack again.
 *
 * Every feature has the exact definition of its namesake in src/fullboard/features.ts (the reference the tests
 * hold these equal to); only the arithmetic differs (bit masks and per-column counters instead of cell loops).
 */
import { PRESETS } from '../fullboard/presets.js';
import { popcount, stackFloor } from './grid.js';

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
}

export type RecoverWeights = { readonly [K in keyof BoardFeatures]: number };

const bcts = (name: (typeof PRESETS.bcts.features)[number]): number =>
  PRESETS.bcts.weights[PRESETS.bcts.features.indexOf(name)];

/**
 * BCTS weights (the `bcts` preset of docs/fullboard.md, Thiery & Scherrer 2009) with the recover terms: each cell
 * in the well column costs about one hole's worth, being back on a clean stack is worth more than the rows with
 * holes it takes to get there, and each row of a floor under it costs as much again as its well cell.
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
 * The features of a board after a move (rows already cleared). `rows` bottom first, `height` rows counted for
 * the row-transition feature (every empty row counts 2, as in the reference); `wellColumn` -1 for none.
 */
export function boardFeatures(
  rows: ArrayLike<number>,
  width: number,
  height: number,
  move: MoveFacts,
  wellColumn: number,
): BoardFeatures {
  const full = (1 << width) - 1;
  let top = 0; // rows 0..top-1 hold every filled cell
  for (let r = rows.length - 1; r >= 0; r--) {
    if (rows[r] !== 0) {
      top = r + 1;
      break;
    }
  }
  // Row transitions, walls filled: bit i of x = cell i - 1, bits 0 and width + 1 the walls.
  let rowTransitions = 2 * (height - top);
  // Column transitions: the floor counts as filled; the row above the board as empty.
  let columnTransitions = 0;
  let prev = full;
  // An open well is the stack's purpose, not a flaw: row transitions and wells read the well column as filled
  // (its cells cost `wellCells` instead). Without a well (-1) these are exactly the reference features.
  const wellBit = wellColumn >= 0 ? 1 << wellColumn : 0;
  for (let r = 0; r < top; r++) {
    const m = rows[r];
    const x = ((m | wellBit) << 1) | 1 | (1 << (width + 1));
    rowTransitions += popcount((x ^ (x >>> 1)) & ((1 << (width + 1)) - 1));
    columnTransitions += popcount(m ^ prev);
    prev = m;
  }
  columnTransitions += popcount(prev); // the top cells meet the empty row above (an empty board: the floor does)
  // Holes, rows with holes, hole depth: scan down with the columns already covered.
  let holes = 0;
  let rowsWithHoles = 0;
  let holeDepth = 0;
  let covered = 0;
  let wellCells = 0;
  for (let r = top - 1; r >= 0; r--) {
    const m = rows[r];
    const holeMask = ~m & covered & full;
    if (holeMask) {
      holes += popcount(holeMask);
      rowsWithHoles++;
      // Each hole's depth: the filled cells directly above it, up to the first empty one (counted on demand:
      // holes are few, rows times columns are many).
      for (let v = holeMask; v; v &= v - 1) {
        const c = 31 - Math.clz32(v & -v);
        for (let k = r + 1; k < top && (rows[k] >> c) & 1; k++) holeDepth++;
      }
    }
    covered |= m;
    if (wellColumn >= 0 && (m >> wellColumn) & 1) wellCells++;
  }
  // Cumulative wells: a well cell (empty, both neighbours filled, walls filled) adds the empty run from it down.
  // (The empty run from row r down, counted on demand for the few well cells.)
  let cumulativeWells = 0;
  for (let r = 0; r < top; r++) {
    const w = rows[r] | wellBit;
    const wells = ~w & ((w << 1) | 1) & ((w >> 1) | (1 << (width - 1))) & full;
    for (let v = wells; v; v &= v - 1) {
      const c = 31 - Math.clz32(v & -v);
      for (let k = r; k >= 0 && !((rows[k] >> c) & 1); k--) cumulativeWells++;
    }
  }
  // A clean stack on the bottom (no holes, nothing in the well) or over a floor of buried rows.
  const floor = wellColumn < 0 ? -1 : holes === 0 && wellCells === 0 ? 0 : stackFloor(rows, width, wellColumn);
  const clean = floor >= 0 && floor <= MAX_FLOOR ? 1 : 0;
  return {
    landingHeight: move.landingRow + (move.pieceHeight - 1) / 2,
    erodedPieceCells: move.lines * move.erodedCells,
    rowTransitions,
    columnTransitions,
    holes,
    cumulativeWells,
    holeDepth,
    rowsWithHoles,
    wellCells,
    clean,
    floorRows: clean ? floor : 0,
  };
}

/** Σ weight × feature. */
export function scoreFeatures(f: BoardFeatures, w: RecoverWeights = RECOVER_WEIGHTS): number {
  return w.landingHeight * f.landingHeight + w.erodedPieceCells * f.erodedPieceCells + scoreBoardTerms(f, w);
}

/** Σ weight × feature over the features of the board alone (all but the move's landing height and eroded cells). */
export function scoreBoardTerms(f: BoardFeatures, w: RecoverWeights = RECOVER_WEIGHTS): number {
  return (
    w.rowTransitions * f.rowTransitions +
    w.columnTransitions * f.columnTransitions +
    w.holes * f.holes +
    w.cumulativeWells * f.cumulativeWells +
    w.holeDepth * f.holeDepth +
    w.rowsWithHoles * f.rowsWithHoles +
    w.wellCells * f.wellCells +
    w.clean * f.clean +
    w.floorRows * f.floorRows
  );
}
