import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dropPiece } from '../../src/fullboard/drops.js';
import { Board } from '../../src/rules/board.js';
import { featureValues } from '../../src/fullboard/features.js';
import { ORIENTATIONS, PIECES } from '../../src/pieces.js';
import { readFileSync } from 'node:fs';
import { PRESETS } from '../../src/fullboard/presets.js';
import {
  boardFeatures,
  defaultRecoverWeightSet,
  FLOOR_RECOVER_WEIGHTS,
  NES_RECOVER_WEIGHTS,
  PLAIN_BCTS_WEIGHTS,
  RECOVER_TERMS,
  RECOVER_WEIGHTS,
} from '../../src/tetris-ai/evaluate.js';
import { columnHeights } from '../../src/board-rows.js';
import { RULE_SETS } from '../../src/rules/rule-sets.js';
import { isHoleFree, lockCells } from '../../src/tetris-ai/grid.js';

const boardArb = fc
  .record({ width: fc.integer({ min: 4, max: 10 }), height: fc.integer({ min: 4, max: 24 }) })
  .chain(({ width, height }) =>
    fc.record({
      width: fc.constant(width),
      height: fc.constant(height),
      // rows of random cells under a random top, never full
      rows: fc.array(fc.integer({ min: 0, max: (1 << width) - 2 }), { minLength: 0, maxLength: height - 4 }),
    }),
  );

describe('the recover evaluator equals the full-board reference features', () => {
  it('board features on random boards (property)', () => {
    fc.assert(
      fc.property(boardArb, ({ width, height, rows }) => {
        const board = Board.fromBits(rows, width, height);
        const ref = featureValues(board);
        const got = boardFeatures(
          board.rows,
          width,
          height,
          { lines: 0, erodedCells: 0, landingRow: 0, pieceHeight: 1 },
          -1,
        );
        expect(got.rowTransitions).toBe(ref.rowTransitions);
        expect(got.columnTransitions).toBe(ref.columnTransitions);
        expect(got.holes).toBe(ref.holes);
        expect(got.cumulativeWells).toBe(ref.cumulativeWells);
        expect(got.holeDepth).toBe(ref.holeDepth);
        expect(got.rowsWithHoles).toBe(ref.rowsWithHoles);
        expect(columnHeights(board.rows, width)).toEqual(board.heights());
        expect(isHoleFree(board.rows, width)).toBe(board.holes() === 0);
      }),
      { numRuns: 500 },
    );
  });

  it('move features of a straight drop equal dropPiece (property)', () => {
    fc.assert(
      fc.property(
        boardArb,
        fc.integer({ min: 0, max: 6 }),
        fc.nat(),
        fc.nat(),
        ({ width, height, rows }, piece, oi, xi) => {
          const board = Board.fromBits(rows, width, height);
          const orientation = oi % ORIENTATIONS[piece].length;
          const x = xi % (width - ORIENTATIONS[piece][orientation].width + 1);
          const placed = dropPiece(board, { piece: PIECES[piece], rotation: String(orientation), x });
          if (!placed) return;
          const locked = lockCells(board.rows, width, placed.move.cells);
          expect(Array.from(locked.rows)).toEqual(Array.from(placed.board.rows));
          const ref = featureValues(placed.board, placed);
          const got = boardFeatures(locked.rows, width, height, locked, -1);
          expect(got.landingHeight).toBe(ref.landingHeight);
          expect(got.erodedPieceCells).toBe(ref.erodedPieceCells);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('worked example of docs/fullboard.md (board A)', () => {
    const boardA = ['#...#.....', '##.####.#.', '#.########'];
    const board = Board.fromRows(boardA, 20);
    const none = { lines: 0, erodedCells: 0, landingRow: 0, pieceHeight: 1 };
    const f = boardFeatures(board.rows, 10, 20, none, -1);
    expect([f.rowTransitions, f.columnTransitions, f.holes, f.cumulativeWells, f.holeDepth, f.rowsWithHoles]).toEqual([
      46, 12, 1, 4, 1, 1,
    ]);
    // With the well on the right, column 9 reads as filled for row transitions and wells: row 1 loses the two
    // changes around its empty column-9 cell (46 - 2); row 2 still changes once at its right end (now between
    // columns 8 and 9); the well cell at column 9 row 1 is gone (cumulative wells 3); the filled cell in column 9
    // (row 0) is a well cell.
    // Rows 1 and up are a clean stack over row 0 (its hole covered, its well cell filled): clean over a floor of 1
    // where floors of a row or more are played over, not clean where only the bottom is.
    const rightWell = (rows: string[], maxFloor = 2) =>
      boardFeatures(Board.fromRows(rows, 20).rows, 10, 20, none, 9, -1, maxFloor);
    const w = rightWell(boardA);
    expect([w.rowTransitions, w.cumulativeWells, w.wellCells, w.clean, w.floorRows]).toEqual([44, 3, 1, 1, 1]);
    const bottomOnly = rightWell(boardA, 0);
    expect([bottomOnly.clean, bottomOnly.floorRows]).toEqual([0, 0]);
    const clean = rightWell(['#.........', '#########.']);
    expect([clean.wellCells, clean.clean, clean.floorRows]).toEqual([0, 1, 0]);
    // A hole above the floor (column 2, row 1, under row 2's cell) is no clean stack.
    const holed = rightWell(['#.#.......', '#.......#.', '#.########']);
    expect([holed.clean, holed.floorRows]).toEqual([0, 0]);
    // The well higher than a stack column (column 1 ends at row 0, the well at row 1) is no clean stack either.
    const blocked = rightWell(['#.#######.', '#.########', '##.#######']);
    expect([blocked.clean, blocked.floorRows]).toEqual([0, 0]);
  });
});

describe('the recover weights', () => {
  it('docs/game.md tables them as the code has them, and the baseline plays BCTS to the last digit', () => {
    const doc = readFileSync(new URL('../../docs/game.md', import.meta.url), 'utf8');
    // "| term (what) | tuned | timed NES | BCTS | timed NES at the floor |", the signs written as the minus sign
    const rows = new Map(
      [...doc.matchAll(/^\| (\w+)[^|]* \| ([−\d.]+) \| ([−\d.]+) \| ([−\d.]+) \| ([−\d.]+) \|$/gm)].map((m) => [
        m[1],
        m.slice(2).map((v) => Number(v.replace('−', '-'))),
      ]),
    );
    expect([...rows.keys()]).toEqual(RECOVER_TERMS);
    for (const term of RECOVER_TERMS) {
      const [tuned, timed, bcts, floor] = rows.get(term)!;
      expect(tuned, term).toBe(RECOVER_WEIGHTS[term]);
      expect(timed, term).toBe(NES_RECOVER_WEIGHTS[term]);
      expect(bcts, term).toBeCloseTo(PLAIN_BCTS_WEIGHTS[term], 3);
      expect(floor, term).toBe(FLOOR_RECOVER_WEIGHTS[term]);
    }
    const { features, weights } = PRESETS.bcts;
    expect(features.map((f) => PLAIN_BCTS_WEIGHTS[f as keyof typeof PLAIN_BCTS_WEIGHTS])).toEqual(weights);
  });

  it('each tuned set plays where it was tuned or measured: the X.-tuned usual set at X. only, the floor set at any', () => {
    const set = (usual: object, floor: object, blind: object) => ({ usual, floor, blind });
    expect(defaultRecoverWeightSet(RULE_SETS.nes)).toEqual(
      set(NES_RECOVER_WEIGHTS, FLOOR_RECOVER_WEIGHTS, RECOVER_WEIGHTS),
    );
    for (const timeline of ['X..', 'X....', 'das'] as const)
      expect(defaultRecoverWeightSet({ ...RULE_SETS.nes, timeline }), timeline).toEqual(
        set(RECOVER_WEIGHTS, FLOOR_RECOVER_WEIGHTS, RECOVER_WEIGHTS),
      );
    expect(defaultRecoverWeightSet(RULE_SETS.classic).usual).toBe(RECOVER_WEIGHTS);
    expect(defaultRecoverWeightSet(RULE_SETS.nesUntimed).usual).toBe(RECOVER_WEIGHTS);
  });
});
