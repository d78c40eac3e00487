import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { StackingAI } from '../../src/stacking-ai/ai.js';
import { estimateSurvival } from '../../src/stacking-ai/estimate.js';
import { simulateStacking, streamSeed } from '../../src/stacking-ai/simulate.js';
import { createRandomizer } from '../../src/randomizers/index.js';

const GOLDEN = join(__dirname, '..', 'golden', 'simulate-w9-i4.json');
let table: RankTable;
beforeAll(async () => {
  table = await buildRankTable({ width: 9, iterations: 4 });
}, 120_000);

const essentials = (r: Awaited<ReturnType<typeof simulateStacking>>) => ({
  games: r.games,
  deaths: r.deaths,
  pieces: r.pieces,
  meanPieces: r.meanPieces,
  median: r.median,
  max: r.max,
  deathsByPiece: r.deathsByPiece,
  tetrises: r.tetrises,
  estimator: r.estimator,
});

describe('simulateStacking', () => {
  it('reproduces its golden numbers for a fixed seed, whatever the thread count', async () => {
    const runs = [];
    for (const [lookahead, threads] of [
      [0, 1],
      [0, 2],
      [1, 2],
      [1, 3],
    ]) {
      runs.push({
        lookahead,
        threads,
        ...essentials(await simulateStacking({ table, lookahead, games: 12, seed: 42, stacking: 'article', threads })),
      });
    }
    expect(runs[0]).toEqual({ ...runs[1], threads: 1 });
    expect(runs[2]).toEqual({ ...runs[3], threads: 2 });
    const golden = runs.filter((r) => r.threads === 2);
    if (process.env.UPDATE_GOLDEN) await writeFile(GOLDEN, JSON.stringify(golden, null, 2) + '\n');
    expect(golden).toEqual(JSON.parse(await readFile(GOLDEN, 'utf8')));
  });

  it('plays exactly the game bestPlacement plays, move for move', async () => {
    const ai = await StackingAI.create({ table, stacking: 'article' });
    for (const lookahead of [0, 1]) {
      const rng = createRandomizer('tgm1', { seed: streamSeed(5, 0, 0) });
      const queue = rng.take(5000);
      let heights = new Array(9).fill(0);
      let placed = 0;
      for (;;) {
        const move = ai.bestPlacement(heights, queue.slice(placed, placed + lookahead + 1), lookahead);
        if (!move) break;
        heights = move.heights;
        placed++;
      }
      const sim = await simulateStacking({ table, lookahead, games: 1, seed: 5, stacking: 'article', threads: 1 });
      expect(sim.pieces).toBe(placed);
      expect(sim.deaths).toBe(1);
    }
  });

  it('splits a piece budget over streams and estimates by geometric hazard', async () => {
    const r = await simulateStacking({ table, lookahead: 0, games: 4, maxPieces: 2000, seed: 1, threads: 2 });
    expect(r.pieces).toBe(2000);
    expect(r.deaths).toBeGreaterThan(4);
    expect(r.games).toBe(r.deaths + 4);
    expect(r.meanPieces).toBeCloseTo(2000 / r.deaths, 9);
    expect(r.estimator).toMatch(/geometric hazard/);
    expect(r.ci95[0]).toBeLessThan(r.meanPieces);
    expect(r.ci95[1]).toBeGreaterThan(r.meanPieces);
    expect(Object.values(r.deathsByPiece).reduce((a, b) => a + b, 0)).toBe(r.deaths);
    // Each stream's last game is cut after games that died: its deathPiece is 0, not the death piece before it.
    const cutGames = r.records.map((s) => s.games[s.games.length - 1]);
    expect(cutGames.map((g) => [g.dead, g.deathPiece])).toEqual(cutGames.map(() => [false, 0]));
    expect(r.records.every((s) => s.games.slice(0, -1).every((g) => g.dead))).toBe(true);
  });

  it.each([1, 2])('ends its progress events at the finished totals (%i thread(s))', async (threads) => {
    const events: { pieces: number; deaths: number; games: number; elapsedMs: number }[] = [];
    const r = await simulateStacking({
      table,
      lookahead: 1,
      games: 6,
      maxPieces: 20_000,
      seed: 4,
      threads,
      onProgress: (p) => events.push(p),
    });
    // Without the final event the last one was taken up to 200 ms before the end (a bar stopped short of 100 %).
    const last = events.at(-1)!;
    expect([last.pieces, last.deaths, last.games]).toEqual([r.pieces, r.deaths, r.games]);
    expect(last.pieces).toBe(20_000);
    expect(events.map((e) => e.pieces)).toEqual([...events.map((e) => e.pieces)].sort((a, b) => a - b));
  });

  it('cancels cleanly and rejects bad options', async () => {
    const controller = new AbortController();
    const run = simulateStacking({
      table,
      lookahead: 1,
      games: 1,
      maxPieces: 1e9,
      threads: 2,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(run).rejects.toMatchObject({ code: 'ABORTED' });
    await expect(simulateStacking({ table, lookahead: 7 })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    await expect(simulateStacking({ table, lookahead: 0, randomizer: 'nope' as never })).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(/^unknown randomizer "nope"; randomizers are memoryless, nes, .*decay$/),
    });
    // a randomizer object where its name is wanted: the message says a name is wanted
    const object = simulateStacking({ table, lookahead: 0, randomizer: { name: 'decay' } as never });
    await expect(object).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(
        /^randomizer must be a randomizer's name \(memoryless, nes, .*decay\); got an object$/,
      ),
    });
    await expect(simulateStacking({ table, lookahead: 0, games: 0 })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    await expect(simulateStacking({ lookahead: 0 } as never)).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
  });
});

describe('estimateSurvival', () => {
  it('uses the sample mean when every game died', () => {
    const e = estimateSurvival([10, 20, 30], [true, true, true]);
    expect(e.meanPieces).toBe(20);
    expect(e.ci95[0]).toBeCloseTo(20 - 1.96 * Math.sqrt(100 / 3), 9);
    // By hand: sample variance (100 + 0 + 100) / 2 = 100, half-width 1.96 * sqrt(100 / 3) = 11.31607 either side.
    expect(e.ci95[0]).toBeCloseTo(8.683935, 6);
    expect(e.ci95[1]).toBeCloseTo(31.316065, 6);
    // 1 and 100: mean 50.5, variance 2 * 49.5^2 / 1, half-width 1.96 * 49.5 = 97.02; the lower bound stops at 0.
    const wide = estimateSurvival([1, 100], [true, true]);
    expect(wide.meanPieces).toBe(50.5);
    expect(wide.ci95[0]).toBe(0);
    expect(wide.ci95[1]).toBeCloseTo(147.52, 9);
  });
  it('uses pieces / deaths with censored games', () => {
    const e = estimateSurvival([100, 100, 50], [true, false, false]);
    expect(e.meanPieces).toBe(250);
    expect(e.ci95[1] / e.meanPieces).toBeCloseTo(Math.exp(1.96), 9);
    // By hand: 250 pieces / 1 death, times and divided by e^(1.96 / sqrt 1) = 7.09933.
    expect(e.ci95[0]).toBeCloseTo(35.214605, 5);
    expect(e.ci95[1]).toBeCloseTo(1774.831766, 5);
    // 250 pieces / 2 deaths = 125, spread e^(1.96 / sqrt 2) = 3.99854.
    const two = estimateSurvival([100, 100, 50], [true, true, false]);
    expect(two.meanPieces).toBe(125);
    expect(two.ci95[0]).toBeCloseTo(31.261411, 5);
    expect(two.ci95[1]).toBeCloseTo(499.817498, 5);
  });
  it('gives a lower bound without deaths', () => {
    expect(estimateSurvival([100], [false])).toMatchObject({ meanPieces: 100, ci95: [100, Infinity] });
  });
});
