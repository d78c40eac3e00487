/** The play mode's grading (demo/grade.ts): thresholds as docs/demo.md states them, matching a played placement. */
import { describe, expect, it } from 'vitest';
import { accuracy, gradeLoss, gradePlacement, RECOVER_THRESHOLDS, STACK_THRESHOLDS } from '../../demo/grade.js';
import type { Cell, PlacementRanking, RankedPlacement } from '../../src/index.js';

function entry(hold: boolean, cells: Cell[], value: number, loss: number): RankedPlacement {
  return {
    hold,
    piece: 'T',
    rotation: '0',
    x: 0,
    y: 0,
    cells,
    inputs: ['hardDrop'],
    linesCleared: 0,
    mode: 'stack',
    value,
    loss,
  };
}

describe('gradeLoss', () => {
  it('stack mode reads the loss relative to the best value: 10 % good, 35 % inaccuracy', () => {
    expect(STACK_THRESHOLDS).toEqual({ good: 0.1, inaccuracy: 0.35 });
    const g = (loss: number) => gradeLoss('expectedPieces', loss, 200).grade;
    expect([g(0), g(-3), g(1), g(20), g(20.01), g(70), g(70.01), g(200)]).toEqual([
      'best',
      'best',
      'good',
      'good',
      'inaccuracy',
      'inaccuracy',
      'mistake',
      'mistake',
    ]);
    expect(gradeLoss('expectedPieces', 50, 200).loss).toBe(0.25);
    // The same relative loss is the same grade at any scale of values.
    expect(gradeLoss('expectedPieces', 2e6, 1e7).grade).toBe(gradeLoss('expectedPieces', 2, 10).grade);
  });

  it('recover mode reads evaluator points as they are: 15 good, 60 inaccuracy', () => {
    expect(RECOVER_THRESHOLDS).toEqual({ good: 15, inaccuracy: 60 });
    const g = (loss: number) => gradeLoss('evaluatorScore', loss, -700).grade;
    expect([g(0), g(-5), g(15), g(15.5), g(60), g(60.5)]).toEqual([
      'best',
      'best',
      'good',
      'inaccuracy',
      'inaccuracy',
      'mistake',
    ]);
  });
});

describe('gradePlacement', () => {
  const a: Cell[] = [
    [0, 0],
    [1, 0],
    [2, 0],
    [1, 1],
  ];
  const b: Cell[] = [
    [3, 0],
    [4, 0],
    [5, 0],
    [4, 1],
  ];
  const c: Cell[] = [
    [6, 0],
    [7, 0],
    [8, 0],
    [7, 1],
  ];
  const ranking: PlacementRanking = {
    mode: 'stack',
    unit: 'expectedPieces',
    placements: [entry(true, a, 100, 0), entry(false, a, 92, 8), entry(false, b, 50, 50)],
    afterNextPiece: null,
  };

  it('finds the entry by hold and cells, in any cell order', () => {
    const played = gradePlacement(ranking, false, [...a].reverse());
    expect(played.entry).toBe(ranking.placements[1]);
    expect(played.grade).toBe('good');
    expect(gradePlacement(ranking, true, a).grade).toBe('best');
    expect(gradePlacement(ranking, false, b).grade).toBe('mistake');
  });

  it('falls back to the cells alone (hold pressed on an identical piece), then to the worst listed loss', () => {
    expect(gradePlacement(ranking, true, b).entry).toBe(ranking.placements[2]);
    const unlisted = gradePlacement(ranking, false, c);
    expect(unlisted.entry).toBeNull();
    expect(unlisted.grade).toBe('mistake');
    expect(unlisted.loss).toBe(0.5);
  });
});

it('accuracy is the share of best and good placements', () => {
  expect(accuracy([])).toBe(0);
  expect(accuracy(['best', 'good', 'inaccuracy', 'mistake'])).toBe(50);
  expect(accuracy(['best', 'best', 'best'])).toBe(100);
});
