import { describe, expect, it } from 'vitest';
import { summarizeLines } from '../../src/fullboard/stats.js';

describe('lines-per-game summaries', () => {
  it('gives mean, median, min, max and a normal 95 % CI', () => {
    const s = summarizeLines([10, 20, 30, 40], [true, true, true, true]);
    expect(s).toMatchObject({ games: 4, lost: 4, capped: 0, mean: 25, median: 25, min: 10, max: 40 });
    const half = (1.96 * Math.sqrt(500 / 3)) / 2;
    expect(s.ci95[0]).toBeCloseTo(25 - half, 9);
    expect(s.ci95[1]).toBeCloseTo(25 + half, 9);
    expect(s.censored).toBeUndefined();
  });

  it('estimates a capped sample as geometric: total lines / games lost, chi-square interval', () => {
    const lines = [...Array(100).fill(1000), ...Array(100).fill(5000)];
    const lost = [...Array(100).fill(true), ...Array(100).fill(false)];
    const s = summarizeLines(lines, lost);
    expect(s.capped).toBe(100);
    expect(s.censored!.mean).toBe(6000);
    // exact quantiles: chi2(0.975, 202) = 243.2, chi2(0.025, 200) = 162.73
    expect(s.censored!.ci95[0]).toBeCloseTo((2 * 600000) / 243.2, -1);
    expect(s.censored!.ci95[1]).toBeCloseTo((2 * 600000) / 162.73, -1);
  });

  it('is exact with one or no loss, where an approximation of the quantiles is furthest off', () => {
    // One loss in 1,476 lines (a full-board run of 2 games, one capped): [2T/χ²₀.₉₇₅(4), 2T/χ²₀.₀₂₅(2)] with the
    // tabulated χ²₀.₉₇₅(4) = 11.1433 and χ²₀.₀₂₅(2) = 0.0506356, i.e. [264.9, 58,299].
    const one = summarizeLines([476, 1000], [true, false]).censored!;
    expect(one.mean).toBe(1476);
    expect(one.ci95[0]).toBeCloseTo((2 * 1476) / 11.1433, 1);
    expect(one.ci95[1] / ((2 * 1476) / 0.0506356)).toBeCloseTo(1, 4);
    // No loss: the mean is unbounded above, and the low bound is 2T/χ²₀.₉₇₅(2) = 2T/7.37776.
    const none = summarizeLines([1000, 1000], [false, false]).censored!;
    expect(none.mean).toBe(Infinity);
    expect(none.ci95[0]).toBeCloseTo(4000 / 7.37776, 2);
    expect(none.ci95[1]).toBe(Infinity);
  });
});
