/**
 * Mean survival from game lengths. When every game ended in death: the sample mean with a normal 95 % interval.
 * When some games were stopped by the piece budget (censored): the geometric-hazard estimate pieces / deaths,
 * the maximum-likelihood mean for a constant death chance per piece, with the interval mean * exp(±1.96/√deaths).
 */
export interface SurvivalEstimate {
  meanPieces: number;
  ci95: [number, number];
  estimator: string;
}

export function estimateSurvival(lengths: readonly number[], dead: readonly boolean[]): SurvivalEstimate {
  const deaths = dead.filter(Boolean).length;
  const pieces = lengths.reduce((a, b) => a + b, 0);
  const censored = lengths.length - deaths;
  if (deaths === 0) {
    return { meanPieces: pieces, ci95: [pieces, Infinity], estimator: `lower bound: no deaths in ${pieces} pieces` };
  }
  if (censored === 0) {
    const mean = pieces / deaths;
    const variance = lengths.reduce((a, x) => a + (x - mean) ** 2, 0) / Math.max(1, deaths - 1);
    const half = 1.96 * Math.sqrt(variance / deaths);
    return {
      meanPieces: mean,
      ci95: [Math.max(0, mean - half), mean + half],
      estimator: `sample mean of ${deaths} complete games`,
    };
  }
  const mean = pieces / deaths;
  const spread = Math.exp(1.96 / Math.sqrt(deaths));
  return {
    meanPieces: mean,
    ci95: [mean / spread, mean * spread],
    estimator: `geometric hazard: ${pieces} pieces / ${deaths} deaths (${censored} game(s) cut by the piece budget)`,
  };
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
