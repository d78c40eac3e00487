/**
 * The competition format's games as `stackrank bench nes` plays them with its defaults (start 18, `X.`, reaction
 * 18, double killscreen 39, cap 49; its lookahead and piece cap read from the command's own option table), for the
 * scripts that replay those games one turn at a time through playOneGame (the loop playGame runs) to look at them
 * (`replay`, with each turn's level). The AI's options and the games' settings are playGame's own (prepareGames).
 */
import { benchNesCommand } from '../src/cli/nes.js';
import { nesFormat, nesLevel } from '../src/rules/nes-game.js';
import { TetrisAI } from '../src/tetris-ai/ai.js';
import { aiCreateOptions, type PlayedTurn, playOneGame, prepareGames } from '../src/tetris-ai/play.js';

export async function competitionReplay(seed: number) {
  const format = nesFormat();
  const { lookahead, maxPieces } = benchNesCommand.options;
  const { aiOptions, settings } = prepareGames({
    rules: format.rules,
    maxLevel: format.maxLevel,
    lookahead: lookahead.default,
    maxPieces: maxPieces.default,
    seed,
  });
  const ai = await TetrisAI.create(aiCreateOptions(aiOptions));
  const start = format.rules.level!;
  /**
   * Plays game `game` (playOneGame) and shows `onTurn` every turn with the level it is played at and the lines
   * cleared before it (the game's LINES counter). Returns the game's tally.
   */
  const replay = (game: number, onTurn: (turn: PlayedTurn, level: number, lines: number) => void) => {
    let lines = 0;
    return playOneGame(ai, game, settings, {
      onTurn: (turn) => {
        onTurn(turn, nesLevel(start, lines), lines);
        lines += turn.lines;
      },
    });
  };
  return { format, ai, settings, replay };
}
