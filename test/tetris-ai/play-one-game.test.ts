/**
 * playOneGame's onTurn hook (what the diagnostic benches replay games with): one call per turn with the board before
 * and after the move, consecutive, and the game itself unchanged by watching it; and prepareGames, the plan those
 * benches replay playGame's games from.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { TetrisAI } from '../../src/tetris-ai/ai.js';
import { lockCells } from '../../src/tetris-ai/grid.js';
import { type PlayGameOptions, playGame, prepareGames } from '../../src/tetris-ai/play.js';
import { aiCreateOptions } from '../../src/tetris-ai/play-types.js';
import { type PlayedTurn, playOneGame } from '../../src/tetris-ai/game-simulator.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { RULE_SETS } from '../../src/rules/rule-sets.js';
import { StackRankError } from '../../src/errors.js';

let table: RankTable;
beforeAll(async () => {
  // A weak table (3 iterations): its games fail often, so they reach recover mode and top out within the cap.
  table = await buildRankTable({ width: 9, iterations: 3, threads: 1 });
}, 120_000);

describe('playOneGame onTurn', () => {
  for (const [rules, randomizer, lookahead, hold] of [
    ['classic', 'tgm1', 1, false],
    ['guideline', 'bag7', 3, true],
  ] as const) {
    it(`${rules}: every turn, its boards consecutive and each move locked as the game locks it`, async () => {
      const ai = await TetrisAI.create({ rules, lookahead, randomizer, table });
      const settings = { randomizer, lookahead, hold, maxPieces: 400, seed: 5 } as const;
      const turns: PlayedTurn[] = [];
      const watched = await playOneGame(ai, 2, settings, { onTurn: (t) => turns.push(t) });
      const plain = await playOneGame(ai, 2, settings);
      expect(watched).toEqual(plain);
      // One call per placed piece, and one more for the move that was not there when nextMove had none.
      const nullMoves = turns.filter((t) => t.move === null).length;
      expect(turns.length).toBe(watched.pieces + nullMoves);
      expect(nullMoves).toBeLessThanOrEqual(1);
      expect(turns.map((t) => t.n)).toEqual(turns.map((_, i) => i));
      let lines = 0;
      turns.forEach((t, i) => {
        if (i > 0) expect(t.before).toEqual(turns[i - 1].after);
        if (t.move === null) {
          expect(t.after).toEqual(t.before);
          return;
        }
        const locked = lockCells(t.before, ai.width, t.move.cells);
        expect(t.after).toEqual(locked.rows);
        expect(t.lines).toBe(locked.lines);
        lines += t.lines;
      });
      expect(lines).toBe(watched.lines);
      expect(turns.every((t) => t.nes === undefined)).toBe(true);
    }, 60_000);
  }

  it('an NES game: each turn carries its level and the LINES counter before the move', async () => {
    // From level 0 the first level-up comes at 10 lines and every later one 10 lines on (docs/rules.md).
    const rules = { ...RULE_SETS.nes, level: 0 };
    const ai = await TetrisAI.create({ rules, lookahead: 1, randomizer: 'nes', table });
    const { settings } = prepareGames({ rules, maxLevel: null, maxPieces: 300, seed: 5, table });
    const turns: PlayedTurn[] = [];
    await playOneGame(ai, 1, settings, { onTurn: (t) => turns.push(t) });
    let lines = 0;
    for (const t of turns) {
      expect(t.nes).toEqual({ level: Math.floor(lines / 10), lines });
      lines += t.lines;
    }
    expect(lines).toBeGreaterThanOrEqual(20);
  }, 60_000);
});

describe('prepareGames', () => {
  const runs: [string, PlayGameOptions][] = [
    ['classic', { rules: 'classic', lookahead: 1 }],
    ['nes from level 29, no cap', { rules: { ...RULE_SETS.nes, level: 29 }, maxLevel: null }],
  ];
  for (const [name, options] of runs) {
    it(`${name}: its AI options and settings replay playGame's games through playOneGame`, async () => {
      const run: PlayGameOptions = { ...options, games: 2, firstGame: 3, maxPieces: 300, seed: 11, table };
      const played = await playGame({ ...run, threads: 1 });
      const { aiOptions, settings, firstGame, games } = prepareGames(run);
      const ai = await TetrisAI.create(aiCreateOptions(aiOptions, { table }));
      const replayed = [];
      for (let g = firstGame; g < firstGame + games; g++) replayed.push(await playOneGame(ai, g, settings));
      expect(replayed).toEqual(played.tallies);
      expect(played.pieces).toBeGreaterThan(0);
    }, 60_000);
  }

  it('refuses what playGame refuses, before anything is played', () => {
    for (const bad of [{ lookahead: 9 }, { rules: 'classic', maxLevel: 30 }, { hold: 'yes' }, { colour: 1 }]) {
      expect(() => prepareGames(bad as PlayGameOptions)).toThrow(StackRankError);
    }
  });
});
