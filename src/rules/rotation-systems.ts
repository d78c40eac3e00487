/**
 * Rotation systems: each piece's rotation states (cells relative to the placement's reference point), the state
 * names, which state `cw`/`ccw` lead to, where a piece spawns horizontally, and the kicks tried when a rotation
 * is blocked. docs/rules.md ("Real games") draws every state and cites the specification each system follows.
 *
 * No shape is written here: the cells come from the one piece table (ORIENTATIONS, src/pieces.ts). SRS places each
 * piece's first orientation in its box and turns it; ARS and NRS take SRS's states in their own order and place
 * them their own way; classic is the orientations themselves.
 *
 * Coordinates: `x` to the right, `y` up, so a state's cells are [dx, dy] offsets from the reference (x, y):
 * - SRS and ARS: the bottom-left corner of the piece's bounding box (3 × 3 for J L S T Z, 4 × 4 for I, 2 × 2
 *   for O), so the reference of a resting piece may be left of column 0 or below row 0;
 * - NRS: the cell the piece rotates about (NES Tetris's own piece position);
 * - classic: the lowest row and leftmost column of the orientation (the library's move column, src/pieces.ts).
 */
import { requireInt } from '../errors.js';
import { ORIENTATIONS, PIECES, orientationCells, toPieceId, type Piece } from '../pieces.js';
import { BOARD_MAX_WIDTH, BOARD_MIN_WIDTH } from './board.js';
import type { Cell, PieceMove } from './types.js';
import { deepFreeze } from '../frozen.js';

export type RotationSystemName = 'classic' | 'NRS' | 'SRS' | 'ARS';
export const ROTATION_SYSTEM_NAMES: readonly RotationSystemName[] = Object.freeze(['classic', 'NRS', 'SRS', 'ARS']);

export interface PieceStates {
  readonly piece: Piece;
  /** State names, index 0 = the spawn state. */
  readonly names: readonly string[];
  /** cells[s] = the four [dx, dy] offsets of state s from the reference point. */
  readonly cells: readonly (readonly Cell[])[];
  /** cw[s] / ccw[s] = the state a clockwise / counter-clockwise press leads to. */
  readonly cw: readonly number[];
  readonly ccw: readonly number[];
  /** Width of the box whose left edge is placed at spawn (SRS/ARS box, classic orientation, NRS: unused). */
  readonly spawnBox: number;
}

export interface RotationSystem {
  readonly name: RotationSystemName;
  /** What a placement's (x, y) means in this system (docs/rules.md shows it per piece). */
  readonly reference: string;
  /** States of each piece, by piece id (I O T S Z L J). */
  readonly pieces: readonly PieceStates[];
  /** Reference x of the spawn state on a board `width` columns wide. */
  spawnX(pieceId: number, width: number): number;
  /** Offsets tried, in order, when rotating pieceId from state `from` to `to`; the first is always [0, 0]. */
  kicks(pieceId: number, from: number, to: number): readonly Cell[];
  /**
   * ARS's centre-column rule: when true for this rotation and the unkicked rotation is blocked, the first blocked
   * cell of the new state in reading order (top row first, left to right) decides: in the box's centre column, no
   * kick is tried.
   */
  centreColumnRule(pieceId: number, from: number, to: number): boolean;
}

/**
 * The exported system with its methods checking their arguments first (docs/errors.md: a public function throws
 * only StackRankError): a piece is a letter or an id 0..6 (BAD_PIECE), a width one a Board takes and a state one
 * of that piece's states in this system (BAD_ARGUMENT). Without the checks a bad piece id is a TypeError.
 */
function checked(system: RotationSystem): RotationSystem {
  const state = (pieceId: number, what: string, value: unknown) =>
    requireInt(
      `${what} (a state of ${system.name} ${PIECES[pieceId]})`,
      value,
      0,
      system.pieces[pieceId].names.length - 1,
    );
  return Object.freeze({
    name: system.name,
    reference: system.reference,
    pieces: deepFreeze(system.pieces),
    spawnX(pieceId: number, width: number): number {
      const id = toPieceId(pieceId);
      return system.spawnX(id, requireInt('board width', width, BOARD_MIN_WIDTH, BOARD_MAX_WIDTH));
    },
    kicks(pieceId: number, from: number, to: number): readonly Cell[] {
      const id = toPieceId(pieceId);
      return system.kicks(id, state(id, 'from', from), state(id, 'to', to));
    },
    centreColumnRule(pieceId: number, from: number, to: number): boolean {
      const id = toPieceId(pieceId);
      return system.centreColumnRule(id, state(id, 'from', from), state(id, 'to', to));
    },
  });
}

const SRS_NAMES = ['0', 'R', '2', 'L'] as const;
const CYCLE4 = { cw: [1, 2, 3, 0], ccw: [3, 0, 1, 2] };
const CYCLE2 = { cw: [1, 0], ccw: [1, 0] };
const CYCLE1 = { cw: [0], ccw: [0] };

/** Cells sorted by row, then column (the order every placement reports). */
export function sortCells(cells: readonly Cell[]): Cell[] {
  return [...cells].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
}

/** A key for the shape of a set of cells wherever it stands: the cells moved to the origin, sorted, joined. */
export function shapeKey(cells: readonly Cell[]): string {
  const mx = Math.min(...cells.map((c) => c[0]));
  const my = Math.min(...cells.map((c) => c[1]));
  return sortCells(cells.map(([x, y]): Cell => [x - mx, y - my])).join(';');
}

/** Clockwise quarter turn inside an n × n box (y up): (x, y) -> (y, n - 1 - x). */
function turnCw(cells: readonly Cell[], n: number): Cell[] {
  return sortCells(cells.map(([x, y]) => [y, n - 1 - x] as Cell));
}

function states(piece: Piece, names: readonly string[], cells: Cell[][], spawnBox: number): PieceStates {
  const cycle = cells.length === 4 ? CYCLE4 : cells.length === 2 ? CYCLE2 : CYCLE1;
  return Object.freeze({
    piece,
    names: Object.freeze([...names]),
    cells: Object.freeze(cells.map((c) => Object.freeze(c))),
    cw: cycle.cw,
    ccw: cycle.ccw,
    spawnBox,
  });
}

// ---------------------------------------------------------------------------------------------------------------
// SRS (the Tetris Guideline): a piece spawns as its first orientation in a square box as wide as that orientation,
// raised box − 2 rows (the top two rows of the 3 × 3 box, the second row from the top of the I's 4 × 4, the whole
// O box); the other three states are quarter turns about the box centre.
const SRS_PIECES: readonly PieceStates[] = PIECES.map((p, id) => {
  const spawn = ORIENTATIONS[id][0];
  const box = spawn.width;
  const all = [sortCells(orientationCells(spawn).map(([x, y]): Cell => [x, y + box - 2]))];
  for (let i = 1; i < 4; i++) all.push(turnCw(all[i - 1], box));
  return states(p, SRS_NAMES, all, box);
});

/** The SRS state of `piece` named `name`, its cells moved by (dx, dy). */
function srsState(piece: Piece, name: string, dx: number, dy: number): Cell[] {
  const cells = SRS_PIECES[PIECES.indexOf(piece)].cells[SRS_NAMES.indexOf(name as (typeof SRS_NAMES)[number])];
  return sortCells(cells.map(([x, y]): Cell => [x + dx, y + dy]));
}

/** SRS kick offsets (y up) for J L S T Z, keyed "from>to" by state index; the Guideline's table. */
const SRS_JLSTZ_KICKS: Record<string, Cell[]> = {
  '0>1': [
    [0, 0],
    [-1, 0],
    [-1, 1],
    [0, -2],
    [-1, -2],
  ],
  '1>0': [
    [0, 0],
    [1, 0],
    [1, -1],
    [0, 2],
    [1, 2],
  ],
  '1>2': [
    [0, 0],
    [1, 0],
    [1, -1],
    [0, 2],
    [1, 2],
  ],
  '2>1': [
    [0, 0],
    [-1, 0],
    [-1, 1],
    [0, -2],
    [-1, -2],
  ],
  '2>3': [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, -2],
    [1, -2],
  ],
  '3>2': [
    [0, 0],
    [-1, 0],
    [-1, -1],
    [0, 2],
    [-1, 2],
  ],
  '3>0': [
    [0, 0],
    [-1, 0],
    [-1, -1],
    [0, 2],
    [-1, 2],
  ],
  '0>3': [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, -2],
    [1, -2],
  ],
};
const SRS_I_KICKS: Record<string, Cell[]> = {
  '0>1': [
    [0, 0],
    [-2, 0],
    [1, 0],
    [-2, -1],
    [1, 2],
  ],
  '1>0': [
    [0, 0],
    [2, 0],
    [-1, 0],
    [2, 1],
    [-1, -2],
  ],
  '1>2': [
    [0, 0],
    [-1, 0],
    [2, 0],
    [-1, 2],
    [2, -1],
  ],
  '2>1': [
    [0, 0],
    [1, 0],
    [-2, 0],
    [1, -2],
    [-2, 1],
  ],
  '2>3': [
    [0, 0],
    [2, 0],
    [-1, 0],
    [2, 1],
    [-1, -2],
  ],
  '3>2': [
    [0, 0],
    [-2, 0],
    [1, 0],
    [-2, -1],
    [1, 2],
  ],
  '3>0': [
    [0, 0],
    [1, 0],
    [-2, 0],
    [1, -2],
    [-2, 1],
  ],
  '0>3': [
    [0, 0],
    [-1, 0],
    [2, 0],
    [-1, 2],
    [2, -1],
  ],
};
const NO_KICK: readonly Cell[] = Object.freeze([[0, 0] as Cell]);
const I_ID = 0;
const O_ID = 1;

export const SRS: RotationSystem = checked({
  name: 'SRS',
  reference: 'bottom-left corner of the bounding box (3 × 3 for J L S T Z, 4 × 4 for I, 2 × 2 for O)',
  pieces: SRS_PIECES,
  spawnX: (pieceId: number, width: number) => Math.floor((width - SRS_PIECES[pieceId].spawnBox) / 2),
  kicks(pieceId: number, from: number, to: number): readonly Cell[] {
    if (pieceId === O_ID) return NO_KICK;
    return (pieceId === I_ID ? SRS_I_KICKS : SRS_JLSTZ_KICKS)[`${from}>${to}`] ?? NO_KICK;
  },
  centreColumnRule: () => false,
});

// ---------------------------------------------------------------------------------------------------------------
// ARS (TGM): SRS's states from TGM's spawn state on, clockwise (T, L and J appear pointing down; I, S and Z have
// two states), each J L S T Z state resting on the floor of its 3 × 3 box; the I and the O stand as in SRS.
const ARS_FROM_SRS: Record<Piece, readonly string[]> = {
  I: ['0', 'R'],
  O: ['0'],
  T: ['2', 'L', '0', 'R'],
  S: ['2', 'L'],
  Z: ['2', 'R'],
  L: ['2', 'L', '0', 'R'],
  J: ['2', 'L', '0', 'R'],
};

const ARS_PIECES: readonly PieceStates[] = PIECES.map((p, id) => {
  const box = SRS_PIECES[id].spawnBox;
  const cells = ARS_FROM_SRS[p].map((name) => {
    const floor = box === 3 ? Math.min(...srsState(p, name, 0, 0).map((c) => c[1])) : 0;
    return srsState(p, name, 0, -floor);
  });
  return states(p, SRS_NAMES.slice(0, cells.length), cells, box);
});
const ARS_KICKS: readonly Cell[] = Object.freeze([
  [0, 0],
  [1, 0],
  [-1, 0],
] as Cell[]);
const T_ID = 2;
const L_ID = 5;
const J_ID = 6;

export const ARS: RotationSystem = checked({
  name: 'ARS',
  reference: 'bottom-left corner of the bounding box (3 × 3 for J L S T Z, 4 × 4 for I, 2 × 2 for O)',
  pieces: ARS_PIECES,
  spawnX: (pieceId: number, width: number) => Math.floor((width - ARS_PIECES[pieceId].spawnBox) / 2),
  // TGM1/TGM2: basic rotation, then one column right, then one left; the I never kicks.
  kicks: (pieceId: number) => (pieceId === I_ID || pieceId === O_ID ? NO_KICK : ARS_KICKS),
  // L, J and T rotating out of a 3-wide state (0 or 2) into a vertical one do not kick off their centre column.
  centreColumnRule: (pieceId: number, from: number) =>
    (pieceId === T_ID || pieceId === L_ID || pieceId === J_ID) && (from === 0 || from === 2),
});

// ---------------------------------------------------------------------------------------------------------------
// NRS (NES Tetris): SRS's states from NES Tetris's spawn state on, clockwise (T, L and J appear pointing down; I, S
// and Z have two states), as offsets from the cell the piece turns about: the centre of the 3 × 3 box, the O's top
// right cell, the I's third cell from the left when it lies flat.
const NRS_FROM_SRS: Record<Piece, readonly string[]> = {
  I: ['2', 'R'],
  O: ['0'],
  T: ['2', 'L', '0', 'R'],
  S: ['2', 'R'],
  Z: ['2', 'R'],
  L: ['2', 'L', '0', 'R'],
  J: ['2', 'L', '0', 'R'],
};
const NRS_PIVOT: Record<Piece, Cell> = { I: [2, 1], O: [1, 1], T: [1, 1], S: [1, 1], Z: [1, 1], L: [1, 1], J: [1, 1] };

const NRS_PIECES: readonly PieceStates[] = PIECES.map((p) => {
  const [px, py] = NRS_PIVOT[p];
  const cells = NRS_FROM_SRS[p].map((name) => srsState(p, name, -px, -py));
  return states(p, SRS_NAMES.slice(0, cells.length), cells, 0);
});

export const NRS: RotationSystem = checked({
  name: 'NRS',
  reference: "the cell the piece rotates about (NES Tetris's piece position)",
  pieces: NRS_PIECES,
  // NES Tetris spawns the rotation centre in column 5 of 10.
  spawnX: (_pieceId: number, width: number) => Math.floor(width / 2),
  kicks: () => NO_KICK,
  centreColumnRule: () => false,
});

// ---------------------------------------------------------------------------------------------------------------
// classic: the library's own orientations (src/pieces.ts); names are the orientation indices. A press turns the
// orientation a quarter clockwise or counter-clockwise keeping its left column and bottom row (no kicks): the
// article's game has no rotation system, only "any orientation at any column, dropped from above".
function normalise(cells: readonly Cell[]): Cell[] {
  const minX = Math.min(...cells.map((c) => c[0]));
  const minY = Math.min(...cells.map((c) => c[1]));
  return sortCells(cells.map(([x, y]) => [x - minX, y - minY] as Cell));
}
const sameCells = (a: readonly Cell[], b: readonly Cell[]) =>
  a.length === b.length && a.every((c, i) => c[0] === b[i][0] && c[1] === b[i][1]);

const CLASSIC_PIECES: readonly PieceStates[] = PIECES.map((p, id) => {
  const all = ORIENTATIONS[id].map((o) => sortCells(orientationCells(o) as Cell[]));
  const cwOf = all.map((cells) => {
    const turned = normalise(cells.map(([x, y]) => [y, -x] as Cell));
    return all.findIndex((c) => sameCells(c, turned));
  });
  const ccwOf = all.map((_, k) => cwOf.indexOf(k));
  return Object.freeze({
    piece: p,
    names: Object.freeze(all.map((_, k) => String(k))),
    cells: Object.freeze(all.map((c) => Object.freeze(c))),
    cw: Object.freeze(cwOf),
    ccw: Object.freeze(ccwOf),
    spawnBox: ORIENTATIONS[id][0].width,
  });
});

/**
 * The move (src/rules/types.ts PieceMove) of orientation `orientation` of piece `pieceId` (ORIENTATIONS order) with
 * its leftmost column at `x` and lowest row at `y`, in the classic rule set's terms: how the stacking AI and the
 * full-board player, which place the library's orientations by column, state their moves.
 */
export function classicMove(pieceId: number, orientation: number, x: number, y: number): PieceMove {
  const states = CLASSIC_PIECES[pieceId];
  return {
    piece: states.piece,
    rotation: states.names[orientation],
    x,
    y,
    cells: states.cells[orientation].map(([dx, dy]) => [x + dx, y + dy] as const),
  };
}

export const CLASSIC: RotationSystem = checked({
  name: 'classic',
  reference: "leftmost column and lowest row of the orientation (the library's orientation and column)",
  pieces: CLASSIC_PIECES,
  spawnX: (pieceId: number, width: number) => Math.floor((width - CLASSIC_PIECES[pieceId].spawnBox) / 2),
  kicks: () => NO_KICK,
  centreColumnRule: () => false,
});

export const ROTATION_SYSTEMS: Readonly<Record<RotationSystemName, RotationSystem>> = Object.freeze({
  classic: CLASSIC,
  NRS,
  SRS,
  ARS,
});
