/**
 * The competition format's games as `stackrank bench nes` plays them with its defaults (start 18, `X.`, reaction
 * 18, double killscreen 39, cap 49; its lookahead and piece cap read from the command's own option table), for the
 * scripts that replay those games one turn at a time through playOneGame (the loop playGame runs) to look at them.
 */
import { benchNesCommand } from '../src/cli/nes.js';
import { nesFormat } from '../src/rules/nes-game.js';
import { TetrisAI } from '../src/tetris-ai/ai.js';
import type { GameSettings } from '../src/tetris-ai/play-types.js';

export async function competitionReplay(seed: number) {
  const format = nesFormat();
  const { lookahead, maxPieces } = benchNesCommand.options;
  const ai = await TetrisAI.create({ rules: format.rules, lookahead: lookahead.default, randomizer: 'nes' });
  const settings: GameSettings = {
    randomizer: 'nes',
    lookahead: lookahead.default,
    hold: false,
    maxPieces: maxPieces.default,
    seed,
    maxLevel: format.maxLevel,
  };
  return { format, ai, settings };
}
