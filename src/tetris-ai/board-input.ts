/**
 * Boards as nextMove takes them (docs/game.md): rows of strings, top row first (`.` empty, any other character
 * filled), `{ width, rows }` bit rows bottom first, or the rules layer's Board (which has that shape). Checked and
 * turned into the bit rows the searches copy. Under guideline a board is the bottom of the 40-row matrix; under the
 * other presets it is the bottom of the 20-row field, whose top row is where the piece appears (nes, tgm) or which
 * it appears over (classic): rows over the field may be given, so one game loop serves every preset, but they must
 * be empty.
 */
import { rowBits } from '../board-rows.js';
import { StackRankError, describe } from '../errors.js';

/** Rows the AI's boards hold: the tallest board (40) plus room for a piece resting on its top. */
export const WORK_ROWS = 44;
export const MAX_BOARD_HEIGHT = 40;
/** Boards given with fewer rows are read as the bottom of a field this tall. */
export const MIN_FIELD_HEIGHT = 20;

export interface NormalizedBoard {
  rows: Uint32Array;
  /** The board's height (at least MIN_FIELD_HEIGHT): rows above it are open air. */
  height: number;
}

/** What a board is read against: the rule set's name (for messages) and the rows its cells may stand in. */
export interface BoardField {
  name: string;
  /** 40 under guideline (its matrix), else the 20 rows of the field. */
  boardRows: number;
}

/** Why an AI plays boards of its width: its table's columns and the well (docs/game.md, "Options": `table`). */
const wideBecause = (width: number) =>
  ` (its rank table's ${width - 1} columns and the well: a board W wide needs a table of W − 1 columns)`;

export function normalizeBoard(input: unknown, width: number, field: BoardField): NormalizedBoard {
  let bits: number[];
  let givenHeight: number;
  if (Array.isArray(input)) {
    if (input.length > MAX_BOARD_HEIGHT)
      throw new StackRankError('BAD_BOARD', `a board has at most ${MAX_BOARD_HEIGHT} rows; got ${input.length}`);
    bits = new Array<number>(input.length);
    // An index loop, not forEach: a sparse array's holes are rows too (and bad ones).
    for (let i = 0; i < input.length; i++) {
      const row: unknown = input[i];
      if (typeof row !== 'string')
        throw new StackRankError(
          'BAD_BOARD',
          `board row ${i} (from the top) must be a string ('.' empty, anything else filled); got ${describe(row)}`,
        );
      if (row.length !== width)
        throw new StackRankError(
          'BAD_BOARD',
          `board row ${i} (from the top) has ${row.length} cells; this AI plays boards ${width} wide${wideBecause(width)}`,
        );
      bits[input.length - 1 - i] = rowBits(row, width);
    }
    givenHeight = input.length;
  } else if (input !== null && typeof input === 'object' && 'rows' in input && 'width' in input) {
    const b = input as { width: unknown; height?: unknown; rows: ArrayLike<unknown> };
    if (b.width !== width)
      throw new StackRankError(
        'BAD_BOARD',
        `this AI plays boards ${width} wide${wideBecause(width)}; the board is ${describe(b.width)} wide`,
      );
    if (b.rows === null || typeof b.rows !== 'object' || typeof b.rows.length !== 'number') {
      throw new StackRankError('BAD_BOARD', `board.rows must be bit rows, bottom row first; got ${describe(b.rows)}`);
    }
    if (b.rows.length > MAX_BOARD_HEIGHT)
      throw new StackRankError('BAD_BOARD', `a board has at most ${MAX_BOARD_HEIGHT} rows; got ${b.rows.length}`);
    bits = Array.from(b.rows, (v, y) => {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= 1 << width) {
        throw new StackRankError(
          'BAD_BOARD',
          `bit row ${y} must be an integer from 0 to ${(1 << width) - 1}; got ${describe(v)}`,
        );
      }
      return v;
    });
    givenHeight = b.height === undefined ? b.rows.length : (b.height as number);
    // A height that drops given rows would drop their cells (and move where the piece appears): refused, as
    // Board.fromBits refuses it.
    if (!Number.isInteger(givenHeight) || givenHeight < b.rows.length || givenHeight > MAX_BOARD_HEIGHT)
      throw new StackRankError(
        'BAD_BOARD',
        `board height must be an integer from the number of bit rows (${b.rows.length}) to ${MAX_BOARD_HEIGHT}; got ${describe(b.height)}`,
      );
  } else {
    throw new StackRankError(
      'BAD_BOARD',
      `a board is rows of strings (top row first), { width, rows } bit rows (bottom first) or a Board; got ${describe(input)}`,
    );
  }
  const full = (1 << width) - 1;
  const rows = new Uint32Array(WORK_ROWS);
  bits.forEach((m, y) => {
    if (m === full)
      throw new StackRankError(
        'BAD_BOARD',
        `row ${y} (from the bottom) is full; a board holds no full rows (they are cleared when the piece locks)`,
      );
    if (m !== 0 && y >= field.boardRows)
      throw new StackRankError(
        'BAD_BOARD',
        `row ${y} (from the bottom) has cells over the ${field.boardRows}-row field of ${field.name}; rows over ` +
          `the field may be given but must be empty (a cell left there ends the game)`,
      );
    rows[y] = m;
  });
  return { rows, height: Math.min(Math.max(givenHeight, MIN_FIELD_HEIGHT), field.boardRows) };
}
