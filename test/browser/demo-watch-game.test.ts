/**
 * Watch mode's real game (demo/tetris-game.ts), run in Node: the page's loop (demo/main.ts, playFor) counts a game
 * over and starts the next only when a step answers false, so a step that ends the game must say so.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { TetrisAI, buildRankTable } from 'stackrank';
import { TetrisGame } from '../../demo/tetris-game.js';

let ai: TetrisAI;
beforeAll(async () => {
  const table = await buildRankTable({ width: 9, iterations: 2, threads: 1 });
  ai = await TetrisAI.create({ rules: 'guideline', lookahead: 0, table });
});

describe('TetrisGame with garbage', () => {
  it('a step answers false exactly when the game is over, also when garbage pushed the stack off the top', () => {
    let endedByGarbage = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const game = new TetrisGame(ai, 'guideline', { randomizer: 'bag7', seed }, 1);
      let ok = true;
      for (let n = 0; n < 400 && ok; n++) {
        const before = game.pieces;
        ok = game.step();
        expect(ok).toBe(!game.over);
        // The piece was placed and then a garbage row ended the game: the case the page once missed.
        if (!ok && game.pieces > before) endedByGarbage++;
      }
      expect(game.over).toBe(true); // a garbage row after every piece ends every game
    }
    expect(endedByGarbage).toBeGreaterThan(0);
  });
});
