/**
 * Summaries of lines per game: mean, median, min, max and a 95 % confidence interval of the mean. When some games
 * were stopped at a cap (censored), the plain mean is only a lower bound; the censored estimate then assumes a
 * constant risk of losing per line (lines per game geometric, as observed for these players) and gives the
 * maximum-likelihood mean, total lines / games lost, with an exact chi-square interval.
 */
import { StackRankError, describe } from '../errors.js';
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

/** Chi-square quantile by the Wilson–Hilferty approximation (good to a fraction of a percent for k ≥ 2). */
function chi2Quantile(p: number, k: number): number {
  const z = normalQuantile(p);
  const a = 2 / (9 * k);
  return k * (1 - a + z * Math.sqrt(a)) ** 3;
}

function normalQuantile(p: number): number {
  // Acklam's rational approximation
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
  ];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const q = p < 0.5 ? p : 1 - p;
  let x: number;
  if (q < 0.02425) {
    const t = Math.sqrt(-2 * Math.log(q));
    x =
      (((((c[0] * t + c[1]) * t + c[2]) * t + c[3]) * t + c[4]) * t + c[5]) /
      ((((d[0] * t + d[1]) * t + d[2]) * t + d[3]) * t + 1);
    x = -x;
  } else {
    const t = q - 0.5;
    const r = t * t;
    x =
      ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * t) /
      (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
  return p < 0.5 ? x : -x;
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
    const total = lines.reduce((s, v) => s + v, 0);
    if (deaths === 0) out.censored = { mean: Infinity, ci95: [(2 * total) / chi2Quantile(0.975, 2), Infinity] };
    else
      out.censored = {
        mean: total / deaths,
        ci95: [(2 * total) / chi2Quantile(0.975, 2 * deaths + 2), (2 * total) / chi2Quantile(0.025, 2 * deaths)],
      };
  }
  return out;
}
