/**
 * The competition format's games as `stackrank bench nes` plays them with its defaults (start 18, `X.`, reaction
 * 18, double killscreen 39, cap 49; its lookahead and piece cap read from the command's own option table), for the
 * scripts that replay those games one turn at a time through playOneGame (the loop playGame runs) to look at them
 * (each turn carries its level and the game's LINES counter: PlayedTurn's `nes`). The AI's options and the games'
 * settings are playGame's own (prepareGames); `playOuts: false` makes the AI without play-outs (TetrisAIOptions).
 */
import { benchNesCommand } from '../src/cli/nes.js';
import { nesFormat } from '../src/rules/nes-game.js';
import { TetrisAI } from '../src/tetris-ai/ai.js';
import { prepareGames } from '../src/tetris-ai/play.js';
import { aiCreateOptions } from '../src/tetris-ai/play-types.js';

export async function competitionReplay(seed: number, playOuts = true) {
  const format = nesFormat();
  const { lookahead, maxPieces } = benchNesCommand.options;
  const { aiOptions, settings } = prepareGames({
    rules: format.rules,
    maxLevel: format.maxLevel,
    lookahead: lookahead.default,
    maxPieces: maxPieces.default,
    seed,
    playOuts,
  });
  const ai = await TetrisAI.create(aiCreateOptions(aiOptions));
  return { format, ai, settings };
}
