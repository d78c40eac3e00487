/**
 * The 95 % intervals of a real-game run's figures (docs/game.md, "The simulator and the benchmark"):
 * - the Tetris rate, a ratio of sums over games (Tetris lines / all lines): the ratio estimator with games as the
 *   sampling unit, since one game's clears are not independent of each other (a burn costs several);
 * - pieces per top-out: top-outs counted over the pieces played, each piece with the same small chance of ending
 *   its game (a Poisson count), with the exact Poisson interval on the count.
 */

/** Two-sided 95 %: each tail 2.5 %. */
const TAIL = 0.025;
const Z95 = 1.959963984540054;

/**
 * 95 % interval of Σ tetrisLines / Σ lines over games (each game: its lines and the lines its Tetrises cleared),
 * clipped to [0, 1]; null with fewer than 2 games that cleared lines, or no line at all.
 */
export function tetrisRateInterval(games: readonly { lines: number; tetrisLines: number }[]): [number, number] | null {
  const n = games.length;
  let lines = 0;
  let tetrisLines = 0;
  for (const g of games) {
    lines += g.lines;
    tetrisLines += g.tetrisLines;
  }
  if (n < 2 || lines === 0 || games.filter((g) => g.lines > 0).length < 2) return null;
  const rate = tetrisLines / lines;
  const meanLines = lines / n;
  // Var(R) ≈ Σ (t_i − R·l_i)² / (n (n − 1) l̄²): the first-order (delta method) variance of a ratio estimator.
  let sum = 0;
  for (const g of games) sum += (g.tetrisLines - rate * g.lines) ** 2;
  const half = (Z95 * Math.sqrt(sum / (n * (n - 1)))) / meanLines;
  return [Math.max(0, rate - half), Math.min(1, rate + half)];
}

/**
 * 95 % interval of pieces per top-out when `topOuts` top-outs were seen in `pieces` pieces: pieces over the exact
 * Poisson bounds of the count (the upper bound is Infinity when there was no top-out).
 */
export function piecesPerTopOutInterval(topOuts: number, pieces: number): [number, number] {
  const [low, high] = poissonInterval(topOuts);
  return [pieces / high, low > 0 ? pieces / low : Infinity];
}

/**
 * Exact (Garwood) 95 % bounds on the mean of a Poisson count k: the low bound has P(X ≥ k) = 2.5 %, the high one
 * P(X ≤ k) = 2.5 % (low 0 when k is 0).
 */
export function poissonInterval(k: number): [number, number] {
  const low = k === 0 ? 0 : solveDecreasing((m) => poissonCdf(k - 1, m), 1 - TAIL, k);
  const high = solveDecreasing((m) => poissonCdf(k, m), TAIL, k + 1);
  return [low, high];
}

/** P(X ≤ k) for X Poisson with mean m, summed in log space from the largest term (exact enough for any k). */
function poissonCdf(k: number, m: number): number {
  if (m === 0) return 1;
  // log of term i: −m + i ln m − ln i!; the terms rise up to i ≈ m, so scale by the largest one kept.
  const logTerm = (i: number) => -m + i * Math.log(m) - logFactorial(i);
  const peak = Math.min(k, Math.floor(m));
  const top = logTerm(peak);
  let sum = 0;
  for (let i = k; i >= 0; i--) {
    const t = logTerm(i) - top;
    if (t < -745 && i < peak) break; // the rest underflow to 0
    sum += Math.exp(t);
  }
  return Math.min(1, Math.exp(top) * sum);
}

/** ln i! by summing logs once (counts here are small: games and top-outs). */
const logFactorials: number[] = [0];
function logFactorial(i: number): number {
  for (let j = logFactorials.length; j <= i; j++) logFactorials.push(logFactorials[j - 1] + Math.log(j));
  return logFactorials[i];
}

/** The m ≥ 0 with f(m) = target, for f decreasing from 1 (at m = 0) to 0: bisection from a bracket around `guess`. */
function solveDecreasing(f: (m: number) => number, target: number, guess: number): number {
  let lo = 0;
  let hi = Math.max(1, guess);
  while (f(hi) > target) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid) > target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
