import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { meanInterval, piecesPerTopOutInterval, tetrisRateInterval } from '../../src/tetris-ai/intervals.js';
import { poissonInterval } from '../../src/poisson.js';

/** P(X ≤ k) for a Poisson mean m by plain term-by-term summation (fine for the small k used here). */
function naiveCdf(k: number, m: number): number {
  let term = Math.exp(-m);
  let sum = term;
  for (let i = 1; i <= k; i++) {
    term *= m / i;
    sum += term;
  }
  return sum;
}

describe('poissonInterval (exact 95 % bounds of a Poisson count)', () => {
  it('matches the published table of exact Poisson confidence limits', () => {
    // Garwood's limits as tabulated (e.g. the chi-square relation: low = χ²(0.025, 2k)/2, high = χ²(0.975, 2k+2)/2).
    const table: [number, number, number][] = [
      [0, 0, 3.689],
      [1, 0.0253, 5.572],
      [3, 0.619, 8.767],
      [10, 4.795, 18.39],
      [100, 81.36, 121.63],
    ];
    for (const [k, low, high] of table) {
      const [l, h] = poissonInterval(k);
      expect(l).toBeCloseTo(low, k === 0 ? 10 : 2);
      expect(h).toBeCloseTo(high, 2);
    }
  });

  it('puts 2.5 % in each tail (property, against a naive summation)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 }), (k) => {
        const [low, high] = poissonInterval(k);
        expect(naiveCdf(k, high)).toBeCloseTo(0.025, 9);
        if (k > 0) expect(1 - naiveCdf(k - 1, low)).toBeCloseTo(0.025, 9);
        expect(low).toBeLessThan(k + 1e-9);
        expect(high).toBeGreaterThan(k);
      }),
    );
  });

  it('pieces per top-out: pieces over the bounds, open above with no top-out', () => {
    const [low, high] = piecesPerTopOutInterval(3, 92_709);
    expect(Math.round(low)).toBe(10_574);
    expect(Math.round(high)).toBe(149_852);
    const [low0, high0] = piecesPerTopOutInterval(0, 100_000);
    expect(low0).toBeCloseTo(100_000 / 3.688879, 0);
    expect(high0).toBe(Infinity);
  });
});

describe('tetrisRateInterval (ratio estimator over games)', () => {
  it('gives the worked example', () => {
    // R = 52/60; residuals t − R·l: −2/3, 8/3, −2; Σ² = 104/9; SE = √(104/9 / 6) / 20.
    const games = [
      { lines: 10, tetrisLines: 8 },
      { lines: 20, tetrisLines: 20 },
      { lines: 30, tetrisLines: 24 },
    ];
    const half = (1.959963984540054 * Math.sqrt(104 / 9 / 6)) / 20;
    const interval = tetrisRateInterval(games);
    expect(interval?.[0]).toBeCloseTo(52 / 60 - half, 12);
    expect(interval?.[1]).toBe(1); // clipped
  });

  it('is null with fewer than two games that cleared lines', () => {
    expect(tetrisRateInterval([])).toBeNull();
    expect(tetrisRateInterval([{ lines: 40, tetrisLines: 40 }])).toBeNull();
    expect(
      tetrisRateInterval([
        { lines: 40, tetrisLines: 40 },
        { lines: 0, tetrisLines: 0 },
      ]),
    ).toBeNull();
  });

  it('holds the pooled rate, within [0, 1], and shrinks to it when every game has the same rate (property)', () => {
    const game = fc
      .record({ tetrises: fc.integer({ min: 0, max: 300 }), other: fc.integer({ min: 0, max: 300 }) })
      .filter((g) => g.tetrises + g.other > 0)
      .map((g) => ({ lines: 4 * g.tetrises + g.other, tetrisLines: 4 * g.tetrises }));
    fc.assert(
      fc.property(fc.array(game, { minLength: 2, maxLength: 30 }), (games) => {
        const rate = games.reduce((s, g) => s + g.tetrisLines, 0) / games.reduce((s, g) => s + g.lines, 0);
        const interval = tetrisRateInterval(games);
        expect(interval).not.toBeNull();
        const [low, high] = interval as [number, number];
        expect(low).toBeGreaterThanOrEqual(0);
        expect(high).toBeLessThanOrEqual(1);
        expect(low).toBeLessThanOrEqual(rate + 1e-12);
        expect(high).toBeGreaterThanOrEqual(rate - 1e-12);
        const same = games.map((g) => ({ lines: 2 * g.lines, tetrisLines: 2 * g.lines * rate }));
        const [a, b] = tetrisRateInterval(same) as [number, number];
        expect(a).toBeCloseTo(rate, 9);
        expect(b).toBeCloseTo(rate, 9);
      }),
    );
  });
});

describe('meanInterval (a mean over games, normal approximation)', () => {
  it('gives the mean, the sample standard deviation / √n and mean ± 1.96 standard errors', () => {
    // 1, 2, 3, 4: mean 2.5, sample variance 5/3, standard error √(5/12).
    const r = meanInterval([1, 2, 3, 4]);
    const se = Math.sqrt(5 / 12);
    expect(r.mean).toBe(2.5);
    expect(r.standardError).toBeCloseTo(se, 12);
    expect(r.ci95![0]).toBeCloseTo(2.5 - 1.959963984540054 * se, 12);
    expect(r.ci95![1]).toBeCloseTo(2.5 + 1.959963984540054 * se, 12);
    expect(meanInterval([7, 7, 7])).toEqual({ mean: 7, standardError: 0, ci95: [7, 7] });
  });

  it('has no standard error or interval under 2 values', () => {
    expect(meanInterval([5])).toEqual({ mean: 5, standardError: null, ci95: null });
  });
});
