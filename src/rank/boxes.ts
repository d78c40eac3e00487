/**
 * Sets of step combinations as boxes (one range per digit), the form in which the 20G table's moves
 * (src/rank/moves-20g.ts) and the stacking game's reach records (src/stacking-ai/reach.ts) keep which surfaces a
 * placement can be reached on: each box is checked with plain range tests, in TypeScript and in the kernels.
 */

import { type Steps, runToEnd } from '../slices.js';

/** One box: for each digit, the lowest and the highest value it may take. */
export type Box = [lo: number[], hi: number[]];

/**
 * The combinations for which `legal` holds, digit i ranging over `ranges[i]`, as disjoint boxes: for each digit,
 * runs of consecutive values whose remaining digits give the same boxes are merged into one range. `legal` gets the
 * values of every digit (a scratch array it must not keep).
 */
export function packBoxes(
  ranges: readonly (readonly [lo: number, hi: number])[],
  legal: (values: readonly number[]) => boolean,
): Box[] {
  return runToEnd(packBoxesSteps(ranges, legal));
}

/** Combinations a sub-box may hold and still be packed between two pauses of packBoxesSteps. */
const COMBOS_PER_PAUSE = 4096;

/** packBoxes in steps (src/slices.ts): a pause between sub-boxes of at most COMBOS_PER_PAUSE combinations. */
export function* packBoxesSteps(
  ranges: readonly (readonly [lo: number, hi: number])[],
  legal: (values: readonly number[]) => boolean,
): Steps<Box[]> {
  const values = new Array<number>(ranges.length).fill(0);
  // Combinations of the digits from i on.
  const below = new Array<number>(ranges.length + 1).fill(1);
  for (let i = ranges.length - 1; i >= 0; i--) below[i] = below[i + 1] * (ranges[i][1] - ranges[i][0] + 1);
  // The boxes of digit i given the values before it: in steps where its sub-boxes are large, else at once.
  function* boxesSteps(i: number): Steps<Box[]> {
    if (below[i] <= COMBOS_PER_PAUSE) return boxes(i);
    const result: Box[] = [];
    const runs = mergeRuns(i, result);
    for (let v = ranges[i][0]; v <= ranges[i][1]; v++) {
      values[i] = v;
      runs.next(v, yield* boxesSteps(i + 1));
      yield undefined;
    }
    runs.end();
    return result;
  }
  const boxes = (i: number): Box[] => {
    if (i === ranges.length) return legal(values) ? [[[], []]] : [];
    const result: Box[] = [];
    const runs = mergeRuns(i, result);
    for (let v = ranges[i][0]; v <= ranges[i][1]; v++) {
      values[i] = v;
      runs.next(v, boxes(i + 1));
    }
    runs.end();
    return result;
  };
  // Digit i's values in order, each with the boxes of the digits after it: runs of equal boxes become one range.
  const mergeRuns = (i: number, result: Box[]) => {
    let runStart = -1;
    let runBoxes: Box[] = [];
    const flush = (end: number) => {
      if (runStart >= 0)
        for (const [lo, hi] of runBoxes)
          result.push([
            [runStart, ...lo],
            [end, ...hi],
          ]);
    };
    return {
      next(v: number, sub: Box[]) {
        if (runStart >= 0 && sameBoxes(sub, runBoxes)) return;
        flush(v - 1);
        runStart = sub.length ? v : -1;
        runBoxes = sub;
      },
      end: () => flush(ranges[i][1]),
    };
  };
  return yield* boxesSteps(0);
}

/** Whether two lists of boxes are the same boxes in the same order. */
function sameBoxes(a: readonly Box[], b: readonly Box[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) {
    const [alo, ahi] = a[k];
    const [blo, bhi] = b[k];
    for (let i = 0; i < alo.length; i++) if (alo[i] !== blo[i] || ahi[i] !== bhi[i]) return false;
  }
  return true;
}
