/**
 * What the TBP bot (bot.ts) asks of the AI behind it: a small interface, so the AI can change without the protocol
 * changing. The bot keeps the game's position (board, queue, hold, the versus counters) and checks every move; the
 * engine decides moves and follows whatever it needs to know of the game (the randomizer's state) from the calls.
 * ai-engine.ts implements it over TetrisAI.
 */
import type { Piece } from '../pieces.js';
import type { Cell, Input, Spin } from '../rules/types.js';

/** The board's size under TBP: 10 columns, 40 rows (the guideline's whole matrix). */
export const TBP_WIDTH = 10;
export const TBP_HEIGHT = 40;

/** A position as the bot keeps it (docs/tbp.md): `queue[0]` is the piece to place now. */
export interface TbpPosition {
  /** Bit rows, bottom row first (bit x set = column x filled), TBP_HEIGHT of them, none full. */
  readonly rows: Uint32Array;
  readonly queue: readonly Piece[];
  readonly hold: Piece | null;
  /** Line clears in a row up to now (0: the last piece cleared nothing). */
  readonly combo: number;
  /** Whether the last clear was a Tetris or a spin that cleared lines (a back-to-back would follow). */
  readonly backToBack: boolean;
}

/** The randomizers TBP names (its randomizer extension); 'unknown' when the front end names none or another one. */
export type TbpRandomizerName = 'uniform' | 'seven_bag' | 'general_bag' | 'unknown';

/**
 * What the front end says of the randomizer: its name (the `rules` message) and, when `start` gave it, the bag at the
 * end of the start's queue (seven_bag, general_bag) as counts of each piece (I O T S Z L J), with the filled bag.
 */
export interface TbpRandomizer {
  readonly name: TbpRandomizerName;
  readonly bag?: { readonly current: readonly number[]; readonly filled: readonly number[] };
}

export type { Spin };

/** A move an engine suggests: the library's SRS placement (docs/rules.md) and how it gets there. */
export interface EngineMove {
  /** Whether hold is pressed first: the piece placed is then the held one (or the queue's second, hold empty). */
  readonly hold: boolean;
  readonly piece: Piece;
  /** SRS state name '0' 'R' '2' 'L'. */
  readonly rotation: string;
  readonly x: number;
  readonly y: number;
  readonly cells: readonly Cell[];
  readonly inputs: readonly Input[];
  readonly spin: Spin;
}

/** What an engine reports with its moves (TBP's move_info: every field optional). */
export interface EngineInfo {
  readonly nodes?: number;
  readonly nps?: number;
  readonly depth?: number;
  readonly extra?: string;
}

export interface EngineSuggestion {
  /** In order of preference; empty when nothing can be placed (the bot then forfeits). */
  readonly moves: readonly EngineMove[];
  readonly info?: EngineInfo;
}

/** A move the front end played, checked by the bot: the piece placed, whether hold was used, what it cleared. */
export interface PlayedMove {
  readonly piece: Piece;
  readonly hold: boolean;
  readonly cells: readonly Cell[];
  readonly spin: Spin;
  readonly lines: number;
}

/**
 * The engine behind the protocol. Calls come in the protocol's order: `setup` once per `rules`, then for each game
 * `start`, then any number of `suggest`, `play` and `newPiece`, then `stop`. `suggest` gets the bot's position;
 * `play` and `newPiece` the position after the change, so an engine that keeps no state can ignore them.
 */
export interface TbpEngine {
  /** Makes the AI ready for these rules (may take a while: tables). Rejects when it cannot play. */
  setup(randomizer: TbpRandomizerName): Promise<void>;
  start(position: TbpPosition, randomizer: TbpRandomizer): void;
  suggest(position: TbpPosition): Promise<EngineSuggestion>;
  play(move: PlayedMove, after: TbpPosition): void;
  newPiece(piece: Piece, after: TbpPosition): void;
  stop(): void;
}
