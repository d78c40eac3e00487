/**
 * playFullGames: game i is game (seed + i) of playFullGame; ranges, resumed games and mergeFullGames give exactly
 * the summary of one run over every game.
 */
import { describe, expect, it } from 'vitest';
import { mergeFullGames, playFullGames, type FullGamesResult } from '../../src/fullboard/games.js';
import { playFullGame } from '../../src/fullboard/player.js';
import { summarizeLines } from '../../src/fullboard/stats.js';

const run = { weights: 'dellacherie', games: 7, seed: 4294967294, maxPieces: 500, height: 10 } as const;

/** Everything but the clock. */
function figures(r: FullGamesResult) {
  const { seconds, records, ...rest } = r;
  return { ...rest, records: records.map(({ seconds: _, ...g }) => g) };
}

describe('playFullGames', () => {
  it('plays game i as playFullGame with seed (seed + i) mod 2^32 and summarises the lines', async () => {
    const whole = await playFullGames(run);
    expect(whole.records.map((r) => r.seed)).toEqual([4294967294, 4294967295, 0, 1, 2, 3, 4]);
    const third = await playFullGame({ weights: 'dellacherie', seed: 0, maxPieces: 500, height: 10 });
    expect(whole.records[2]).toMatchObject({ game: 2, lines: third.lines, pieces: third.pieces, lost: third.lost });
    expect(whole.summary).toEqual(
      summarizeLines(
        whole.records.map((r) => r.lines),
        whole.records.map((r) => r.lost),
      ),
    );
  });

  it('shards and resumed runs equal the whole run; other runs, overlaps and foreign records are refused', async () => {
    const whole = await playFullGames(run);
    const parts = [
      await playFullGames({ ...run, range: { start: 4, end: 7 } }),
      await playFullGames({ ...run, range: { start: 0, end: 4 } }),
    ];
    expect(figures(mergeFullGames(parts))).toEqual(figures(whole));
    const seen: [number, boolean][] = [];
    const resumed = await playFullGames({
      ...run,
      resume: [whole.records[5], whole.records[1]],
      onGame: (r, wasResumed) => seen.push([r.game, wasResumed]),
    });
    expect(figures(resumed)).toEqual(figures(whole));
    expect(seen.filter(([, r]) => r).map(([g]) => g)).toEqual([1, 5]);
    expect(seen.map(([g]) => g)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(() => mergeFullGames([parts[0], { ...parts[1], maxPieces: 501 }])).toThrow(
      expect.objectContaining({ code: 'RUN_MISMATCH' }),
    );
    expect(() => mergeFullGames([parts[0], parts[0]])).toThrow(expect.objectContaining({ code: 'RUN_MISMATCH' }));
    // a part's randomizer is checked as everywhere else: a name, and the message says one is wanted
    expect(() => mergeFullGames([{ ...parts[0], randomizer: { name: 'bag7' } as never }])).toThrow(
      expect.objectContaining({
        code: 'BAD_ARGUMENT',
        message: expect.stringMatching(/randomizer must be a randomizer's name \(memoryless, .*\); got an object$/),
      }),
    );
    await expect(playFullGames({ ...run, seed: 3, resume: [whole.records[0]] })).rejects.toMatchObject({
      code: 'RUN_MISMATCH',
    });
    await expect(playFullGames({ ...run, range: { start: 2, end: 9 } })).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
    });
  });
});
