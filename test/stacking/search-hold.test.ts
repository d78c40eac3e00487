/**
 * Hold at every ply of the stacking search (assembly/search/tree.ts searchHeld; docs/game.md, "Hold"): the kernel's
 * first move and value equal an exhaustive pure-TS search that may press hold at every ply
 * (test/reference/search-reference.ts referenceSearchHeld), with a held piece or an empty box, from the first ply
 * or the second, with queues longer than the window (an empty box brings the piece after the current one).
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { StackingEngine } from '../../src/stacking/engine.js';
import { MOVE_NONE, MOVE_TETRIS } from '../../src/stacking/layout.js';
import type { StackingRules } from '../../src/stacking/rules.js';
import { referenceSearch, referenceSearchHeld } from '../reference/search-reference.js';

const tables: Record<number, RankTable> = {};
beforeAll(async () => {
  for (const width of [5, 6]) tables[width] = await buildRankTable({ width, iterations: 6, threads: 1 });
}, 120_000);

const pieceArb = fc.integer({ min: 0, max: 6 });

describe('hold at every ply equals an exhaustive search', () => {
  for (const width of [5, 6]) {
    for (const tetris of ['forced', 'choice'] as const) {
      it(`W=${width}, excessFirst, Tetris ${tetris} (property)`, async () => {
        const table = tables[width];
        const rules: StackingRules = { boardHeight: 16, tetrisThreshold: 8, steep: 'excessFirst', tetris };
        const engine = await StackingEngine.create(table, rules);
        const values = table.searchValues().values;
        let holds = 0;
        fc.assert(
          fc.property(
            fc.array(fc.integer({ min: 0, max: 12 }), { minLength: width, maxLength: width }),
            fc.array(pieceArb, { minLength: 1, maxLength: 6 }),
            fc.option(pieceArb, { nil: null }),
            fc.integer({ min: 0, max: 3 }),
            fc.constantFrom(0 as const, 1 as const),
            (heights, queue, held, la, fromDepth) => {
              const lookahead = Math.min(la, queue.length - 1);
              const hold = { piece: held, fromDepth };
              const got = engine.search(heights, queue, lookahead, undefined, rules.boardHeight, hold);
              const ref = referenceSearchHeld(heights, queue, lookahead, table.maxStep, rules, (i) => values[i], hold);
              const plain = referenceSearch(heights, queue, lookahead, table.maxStep, rules, (i) => values[i]);
              if (ref.value.join() !== plain.value.join()) holds++;
              if (!ref.move) {
                expect(got.move).toBe(MOVE_NONE);
                return;
              }
              expect(got.depth).toBe(ref.value[0]);
              expect(got.leafScore >>> 16).toBe(ref.value[2]);
              const p = got.move === MOVE_TETRIS ? null : engine.placements.placements[got.move];
              expect({
                tetris: p === null,
                rotation: p ? p.orientation : -1,
                column: p ? p.column : -1,
              }).toEqual(ref.move);
            },
          ),
          { numRuns: 250, seed: width * 10 + (tetris === 'choice' ? 1 : 0) },
        );
        // Holding changed the best line often enough for the test to mean something.
        expect(holds).toBeGreaterThan(20);
      });
    }
  }

  it('without a box the search never holds, as before', async () => {
    const table = tables[5];
    const rules: StackingRules = { boardHeight: 16, tetrisThreshold: 8, steep: 'excessFirst', tetris: 'forced' };
    const engine = await StackingEngine.create(table, rules);
    const values = table.searchValues().values;
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 5, maxLength: 5 }),
        fc.array(pieceArb, { minLength: 1, maxLength: 4 }),
        (heights, queue) => {
          // A search with hold first, so the context's memo and hold words hold something.
          engine.search(heights, queue, queue.length - 1, undefined, 16, { piece: 2, fromDepth: 0 });
          const got = engine.search(heights, queue, queue.length - 1);
          const ref = referenceSearch(heights, queue, queue.length - 1, 4, rules, (i) => values[i]);
          expect(got.depth).toBe(ref.move ? ref.value[0] : got.depth);
          if (ref.move) expect(got.leafScore >>> 16).toBe(ref.value[2]);
        },
      ),
      { numRuns: 200, seed: 3 },
    );
  });
});
