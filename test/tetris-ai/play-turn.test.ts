/**
 * TetrisAI.playTurn (playGame's entry, without nextMove's input checks and copies) plays exactly nextMove's move, on
 * every move of games that go through stack mode, smaller clears, floors and recover mode, with hold, both well sides
 * and the randomizer's next-piece chances. Its value is nextMove's too, except on a recover move whose chance ply it
 * skipped (the ply could not change the move; docs/game.md, "The chance ply").
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { TetrisAI, type WellSide } from '../../src/tetris-ai/ai.js';
import { lockInPlace } from '../../src/tetris-ai/grid.js';
import type { Piece } from '../../src/pieces.js';
import { createRandomizer, type RandomizerName } from '../../src/randomizers/index.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import type { RuleSetName } from '../../src/rules/types.js';

let table: RankTable;
beforeAll(async () => {
  // A weak table (3 iterations): its stack fails often, so the games visit recover mode and floors too.
  table = await buildRankTable({ width: 9, iterations: 3, threads: 1 });
}, 120_000);

const GAMES: { rules: RuleSetName; randomizer: RandomizerName; lookahead: number; hold: boolean; well: WellSide }[] = [
  { rules: 'classic', randomizer: 'tgm1', lookahead: 1, hold: false, well: 'right' },
  { rules: 'nes', randomizer: 'nes', lookahead: 1, hold: false, well: 'left' },
  { rules: 'guideline', randomizer: 'bag7', lookahead: 3, hold: true, well: 'auto' },
  { rules: 'tgm20g', randomizer: 'tgm1', lookahead: 1, hold: false, well: 'right' },
];

describe('TetrisAI.playTurn', () => {
  for (const { rules, randomizer, lookahead, hold, well } of GAMES) {
    it(`${rules}, ${randomizer}, lookahead ${lookahead}${hold ? ', hold' : ''}, well ${well}: nextMove's move on every move`, async () => {
      const ai = await TetrisAI.create({ rules, lookahead, randomizer, well, table });
      const rng = createRandomizer(randomizer, { seed: 11 });
      const rows = new Uint32Array(44);
      const stream: Piece[] = [];
      let held: Piece | null = null;
      const modes = new Set<string>();
      for (let piece = 0; piece < 250; piece++) {
        while (stream.length < lookahead + 1) stream.push(rng.next() as Piece);
        const [current, ...queue] = stream;
        const next = Float64Array.from(rng.distribution());
        const hold_ = hold ? held : null;
        const checked = ai.nextMove({
          board: { width: 10, rows: rows.subarray(0, 20) },
          current,
          queue,
          hold: hold_,
          canHold: hold,
          next,
        });
        const fast = ai.playTurn({ rows, height: 20, current, queue, hold: hold_, canHold: hold, next });
        // Only a chance ply (none under guideline) can be skipped: every other value is nextMove's to the bit.
        if (!checked || checked.mode === 'stack' || rules === 'guideline') expect(fast).toEqual(checked);
        else expect({ ...fast, value: 0 }).toEqual({ ...checked, value: 0 });
        if (!checked) break;
        modes.add(checked.mode);
        if (checked.hold) {
          if (held === null) stream.shift();
          held = current;
        }
        stream.shift();
        lockInPlace(rows, 10, checked.cells);
        if (rows.subarray(20).some((m) => m !== 0)) break;
      }
      expect(modes.has('stack')).toBe(true);
    }, 120_000);
  }
});
