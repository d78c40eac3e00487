/**
 * playGame in parts: games firstGame.. of a run, played apart (any thread count) or rebuilt from tallies, pool with
 * mergeGameResults into exactly the figures of one run over every game (timing and thread count aside).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { mergeGameResults, playGame, type PlayGameResult } from '../../src/tetris-ai/play.js';
import type { GameTally } from '../../src/tetris-ai/play-types.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';

let table: RankTable;
let whole: PlayGameResult;
const run = {
  rules: 'classic',
  randomizer: 'tgm1',
  lookahead: 1,
  games: 6,
  maxPieces: 40,
  seed: 4,
  threads: 1,
} as const;
beforeAll(async () => {
  table = await buildRankTable({ width: 9, maxStep: 3, iterations: 2 });
  whole = await playGame({ table, ...run });
}, 120_000);

function figures(r: PlayGameResult) {
  const { seconds, piecesPerSecond, cpuSeconds, piecesPerCpuSecond, threads, ...rest } = r;
  return rest;
}

/** The part of `whole` covering games start..end-1, as a shard over them would return it. */
const cut = (start: number, end: number): PlayGameResult => ({
  ...whole,
  firstGame: start,
  games: end - start,
  tallies: whole.tallies.slice(start, end),
});

describe('playGame by parts', () => {
  it('shards played apart and merged equal the whole run bit for bit', async () => {
    const seen: GameTally[] = [];
    const a = await playGame({ table, ...run, games: 2, firstGame: 0, onGame: (t) => seen.push(t) });
    const b = await playGame({ table, ...run, games: 4, firstGame: 2 });
    expect(seen).toEqual(whole.tallies.slice(0, 2));
    expect(b.tallies).toEqual(whole.tallies.slice(2));
    expect(figures(mergeGameResults([b, a]))).toEqual(figures(whole));
    expect(whole.tallies.reduce((s, t) => s + t.lines, 0)).toBe(whole.lines);
  });

  it('parts rebuilt from tallies (a checkpoint) merge to the whole run', () => {
    expect(figures(mergeGameResults([cut(3, 6), cut(0, 1), cut(1, 3)]))).toEqual(figures(whole));
  });

  it('refuses parts of different runs, overlaps, gaps and inconsistent tallies', () => {
    expect(() => mergeGameResults([cut(0, 3), { ...cut(3, 6), policy: 'stackOnly' }])).toThrow(
      expect.objectContaining({ code: 'RUN_MISMATCH', message: expect.stringMatching(/policy/) }),
    );
    expect(() => mergeGameResults([cut(0, 4), cut(3, 6)])).toThrow(expect.objectContaining({ code: 'RUN_MISMATCH' }));
    expect(() => mergeGameResults([cut(0, 2), cut(3, 6)])).toThrow(/games 2\.\.2 are missing/);
    const wrong = cut(0, 6);
    wrong.tallies = wrong.tallies.map((t, i) => (i === 2 ? { ...t, lines: t.lines + 1 } : t));
    expect(() => mergeGameResults([wrong])).toThrow(/not the sum of its clears/);
    expect(() => mergeGameResults([])).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
  });
});
