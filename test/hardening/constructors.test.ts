/**
 * Exported classes made by factories refuse a caller's `new` with BAD_ARGUMENT naming the factories, instead of
 * returning a half-made object that throws TypeError later (`new Board(10, 20).toRows()`, `new StackingAI()`,
 * `new TetrisAI()`).
 */
import { describe, expect, it } from 'vitest';
import { thrownBy } from '../helpers/refused.js';
import {
  Board,
  PieceMover,
  PreviewTable,
  RankTable,
  StackingAI,
  TetrisAI,
  buildRankTable,
  reachablePlacements,
} from '../helpers/api.js';

const typed = (code: string) => expect.objectContaining({ name: 'StackRankError', code });
type AnyClass = new (...args: unknown[]) => unknown;

describe('constructors of factory-made classes', () => {
  const cases: [string, AnyClass, unknown[][], RegExp][] = [
    [
      'RankTable',
      RankTable as unknown as AnyClass,
      [[], [{}, new Uint16Array(4)], [null]],
      /buildRankTable.*loadRankTable.*fromValues/,
    ],
    [
      'PreviewTable',
      PreviewTable as unknown as AnyClass,
      [[], [{}, new Uint16Array(8)]],
      /buildPreviewTable.*loadPreviewTable/,
    ],
    [
      'Board',
      Board as unknown as AnyClass,
      [[], [10, 20], [10, 20, new Uint16Array(20)]],
      /Board\.empty\(width, height\).*Board\.fromRows/,
    ],
    ['StackingAI', StackingAI as unknown as AnyClass, [[], [{}]], /StackingAI\.create/],
    ['TetrisAI', TetrisAI as unknown as AnyClass, [[], [{}]], /TetrisAI\.create/],
  ];
  for (const [name, Class, argLists, factories] of cases) {
    it(`new ${name}(…) is BAD_ARGUMENT naming the factories`, () => {
      for (const args of argLists) {
        const e = thrownBy(() => new Class(...args));
        expect(e).toEqual(typed('BAD_ARGUMENT'));
        expect(e.message).toMatch(new RegExp(`^${name} has no public constructor`));
        expect(e.message).toMatch(factories);
      }
    });
  }

  it('a Board is never made without its rows, so the rules layer sees only whole boards', () => {
    expect(() =>
      reachablePlacements(new (Board as unknown as AnyClass)(10, 20) as Board, 'T', { rules: 'nes' }),
    ).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    // The factories still make working boards.
    const board = Board.empty(10, 20);
    expect(board.toRows()).toHaveLength(20);
    expect(board.clone().equals(board)).toBe(true);
    expect(reachablePlacements(board, 'T', { rules: 'nes' }).length).toBeGreaterThan(0);
    expect(new PieceMover(board, 'T', 'nes').spawn).toMatchObject({ rotation: 0 });
    expect(new PieceMover(['..........', '..........', '..........', '#########.'], 'I', 'guideline').board.width).toBe(
      10,
    );
  });

  it('the factories of the tables and the AI still work', async () => {
    const table = await buildRankTable({ width: 4, maxStep: 1, iterations: 2, threads: 1 });
    expect(RankTable.fromBytes(table.toBytes()).toBytes()).toEqual(table.toBytes());
    expect(RankTable.fromValues(table.toFloat32(), { width: 4, maxStep: 1, iterations: 2 }).size).toBe(table.size);
    const ai = await StackingAI.create({ table });
    expect(ai.bestPlacement([0, 0, 0, 0], 'T', 0)).not.toBeNull();
  });
});
