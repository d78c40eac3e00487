import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { stackSearchSetup } from '../../src/game/ai.js';
import { TetrisAI } from '../../src/game/index.js';
import { lockCells, stackFloor } from '../../src/game/grid.js';
import { ruleFacts } from '../../src/game/rules-adapter.js';
import { isTetrisReady } from '../../src/game/stack.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import type { Cell } from '../../src/rules/types.js';

const W = 10;
const H = 20;
let table: RankTable;
beforeAll(async () => {
  // A quick 9-column table (3 iterations): these tests check which limit a turn plays under, not the strength.
  table = await buildRankTable({ width: 9, iterations: 3, threads: 1 });
}, 120_000);

/** Bit rows (bottom first) from column heights, hole-free. */
function rowsOf(heights: readonly number[]): Uint32Array {
  const rows = new Uint32Array(H + 4);
  for (let x = 0; x < W; x++) for (let y = 0; y < heights[x]; y++) rows[y] |= 1 << x;
  return rows;
}

/** Rows top first, as nextMove takes them. */
function drawRows(rows: Uint32Array): string[] {
  const out: string[] = [];
  for (let y = H - 1; y >= 0; y--) {
    let line = '';
    for (let x = 0; x < W; x++) line += (rows[y] >> x) & 1 ? '#' : '.';
    out.push(line);
  }
  return out;
}

/**
 * The definition isTetrisReady must meet, checked by dropping the piece: the board is a clean stack over a floor for a
 * well side, and an I upright in that well column, resting on what it holds, clears four rows.
 */
function tetrisByDrop(rows: Uint32Array, side: 'right' | 'left'): boolean {
  const well = side === 'right' ? W - 1 : 0;
  if (stackFloor(rows, W, well) < 0) return false;
  let top = 0;
  for (let y = 0; y < rows.length; y++) if ((rows[y] >> well) & 1) top = y + 1;
  if (top + 4 > rows.length) return false;
  const cells: Cell[] = [0, 1, 2, 3].map((i) => [well, top + i]);
  return lockCells(rows, W, cells).lines === 4;
}

describe('isTetrisReady', () => {
  it('is true exactly where an I down a clean well clears four rows, on either side asked (property)', () => {
    // Clean stacks over a floor of 0-4 rows (the well column's height) on either side, some with stray cells or
    // holes (a flip of one cell), the stack columns 3-9 rows over the floor: some ready, some not.
    const board = fc
      .tuple(
        fc.boolean(),
        fc.integer({ min: 0, max: 4 }),
        fc.array(fc.integer({ min: 3, max: 9 }), { minLength: W - 1, maxLength: W - 1 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: W - 1 }), fc.integer({ min: 0, max: 13 })), { maxLength: 1 }),
      )
      .map(([left, floor, stack, flips]) => {
        const heights = stack.map((h) => floor + h);
        const rows = rowsOf(left ? [floor, ...heights.reverse()] : [...heights, floor]);
        for (const [x, y] of flips) rows[y] ^= 1 << x;
        for (let y = 0; y < rows.length; y++) if (rows[y] === (1 << W) - 1) rows[y] &= ~2; // no full rows
        return rows;
      });
    let ready = 0;
    fc.assert(
      fc.property(board, (rows) => {
        const right = tetrisByDrop(rows, 'right');
        const left = tetrisByDrop(rows, 'left');
        expect(isTetrisReady(rows, W, ['right'])).toBe(right);
        expect(isTetrisReady(rows, W, ['left'])).toBe(left);
        expect(isTetrisReady(rows, W, ['right', 'left'])).toBe(right || left);
        if (right || left) ready++;
      }),
      { numRuns: 400, seed: 5 },
    );
    // The boards include ready ones, or the property would say little.
    expect(ready).toBeGreaterThan(10);
  });

  it('needs the lowest stack column four rows over the floor', () => {
    expect(isTetrisReady(rowsOf([4, 6, 5, 7, 4, 5, 6, 4, 5, 0]), W, ['right'])).toBe(true);
    expect(isTetrisReady(rowsOf([4, 6, 5, 7, 3, 5, 6, 4, 5, 0]), W, ['right'])).toBe(false);
    // Over a floor of two rows (the well holds them): the stack counts from the floor.
    expect(isTetrisReady(rowsOf([6, 8, 7, 9, 6, 7, 8, 6, 7, 2]), W, ['right'])).toBe(true);
    expect(isTetrisReady(rowsOf([5, 8, 7, 9, 6, 7, 8, 6, 7, 2]), W, ['right'])).toBe(false);
    // A left well: the mirror image.
    expect(isTetrisReady(rowsOf([0, 5, 4, 6, 5, 4, 7, 5, 6, 4]), W, ['left'])).toBe(true);
    expect(isTetrisReady(rowsOf([0, 5, 4, 6, 5, 4, 7, 5, 6, 4]), W, ['right'])).toBe(false);
  });
});

describe('stack limits', () => {
  it('under classic a Tetris-ready stack may fill 16 rows and any other 14; the other rule sets have one limit', () => {
    const limits = Object.fromEntries(
      (['classic', 'nes', 'guideline', 'tgm', 'tgm20g'] as const).map((r) => {
        const setup = stackSearchSetup(ruleFacts(r), 'tgm1', 'both');
        // The search engine's board is the higher limit; each turn searches under the one its board allows.
        expect(setup.stackRules.boardHeight).toBe(Math.max(setup.limits.tetrisReady, setup.limits.building));
        return [r, [setup.limits.tetrisReady, setup.limits.building]];
      }),
    );
    expect(limits).toEqual({ classic: [16, 14], nes: [14, 14], guideline: [16, 16], tgm: [14, 14], tgm20g: [12, 12] });
  });

  it('a Tetris-ready classic stack 13 rows high waits for its I in stack mode; one still building burns', async () => {
    const ai = await TetrisAI.create({ rules: 'classic', lookahead: 1, table, well: 'right' });
    // 13 rows high, no I known: within 2 rows of the building limit (14), a stack still building burns (no piece
    // clears a row here, so recover mode); a Tetris-ready one is 3 rows under its limit (16) and plays on.
    const ready = rowsOf([12, 12, 13, 13, 12, 12, 13, 13, 12, 0]);
    const building = rowsOf([3, 12, 13, 13, 12, 12, 13, 13, 12, 0]);
    expect(isTetrisReady(ready, W, ['right'])).toBe(true);
    expect(isTetrisReady(building, W, ['right'])).toBe(false);
    const onReady = ai.nextMove({ board: drawRows(ready), current: 'O', queue: 'T' })!;
    expect([onReady.mode, onReady.linesCleared]).toEqual(['stack', 0]);
    expect(Math.max(...onReady.cells.map(([, y]) => y))).toBeLessThan(16);
    expect(ai.nextMove({ board: drawRows(building), current: 'O', queue: 'T' })!.mode).toBe('recover');
    // A ready stack within 2 rows of its own limit burns too.
    const tooTall = rowsOf([15, 15, 14, 14, 15, 15, 14, 14, 15, 0]);
    const move = ai.nextMove({ board: drawRows(tooTall), current: 'O', queue: 'T' })!;
    expect(move.mode).toBe('recover');
  });
});
