/**
 * playGame in parts: a range of games, resumed games and mergeGameResults give exactly the numbers of one run over
 * every game (timing aside).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { mergeGameResults, playGame, type PlayGameResult } from '../../src/game/play.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';

let table: RankTable;
let whole: PlayGameResult;
const run = { rules: 'classic', randomizer: 'tgm1', lookahead: 1, games: 6, maxPieces: 40, seed: 4 } as const;
beforeAll(async () => {
  table = await buildRankTable({ width: 9, maxStep: 3, iterations: 2 });
  whole = await playGame({ table, ...run });
}, 120_000);

function figures(r: PlayGameResult) {
  const { seconds, piecesPerSecond, ...rest } = r;
  return rest;
}

describe('playGame by parts', () => {
  it('shards played apart and merged equal the whole run bit for bit', async () => {
    const a = await playGame({ table, ...run, range: { start: 0, end: 2 } });
    const b = await playGame({ table, ...run, range: { start: 2, end: 6 } });
    expect(a.gameRecords.map((r) => r.game)).toEqual([0, 1]);
    expect(a.gamePieces).toEqual(whole.gamePieces.slice(0, 2));
    expect(figures(mergeGameResults([b, a]))).toEqual(figures(whole));
    // the records add up to the pooled figures
    expect(whole.gameRecords.reduce((s, r) => s + r.lines, 0)).toBe(whole.lines);
    expect(whole.gameRecords.reduce((s, r) => s + r.clears[3], 0)).toBe(whole.clears.tetris);
  });

  it('a run resumed from some finished games equals the uninterrupted run', async () => {
    const seen: number[] = [];
    const resumed = await playGame({
      table,
      ...run,
      resume: [whole.gameRecords[4], whole.gameRecords[1]],
      onGame: (r) => seen.push(r.game),
    });
    expect(figures(resumed)).toEqual(figures(whole));
    expect(seen).toEqual([0, 2, 3, 5]);
  });

  it('refuses parts of different runs, overlaps and inconsistent records', () => {
    const cut = (start: number, end: number): PlayGameResult => ({
      ...whole,
      range: { start, end },
      gameRecords: whole.gameRecords.slice(start, end),
    });
    expect(() => mergeGameResults([cut(0, 3), { ...cut(3, 6), policy: 'stackOnly' }])).toThrow(
      expect.objectContaining({ code: 'RUN_MISMATCH', message: expect.stringMatching(/policy/) }),
    );
    expect(() => mergeGameResults([cut(0, 4), cut(3, 6)])).toThrow(expect.objectContaining({ code: 'RUN_MISMATCH' }));
    const wrong = cut(0, 6);
    wrong.gameRecords = wrong.gameRecords.map((r, i) => (i === 2 ? { ...r, lines: r.lines + 1 } : r));
    expect(() => mergeGameResults([wrong])).toThrow(/not the sum of its clears/);
  });
});
