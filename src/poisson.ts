/**
 * Exact (Garwood) 95 % bounds on the mean of a Poisson count, the one interval every "per event" figure uses: pieces
 * per top-out of a real game (docs/game.md) and lines per lost game of the full-board player (docs/fullboard.md).
 * With k events over an exposure T, the rate's bounds are T over these (the chi-square relation: low = χ²(0.025, 2k)/2,
 * high = χ²(0.975, 2k+2)/2), computed from the Poisson sum itself, not an approximation.
 */

/** Two-sided 95 %: each tail 2.5 %. */
const TAIL = 0.025;

/**
 * Exact (Garwood) 95 % bounds on the mean of a Poisson count k: the low bound has P(X ≥ k) = 2.5 %, the high one
 * P(X ≤ k) = 2.5 % (low 0 when k is 0).
 */
export function poissonInterval(k: number): [number, number] {
  const low = k === 0 ? 0 : solveDecreasing((m) => poissonCdf(k - 1, m), 1 - TAIL, k);
  const high = solveDecreasing((m) => poissonCdf(k, m), TAIL, k + 1);
  return [low, high];
}

/**
 * 95 % interval of the exposure per event when `events` were seen over `exposure` (pieces per top-out, lines per
 * lost game): the exposure over the exact bounds of the count, open above (Infinity) when there was no event.
 */
export function perEventInterval(events: number, exposure: number): [number, number] {
  const [low, high] = poissonInterval(events);
  return [exposure / high, low > 0 ? exposure / low : Infinity];
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
