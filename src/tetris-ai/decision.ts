/**
 * One turn of the game AI (src/tetris-ai/ai.ts): the position as a caller gives it, the turn as its search reads it, how
 * deep it searches, the move it answers with and what it decided with, which rankPlacements (./rank-placements.ts),
 * the time budget (./budget.ts), a weaker level (./strength.ts) and sessions (./session.ts) read.
 */
import type { Piece, PieceId } from '../pieces.js';
import type { ClearKind } from '../rules/attack.js';
import type { GarbageEntry } from '../rules/garbage.js';
import type { GamePlacement } from '../rules/types.js';
import type { BoardLike } from '../rules/types.js';
import type { NearTopSearch } from './policy.js';
import type { RecoverContext, RecoverState } from './recover.js';
import type { StackChoice, StackContext, TurnOption } from './stack.js';
import type { VersusContext, VersusState } from './versus.js';

/** Which of the AI's modes chose a move (docs/game.md). */
export type GameMode = 'stack' | 'recover' | 'versus';

/** nextMove's options. */
export interface MoveOptions {
  /** Milliseconds the move may take: the search deepens step by step while the next step is expected to fit, and
   * the deepest finished step's move is played (docs/game.md, "Time budget"). Default: no limit, the full search. */
  budgetMs?: number;
}

export interface GameState {
  board: BoardLike;
  /** A piece letter, or its id 0..6 (I O T S Z L J), as for queue and hold. */
  current: Piece | string | PieceId;
  /** The known pieces after the current one (a string like "SZO" or an array of letters or ids). */
  queue?: string | readonly (string | PieceId)[];
  /** The piece in the hold box, or null. */
  hold?: Piece | string | PieceId | null;
  /** Whether hold may be pressed this turn (default: whenever the rule set has hold). */
  canHold?: boolean;
  /** Chances of the first piece after the queue (I O T S Z L J), for an AI created with a randomizer. */
  next?: ArrayLike<number>;
  /** Under a timed rule set: the game's level now (its gravity decides which placements the frames allow). Default:
   * the rule set's level. */
  level?: number;
  /** Under a timed rule set: the game's LINES counter, the lines cleared since the game began (not since the level
   * began), read with `level` for the lines left before the next level-up, which the AI plays by (docs/game.md,
   * "The lines count"). A count no NES game shows at the level is refused. Default: not known. */
  lines?: number;
  /** Versus (docs/rules.md, "Versus"): line clears in a row up to now (0: the last lock cleared nothing; default 0). */
  combo?: number;
  /** Versus: difficult clears (Tetrises, spins that clear lines) in a row up to now, 0 for none (default 0). */
  backToBack?: number;
  /** Versus: the garbage waiting to enter this board, oldest first (GarbageQueue's `entries`; default none). */
  incoming?: readonly GarbageEntry[];
}

/**
 * TetrisAI's move: the rules layer's placement (GamePlacement: piece, rotation, x, y, cells, and the `inputs` and
 * `spin` that make it, 'hold' first in `inputs` when `hold`) with what the lock does and what the AI decided with.
 */
export interface GameMove extends GamePlacement {
  /** Press hold first, then place `piece` (the held piece, or the first of the queue when the box was empty). */
  hold: boolean;
  linesCleared: number;
  /** What the lock clears, by lines and spin ('single', 'tSpinDouble', …; 'none' when nothing). */
  clearKind: ClearKind;
  /** Whether the lock leaves the board empty. */
  perfectClear: boolean;
  /** Lines the lock sends by the rule set's attack table, from the state's combo and backToBack (docs/rules.md,
   * "Versus"), before they cancel incoming garbage; 0 under rule sets without one. */
  attack: number;
  mode: GameMode;
  /** stack: the rank (expected rank under expectimax) of the search's best final surface, 0..1; recover: the
   * evaluator's value of the best line (higher is better). Not comparable between modes. */
  value: number;
}

/** How deep a turn searches: stack mode's lookahead and recover mode's search (src/tetris-ai/budget.ts deepens them). */
export interface SearchSettings {
  lookahead: number;
  recoverDepth: number;
  /** The recover search's beam and chance-ply lines, and the wider one near the top of the field (or null). */
  search: { beam: number; chance: number };
  nearTop: NearTopSearch | null;
}

/** One turn as the search reads it: checked bit rows and pieces (readTurn, or playGame's own). */
export interface Turn {
  /** Bit rows, bottom first, WORK_ROWS of them, none full, empty from `height` up; not changed during the call. */
  rows: Uint32Array;
  /** The board's height (at least MIN_FIELD_HEIGHT). */
  height: number;
  current: Piece;
  queue: readonly Piece[];
  hold: Piece | null;
  canHold: boolean;
  /** Chances of the first piece after the queue (7 non-negative numbers summing to 1), or undefined. */
  next: ArrayLike<number> | undefined;
  /** The versus counters and incoming garbage (nextMove's; none when left out). */
  versus?: TurnVersus;
  /** A timed rule set's level this turn (undefined: the rule set's own). */
  level?: number;
  /** A timed rule set's lines count this turn (GameState.lines, checked; undefined: not known). */
  lines?: number;
  /**
   * playTurn under a timed rule set with a reaction: the chances of the queue's last piece as they were before it
   * was dealt (it appears in the preview as the current piece does, and is known only `reaction` frames later).
   * Undefined: the whole queue is known from the first frame.
   */
  revealChances?: ArrayLike<number>;
}

/** A turn's versus state, checked (GameState's combo, backToBack, incoming). */
export interface TurnVersus {
  readonly combo: number;
  readonly backToBack: number;
  readonly incoming: readonly GarbageEntry[];
}

/** What nextMove decided, and the search contexts it decided with (rankPlacements values every move with them). */
export interface Decision extends Omit<Turn, 'next' | 'versus'> {
  versus: TurnVersus;
  options: TurnOption[];
  reachRoot: (p: Piece) => readonly GamePlacement[];
  move: GameMove | null;
  stack: { ctx: StackContext; choice: StackChoice } | null;
  recover: { ctx: RecoverContext; state: RecoverState } | null;
  /** Under goal 'versus': the versus search's context and turn. */
  versusSearch?: { ctx: VersusContext; state: VersusState };
}
