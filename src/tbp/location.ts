/**
 * Piece locations of the Tetris Bot Protocol (docs/tbp.md, "Coordinates") and the library's SRS moves, both ways.
 *
 * TBP places a piece by the centre it turns about in SRS ("SRS true rotation"): for J L S T Z the stationary cell
 * of basic rotation, the centre of their 3 × 3 box; for the O and the I, a cell named per orientation (north:
 * bottom-left mino of the O, middle-left mino of the I; east: top-left, middle-top; south: top-right, middle-right;
 * west: bottom-right, middle-bottom). The library places an SRS piece by the bottom-left corner of its box (3 × 3,
 * 4 × 4 for the I, 2 × 2 for the O; docs/rules.md, "Rotation systems"). Both count x from the left and y from the
 * bottom, from 0, so the two differ by one offset per piece and orientation.
 */
import { PIECES, pieceId, type Piece } from '../pieces.js';
import { SRS } from '../rules/rotation-systems.js';
import type { Cell } from '../rules/types.js';

/** TBP's rotation states, spawn first, then clockwise: the library's SRS '0' 'R' '2' 'L' in that order. */
export const TBP_ORIENTATIONS = ['north', 'east', 'south', 'west'] as const;
export type TbpOrientation = (typeof TBP_ORIENTATIONS)[number];

/** SRS state names in the order of TBP_ORIENTATIONS (the rotation system's own order). */
const SRS_STATE_NAMES = ['0', 'R', '2', 'L'] as const;

/** A TBP piece location: the piece, its orientation and its centre. */
export interface TbpLocation {
  readonly type: Piece;
  readonly orientation: TbpOrientation;
  readonly x: number;
  readonly y: number;
}

/** A location as the library says it: the SRS state name and the box's bottom-left corner. */
export interface SrsPlacement {
  readonly piece: Piece;
  readonly rotation: string;
  readonly x: number;
  readonly y: number;
}

/** Centre minus box corner, per orientation (north, east, south, west): the O's and the I's named cells. */
const O_CENTRE: readonly Cell[] = [
  [0, 0],
  [0, 1],
  [1, 1],
  [1, 0],
];
const I_CENTRE: readonly Cell[] = [
  [1, 2],
  [2, 2],
  [2, 1],
  [1, 1],
];
/** J L S T Z turn about the centre of their 3 × 3 box in every orientation. */
const BOX_CENTRE: Cell = [1, 1];

function centreOffset(piece: Piece, s: number): Cell {
  return piece === 'O' ? O_CENTRE[s] : piece === 'I' ? I_CENTRE[s] : BOX_CENTRE;
}

/** The orientation's index 0..3, or -1 when it is not one of TBP_ORIENTATIONS. */
export function orientationIndex(orientation: unknown): number {
  return TBP_ORIENTATIONS.indexOf(orientation as TbpOrientation);
}

/** The library's SRS placement of a TBP location (on checked fields). */
export function srsFromTbp(location: TbpLocation): SrsPlacement {
  const s = orientationIndex(location.orientation);
  const [dx, dy] = centreOffset(location.type, s);
  return { piece: location.type, rotation: SRS_STATE_NAMES[s], x: location.x - dx, y: location.y - dy };
}

/** The TBP location of a library SRS placement (rotation '0' 'R' '2' 'L'). */
export function tbpFromSrs(placement: SrsPlacement): TbpLocation {
  const s = SRS_STATE_NAMES.indexOf(placement.rotation as (typeof SRS_STATE_NAMES)[number]);
  if (s < 0) throw new Error(`not an SRS rotation state: ${placement.rotation}`);
  const [dx, dy] = centreOffset(placement.piece, s);
  return { type: placement.piece, orientation: TBP_ORIENTATIONS[s], x: placement.x + dx, y: placement.y + dy };
}

/** The four cells of a TBP location, by the library's SRS geometry, sorted by row, then column. */
export function tbpCells(location: TbpLocation): Cell[] {
  const p = srsFromTbp(location);
  const s = SRS_STATE_NAMES.indexOf(p.rotation as (typeof SRS_STATE_NAMES)[number]);
  return SRS.pieces[pieceId(p.piece)].cells[s]
    .map(([dx, dy]) => [p.x + dx, p.y + dy] as Cell)
    .sort((a, b) => a[1] - b[1] || a[0] - b[0]);
}

/** Whether `value` is a piece letter (I O T S Z L J). */
export function isPieceLetter(value: unknown): value is Piece {
  return typeof value === 'string' && (PIECES as readonly string[]).includes(value);
}
