/**
 * The Tetris rule has one definition per language: tetrisOptions in src/stacking-ai/rules.ts and tetrisChoiceOf in
 * assembly/search/rules.ts, both reading TETRIS_ROWS from assembly/search/layout.ts. This test checks that they agree
 * on random stacks near the rule's edges (lowest column around TETRIS_ROWS, highest around the threshold).
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { StackingEngine } from '../../src/kernels/search.js';
import { MOVE_TETRIS } from '../../src/kernels/search-format.js';
import { TETRIS_ROWS, tetrisOptions, type StackingSettings } from '../../src/stacking-ai/rules.js';

const I = 0;
let table: RankTable;
beforeAll(async () => {
  table = await buildRankTable({ width: 5, iterations: 3, threads: 1 });
}, 60_000);

describe('the Tetris rule: TypeScript and the kernel agree', () => {
  it('TETRIS_ROWS is the 4 rows an I clears', () => {
    expect(TETRIS_ROWS).toBe(4);
  });

  for (const tetris of ['forced', 'choice'] as const) {
    it(`rules.tetris '${tetris}' (property)`, async () => {
      const engines = new Map<number, StackingEngine>();
      const engineFor = async (tetrisThreshold: number) => {
        const rules: StackingSettings = { boardHeight: 20, tetrisThreshold, steep: 'excessFirst', tetris };
        if (!engines.has(tetrisThreshold)) engines.set(tetrisThreshold, await StackingEngine.create(table, rules));
        return engines.get(tetrisThreshold)!;
      };
      for (const threshold of [4, 6, 8, 10]) await engineFor(threshold);
      const seen = new Set<string>();
      fc.assert(
        fc.property(
          fc.array(fc.integer({ min: TETRIS_ROWS - 2, max: 12 }), { minLength: 5, maxLength: 5 }),
          fc.constantFrom(4, 6, 8, 10),
          (heights, tetrisThreshold) => {
            const engine = engines.get(tetrisThreshold)!;
            const expected = tetrisOptions(heights, { tetrisThreshold, tetris });
            seen.add(expected);
            const { move } = engine.search(heights, [I], 0);
            if (expected === 'forced') expect(move).toBe(MOVE_TETRIS);
            if (expected === 'none') expect(move).not.toBe(MOVE_TETRIS);
            // 'optional': the kernel may take either (the next test pins it down where no placement exists).
            if (expected === 'optional') expect(tetris).toBe('choice');
          },
        ),
        { numRuns: 400, seed: 15 },
      );
      expect([...seen].sort()).toEqual(tetris === 'forced' ? ['forced', 'none'] : ['forced', 'none', 'optional']);
    });
  }

  it("'choice' where the I fits nowhere else: the kernel goes down the well exactly when the rule allows it", async () => {
    // Vertical I's pass the top (height + 4 > board height) and no four equal columns take a flat one.
    const cases: [number[], number, boolean][] = [
      [[6, 8, 6, 8, 6], 9, true], //               lowest 6: optional (highest 8 is below the threshold 9)
      [[TETRIS_ROWS, 6, 5, 6, 5], 6, true], //     lowest exactly TETRIS_ROWS, highest at the threshold: forced
      [[TETRIS_ROWS - 1, 6, 5, 6, 5], 6, false], // lowest one below: no Tetris, and no placement either
    ];
    for (const [heights, boardHeight, down] of cases) {
      const rules: StackingSettings = {
        boardHeight,
        tetrisThreshold: boardHeight,
        steep: 'excessFirst',
        tetris: 'choice',
      };
      const engine = await StackingEngine.create(table, rules);
      expect(tetrisOptions(heights, rules) !== 'none').toBe(down);
      expect([heights, engine.search(heights, [I], 0).move === MOVE_TETRIS]).toEqual([heights, down]);
    }
  });
});
