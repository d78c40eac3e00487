/** Small statistics helpers for the randomizer tests. */

/** Upper critical value of chi-square with `df` degrees of freedom at tail probability 0.001 (Wilson–Hilferty). */
export function chiSquareCritical(df: number, z = 3.09): number {
  const a = 2 / (9 * df);
  return df * (1 - a + z * Math.sqrt(a)) ** 3;
}

/** Pearson's statistic over the cells with an expected count of at least 5, and how many cells that was. */
export function chiSquare(
  observed: ArrayLike<number>,
  expected: ArrayLike<number>,
): { statistic: number; cells: number } {
  let statistic = 0;
  let cells = 0;
  for (let i = 0; i < expected.length; i++) {
    if (expected[i] < 5) continue;
    statistic += (observed[i] - expected[i]) ** 2 / expected[i];
    cells++;
  }
  return { statistic, cells };
}
