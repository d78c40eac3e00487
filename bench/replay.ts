/**
 * Replays playGame's games move by move for the diagnostic benches (game-losses.ts, game-deaths.ts): the same
 * seeds, queue, hold box and next-piece chances as src/game/play.ts, so the same games, with every position, move
 * and locked board handed to the caller. A game ends at a top-out (a null move, or a cell above the visible field)
 * or at maxPieces.
 */
import { type GameMove, TetrisAI } from '../src/game/ai.js';
import { WORK_ROWS } from '../src/game/board-input.js';
import { type Locked, lockCells } from '../src/game/grid.js';
import type { Piece } from '../src/pieces.js';
import { defaultGameRandomizer } from '../src/game/play.js';
import { createRandomizer, type RandomizerName } from '../src/randomizers/index.js';
import { RULE_SETS } from '../src/rules/rule-sets.js';
import type { RuleSetName } from '../src/rules/types.js';
import { streamSeed } from '../src/stacking/simulate.js';

export interface ReplayedTurn {
  /** Pieces placed in this game before this turn. */
  n: number;
  /** The board before the move (bit rows, bottom first). */
  rows: Uint32Array;
  current: Piece;
  queue: Piece[];
  hold: Piece | null;
  /** The AI's move (null: it has none, a top-out). */
  move: GameMove | null;
  /** The board after the move and the rows it cleared (undefined when move is null). */
  locked?: Locked;
}

export interface ReplayOptions {
  ai: TetrisAI;
  randomizer: RandomizerName;
  lookahead: number;
  hold: boolean;
  seed: number;
  game: number;
  maxPieces: number;
}

/** Plays game `game` of `seed` as playGame does, calling `onTurn` after each move; returns its pieces and fate. */
export function replayGame(
  opts: ReplayOptions,
  onTurn: (turn: ReplayedTurn) => void,
): { pieces: number; topOut: boolean } {
  const { ai, lookahead, hold } = opts;
  const width = ai.width;
  const visible = ai.rules.visibleHeight;
  const rng = createRandomizer(opts.randomizer, { seed: streamSeed(opts.seed, opts.game, 0) });
  const stream: Piece[] = [];
  let rows: Uint32Array = new Uint32Array(WORK_ROWS);
  let held: Piece | null = null;
  for (let n = 0; n < opts.maxPieces; n++) {
    while (stream.length < lookahead + 1) stream.push(rng.next() as Piece);
    const [current, ...queue] = stream;
    const move = ai.nextMove({
      board: { width, rows: rows.subarray(0, Math.max(visible, 20)) },
      current,
      queue,
      hold: hold ? held : null,
      canHold: hold,
      next: rng.distribution(),
    });
    if (!move) {
      onTurn({ n, rows, current, queue, hold: held, move });
      return { pieces: n, topOut: true };
    }
    const before = rows;
    const heldBefore = held;
    if (move.hold) {
      if (held === null) stream.shift();
      held = current;
    }
    stream.shift();
    const locked = lockCells(rows, width, move.cells);
    rows = locked.rows;
    onTurn({ n, rows: before, current, queue, hold: heldBefore, move, locked });
    if (rows.subarray(visible).some((m) => m !== 0)) return { pieces: n + 1, topOut: true };
  }
  return { pieces: opts.maxPieces, topOut: false };
}

/** The command-line options every replaying bench takes (node:util parseArgs), with its own added. */
export const REPLAY_OPTIONS = {
  rules: { type: 'string', default: 'classic' },
  randomizer: { type: 'string' },
  lookahead: { type: 'string', default: '1' },
  games: { type: 'string', default: '20' },
  seed: { type: 'string', default: '1' },
} as const;

/** The AI and game settings of a replay from the benches' common options (as `stackrank bench game` reads them). */
export async function replaySetup(args: { rules: string; randomizer?: string; lookahead: string }) {
  const rules = args.rules as RuleSetName;
  const randomizer = (args.randomizer ?? defaultGameRandomizer(rules)) as RandomizerName;
  const lookahead = Number(args.lookahead);
  const hold = RULE_SETS[rules].hold;
  const ai = await TetrisAI.create({ rules, lookahead, randomizer });
  return { rules, randomizer, lookahead, hold, ai };
}
