/**
 * Board features of the full-board player, one named function each with its exact definition (in the manner of
 * MdpTetris). These TypeScript versions are the reference: straightforward cell-by-cell code that the
 * WebAssembly bitboard evaluator (assembly/fullboard/features.ts) is tested against, feature by feature.
 *
 * Conventions shared by all: row 0 is the bottom; a column's height is the row above its highest filled cell
 * (0 when empty); the board is evaluated AFTER the move is placed and its full rows are removed. Move-dependent
 * features take a drop's figures (DropFigures). Features named "...Continuous", "...BelowTop", "...TimesTen" and "wellsTriangle" are
 * the conventions of the code that trained the CS3243 GA report's weights (see presets.ts); the others are the clean,
 * usual definitions (Dellacherie; Thiery & Scherrer's BCTS).
 *
 * Adding a feature: write its function here (its exact definition in the doc comment), add one entry to FEATURES
 * below, give it an id in assembly/fullboard/layout.ts (F_*) and one line in the kernel's feature registry
 * (assembly/fullboard/features.ts featureSum). The tests compare every feature of the kernel with these.
 */
import { StackRankError, describe, fieldsOnce } from '../errors.js';
import type { Board } from '../rules/board.js';
import { maxHeight as rowsMaxHeight } from '../board-rows.js';
import { MAX_HEIGHT, checkFullBoard, type DropFigures } from './drops.js';
import {
  F_COLUMN_TRANSITIONS,
  F_COLUMN_TRANSITIONS_BELOW_TOP,
  F_CUMULATIVE_WELLS,
  F_ERODED_PIECE_CELLS,
  F_HOLES,
  F_HOLES_TIMES_TEN,
  F_HOLE_DEPTH,
  F_LANDING_HEIGHT,
  F_MAX_HEIGHT,
  F_ROWS_CLEARED,
  F_ROWS_WITH_HOLES,
  F_ROW_TRANSITIONS,
  F_ROW_TRANSITIONS_CONTINUOUS,
  F_WELLS_TRIANGLE,
} from '../kernels/fullboard.js';

/** The figures of no drop: a board evaluated on its own. */
export const NO_DROP: DropFigures = { lines: 0, erodedCells: 0, landingRow: 0, pieceHeight: 1 };

const cell = (b: Board, r: number, c: number): number => (b.rows[r] >> c) & 1;

/** rowsCleared: number of rows the move removed. */
export function rowsCleared(_b: Board, m: DropFigures): number {
  return m.lines;
}

/**
 * rowTransitions (Dellacherie; as in MdpTetris): for every row 0..height-1, the number of horizontally adjacent
 * pairs of cells that differ, with both walls counted as filled cells (a row has width + 1 pairs). An empty row
 * counts 2.
 */
export function rowTransitions(b: Board): number {
  let n = 0;
  for (let r = 0; r < b.height; r++) {
    let prev = 1;
    for (let c = 0; c < b.width; c++) {
      const v = cell(b, r, c);
      if (v !== prev) n++;
      prev = v;
    }
    if (prev !== 1) n++;
  }
  return n;
}

/**
 * rowTransitionsContinuous (the CS3243 GA report's code): ONE row-major scan over all height + 1 rows (rows 0..height, the
 * extra row always empty) that starts against a filled left wall on row 0 and is not reset between rows: the
 * first cell of each row is compared with the last cell of the row below. At the end of each row the last cell is
 * also compared with the right wall, which counts as filled (this does not change what the next row starts from).
 */
export function rowTransitionsContinuous(b: Board): number {
  let n = 0;
  let prev = 1;
  for (let r = 0; r <= b.height; r++) {
    for (let c = 0; c < b.width; c++) {
      const v = r < b.height ? cell(b, r, c) : 0;
      if (v !== prev) n++;
      prev = v;
    }
    if (prev !== 1) n++;
  }
  return n;
}

/**
 * columnTransitions (Dellacherie; as in MdpTetris): for every column, the number of vertically adjacent pairs of
 * cells that differ over the sequence [floor, row 0, …, row height-1, one empty row above the board], the floor
 * counted as filled. An empty column counts 1 (floor to empty); a column reaching the top row still counts its
 * change into the empty row above.
 */
export function columnTransitions(b: Board): number {
  let n = 0;
  for (let c = 0; c < b.width; c++) {
    let prev = 1;
    for (let r = 0; r <= b.height; r++) {
      const v = r < b.height ? cell(b, r, c) : 0;
      if (v !== prev) n++;
      prev = v;
    }
  }
  return n;
}

/**
 * columnTransitionsBelowTop (the CS3243 GA report's code): for every column, the changes between adjacent cells of the
 * sequence [floor (filled), row 0, …, row height(c) − 1], i.e. below the column's top plus the floor. It equals
 * columnTransitions − width: a constant offset, so it plays exactly as columnTransitions does.
 */
export function columnTransitionsBelowTop(b: Board): number {
  const h = b.heights();
  let n = 0;
  for (let c = 0; c < b.width; c++) {
    let prev = 1;
    for (let r = 0; r < h[c]; r++) {
      const v = cell(b, r, c);
      if (v !== prev) n++;
      prev = v;
    }
  }
  return n;
}

/** holes: empty cells below their column's height (with at least one filled cell above them in the column). */
export function holes(b: Board): number {
  return b.holes();
}

/** holesTimesTen (the CS3243 GA report's code): 10 × holes. */
export function holesTimesTen(b: Board): number {
  return 10 * b.holes();
}

/**
 * cumulativeWells (Dellacherie's original well sums, as in MdpTetris): a well cell is an empty cell whose left and
 * right neighbours are filled (walls count as filled). Every well cell adds the number of successive empty cells
 * from it downwards, itself included (stopping at a filled cell or the floor). A plain well of depth d thus adds
 * 1 + 2 + … + d; a well over a covered hole also counts the hole's empty cells below it.
 */
export function cumulativeWells(b: Board): number {
  let n = 0;
  for (let c = 0; c < b.width; c++) {
    for (let r = 0; r < b.height; r++) {
      const left = c === 0 ? 1 : cell(b, r, c - 1);
      const right = c === b.width - 1 ? 1 : cell(b, r, c + 1);
      if (!cell(b, r, c) && left && right) {
        for (let k = r; k >= 0 && !cell(b, k, c); k--) n++;
      }
    }
  }
  return n;
}

/**
 * wellsTriangle (the CS3243 GA report's code): every empty cell at or above its column's height whose left and right
 * neighbours are filled (walls count as filled) adds the triangle number T(k) = k(k + 1) / 2 with
 * k = row − height(c) + 1, whether or not the cells between it and the column's top are well cells too.
 */
export function wellsTriangle(b: Board): number {
  const h = b.heights();
  let n = 0;
  for (let c = 0; c < b.width; c++) {
    for (let r = h[c]; r < b.height; r++) {
      const left = c === 0 ? 1 : cell(b, r, c - 1);
      const right = c === b.width - 1 ? 1 : cell(b, r, c + 1);
      if (left && right) {
        const k = r - h[c] + 1;
        n += (k * (k + 1)) / 2;
      }
    }
  }
  return n;
}

/** maxHeight: the highest column height. */
export function maxHeight(b: Board): number {
  return rowsMaxHeight(b.rows);
}

/**
 * landingHeight (Dellacherie): height of the middle of the placed piece, landingRow + (pieceHeight − 1) / 2, with
 * landingRow the 0-based row of its lowest cell before rows were removed.
 */
export function landingHeight(_b: Board, m: DropFigures): number {
  return m.landingRow + (m.pieceHeight - 1) / 2;
}

/** erodedPieceCells (Dellacherie): rows removed × cells of the placed piece inside the removed rows. */
export function erodedPieceCells(_b: Board, m: DropFigures): number {
  return m.lines * m.erodedCells;
}

/**
 * holeDepth (BCTS; as in MdpTetris): for every hole, the number of successive filled cells directly above it in
 * its column (up to the next empty cell or the column's top), summed.
 */
export function holeDepth(b: Board): number {
  let n = 0;
  for (let c = 0; c < b.width; c++) {
    for (let r = 0; r + 1 < b.height; r++) {
      if (cell(b, r, c)) continue;
      for (let k = r + 1; k < b.height && cell(b, k, c); k++) n++;
    }
  }
  return n;
}

/** rowsWithHoles (BCTS): rows that contain at least one hole. */
export function rowsWithHoles(b: Board): number {
  const h = b.heights();
  let n = 0;
  for (let r = 0; r < b.height; r++) {
    let any = false;
    for (let c = 0; c < b.width && !any; c++) any = r < h[c] && !cell(b, r, c);
    if (any) n++;
  }
  return n;
}

/** A feature: its name, its id in the kernel (weights and feature vectors are indexed by it) and its function. */
export interface FeatureEntry<N extends string = string> {
  readonly name: N;
  readonly id: number;
  readonly value: (b: Board, m: DropFigures) => number;
}

/** The feature functions with their own arguments (unchecked), in kernel id order: featureValues checks once. */
const REFERENCE = [
  { name: 'rowsCleared', id: F_ROWS_CLEARED, value: rowsCleared, move: true },
  { name: 'rowTransitions', id: F_ROW_TRANSITIONS, value: rowTransitions, move: false },
  { name: 'rowTransitionsContinuous', id: F_ROW_TRANSITIONS_CONTINUOUS, value: rowTransitionsContinuous, move: false },
  { name: 'columnTransitions', id: F_COLUMN_TRANSITIONS, value: columnTransitions, move: false },
  {
    name: 'columnTransitionsBelowTop',
    id: F_COLUMN_TRANSITIONS_BELOW_TOP,
    value: columnTransitionsBelowTop,
    move: false,
  },
  { name: 'holes', id: F_HOLES, value: holes, move: false },
  { name: 'holesTimesTen', id: F_HOLES_TIMES_TEN, value: holesTimesTen, move: false },
  { name: 'cumulativeWells', id: F_CUMULATIVE_WELLS, value: cumulativeWells, move: false },
  { name: 'wellsTriangle', id: F_WELLS_TRIANGLE, value: wellsTriangle, move: false },
  { name: 'maxHeight', id: F_MAX_HEIGHT, value: maxHeight, move: false },
  { name: 'landingHeight', id: F_LANDING_HEIGHT, value: landingHeight, move: true },
  { name: 'erodedPieceCells', id: F_ERODED_PIECE_CELLS, value: erodedPieceCells, move: true },
  { name: 'holeDepth', id: F_HOLE_DEPTH, value: holeDepth, move: false },
  { name: 'rowsWithHoles', id: F_ROWS_WITH_HOLES, value: rowsWithHoles, move: false },
] as const;

/**
 * A registry function as callers get it: the board checked (checkFullBoard), and for a move feature (rowsCleared,
 * landingHeight, erodedPieceCells) the figures too (checkFigures); a board feature ignores its second argument.
 */
function checked(name: string, value: (b: Board, m: DropFigures) => number, move: boolean) {
  const f = (b: Board, m: DropFigures): number =>
    value(checkFullBoard(b, name), move ? checkFigures(m, name) : NO_DROP);
  return Object.defineProperty(f, 'name', { value: name });
}

/** The feature registry, in kernel id order (MdpTetris's all_features[]): one entry per feature. Frozen, as the
 * lists below: the players read them live. */
export const FEATURES = Object.freeze(
  REFERENCE.map(({ name, id, value, move }) => Object.freeze({ name, id, value: checked(name, value, move) })),
) as unknown as Registry<typeof REFERENCE>;

/** REFERENCE's entries as FEATURES holds them (no `move`), tuple and literal names kept. */
type Registry<T extends readonly object[]> = { readonly [K in keyof T]: Omit<T[K], 'move'> };

export type FeatureName = (typeof FEATURES)[number]['name'];
/** Feature names in kernel id order. */
export const FEATURE_NAMES: readonly FeatureName[] = Object.freeze(FEATURES.map((f) => f.name));
export const FEATURE_COUNT = FEATURES.length;
/** Each feature's function, by name. */
export const FEATURE_FUNCTIONS = Object.freeze(Object.fromEntries(FEATURES.map((f) => [f.name, f.value]))) as Record<
  FeatureName,
  (b: Board, m: DropFigures) => number
>;

/** All features of a board (reference implementation), keyed by name. */
export function featureValues(b: Board, m: DropFigures = NO_DROP): Record<FeatureName, number> {
  checkFullBoard(b, 'featureValues');
  const figures = checkFigures(m, 'featureValues');
  const out = {} as Record<FeatureName, number>;
  for (const f of REFERENCE) out[f.name] = f.value(b, figures);
  return out;
}

/**
 * A drop's figures as a caller gives them (a dropPiece result, or figures of its own), read once (docs/errors.md)
 * into a copy and checked: each an integer from 0 to the highest board's rows (MAX_HEIGHT; `lines` may count two
 * moves' rows, as a 2-ply leaf does), `pieceHeight` at least 1.
 */
function checkFigures(m: unknown, what: string): DropFigures {
  if (m === null || typeof m !== 'object')
    throw new StackRankError(
      'BAD_ARGUMENT',
      `a drop's figures must be { lines, erodedCells, landingRow, pieceHeight } (a dropPiece result); got ${describe(m)}`,
    );
  const f = fieldsOnce(`${what}: the drop's figures`, m, FIGURES);
  for (const key of FIGURES) {
    const v = f[key];
    const low = key === 'pieceHeight' ? 1 : 0;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < low || v > MAX_HEIGHT)
      throw new StackRankError(
        'BAD_ARGUMENT',
        `${what}: the drop's ${key} must be an integer from ${low} to ${MAX_HEIGHT} (a dropPiece result's figures); got ${describe(v)}`,
      );
  }
  return f as unknown as DropFigures;
}

const FIGURES = ['lines', 'erodedCells', 'landingRow', 'pieceHeight'] as const;
