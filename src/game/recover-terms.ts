/**
 * The terms of recover mode's evaluator (docs/game.md, "Recover mode"): what a board and a move are measured by,
 * and the weights that value them. Shared by the evaluator (./evaluate.ts), the beam search (./recover.ts) and the
 * recover kernel's driver (src/kernels/recover.ts), which measures them in WebAssembly.
 */

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
   * at most the AI's highest floor of buried rows (policy.ts, MAX_FLOOR), else 0. */
  clean: number;
  /** The floor of that clean stack (rows buried under it), 0 when the board is not one. */
  floorRows: number;
  /** In the column of a well a piece may cover (tall boards near the top: docs/game.md, "Recover mode"), the cells
   * over its highest empty cell, 0 elsewhere; that column's empty cells under them are not holes. */
  wellCover: number;
}

export type RecoverWeights = { readonly [K in keyof BoardFeatures]: number };

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
