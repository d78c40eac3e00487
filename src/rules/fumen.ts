/**
 * fumen: the Tetris community's shared-position format, read and written with the maintained `tetris-fumen`
 * package (docs/rules.md, "fumen"). A fumen field is 10 columns × 23 rows plus a garbage row under the floor; here
 * fumen row y is Board row y (both count from the bottom), the board is 20 rows high unless cells sit in rows
 * 20..22 (then 23), and the garbage row (the rows a later page would push up) is not part of the position and
 * is ignored. A Board keeps no colours: every filled cell reads as filled, and is written as garbage ('X').
 */
import { decoder, encoder, Field } from 'tetris-fumen';
import { StackRankError, describe, fieldsOnce, optionNames, optionsObject } from '../errors.js';
import { ORIENTATIONS, PIECES, orientationCells, pieceId, type Piece } from '../pieces.js';
import { Board } from './board.js';
import type { BoardLike, Cell } from './types.js';

export const FUMEN_WIDTH = 10;
export const FUMEN_HEIGHT = 23;
/**
 * The longest page comment fumen holds: its length field is two characters of base 64, and it counts the comment as
 * JavaScript's escape() writes it (an ASCII letter, digit or one of @*_+-./ is 1 character, other ASCII 3 (%XX),
 * anything else 6 (%uXXXX)). The package cuts a longer one silently, inside an escape when it ends on one.
 */
export const FUMEN_MAX_COMMENT = 4095;
/**
 * The longest fumen string boardFromFumen reads (its URL, if any, included). The package decodes every page, and its
 * time grows faster than the string: about 20-100 ms at this length on a loaded 2-core machine, 4.7 s and hundreds of
 * MB at 124,000 characters (40,000 pages), all in one synchronous call. docs/rules.md, "fumen".
 */
export const FUMEN_MAX_LENGTH = 8192;

export interface FumenPosition {
  board: Board;
  /** The piece to place: the quiz's current piece, the first letter of a plain piece-list comment, or the page's piece. */
  current?: Piece;
  /** The pieces after the current one, from the comment. */
  queue?: Piece[];
  /** The hold box of a quiz comment. */
  hold?: Piece;
  /** The page's comment as written. */
  comment: string;
}

const PIECE_RE = /^[IOTSZJL]*$/;

const BOARD_FROM_FUMEN_OPTIONS = optionNames<{ page?: number }>({ page: true });

/** The position on page `page` (default 0) of a fumen string (`v115@…`, with or without a URL in front). */
export function boardFromFumen(fumen: string, options: { page?: number } = {}): FumenPosition {
  if (typeof fumen !== 'string' || fumen.length === 0)
    throw new StackRankError('BAD_FUMEN', `a fumen is a string like "v115@…"; got ${describe(fumen)}`);
  if (fumen.length > FUMEN_MAX_LENGTH)
    throw new StackRankError(
      'BAD_FUMEN',
      `the fumen is ${fumen.length.toLocaleString('en-US')} characters long; boardFromFumen reads fumens of at most ${FUMEN_MAX_LENGTH.toLocaleString('en-US')} characters (docs/rules.md, "fumen")`,
    );
  const opts = optionsObject('boardFromFumen', options, BOARD_FROM_FUMEN_OPTIONS);
  const at = fumen.search(/v1(15|10)@/);
  let pages: ReturnType<typeof decoder.decode>;
  try {
    if (at < 0) throw new Error('no "v115@" or "v110@" prefix');
    const data = fumen.slice(at).trim();
    // The package reads a character outside fumen's alphabet as a value of -1 and decodes on (a damaged string
    // would give a made-up board): such a character is refused here.
    const bad = /[^A-Za-z0-9+/?]/.exec(data.slice(5));
    if (bad) throw new Error(`${describe(bad[0])} at character ${at + 5 + bad.index} is not fumen data`);
    pages = decoder.decode(data);
  } catch (e) {
    throw new StackRankError(
      'BAD_FUMEN',
      `not a readable fumen (${e instanceof Error ? e.message : String(e)}); expected a string like "v115@9gA8…"`,
      { cause: e },
    );
  }
  if (pages.length === 0)
    throw new StackRankError('BAD_FUMEN', 'the fumen has no page; expected a string like "v115@9gA8…"');
  const index = opts.page ?? 0;
  if (!Number.isInteger(index) || index < 0 || index >= pages.length) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `page must be ${pages.length === 1 ? '0 (the fumen has 1 page)' : `an integer from 0 to ${pages.length - 1} (the fumen has ${pages.length} pages)`}; got ${describe(opts.page)}`,
    );
  }
  // The package decodes a page's field, comment and piece when they are first read, so a damaged page throws here.
  const bits: number[] = [];
  let top = 0;
  let comment: string;
  let operation: string | undefined;
  try {
    const page = pages[index];
    const field = page.field;
    for (let y = 0; y < FUMEN_HEIGHT; y++) {
      let mask = 0;
      for (let x = 0; x < FUMEN_WIDTH; x++) if (field.at(x, y) !== '_') mask |= 1 << x;
      bits.push(mask);
      if (mask) top = y + 1;
    }
    comment = page.comment ?? '';
    operation = page.operation?.type;
  } catch (e) {
    throw new StackRankError(
      'BAD_FUMEN',
      `page ${index} of the fumen is damaged (${e instanceof Error ? e.message : String(e)})`,
      { cause: e },
    );
  }
  const board = Board.fromBits(bits.slice(0, Math.max(top, 20)), FUMEN_WIDTH, top > 20 ? FUMEN_HEIGHT : 20);
  const out: FumenPosition = { board, comment };
  const quiz = /^#Q=\[([IOTSZJL]?)\]\(([IOTSZJL]?)\)([IOTSZJL]*)/.exec(comment);
  if (quiz) {
    if (quiz[1]) out.hold = quiz[1] as Piece;
    if (quiz[2]) out.current = quiz[2] as Piece;
    else if (quiz[3]) out.current = quiz[3][0] as Piece;
    const rest = quiz[2] ? quiz[3] : quiz[3].slice(1);
    out.queue = [...rest] as Piece[];
  } else if (comment.trim() !== '' && PIECE_RE.test(comment.trim())) {
    const letters = [...comment.trim()] as Piece[];
    out.current = letters[0];
    out.queue = letters.slice(1);
  } else if (operation && (PIECES as readonly string[]).includes(operation)) {
    out.current = operation as Piece;
  }
  return out;
}

/**
 * Whether `cells` (four [x, y] pairs) are one of `piece`'s orientations moved somewhere: the same cells once both
 * are moved to start at column 0, row 0.
 */
function isOrientationOf(piece: Piece, cells: readonly Cell[]): boolean {
  const key = (list: readonly Cell[]) => {
    const x0 = Math.min(...list.map(([x]) => x));
    const y0 = Math.min(...list.map(([, y]) => y));
    return list
      .map(([x, y]) => `${x - x0},${y - y0}`)
      .sort()
      .join(' ');
  };
  const given = key(cells);
  return ORIENTATIONS[pieceId(piece)].some((o) => key(orientationCells(o)) === given);
}

export interface FumenExportOptions {
  /** Cells of a piece to draw on the field in its colour, e.g. a GamePlacement or a GameMove. */
  placement?: { piece: Piece; cells: readonly Cell[] };
  /** The page's comment, e.g. "#Q=[](T)SZO" or "TSZO". */
  comment?: string;
}

const FUMEN_EXPORT_OPTIONS = optionNames<FumenExportOptions>({ placement: true, comment: true });

/**
 * A one-page fumen (`v115@…`) of a board (a Board or BoardLike) up to 10 wide and 23 rows high: filled cells as
 * garbage ('X').
 */
export function fumenFromBoard(boardLike: Board | BoardLike, options: FumenExportOptions = {}): string {
  const board = Board.from(boardLike);
  const opts = optionsObject('fumenFromBoard', options, FUMEN_EXPORT_OPTIONS);
  if (board.width !== FUMEN_WIDTH)
    throw new StackRankError('BAD_BOARD', `a fumen field is ${FUMEN_WIDTH} columns wide; the board has ${board.width}`);
  for (let y = FUMEN_HEIGHT; y < board.height; y++) {
    if (board.rows[y] !== 0)
      throw new StackRankError('BAD_BOARD', `a fumen field has ${FUMEN_HEIGHT} rows; the board has cells in row ${y}`);
  }
  if (opts.comment !== undefined && typeof opts.comment !== 'string')
    throw new StackRankError('BAD_ARGUMENT', `comment must be a string; got ${describe(opts.comment)}`);
  const escaped = opts.comment === undefined ? 0 : escape(opts.comment).length;
  if (escaped > FUMEN_MAX_COMMENT)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `comment is ${escaped} characters as fumen writes it; a fumen comment holds at most ${FUMEN_MAX_COMMENT} (an ASCII letter, digit or @*_+-./ takes 1, other ASCII 3, any other character 6: docs/rules.md, "fumen")`,
    );
  const field = Field.create();
  for (let y = 0; y < Math.min(board.height, FUMEN_HEIGHT); y++) {
    for (let x = 0; x < FUMEN_WIDTH; x++) if ((board.rows[y] >> x) & 1) field.set(x, y, 'X');
  }
  if (opts.placement !== undefined) {
    const given = opts.placement;
    // Read once (fieldsOnce), as every cell below: what is checked is what is drawn.
    const p = given && typeof given === 'object' ? fieldsOnce('placement', given, ['piece', 'cells']) : undefined;
    if (!p || !Array.isArray(p.cells)) {
      throw new StackRankError(
        'BAD_ARGUMENT',
        `placement must be { piece, cells } (a GamePlacement or GameMove); got ${describe(given)}`,
      );
    }
    const piece = p.piece as Piece;
    if (!(PIECES as readonly string[]).includes(piece))
      throw new StackRankError(
        'BAD_PIECE',
        `placement.piece must be a letter of ${PIECES.join(' ')}; got ${describe(piece)}`,
      );
    // A piece's four cells, on empty cells of the board: anything else would draw a position no game has.
    const given4: readonly unknown[] = p.cells;
    const count = given4.length;
    if (count !== 4)
      throw new StackRankError(
        'BAD_ARGUMENT',
        `placement.cells must be the piece's 4 cells; got ${count} (${describe(given4)})`,
      );
    const cells: Cell[] = [];
    // An index loop, not for-of: a sparse array's holes are cells too (and bad ones).
    for (let i = 0; i < count; i++) {
      const c: unknown = given4[i];
      const [x, y] = Array.isArray(c) ? [c[0], c[1]] : [];
      if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || x >= FUMEN_WIDTH || y < 0 || y >= FUMEN_HEIGHT) {
        throw new StackRankError(
          'BAD_ARGUMENT',
          `placement cell ${i} is ${describe(c)}; a cell is an [x, y] pair inside the 10 × ${FUMEN_HEIGHT} fumen field`,
        );
      }
      if (y < board.height && (board.rows[y] >> x) & 1)
        throw new StackRankError('BAD_ARGUMENT', `placement cell ${i} [${x}, ${y}] is a filled cell of the board`);
      cells.push([x, y]);
    }
    if (!isOrientationOf(piece, cells))
      throw new StackRankError(
        'BAD_ARGUMENT',
        `placement.cells ${describe(cells)} do not make the piece ${piece}: a placement's cells are one of its piece's orientations (any rotation; docs/rules.md, "Pieces"), anywhere on the field`,
      );
    for (const [x, y] of cells) field.set(x, y, piece);
  }
  try {
    return encoder.encode([{ field, comment: opts.comment }]);
  } catch (e) {
    // The package writes a comment that starts with "#Q=" as a quiz, and throws on one it cannot read as a quiz.
    throw new StackRankError(
      'BAD_ARGUMENT',
      `comment ${describe(opts.comment)} cannot be written to a fumen: one that starts with "#Q=" is a quiz and must read #Q=[H](C)QUEUE (pieces of ${PIECES.join('')}) (${e instanceof Error ? e.message : String(e)})`,
      { cause: e },
    );
  }
}
