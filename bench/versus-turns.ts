/**
 * The turns of one solo versus game as `stackrank bench game --rules guideline --goal versus` plays it (bag7, 5
 * previews, hold; game `game` of seed `seed`), for the diagnostics that label them (bench/versus-clears.ts,
 * bench/versus-pc.ts).
 */
import type { TetrisAI } from '../src/tetris-ai/ai.js';
import { type PlayedTurn, playOneGame } from '../src/tetris-ai/game-simulator.js';

export async function versusGameTurns(
  ai: TetrisAI,
  game: number,
  maxPieces: number,
  seed: number,
): Promise<PlayedTurn[]> {
  const turns: PlayedTurn[] = [];
  await playOneGame(
    ai,
    game,
    { randomizer: 'bag7', lookahead: 5, hold: true, maxPieces, seed },
    { onTurn: (t) => turns.push(t) },
  );
  return turns;
}
