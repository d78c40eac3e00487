/**
 * Hold at every ply of the stacking search (assembly/search/tree.ts searchHeld; docs/game.md, "Hold"): the kernel's
 * first move and value equal an exhaustive pure-TS search that may press hold at every ply
 * (test/reference/search-reference.ts referenceSearchHeld), with a held piece or an empty box, from the first ply
 * or the second, with queues longer than the window (an empty box brings the piece after the current one), at
 * lookaheads 0 to 4.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { StackingEngine } from '../../src/kernels/search.js';
import { MOVE_NONE, MOVE_TETRIS } from '../../src/kernels/search-format.js';
import type { StackingSettings } from '../../src/stacking-ai/rules.js';
import { referenceSearch, referenceSearchHeld } from '../reference/search-reference.js';
import { stackArb } from '../helpers/stack-arb.js';

const tables: Record<number, RankTable> = {};
beforeAll(async () => {
  for (const width of [5, 6]) tables[width] = await buildRankTable({ width, iterations: 6, threads: 1 });
}, 120_000);

const pieceArb = fc.integer({ min: 0, max: 6 });

/** The kernel's answer equals the reference's: no move where it has none, else the first move, depth and leaf
 * score. False where the reference has no move. */
function expectSameSearch(
  engine: StackingEngine,
  got: ReturnType<StackingEngine['search']>,
  ref: ReturnType<typeof referenceSearch>,
): boolean {
  if (!ref.move) {
    expect(got.move).toBe(MOVE_NONE);
    return false;
  }
  expect(got.depth).toBe(ref.value[0]);
  expect(got.leafScore >>> 16).toBe(ref.value[2]);
  const p = got.move === MOVE_TETRIS ? null : engine.placements.placements[got.move];
  expect({
    tetris: p === null,
    rotation: p ? p.orientation : -1,
    column: p ? p.column : -1,
  }).toEqual(ref.move);
  return true;
}

/**
 * The kernel's search with hold equals referenceSearchHeld (first move, depth and leaf score); true when holding
 * changed the best line's value (the reference without hold differs).
 */
function expectReference(
  engine: StackingEngine,
  table: RankTable,
  rules: StackingSettings,
  heights: number[],
  queue: number[],
  lookahead: number,
  hold: { piece: number | null; fromDepth: 0 | 1 },
): boolean {
  const values = table.searchValues().values;
  const got = engine.search(heights, queue, lookahead, undefined, rules.boardHeight, hold);
  const ref = referenceSearchHeld(heights, queue, lookahead, table.maxStep, rules, (i) => values[i], hold);
  const plain = referenceSearch(heights, queue, lookahead, table.maxStep, rules, (i) => values[i]);
  return expectSameSearch(engine, got, ref) && ref.value.join() !== plain.value.join();
}

/** Searches longer than the property's: board width, lookahead, runs (the reference is exhaustive, so few). */
const LONG_SEARCHES: readonly (readonly [number, number, number])[] = [
  [5, 3, 60],
  [6, 3, 40],
  [5, 4, 10],
];

describe('hold at every ply equals an exhaustive search', () => {
  for (const width of [5, 6]) {
    for (const tetris of ['forced', 'choice'] as const) {
      it(`W=${width}, excessFirst, Tetris ${tetris} (property)`, async () => {
        const table = tables[width];
        const rules: StackingSettings = { boardHeight: 16, tetrisThreshold: 8, steep: 'excessFirst', tetris };
        const engine = await StackingEngine.create(table, rules);
        let holds = 0;
        fc.assert(
          fc.property(
            stackArb(width, 4, 12),
            fc.array(pieceArb, { minLength: 1, maxLength: 6 }),
            fc.option(pieceArb, { nil: null }),
            fc.integer({ min: 0, max: 3 }),
            fc.constantFrom(0 as const, 1 as const),
            (heights, queue, held, la, fromDepth) => {
              const lookahead = Math.min(la, queue.length - 1);
              if (expectReference(engine, table, rules, heights, queue, lookahead, { piece: held, fromDepth })) holds++;
            },
          ),
          { numRuns: 250, seed: width * 10 + (tetris === 'choice' ? 1 : 0) },
        );
        // Holding changed the best line often enough for the test to mean something.
        expect(holds).toBeGreaterThan(20);
      });
    }
  }

  // Every ply of a longer search holds too (TetrisAIOptions.holdPlies 'all' plays it at any lookahead).
  for (const [width, lookahead, numRuns] of LONG_SEARCHES) {
    it(`W=${width}, lookahead ${lookahead}: every ply holds (property)`, async () => {
      const table = tables[width];
      const rules: StackingSettings = { boardHeight: 16, tetrisThreshold: 8, steep: 'excessFirst', tetris: 'choice' };
      const engine = await StackingEngine.create(table, rules);
      let holds = 0;
      fc.assert(
        fc.property(
          stackArb(width, 4, 12),
          fc.array(pieceArb, { minLength: lookahead + 1, maxLength: lookahead + 3 }),
          fc.option(pieceArb, { nil: null }),
          fc.constantFrom(0 as const, 1 as const),
          (heights, queue, held, fromDepth) => {
            if (expectReference(engine, table, rules, heights, queue, lookahead, { piece: held, fromDepth })) holds++;
          },
        ),
        { numRuns, seed: width * 100 + lookahead },
      );
      expect(holds).toBeGreaterThan(numRuns / 10);
    });
  }

  it('without a box the search never holds, as before', async () => {
    const table = tables[5];
    const rules: StackingSettings = { boardHeight: 16, tetrisThreshold: 8, steep: 'excessFirst', tetris: 'forced' };
    const engine = await StackingEngine.create(table, rules);
    const values = table.searchValues().values;
    let moves = 0;
    let tetrises = 0;
    fc.assert(
      fc.property(stackArb(5, 4, 12), fc.array(pieceArb, { minLength: 1, maxLength: 4 }), (heights, queue) => {
        // A search with hold first, so the context's memo and hold words hold something.
        engine.search(heights, queue, queue.length - 1, undefined, 16, { piece: 2, fromDepth: 0 });
        const got = engine.search(heights, queue, queue.length - 1);
        const ref = referenceSearch(heights, queue, queue.length - 1, 4, rules, (i) => values[i]);
        if (!expectSameSearch(engine, got, ref)) return;
        if (ref.move!.tetris) tetrises++;
        else moves++;
      }),
      { numRuns: 200, seed: 3 },
    );
    // Both kinds of move were compared (a surface with no legal move returns before the comparison).
    expect(moves).toBeGreaterThan(50);
    expect(tetrises).toBeGreaterThan(0);
  });
});
