/**
 * The NES figures `bench nes` prints (docs/game.md, "NES Tetris: the competition format"): a game's tally by level
 * band, and a run's average with its interval, median and 1st-percentile lines, bands and end levels, checked
 * against values worked out by hand from the game's rules (docs/rules.md, "NES Tetris").
 */
import { describe, expect, it } from 'vitest';
import { NesGame, nesFormat } from '../../src/rules/nes-game.js';
import { NES_LEVEL_BANDS, NesGameTally, type NesTally, bandOf, nesRunStats } from '../../src/tetris-ai/nes-stats.js';

describe('NesGameTally: one game by level band', () => {
  it('counts a clear in the band of the level its piece was placed at, and its points at the level after it', () => {
    const tally = new NesGameTally(new NesGame(nesFormat({ startLevel: 18 })));
    // 32 Tetrises at 18: 128 lines, 1,200 × 19 points each
    for (let i = 0; i < 32; i++) {
      tally.countLines(4);
      expect(tally.clear(4)).toBe(false);
    }
    // a double to 130 lines: placed at 18, it brings level 19, and scores 100 × 20
    tally.countLines(2);
    tally.clear(2);
    tally.countLines(0);
    tally.clear(0);
    // at 19: a Tetris (1,200 × 20) and a triple (300 × 20)
    tally.countLines(4);
    tally.clear(4);
    tally.countLines(3);
    tally.clear(3);
    expect(tally.finish(false)).toEqual({
      score: 32 * 22_800 + 2_000 + 24_000 + 6_000,
      endLevel: 19,
      reachedCap: false,
      bandLines: [130, 7, 0, 0],
      bandTetrisLines: [128, 4, 0, 0],
      bandScore: [32 * 22_800 + 2_000, 30_000, 0, 0],
    });
  });

  it('ends at the cap, and a top-out ends the game where it stands', () => {
    const capped = new NesGameTally(new NesGame(nesFormat({ startLevel: 18, maxLevel: 19 })));
    for (let i = 0; i < 32; i++) capped.clear(4);
    // the single to 129 lines keeps level 18; the double to 131 reaches 19, the cap
    expect(capped.clear(1)).toBe(false);
    expect(capped.clear(2)).toBe(true);
    expect(capped.finish(false)).toMatchObject({ endLevel: 19, reachedCap: true, bandLines: [0, 0, 0, 0] });
    const lost = new NesGameTally(new NesGame(nesFormat({ startLevel: 29 })));
    lost.countLines(1);
    lost.clear(1);
    expect(lost.finish(true)).toEqual({
      score: 40 * 30,
      endLevel: 29,
      reachedCap: false,
      bandLines: [0, 0, 1, 0],
      bandTetrisLines: [0, 0, 0, 0],
      bandScore: [0, 0, 1_200, 0],
    });
  });

  it('bands: up to 18, 19–28, 29–38, from 39', () => {
    expect(NES_LEVEL_BANDS.map((b) => b.label)).toEqual(['≤18', '19–28', '29–38', '39+']);
    expect([0, 18, 19, 28, 29, 38, 39, 49].map(bandOf)).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
  });
});

/** A game of `lines` lines whose tally is its band figures as given (the rest 0). */
function game(
  lines: number,
  score: number,
  endLevel: number,
  bands: Partial<Pick<NesTally, 'bandLines' | 'bandTetrisLines' | 'bandScore'>> = {},
): { lines: number; nes: NesTally } {
  const zero = [0, 0, 0, 0];
  return {
    lines,
    nes: {
      score,
      endLevel,
      reachedCap: endLevel === 49,
      bandLines: bands.bandLines ?? zero,
      bandTetrisLines: bands.bandTetrisLines ?? zero,
      bandScore: bands.bandScore ?? zero,
    },
  };
}

describe('nesRunStats: a run of games', () => {
  it('average with its 95 % interval, mean and median lines (even count: the middle two averaged), bands, end levels', () => {
    const games = [
      game(230, 1_000_000, 29, {
        bandLines: [130, 100, 0, 0],
        bandTetrisLines: [120, 80, 0, 0],
        bandScore: [600_000, 400_000, 0, 0],
      }),
      game(430, 2_000_000, 49, {
        bandLines: [130, 100, 100, 100],
        bandTetrisLines: [128, 96, 60, 4],
        bandScore: [700_000, 500_000, 600_000, 200_000],
      }),
      game(100, 400_000, 18, {
        bandLines: [100, 0, 0, 0],
        bandTetrisLines: [80, 0, 0, 0],
        bandScore: [400_000, 0, 0, 0],
      }),
      game(331, 1_500_000, 39),
    ];
    const stats = nesRunStats(games);
    const mean = 4_900_000 / 4;
    // sample standard deviation over the 4 scores, its standard error, 1.96 of them either side
    const sd = Math.sqrt(((1e6 - mean) ** 2 + (2e6 - mean) ** 2 + (4e5 - mean) ** 2 + (1.5e6 - mean) ** 2) / 3);
    const half = 1.959963984540054 * (sd / 2);
    expect(stats.averageScore).toBe(mean);
    expect(stats.averageScoreCi95![0]).toBeCloseTo(mean - half, 6);
    expect(stats.averageScoreCi95![1]).toBeCloseTo(mean + half, 6);
    expect(stats.meanLines).toBe((230 + 430 + 100 + 331) / 4);
    // sorted 100, 230, 331, 430: the median is (230 + 331) / 2, the 1st percentile the smallest (nearest rank 1)
    expect(stats.medianLines).toBe(280.5);
    expect(stats.p1Lines).toBe(100);
    expect(stats.reachedCap).toBe(1);
    expect(stats.bands).toEqual([
      { band: '≤18', lines: 360, tetrisRate: 328 / 360, averageScore: 1_700_000 / 4 },
      { band: '19–28', lines: 200, tetrisRate: 176 / 200, averageScore: 900_000 / 4 },
      { band: '29–38', lines: 100, tetrisRate: 0.6, averageScore: 600_000 / 4 },
      { band: '39+', lines: 100, tetrisRate: 0.04, averageScore: 200_000 / 4 },
    ]);
    expect(stats.endLevels).toEqual({ 18: 1, 29: 1, 39: 1, 49: 1 });
  });

  it('an odd count: the middle game; one game: no interval, no Tetris rate in a band without lines', () => {
    expect(nesRunStats([game(5, 0, 18), game(9, 0, 18), game(7, 0, 18)]).medianLines).toBe(7);
    const one = nesRunStats([game(12, 4_800, 18, { bandLines: [12, 0, 0, 0], bandScore: [4_800, 0, 0, 0] })]);
    expect(one.averageScoreCi95).toBeNull();
    // two games far apart: mean 50,000, s.e. 50,000, so the normal interval's lower end (-47,998) is clipped to 0
    const apart = nesRunStats([game(0, 0, 18), game(40, 100_000, 19)]);
    expect(apart.averageScoreCi95![0]).toBe(0);
    expect(apart.averageScoreCi95![1]).toBeCloseTo(50_000 + 1.959963984540054 * 50_000, 6);
    expect(one.bands.map((b) => b.tetrisRate)).toEqual([0, null, null, null]);
  });

  it('the 1st percentile is the nearest rank: the 2nd lowest of 101 to 200 games, the 1st of 100', () => {
    // lines 1000 - i for game i: the lowest is the last game's
    const run = (n: number) => nesRunStats(Array.from({ length: n }, (_, i) => game(1000 - i, 0, 18))).p1Lines;
    expect(run(100)).toBe(901);
    expect(run(101)).toBe(901);
    expect(run(200)).toBe(802);
    expect(run(201)).toBe(802);
  });
});
