/**
 * TetrisAI's versus state and move fields (docs/game.md): `combo`, `backToBack` and `incoming` are checked at the
 * edge; every move (nextMove's and each of rankPlacements') reports its spin, clear kind, perfect clear and attack,
 * which agree with an independent count: the lock placed on the board, its spin from the rules layer's search, the
 * attack by the reference's guideline counting (test/reference/versus-reference.ts).
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { StackRankError } from '../../src/errors.js';
import { PIECES } from '../../src/pieces.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { TetrisAI } from '../../src/tetris-ai/index.js';
import { Board, reachablePlacements } from '../../src/rules/index.js';
import { cellKey } from '../reference/rules-reference.js';
import { refGuidelineLock } from '../reference/versus-reference.js';
import { randomBoard } from '../rules/random-boards.js';
import { Rng } from '../../src/random.js';

let table: RankTable;
beforeAll(async () => {
  // A quick 9-column table: the tests check the move's figures, not the play.
  table = await buildRankTable({ width: 9, iterations: 3, threads: 1 });
}, 120_000);

const TSD = ['...#......', '#...######', '##.#######'];
const TSD_CELLS = [
  [1, 1],
  [2, 1],
  [3, 1],
  [2, 0],
];

describe('the move reports its spin, clear kind and attack', () => {
  it('a T-spin double with combo 2 and back-to-back sends 4 + 1 + 1 (guideline)', async () => {
    const ai = await TetrisAI.create({ rules: 'guideline', table });
    const ranking = ai.rankPlacements({ board: TSD, current: 'T', combo: 2, backToBack: 1 });
    const tsd = ranking.placements.find((p) => !p.hold && cellKey(p.cells) === cellKey(TSD_CELLS))!;
    expect(tsd).toMatchObject({
      spin: 'full',
      clearKind: 'tSpinDouble',
      linesCleared: 2,
      perfectClear: false,
      attack: 6,
    });
    expect(['cw', 'ccw']).toContain(tsd.inputs[tsd.inputs.length - 2]);
    // the same lock without the counters: 4
    const plain = ai.rankPlacements({ board: TSD, current: 'T' }).placements;
    expect(plain.find((p) => !p.hold && cellKey(p.cells) === cellKey(TSD_CELLS))!.attack).toBe(4);
  });
  it('a Tetris that empties the board is a perfect clear: 10 (guideline); no attack under nes', async () => {
    const board = Array.from({ length: 4 }, () => '#########.');
    const well = [
      [9, 0],
      [9, 1],
      [9, 2],
      [9, 3],
    ];
    for (const rules of ['guideline', 'nes'] as const) {
      const ai = await TetrisAI.create({ rules, table });
      const move = ai.nextMove({ board, current: 'I', queue: 'O', combo: 0, backToBack: 3 })!;
      expect(cellKey(move.cells)).toBe(cellKey(well));
      expect(move).toMatchObject({
        linesCleared: 4,
        clearKind: 'tetris',
        spin: 'none',
        perfectClear: true,
        attack: rules === 'guideline' ? 10 : 0,
      });
    }
  });
  it('every ranked placement on random boards agrees with the lock placed and counted independently', async () => {
    const ai = await TetrisAI.create({ rules: 'guideline', table });
    const rng = new Rng(54);
    let spins = 0;
    let checked = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 0, max: 4 }),
        fc.constantFrom(...PIECES),
        (combo, backToBack, current) => {
          const rows = randomBoard(rng).rows;
          if (rows.length !== 20 || rows[0].length !== 10) return;
          const board = Board.fromRows(rows);
          const reach = new Map(
            reachablePlacements(board, current, { rules: 'guideline' }).map((p) => [cellKey(p.cells), p]),
          );
          for (const m of ai.rankPlacements({ board: rows, current, combo, backToBack }).placements) {
            if (m.hold) continue;
            const placed = board.withHeight(40).place(m.cells);
            const spin = reach.get(cellKey(m.cells))!.spin;
            const perfect = placed.lines > 0 && placed.board.heights().every((h) => h === 0);
            const ref = refGuidelineLock(placed.lines, spin, perfect, { combo, b2b: backToBack > 0 });
            expect([m.linesCleared, m.spin, m.perfectClear, m.attack]).toEqual([placed.lines, spin, perfect, ref.sent]);
            if (spin !== 'none') spins++;
            checked++;
          }
        },
      ),
      { numRuns: 150, seed: 54 },
    );
    expect(checked).toBeGreaterThan(1000);
    expect(spins).toBeGreaterThan(0);
  });
});

describe('the versus state is checked at the edge', () => {
  const code = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return e instanceof StackRankError ? e.code : String(e);
    }
    return 'no error';
  };
  it('bad counters and garbage are BAD_ARGUMENT; good ones are taken', async () => {
    const ai = await TetrisAI.create({ rules: 'guideline', table });
    const state = { board: TSD, current: 'T' };
    for (const bad of [
      { combo: -1 },
      { combo: 1.5 },
      { backToBack: '1' },
      { backToBack: true },
      { incoming: 3 },
      { incoming: [{ lines: 0, delay: 0 }] },
      { incoming: [{ lines: 2, delay: -1 }] },
      { incoming: [null] },
      { combo: null },
    ])
      expect(
        code(() => ai.nextMove({ ...state, ...(bad as object) } as never)),
        JSON.stringify(bad),
      ).toBe('BAD_ARGUMENT');
    const move = ai.nextMove({
      ...state,
      combo: 3,
      backToBack: 2,
      incoming: [
        { lines: 2, delay: 0 },
        { lines: 1, delay: 3 },
      ],
    });
    expect(move).not.toBeNull();
  });
});
