/**
 * Piece geometry: the single source of truth (table in docs/rules.md, "Pieces"). The WebAssembly kernels never hard-code shapes; the
 * move tables they read are generated from this file at run time (see rank-moves.ts and the search tables), and the
 * rotation systems' states are these orientations placed in their boxes (src/rules/rotation-systems.ts).
 *
 * An orientation is its width and, per column j, `bot[j]` (row of its lowest cell) and `top[j]` (row above its
 * highest cell), rows counted up from the piece's lowest row.
 */
import { StackRankError, describe } from './errors.js';
import { deepFreeze } from './frozen.js';

export const PIECES = Object.freeze(['I', 'O', 'T', 'S', 'Z', 'L', 'J'] as const);
export type Piece = (typeof PIECES)[number];
export type PieceId = 0 | 1 | 2 | 3 | 4 | 5 | 6;
export const PIECE_COUNT = 7;
/** Per piece, the chances (I O T S Z L J) of a piece that is known: certainly that one. */
export const CERTAIN_PIECE: readonly (readonly number[])[] = PIECES.map((_, i) =>
  PIECES.map((__, j) => (i === j ? 1 : 0)),
);

export interface Orientation {
  readonly width: number;
  readonly bot: readonly number[];
  readonly top: readonly number[];
}

/** Compact notation of docs/rules.md ("Pieces"): "w:bot/top". */
const GEOMETRY: Record<Piece, readonly string[]> = {
  I: ['4:0000/1111', '1:0/4'],
  O: ['2:00/22'],
  T: ['3:000/121', '3:101/222', '2:10/23', '2:01/32'],
  S: ['3:001/122', '2:10/32'],
  Z: ['3:100/221', '2:01/23'],
  L: ['3:000/112', '3:011/222', '2:00/31', '2:20/33'],
  J: ['3:000/211', '3:110/222', '2:00/13', '2:02/33'],
};

function parseOrientation(code: string): Orientation {
  const [w, rest] = code.split(':');
  const [bot, top] = rest.split('/');
  const width = Number(w);
  return Object.freeze({
    width,
    bot: Object.freeze([...bot].map(Number)),
    top: Object.freeze([...top].map(Number)),
  });
}

/** ORIENTATIONS[pieceId] lists that piece's distinct orientations, in the order of docs/rules.md ("Pieces"). */
export const ORIENTATIONS: readonly (readonly Orientation[])[] = deepFreeze(
  PIECES.map((p) => GEOMETRY[p].map(parseOrientation)),
);

/** Piece id of the left-right mirror image (L<->J, S<->Z, I, O, T fixed). */
export const MIRROR_PIECE: readonly PieceId[] = Object.freeze([0, 1, 2, 4, 3, 6, 5]);

export function pieceId(letter: string): PieceId {
  const id = PIECES.indexOf(letter as Piece);
  if (id < 0) {
    throw new StackRankError('BAD_PIECE', `unknown piece ${describe(letter)}; pieces are ${PIECES.join(' ')}`);
  }
  return id as PieceId;
}

/** A piece given as a letter of PIECES or an id 0..6 (every public function that takes a piece), as its id. */
export function toPieceId(piece: unknown, what = 'piece'): PieceId {
  if (typeof piece === 'string' && (PIECES as readonly string[]).includes(piece)) return pieceId(piece);
  if (typeof piece === 'number' && Number.isInteger(piece) && piece >= 0 && piece < PIECES.length)
    return piece as PieceId;
  throw new StackRankError(
    'BAD_PIECE',
    `${what} must be a letter of ${PIECES.join(' ')} or an id 0..6; got ${describe(piece)}`,
  );
}

/**
 * `o` if it is one of the library's own orientations (ORIENTATIONS[piece]), else BAD_ARGUMENT naming `what`: a copy
 * could have holes or wrong lengths in its bot/top arrays, so only the originals are taken.
 */
export function requireOrientation(what: string, o: unknown): Orientation {
  if (!ORIENTATIONS.some((list) => list.includes(o as Orientation)))
    throw new StackRankError('BAD_ARGUMENT', `${what} takes one of ORIENTATIONS[piece]; got ${describe(o)}`);
  return o as Orientation;
}

/** Cells of an orientation as [column, row] pairs, rows counted up from the piece's lowest row. */
export function orientationCells(o: Orientation): [number, number][] {
  requireOrientation('orientationCells', o);
  const cells: [number, number][] = [];
  for (let j = 0; j < o.width; j++) for (let r = o.bot[j]; r < o.top[j]; r++) cells.push([j, r]);
  return cells;
}

/** Rows an orientation spans. */
export function pieceHeight(o: Orientation): number {
  return Math.max(...o.top);
}

/** Row masks of an orientation: masks[r] has bit j set when column j of the piece has a cell in row r. */
export function orientationRowMasks(o: Orientation): number[] {
  const masks = new Array<number>(pieceHeight(o)).fill(0);
  for (let j = 0; j < o.width; j++) for (let r = o.bot[j]; r < o.top[j]; r++) masks[r] |= 1 << j;
  return masks;
}
