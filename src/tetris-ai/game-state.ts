/**
 * A game state as a game's loop gives it to `nextMove` (docs/api.md), checked once at the edge and turned into the
 * Turn the search plays: the board's bit rows, the pieces, the hold box, the next piece's chances, a timed game's
 * level and lines, and the versus counts. nextMove, rankPlacements and a session's nextMove read it here.
 */
import { StackRankError, describe, fieldsOnce, optionNames, optionsObject, refuseUnknownOptions } from '../errors.js';
import { PIECES, toPieceId, type Piece } from '../pieces.js';
import { checkVersusCount } from '../rules/attack.js';
import { checkEntries } from '../rules/garbage.js';
import { checkDistribution } from '../stacking-ai/ai.js';
import { normalizeBoard } from './board-input.js';
import type { GameState, MoveOptions, Turn, TurnVersus } from './decision.js';
import { checkTurnLevel, checkTurnLines, type GameRuleFacts } from './rules-adapter.js';

const MOVE_OPTIONS = optionNames<MoveOptions>({ budgetMs: true });
/** The keys of a game state (GameState). */
const GAME_STATE_KEYS = optionNames<GameState>({
  board: true,
  current: true,
  queue: true,
  hold: true,
  canHold: true,
  next: true,
  level: true,
  lines: true,
  combo: true,
  backToBack: true,
  incoming: true,
});

/** A game state checked and turned into the turn the search plays (nextMove's and rankPlacements's input). */
export function readTurn(given: GameState, caller: string, width: number, rules: GameRuleFacts): Turn {
  if (given === null || typeof given !== 'object')
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${caller} takes { ${GAME_STATE_KEYS.join(', ')} }; got ${describe(given)}`,
    );
  const state = fieldsOnce(caller, given, GAME_STATE_KEYS) as unknown as GameState;
  // An empty hold box is null; a queue of null is no queue, as nextMove has always read it.
  // board and current have no default: null is read (and refused) as a board or a piece.
  refuseUnknownOptions(caller, state, GAME_STATE_KEYS, ['hold', 'queue', 'board', 'current']);
  const board = normalizeBoard(state.board, width, rules);
  const current = toPiece(state.current, 'current');
  const queue = toQueueLetters(state.queue);
  const hold = state.hold === undefined || state.hold === null ? null : toPiece(state.hold, 'hold');
  if (hold !== null && !rules.hold)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `the ${rules.name} rule set has no hold, so the hold box must be empty; got ${describe(state.hold)}`,
    );
  if (state.canHold !== undefined && typeof state.canHold !== 'boolean')
    throw new StackRankError('BAD_ARGUMENT', `canHold must be true or false; got ${describe(state.canHold)}`);
  if (state.canHold === true && !rules.hold)
    throw new StackRankError('BAD_ARGUMENT', `canHold is true but the ${rules.name} rule set has no hold`);
  const canHold = state.canHold ?? rules.hold;
  const next = state.next === undefined ? undefined : checkDistribution(state.next);
  const level = checkTurnLevel(rules, state.level);
  const lines = checkTurnLines(rules, state.lines, level);
  const versus: TurnVersus = {
    combo: checkVersusCount('combo', state.combo ?? 0),
    backToBack: checkVersusCount('backToBack', state.backToBack ?? 0),
    incoming: state.incoming === undefined ? [] : checkEntries(state.incoming, 'incoming'),
  };
  return { rows: board.rows, height: board.height, current, queue, hold, canHold, next, level, lines, versus };
}

/** nextMove's options checked: the budget in milliseconds, or undefined for none. */
export function readMoveOptions(options: unknown): number | undefined {
  const opts = optionsObject('nextMove', options as MoveOptions | undefined, MOVE_OPTIONS);
  if (opts.budgetMs === undefined) return undefined;
  if (typeof opts.budgetMs !== 'number' || !(opts.budgetMs >= 0) || opts.budgetMs === Infinity)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `budgetMs must be a finite number of milliseconds, 0 or more; got ${describe(opts.budgetMs)}`,
    );
  return opts.budgetMs;
}

function toPiece(value: unknown, what: string): Piece {
  return PIECES[toPieceId(value, what)];
}

function toQueueLetters(queue: unknown): Piece[] {
  if (queue === undefined || queue === null) return [];
  const letters = typeof queue === 'string' ? [...queue] : Array.isArray(queue) ? queue : null;
  if (!letters)
    throw new StackRankError(
      'BAD_PIECE',
      `queue must be a string like "SZO" or an array of pieces (letters or ids 0..6); got ${describe(queue)}`,
    );
  // An index loop, not map: a sparse array's holes are queue entries too (and bad ones).
  const pieces: Piece[] = [];
  for (let i = 0; i < letters.length; i++) pieces.push(toPiece(letters[i], `queue entry ${i}`));
  return pieces;
}
