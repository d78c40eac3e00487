/**
 * The Tetris Bot Protocol's messages (tbp-spec: the base protocol, the `randomizer` and `move_info` extensions;
 * docs/tbp.md): the front end's, read and checked field by field into what the bot uses, and the bot's own.
 */
import { describe } from '../errors.js';
import { PIECES, type Piece } from '../pieces.js';
import { TBP_HEIGHT, TBP_WIDTH, type Spin, type TbpRandomizer, type TbpRandomizerName } from './engine.js';
import { TBP_ORIENTATIONS, isPieceLetter, type TbpLocation, type TbpOrientation } from './location.js';

/** A move as TBP writes it: where the piece goes and whether it spins there. */
export interface TbpMove {
  readonly location: TbpLocation;
  readonly spin: Spin;
}

/** The front end's messages the bot acts on, checked (`ignored`: a type the bot does not know, as the spec says). */
export type FrontendMessage =
  | { readonly type: 'rules'; readonly randomizer: TbpRandomizerName }
  | {
      readonly type: 'start';
      readonly rows: Uint32Array;
      readonly hold: Piece | null;
      readonly queue: readonly Piece[];
      readonly combo: number;
      readonly backToBack: boolean;
      /** The start's randomizer object, checked; null when it gave none (or one of a type the bot does not know). */
      readonly randomizer: TbpRandomizer | null;
    }
  | { readonly type: 'suggest' }
  | { readonly type: 'play'; readonly move: TbpMove }
  | { readonly type: 'new_piece'; readonly piece: Piece }
  | { readonly type: 'stop' }
  | { readonly type: 'quit' }
  | { readonly type: 'ignored'; readonly name: string };

/**
 * The `reason` of the bot's `error` messages. The spec names `unsupported_rules`; the others are this bot's, for
 * messages it cannot act on (docs/tbp.md, "Errors"), and `internal_error` for a failure of its own. After any of
 * them the bot goes on from where it was.
 */
export type TbpErrorReason =
  | 'unsupported_rules'
  | 'invalid_message'
  | 'out_of_order'
  | 'illegal_move'
  | 'internal_error';

export type BotMessage =
  | {
      readonly type: 'info';
      readonly name: string;
      readonly version: string;
      readonly author: string;
      readonly features: readonly string[];
    }
  | { readonly type: 'ready' }
  | { readonly type: 'error'; readonly reason: TbpErrorReason; readonly message: string }
  | {
      readonly type: 'suggestion';
      readonly moves: readonly TbpMove[];
      readonly move_info?: { nodes?: number; nps?: number; depth?: number; extra?: string };
    };

/** A message the bot cannot act on: why, in words for the `error` message. */
export class MessageProblem {
  constructor(readonly message: string) {}
}

const SPINS: readonly Spin[] = ['none', 'mini', 'full'];
const TBP_RANDOMIZERS: readonly TbpRandomizerName[] = ['uniform', 'seven_bag', 'general_bag', 'unknown'];

/** The largest combo the bot takes (a game's counters never come near it). */
export const MAX_COMBO = 0x7fffffff;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function piece(value: unknown, what: string): Piece {
  if (!isPieceLetter(value))
    throw new MessageProblem(`${what} must be a piece, one of ${PIECES.join(' ')}; got ${describe(value)}`);
  return value;
}

/** The front end's message, checked; throws MessageProblem for one the bot cannot act on. */
export function readMessage(value: unknown): FrontendMessage {
  if (!isObject(value)) throw new MessageProblem(`a message is a JSON object with a "type"; got ${describe(value)}`);
  const type = value.type;
  if (typeof type !== 'string') throw new MessageProblem(`a message's "type" must be a string; got ${describe(type)}`);
  switch (type) {
    case 'rules': {
      // The randomizer extension: absent or unrecognised means "unknown".
      const r = value.randomizer;
      return {
        type,
        randomizer: TBP_RANDOMIZERS.includes(r as TbpRandomizerName) ? (r as TbpRandomizerName) : 'unknown',
      };
    }
    case 'start':
      return readStart(value);
    case 'play':
      return { type, move: readMove(value.move) };
    case 'new_piece':
      return { type, piece: piece(value.piece, 'new_piece.piece') };
    case 'suggest':
    case 'stop':
    case 'quit':
      return { type };
    default:
      return { type: 'ignored', name: type };
  }
}

function readStart(value: Record<string, unknown>): FrontendMessage {
  const { board, queue, hold, combo, back_to_back } = value;
  if (!Array.isArray(queue)) throw new MessageProblem(`start.queue must be a list of pieces; got ${describe(queue)}`);
  const pieces = queue.map((p, i) => piece(p, `start.queue[${i}]`));
  if (hold === undefined) throw new MessageProblem('start.hold is missing: a piece, or null for an empty hold box');
  const held = hold === null ? null : piece(hold, 'start.hold');
  if (typeof combo !== 'number' || !Number.isInteger(combo) || combo < 0 || combo > MAX_COMBO)
    throw new MessageProblem(`start.combo must be an integer from 0 to ${MAX_COMBO}; got ${describe(combo)}`);
  if (typeof back_to_back !== 'boolean')
    throw new MessageProblem(`start.back_to_back must be true or false; got ${describe(back_to_back)}`);
  return {
    type: 'start',
    rows: readBoard(board),
    hold: held,
    queue: pieces,
    combo,
    backToBack: back_to_back,
    randomizer: readRandomizerState(value.randomizer),
  };
}

/** TBP's board: 40 rows of 10 cells, bottom row first; a cell is null (empty) or a string (filled). */
function readBoard(board: unknown): Uint32Array {
  if (!Array.isArray(board) || board.length !== TBP_HEIGHT)
    throw new MessageProblem(
      `start.board must be a list of ${TBP_HEIGHT} rows (bottom row first); got ${Array.isArray(board) ? `${board.length} rows` : describe(board)}`,
    );
  const rows = new Uint32Array(TBP_HEIGHT);
  const full = (1 << TBP_WIDTH) - 1;
  for (let y = 0; y < TBP_HEIGHT; y++) {
    const row: unknown = board[y];
    if (!Array.isArray(row) || row.length !== TBP_WIDTH)
      throw new MessageProblem(
        `start.board[${y}] must be a list of ${TBP_WIDTH} cells; got ${Array.isArray(row) ? `${row.length} cells` : describe(row)}`,
      );
    for (let x = 0; x < TBP_WIDTH; x++) {
      const cell: unknown = row[x];
      if (cell === null) continue;
      if (typeof cell !== 'string')
        throw new MessageProblem(
          `start.board[${y}][${x}] must be null (empty) or a string (filled); got ${describe(cell)}`,
        );
      rows[y] |= 1 << x;
    }
    if (rows[y] === full)
      throw new MessageProblem(`start.board row ${y} is full: a game clears full rows before the next piece`);
  }
  return rows;
}

/** The start's randomizer object (the randomizer extension), or null when absent or of a type the bot does not know. */
function readRandomizerState(value: unknown): TbpRandomizer | null {
  if (value === undefined || value === null) return null;
  if (!isObject(value))
    throw new MessageProblem(`start.randomizer must be an object with a "type"; got ${describe(value)}`);
  switch (value.type) {
    case 'uniform':
      return { name: 'uniform' };
    case 'seven_bag': {
      const state = value.bag_state;
      if (!Array.isArray(state) || state.length === 0 || state.length > PIECES.length)
        throw new MessageProblem(
          `start.randomizer.bag_state must be a non-empty list of pieces; got ${describe(state)}`,
        );
      const current = new Array<number>(PIECES.length).fill(0);
      state.forEach((p, i) => {
        const id = PIECES.indexOf(piece(p, `start.randomizer.bag_state[${i}]`));
        if (current[id] > 0) throw new MessageProblem(`start.randomizer.bag_state holds ${p} twice`);
        current[id] = 1;
      });
      return { name: 'seven_bag', bag: { current, filled: new Array<number>(PIECES.length).fill(1) } };
    }
    case 'general_bag': {
      const current = readCounts(value.current_bag, 'start.randomizer.current_bag');
      const filled = readCounts(value.filled_bag, 'start.randomizer.filled_bag');
      if (current.some((c, i) => c > 0 && filled[i] === 0))
        throw new MessageProblem('start.randomizer.current_bag holds a piece its filled_bag has none of');
      return { name: 'general_bag', bag: { current, filled } };
    }
    default:
      return null;
  }
}

/** A general bag's counts: an object of non-negative integers by piece (a piece left out counts 0), not all 0. */
function readCounts(value: unknown, what: string): number[] {
  if (!isObject(value))
    throw new MessageProblem(`${what} must be an object of counts by piece; got ${describe(value)}`);
  const counts = PIECES.map((p) => {
    const c = value[p] ?? 0;
    if (typeof c !== 'number' || !Number.isInteger(c) || c < 0 || c > 1000)
      throw new MessageProblem(`${what}.${p} must be an integer from 0 to 1000; got ${describe(c)}`);
    return c;
  });
  if (counts.every((c) => c === 0)) throw new MessageProblem(`${what} must hold at least one piece`);
  return counts;
}

function readMove(value: unknown): TbpMove {
  if (!isObject(value))
    throw new MessageProblem(`play.move must be an object { location, spin }; got ${describe(value)}`);
  const { location, spin } = value;
  if (!isObject(location))
    throw new MessageProblem(
      `play.move.location must be an object { type, orientation, x, y }; got ${describe(location)}`,
    );
  const type = piece(location.type, 'play.move.location.type');
  const { orientation, x, y } = location;
  if (!TBP_ORIENTATIONS.includes(orientation as TbpOrientation))
    throw new MessageProblem(
      `play.move.location.orientation must be one of ${TBP_ORIENTATIONS.join(', ')}; got ${describe(orientation)}`,
    );
  for (const [name, v] of [
    ['x', x],
    ['y', y],
  ] as const)
    if (typeof v !== 'number' || !Number.isInteger(v))
      throw new MessageProblem(`play.move.location.${name} must be an integer; got ${describe(v)}`);
  if (!SPINS.includes(spin as Spin))
    throw new MessageProblem(`play.move.spin must be one of ${SPINS.join(', ')}; got ${describe(spin)}`);
  return {
    location: { type, orientation: orientation as TbpOrientation, x: x as number, y: y as number },
    spin: spin as Spin,
  };
}
