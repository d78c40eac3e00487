/**
 * Replays playGame's games turn by turn for the diagnostic benches (game-losses.ts, game-deaths.ts): playOneGame
 * itself (src/tetris-ai/play.ts), the very loop playGame runs, with its onTurn hook handing every position, move and
 * board after it to the caller. A game ends at a top-out or at maxPieces.
 */
import { TetrisAI } from '../src/tetris-ai/ai.js';
import { type PlayedTurn, playOneGame } from '../src/tetris-ai/game-simulator.js';
import { defaultGameRandomizer } from '../src/tetris-ai/rules-adapter.js';
import type { RandomizerName } from '../src/randomizers/index.js';
import { RULE_SETS } from '../src/rules/rule-sets.js';
import type { RuleSetName } from '../src/rules/types.js';

export type { PlayedTurn };

export interface ReplayOptions {
  ai: TetrisAI;
  randomizer: RandomizerName;
  lookahead: number;
  hold: boolean;
  seed: number;
  game: number;
  maxPieces: number;
}

/** Plays game `game` of `seed` as playGame does, calling `onTurn` after each turn; returns its pieces and fate. */
export async function replayGame(
  opts: ReplayOptions,
  onTurn: (turn: PlayedTurn) => void,
): Promise<{ pieces: number; topOut: boolean }> {
  const { ai, game, ...settings } = opts;
  const tally = await playOneGame(ai, game, settings, { onTurn });
  return { pieces: tally.pieces, topOut: tally.topOut };
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
