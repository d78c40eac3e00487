/**
 * Summaries of lines per game: mean, median, min, max and a 95 % confidence interval of the mean. When some games
 * were stopped at a cap (censored), the plain mean is only a lower bound; the censored estimate then assumes a
 * constant risk of losing per line (lines per game geometric, as observed for these players) and gives the
 * maximum-likelihood mean, total lines / games lost, with the exact (Garwood) interval of the losses' count
 * (src/poisson.ts; the chi-square form in docs/fullboard.md).
 */
import { StackRankError, describe } from '../errors.js';
import { perEventInterval } from '../poisson.js';

export interface LinesSummary {
  games: number;
  lost: number;
  capped: number;
  mean: number;
  median: number;
  min: number;
  max: number;
  /** 95 % CI of the mean (normal approximation, 1.96 standard errors). */
  ci95: [number, number];
  /** Present when some games were capped: geometric MLE of the uncapped mean and its 95 % interval. */
  censored?: { mean: number; ci95: [number, number] };
}

export function summarizeLines(lines: readonly number[], lost: readonly boolean[]): LinesSummary {
  if (
    !Array.isArray(lines) ||
    !lines.every((v) => typeof v === 'number' && Number.isFinite(v)) ||
    lines.length !== lines.filter(() => true).length
  ) {
    throw new StackRankError('BAD_ARGUMENT', `lines must be an array of finite numbers; got ${describe(lines)}`);
  }
  if (!Array.isArray(lost) || lost.length !== lines.length || !Array.from(lost).every((v) => typeof v === 'boolean')) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `lost must be an array of ${lines.length} booleans; got ${describe(lost)}`,
    );
  }
  const n = lines.length;
  const sorted = [...lines].sort((x, y) => x - y);
  const mean = n ? lines.reduce((s, v) => s + v, 0) / n : 0;
  const sd = n > 1 ? Math.sqrt(lines.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1)) : 0;
  const half = n > 1 ? (1.96 * sd) / Math.sqrt(n) : 0;
  const median = n === 0 ? 0 : n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  const deaths = lost.filter(Boolean).length;
  const out: LinesSummary = {
    games: n,
    lost: deaths,
    capped: n - deaths,
    mean,
    median,
    min: n ? sorted[0] : 0,
    max: n ? sorted[n - 1] : 0,
    ci95: [mean - half, mean + half],
  };
  if (deaths < n) {
    // Lines per lost game under a constant risk per line: total lines over the exact Poisson bounds of the losses.
    const total = lines.reduce((s, v) => s + v, 0);
    out.censored = { mean: deaths === 0 ? Infinity : total / deaths, ci95: perEventInterval(deaths, total) };
  }
  return out;
}
