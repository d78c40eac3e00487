/**
 * Sets of step combinations as boxes (one range per digit), the form in which the 20G table's moves
 * (src/rank/moves-20g.ts) and the stacking game's reach records (src/stacking/reach.ts) keep which surfaces a
 * placement can be reached on: each box is checked with plain range tests, in TypeScript and in the kernels.
 */

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
  const values = new Array<number>(ranges.length).fill(0);
  const boxes = (i: number): Box[] => {
    if (i === ranges.length) return legal(values) ? [[[], []]] : [];
    const [first, last] = ranges[i];
    const result: Box[] = [];
    let runStart = -1;
    let runKey = '';
    let runBoxes: Box[] = [];
    const flush = (end: number) => {
      if (runStart >= 0)
        for (const [lo, hi] of runBoxes)
          result.push([
            [runStart, ...lo],
            [end, ...hi],
          ]);
    };
    for (let v = first; v <= last; v++) {
      values[i] = v;
      const sub = boxes(i + 1);
      const subKey = JSON.stringify(sub);
      if (runStart >= 0 && subKey === runKey) continue;
      flush(v - 1);
      runStart = sub.length ? v : -1;
      runKey = subKey;
      runBoxes = sub;
    }
    flush(last);
    return result;
  };
  return boxes(0);
}
