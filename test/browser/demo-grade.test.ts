/** The play mode's grading (demo/grade.ts): thresholds as docs/demo.md states them, matching a played placement. */
import { describe, expect, it } from 'vitest';
import {
  accuracy,
  gradeLoss,
  gradePlacement,
  lossText,
  RECOVER_THRESHOLDS,
  STACK_THRESHOLDS,
  worstMoves,
} from '../../demo/grade.js';
import type { Cell, PlacementRanking, RankedPlacement } from '../../src/index.js';
import type { Grade } from '../../demo/grade.js';

function entry(hold: boolean, cells: Cell[], value: number, loss: number, topsOut = false): RankedPlacement {
  return {
    hold,
    piece: 'T',
    rotation: '0',
    x: 0,
    y: 0,
    cells,
    inputs: ['hardDrop'],
    linesCleared: 0,
    spin: 'none',
    clearKind: 'none',
    perfectClear: false,
    attack: 0,
    mode: 'stack',
    value,
    loss,
    topsOut,
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

describe('moves that top out', () => {
  const cells = (x: number): Cell[] => [
    [x, 17],
    [x + 1, 17],
    [x + 2, 17],
    [x + 1, 18],
  ];
  const over: Cell[] = [
    [3, 19],
    [4, 19],
    [5, 19],
    [4, 20],
  ];
  const recover = (first: RankedPlacement, ...rest: RankedPlacement[]): PlacementRanking => ({
    mode: 'recover',
    unit: 'evaluatorScore',
    placements: [first, ...rest],
    afterNextPiece: null,
  });

  it("a move that tops out where the AI's does not is a mistake flagged topsOut, its cost not read as points", () => {
    const ranking = recover(entry(false, cells(0), -1100, 0), entry(false, over, -2000001533, 2000000433, true));
    const g = gradePlacement(ranking, false, over);
    expect(g).toMatchObject({ grade: 'mistake', topsOut: true, severity: Infinity });
    expect(gradePlacement(ranking, false, cells(0))).toMatchObject({ grade: 'best', topsOut: false, severity: 0 });
  });

  it("when the AI's move tops out too, the loss grades as usual", () => {
    const ranking = recover(entry(false, cells(0), -2e9 - 10, 0, true), entry(false, over, -2e9 - 20, 10, true));
    expect(gradePlacement(ranking, false, over)).toMatchObject({ grade: 'good', topsOut: false });
  });

  it('a stack move that tops out is a mistake even when the best value is 0', () => {
    const ranking: PlacementRanking = {
      mode: 'stack',
      unit: 'expectedPieces',
      placements: [entry(false, cells(0), 0, 0), entry(false, over, 0, 0, true)],
      afterNextPiece: null,
    };
    expect(gradePlacement(ranking, false, over)).toMatchObject({ grade: 'mistake', topsOut: true });
  });
});

it('accuracy is the share of best and good placements', () => {
  expect(accuracy([])).toBe(0);
  expect(accuracy(['best', 'good', 'inaccuracy', 'mistake'])).toBe(50);
  expect(accuracy(['best', 'best', 'best'])).toBe(100);
});

describe('worstMoves', () => {
  const graded = (grade: Grade, severity: number, name: string) => ({
    grade,
    severity,
    name,
    entry: null,
    loss: 0,
    topsOut: severity === Infinity,
  });

  it('orders by grade, then by severity, so that losses in pieces and in points compare', () => {
    // Stack: a move that breaks the perfect stack loses 100 % (severity 1 / 0.35 = 2.9); recover: 265 and 191
    // points (4.4 and 3.2 times the 60 points where mistakes start); a recover inaccuracy of 59 points.
    const stackBreak = gradeLoss('expectedPieces', 50, 50);
    expect(stackBreak.grade).toBe('mistake');
    const list = [
      graded('mistake', 1 / STACK_THRESHOLDS.inaccuracy, 'stack 100 %'),
      graded('inaccuracy', 59 / RECOVER_THRESHOLDS.inaccuracy, 'recover 59'),
      graded('mistake', 191 / RECOVER_THRESHOLDS.inaccuracy, 'recover 191'),
      graded('good', 0.09 / STACK_THRESHOLDS.good, 'stack 9 %'),
      graded('mistake', Infinity, 'tops out'),
      graded('best', 0, 'best'),
      graded('mistake', 265 / RECOVER_THRESHOLDS.inaccuracy, 'recover 265'),
    ];
    expect(worstMoves(list, 10).map((g) => g.name)).toEqual([
      'tops out',
      'recover 265',
      'recover 191',
      'stack 100 %',
      'recover 59',
      'stack 9 %',
    ]);
    expect(worstMoves(list, 2).map((g) => g.name)).toEqual(['tops out', 'recover 265']);
  });

  it("severity is the loss over its grade's limit (good: the good threshold; worse: where mistakes start)", () => {
    const ranking: PlacementRanking = {
      mode: 'recover',
      unit: 'evaluatorScore',
      placements: [
        entry(
          false,
          [
            [0, 0],
            [1, 0],
            [2, 0],
            [1, 1],
          ],
          -100,
          0,
        ),
        entry(
          false,
          [
            [3, 0],
            [4, 0],
            [5, 0],
            [4, 1],
          ],
          -112,
          12,
        ),
        entry(
          false,
          [
            [6, 0],
            [7, 0],
            [8, 0],
            [7, 1],
          ],
          -130,
          30,
        ),
      ],
      afterNextPiece: null,
    };
    expect(gradePlacement(ranking, false, ranking.placements[1].cells as Cell[]).severity).toBeCloseTo(12 / 15, 12);
    expect(gradePlacement(ranking, false, ranking.placements[2].cells as Cell[]).severity).toBeCloseTo(30 / 60, 12);
  });
});

describe('lossText', () => {
  it('shows as many decimals as it takes for the number to read as its grade', () => {
    // stack: a fraction of the best value shown in %
    expect(lossText('expectedPieces', 'good', 0.236 / 78.1)).toBe('0.3 %');
    expect(lossText('expectedPieces', 'good', 0.05)).toBe('5 %');
    expect(lossText('expectedPieces', 'inaccuracy', 0.1004)).toBe('10.04 %');
    expect(lossText('expectedPieces', 'mistake', 1)).toBe('100 %');
    // recover: evaluator points
    expect(lossText('evaluatorScore', 'inaccuracy', 15.07)).toBe('15.1 evaluator points');
    expect(lossText('evaluatorScore', 'good', 15)).toBe('15 evaluator points');
    expect(lossText('evaluatorScore', 'good', 0.174)).toBe('0.2 evaluator points');
    expect(lossText('evaluatorScore', 'mistake', 265.4)).toBe('265 evaluator points');
    // closer to a threshold, or to 0, than three decimals show
    expect(lossText('evaluatorScore', 'mistake', 60.0000001)).toBe('just over 60 evaluator points');
    expect(lossText('expectedPieces', 'good', 1e-7)).toBe('less than 0.001 %');
  });

  it('never shows a number that reads as another grade', () => {
    for (const unit of ['expectedPieces', 'evaluatorScore'] as const) {
      const scale = unit === 'expectedPieces' ? 100 : 1;
      for (let i = 1; i < 2000; i++) {
        const measured = unit === 'expectedPieces' ? i / 1700 : i / 17;
        const { grade } = gradeLoss(unit, measured, 1);
        if (grade === 'best') continue;
        const shown = Number.parseFloat(lossText(unit, grade, gradeLoss(unit, measured, 1).loss)) / scale;
        expect(shown).toBeGreaterThan(0);
        expect(gradeLoss(unit, shown, 1).grade).toBe(grade);
      }
    }
  });
});
