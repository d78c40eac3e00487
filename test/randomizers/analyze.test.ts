import { describe, expect, it } from 'vitest';
import { analyzeRandomizer, frequencySpread } from '../../src/randomizers/analyze.js';
import { RANDOMIZER_NAMES, createRandomizer } from '../../src/randomizers/index.js';

/** Canonical ids of a dealt string (I O T S Z L J = 0..6, docs/rules.md). */
const idsOf = (s: string) => Array.from(s, (c) => 'IOTSZLJ'.indexOf(c));

describe('hard drought and flood limits', () => {
  // 200k pieces reach every limit at this seed, so the checks below also see the limit itself, not just below it.
  const PIECES = 200_000;

  it('bag7: no drought over 12, no run over 2 (and both limits occur)', () => {
    const a = analyzeRandomizer('bag7', { pieces: PIECES, seed: 1 });
    expect(a.maxDrought).toBe(12);
    expect(a.longestRun).toBe(2);
  });

  it.each(['bag14', 'twoBag', 'redBlue'] as const)('%s: no drought over 24, no run over 4', (name) => {
    const a = analyzeRandomizer(name, { pieces: PIECES, seed: 1 });
    expect(a.maxDrought).toBeLessThanOrEqual(24);
    expect(a.maxDrought).toBeGreaterThanOrEqual(22);
    expect(a.longestRun).toBeLessThanOrEqual(4);
    expect(a.longestRun).toBeGreaterThanOrEqual(3);
  });

  it('memoryless has no such limits', () => {
    const a = analyzeRandomizer('memoryless', { pieces: PIECES, seed: 1 });
    expect(a.maxDrought).toBeGreaterThan(60);
    expect(a.longestRun).toBeGreaterThan(4);
  });
});

describe('analyzeRandomizer', () => {
  // Published predictability (best guess of the next piece): docs/randomizers.md, "Comparison". Tolerance ±0.3 points.
  it.each([
    ['memoryless', 0.1429],
    ['tgm1', 0.2896],
    ['tgm2', 0.318],
    ['bag7', 0.3704],
  ] as const)('%s predictability is within 0.3 points of the published %f', (name, published) => {
    const a = analyzeRandomizer(name, { pieces: 200_000, seed: 5 });
    expect(Math.abs(a.predictability - published)).toBeLessThan(0.003);
    // The guess scored against what was dealt agrees with the expectation (binomial noise is ~0.1 points).
    expect(Math.abs(a.hitRate - a.predictability)).toBeLessThan(0.005);
  });

  it('reports consistent statistics for every generator', () => {
    for (const name of RANDOMIZER_NAMES) {
      const a = analyzeRandomizer(name, { pieces: 20_000, seed: 2 });
      expect(a.name).toBe(name);
      expect(a.frequencies.reduce((s, f) => s + f, 0)).toBeCloseTo(1, 12);
      for (const f of a.frequencies) expect(Math.abs(f - 1 / 7)).toBeLessThan(0.02);
      expect(a.maxDrought).toBe(Math.max(...a.droughts.map((d) => d.max)));
      for (const d of a.droughts) expect(d.histogram).toHaveLength(d.max + 1);
      // Every piece that is dealt after an earlier deal of the same piece contributes one drought.
      const droughtCount = a.droughts.reduce((s, d) => s + d.histogram.reduce((x, y) => x + y, 0), 0);
      expect(droughtCount).toBe(a.pieces - 7);
      // Run lengths add up to the number of pieces.
      expect(a.runLengths.reduce((s, n, len) => s + n * len, 0)).toBe(a.pieces);
      expect(a.longestRun).toBe(a.runLengths.length - 1);
      expect(a.longestSZRun).toBeGreaterThanOrEqual(Math.min(a.longestRun, 2));
      expect(a.entropy).toBeGreaterThan(0);
      expect(a.entropy).toBeLessThanOrEqual(Math.log2(7) + 1e-12);
      expect(a.predictability).toBeGreaterThanOrEqual(1 / 7 - 1e-12);
    }
  });

  it('matches closed forms: memoryless entropy log2 7 and repeat 1/7; NES sketch repeat 1/28; mean drought 6', () => {
    const m = analyzeRandomizer('memoryless', { pieces: 100_000, seed: 3 });
    expect(m.entropy).toBeCloseTo(Math.log2(7), 12);
    expect(m.repeatProbability).toBeCloseTo(1 / 7, 2);
    // Between two deals of a piece dealt with frequency 1/7 come 6 others on average.
    for (const d of m.droughts) expect(d.mean).toBeCloseTo(6, 0);
    expect(analyzeRandomizer('nesSketch', { pieces: 100_000, seed: 3 }).repeatProbability).toBeCloseTo(1 / 28, 2);
    // 7-bag: a repeat needs the last piece of a bag to open the next one: 1/7 · 1/7 per bag boundary.
    expect(analyzeRandomizer('bag7', { pieces: 100_000, seed: 3 }).repeatProbability).toBeCloseTo(1 / 49, 2);
  });

  it('frequencyStd is exactly the mean n-1 sample std of the 100-piece windows (recomputed from the pieces)', () => {
    // docs/randomizers.md, "Statistics": sample standard deviation (n − 1, like pandas) of the seven frequencies per
    // window, averaged over the whole windows. Recomputed here from the dealt pieces; the population (n) formula
    // would give about 0.0340 instead of 0.0367, which the old range 0.032..0.038 accepted too.
    const ids = idsOf(createRandomizer('memoryless', { seed: 4 }).take(50_000));
    let sum = 0;
    let windows = 0;
    for (let start = 0; start + 100 <= ids.length; start += 100) {
      const f = [0, 0, 0, 0, 0, 0, 0];
      for (let i = start; i < start + 100; i++) f[ids[i]] += 1 / 100;
      const mean = f.reduce((a, b) => a + b, 0) / 7;
      sum += Math.sqrt(f.reduce((a, x) => a + (x - mean) ** 2, 0) / 6);
      windows++;
    }
    expect(windows).toBe(500);
    const expected = sum / windows;
    expect(expected).toBeCloseTo(0.03674654368121191, 12); // the reviewer's independent figure agrees
    expect(Math.abs(analyzeRandomizer('memoryless', { pieces: 50_000, seed: 4 }).frequencyStd - expected)).toBeLessThan(
      1e-12,
    );
  });

  it('S/Z runs are exactly the maximal runs of S or Z in any mix (recomputed from the pieces)', () => {
    const ids = idsOf(createRandomizer('memoryless', { seed: 2 }).take(20_000));
    const hist: number[] = [0];
    let run = 0;
    const close = () => {
      if (run === 0) return;
      while (hist.length <= run) hist.push(0);
      hist[run]++;
      run = 0;
    };
    for (const id of ids) {
      if (id === 3 || id === 4) run++;
      else close();
    }
    close();
    // Hand-checked against the reviewer's independent count.
    expect(hist).toEqual([0, 2968, 835, 214, 63, 22, 5, 1, 2]);
    const a = analyzeRandomizer('memoryless', { pieces: 20_000, seed: 2 });
    expect(a.szRunLengths).toEqual(hist);
    expect(a.longestSZRun).toBe(8);
  });

  it('hitRate scores the most likely piece, lowest id on ties (bag7 recomputed from the pieces)', () => {
    // bag7's state follows from the pieces: every piece still in the bag is equally likely, so the guess is the
    // lowest id left in the bag (a full bag after every 7th piece).
    const ids = idsOf(createRandomizer('bag7', { seed: 3 }).take(100_000));
    let bag = new Set([0, 1, 2, 3, 4, 5, 6]);
    let hits = 0;
    for (const id of ids) {
      if (id === Math.min(...bag)) hits++;
      bag.delete(id);
      if (bag.size === 0) bag = new Set([0, 1, 2, 3, 4, 5, 6]);
    }
    expect(hits / ids.length).toBe(0.37175); // the reviewer's independent figure agrees
    expect(analyzeRandomizer('bag7', { pieces: 100_000, seed: 3 }).hitRate).toBe(hits / ids.length);
  });

  it('frequencyStd is the decay post spread of 100-piece windows: bags far below memoryless', () => {
    const spread = (name: 'memoryless' | 'bag7' | 'decay') =>
      analyzeRandomizer(name, { pieces: 50_000, seed: 4 }).frequencyStd;
    const memoryless = spread('memoryless');
    // Multinomial theory for 100 pieces: about sqrt(6/7 / 7 / 100) ≈ 0.035.
    expect(memoryless).toBeGreaterThan(0.032);
    expect(memoryless).toBeLessThan(0.038);
    expect(spread('bag7')).toBeLessThan(0.01);
    expect(spread('decay')).toBeLessThan(memoryless);
  });

  it('frequencySpread reproduces the decay post: decay 1.1 lies well below denominator 1', () => {
    const at = (denominator: number) => frequencySpread('decay', { params: { denominator }, trials: 200, seed: 1 });
    expect(at(1.1)).toBeLessThan(at(1) - 0.008);
  });

  it('rejects bad options', () => {
    expect(() => analyzeRandomizer('bag7', { pieces: 50 })).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    expect(() => analyzeRandomizer('bag7', { pieces: 1.5e3 + 0.5 })).toThrow(/pieces/);
    expect(() => analyzeRandomizer('decay', { pieces: 1000, params: { denominator: Number.NaN } })).toThrow(
      /denominator/,
    );
    expect(() => analyzeRandomizer('nope' as never, { pieces: 1000 })).toThrow(/unknown randomizer/);
  });
});
