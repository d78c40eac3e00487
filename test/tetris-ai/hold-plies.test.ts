/**
 * TetrisAIOptions.holdPlies (docs/game.md, "Hold"): where stack mode's search may press hold. 'auto' holds at every
 * ply up to lookahead 2 (MAX_HOLD_PLIES_LOOKAHEAD) and at the first move beyond; 'all' at every ply at any lookahead;
 * 'first' at the first move only. The kernel's search with hold at every ply is checked against an exhaustive
 * reference in test/stacking-ai/search-hold.test.ts; here the option reaches it.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { PIECES, type Piece } from '../../src/pieces.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { TetrisAI, benchGame, playGame, type HoldPlies } from '../../src/tetris-ai/index.js';
import { MAX_HOLD_PLIES_LOOKAHEAD } from '../../src/tetris-ai/policy.js';
import type { GameState } from '../../src/tetris-ai/decision.js';

const W = 10;
const H = 20;
let table: RankTable;
beforeAll(async () => {
  // A quick 9-column table (3 iterations): these tests compare the options' moves, not their strength.
  table = await buildRankTable({ width: 9, iterations: 3, threads: 1 });
}, 120_000);

/** A clean stack (no holes), the well in the right column open; rows top first. */
function stackBoard(heights: readonly number[]): string[] {
  const rows: string[] = [];
  for (let y = H - 1; y >= 0; y--) {
    let row = '';
    for (let x = 0; x < W; x++) row += x < W - 1 && y < heights[x] ? '#' : '.';
    rows.push(row);
  }
  return rows;
}

const pieceArb = fc.constantFrom(...PIECES);
const stateArb: fc.Arbitrary<Turn> = fc.record({
  heights: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: W - 1, maxLength: W - 1 }),
  current: pieceArb,
  queue: fc.array(pieceArb, { minLength: 5, maxLength: 5 }),
  hold: fc.option(pieceArb, { nil: null }),
});

interface Turn {
  heights: number[];
  current: Piece;
  queue: Piece[];
  hold: Piece | null;
}

/** The move's hold, piece, cells, mode and value (what the options could change). */
function moveOf(ai: TetrisAI, s: Turn, canHold = true) {
  const state: GameState = { board: stackBoard(s.heights), current: s.current, queue: s.queue, hold: s.hold, canHold };
  const move = ai.nextMove(state);
  return move && { hold: move.hold, piece: move.piece, cells: move.cells, mode: move.mode, value: move.value };
}

async function ais(lookahead: number): Promise<Record<HoldPlies, TetrisAI>> {
  const make = (holdPlies: HoldPlies) => TetrisAI.create({ rules: 'guideline', lookahead, holdPlies, table });
  return { auto: await make('auto'), all: await make('all'), first: await make('first') };
}

describe('TetrisAI holdPlies', () => {
  it("'auto' plays 'all' up to lookahead 2 and 'first' beyond; without hold the three play alike (property)", async () => {
    for (const lookahead of [1, MAX_HOLD_PLIES_LOOKAHEAD, 3]) {
      const ai = await ais(lookahead);
      const same = lookahead <= MAX_HOLD_PLIES_LOOKAHEAD ? ai.all : ai.first;
      fc.assert(
        fc.property(stateArb, (s) => {
          expect(moveOf(ai.auto, s)).toEqual(moveOf(same, s));
          const noHold = moveOf(ai.auto, s, false);
          expect(moveOf(ai.all, s, false)).toEqual(noHold);
          expect(moveOf(ai.first, s, false)).toEqual(noHold);
        }),
        { numRuns: 40, seed: lookahead },
      );
    }
  });

  it("at lookahead 3 'all' holds later in its line and so plays other moves than 'first' on some stacks", async () => {
    const ai = await ais(3);
    let differ = 0;
    fc.assert(
      fc.property(stateArb, (s) => {
        if (JSON.stringify(moveOf(ai.all, s)) !== JSON.stringify(moveOf(ai.first, s))) differ++;
      }),
      { numRuns: 150, seed: 53 },
    );
    expect(differ).toBeGreaterThan(0);
  });

  it('refuses a value that is not a name it knows, and under goal versus', async () => {
    for (const bad of ['every', true, 2, null, 'ALL']) {
      await expect(TetrisAI.create({ table, holdPlies: bad as HoldPlies })).rejects.toMatchObject({
        code: 'BAD_ARGUMENT',
        // (null is refused as a left-out option is not: the checker of every option says so)
        message: expect.stringMatching(/holdPlies (must be one of auto, all, first|is null)/),
      });
    }
    await expect(TetrisAI.create({ goal: 'versus', holdPlies: 'all' })).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(/holdPlies is an option of the survival policy/),
    });
    expect((await TetrisAI.create({ table })).holdPlies).toBe('auto');
  });

  it('playGame and benchGame check it, and a given ai must hold where the games ask', async () => {
    await expect(playGame({ table, holdPlies: 'every' as HoldPlies })).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(/holdPlies must be one of/),
    });
    const bench = benchGame({
      rules: 'guideline',
      lookahead: 1,
      table,
      players: ['fullBoardOnly'],
      holdPlies: 'x' as HoldPlies,
    });
    await expect(bench).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    const ai = await TetrisAI.create({ rules: 'guideline', lookahead: 3, holdPlies: 'first', table });
    const games = { rules: 'guideline', lookahead: 3, games: 1, maxPieces: 20, ai, threads: 1 } as const;
    await expect(playGame({ ...games, holdPlies: 'all' })).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(/holdPlies 'first'; these games ask for 'all'/),
    });
    expect((await playGame({ ...games, holdPlies: 'first' })).pieces).toBe(20);
  });
});
