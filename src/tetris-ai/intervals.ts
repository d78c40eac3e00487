/**
 * The 95 % intervals of a real-game run's figures (docs/game.md, "The simulator and the benchmark"):
 * - the Tetris rate and the attack per piece, ratios of sums over games (Tetris lines / all lines, attack / pieces):
 *   the ratio estimator with games as the sampling unit, since one game's clears are not independent of each other
 *   (a burn costs several; a T-spin needs its setup);
 * - pieces per top-out: top-outs counted over the pieces played, each piece with the same small chance of ending
 *   its game (a Poisson count), with the exact Poisson interval on the count;
 * - a versus run's win rate (docs/versus.md): the Wilson score interval of a proportion;
 * - a mean over games (an NES run's average score): the normal approximation, games as the sampling unit.
 */

import { perEventInterval } from '../poisson.js';

const Z95 = 1.959963984540054;

/** A mean over games with its standard error and 95 % interval (normal approximation); both null under 2 games. */
export interface MeanInterval {
  mean: number;
  standardError: number | null;
  ci95: [number, number] | null;
}

/** The mean of `values` (one per game) with its standard error (sample standard deviation / √n) and 95 % interval. */
export function meanInterval(values: readonly number[]): MeanInterval {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { mean, standardError: null, ci95: null };
  const standardError = Math.sqrt(values.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1) / n);
  return { mean, standardError, ci95: [mean - Z95 * standardError, mean + Z95 * standardError] };
}

/**
 * 95 % interval of Σ numerator / Σ denominator over games (the ratio estimator with games as the sampling unit),
 * clipped at 0 below; null with fewer than 2 games whose denominator is not 0.
 */
export function ratioInterval(games: readonly { numerator: number; denominator: number }[]): [number, number] | null {
  const n = games.length;
  let num = 0;
  let den = 0;
  for (const g of games) {
    num += g.numerator;
    den += g.denominator;
  }
  if (n < 2 || den === 0 || games.filter((g) => g.denominator > 0).length < 2) return null;
  const rate = num / den;
  const meanDen = den / n;
  // Var(R) ≈ Σ (t_i − R·l_i)² / (n (n − 1) l̄²): the first-order (delta method) variance of a ratio estimator.
  let sum = 0;
  for (const g of games) sum += (g.numerator - rate * g.denominator) ** 2;
  const half = (Z95 * Math.sqrt(sum / (n * (n - 1)))) / meanDen;
  return [Math.max(0, rate - half), rate + half];
}

/**
 * 95 % interval of Σ tetrisLines / Σ lines over games (each game: its lines and the lines its Tetrises cleared),
 * clipped to [0, 1]; null with fewer than 2 games that cleared lines, or no line at all.
 */
export function tetrisRateInterval(games: readonly { lines: number; tetrisLines: number }[]): [number, number] | null {
  const r = ratioInterval(games.map((g) => ({ numerator: g.tetrisLines, denominator: g.lines })));
  return r && [r[0], Math.min(1, r[1])];
}

/**
 * 95 % interval of pieces per top-out when `topOuts` top-outs were seen in `pieces` pieces: pieces over the exact
 * Poisson bounds of the count (the upper bound is Infinity when there was no top-out).
 */
export function piecesPerTopOutInterval(topOuts: number, pieces: number): [number, number] {
  return perEventInterval(topOuts, pieces);
}

/**
 * The Wilson score interval (95 %) of a proportion: `score` successes in `n` trials, clipped to [0, 1]; [0, 1] when
 * n is 0. A half success (a drawn match counted as half a win) is allowed: the interval then treats the score as
 * that proportion of n trials.
 */
export function wilsonInterval(score: number, n: number): [number, number] {
  if (n <= 0) return [0, 1];
  const p = score / n;
  const z2 = Z95 * Z95;
  const centre = p + z2 / (2 * n);
  const half = Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const scale = 1 + z2 / n;
  return [Math.max(0, (centre - half) / scale), Math.min(1, (centre + half) / scale)];
}
