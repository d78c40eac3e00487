/**
 * playGame in parts: games firstGame.. of a run, played apart (any thread count) or rebuilt from tallies, pool with
 * mergeGameResults into exactly the figures of one run over every game (timing and thread count aside).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { StackRankError } from '../../src/errors.js';
import { TetrisAI } from '../../src/tetris-ai/ai.js';
import { playGame } from '../../src/tetris-ai/play.js';
import { mergeGameResults, type PlayGameResult } from '../../src/tetris-ai/game-results.js';
import type { GameTally } from '../../src/tetris-ai/play-types.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { RULE_SETS } from '../../src/rules/rule-sets.js';

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

  it('records the options that change games, and refuses parts that differ in one', async () => {
    // classic's defaults: the well on either edge, the stack room by rule set and randomizer, hold where it helps.
    expect([whole.well, whole.stackRoom, whole.holdPlies, whole.strength, whole.playOuts]).toEqual([
      'auto',
      null,
      'auto',
      10,
      true,
    ]);
    const roomy = await playGame({ table, ...run, games: 3, firstGame: 3, stackRoom: 4, well: 'right', strength: 7 });
    expect([roomy.well, roomy.stackRoom, roomy.holdPlies, roomy.strength]).toEqual(['right', 4, 'auto', 7]);
    expect(() => mergeGameResults([cut(0, 3), roomy])).toThrow(
      expect.objectContaining({ code: 'RUN_MISMATCH', message: expect.stringMatching(/well is "auto" in result 1/) }),
    );
    const differing: [keyof PlayGameResult, unknown, string][] = [
      ['well', 'left', 'well is "auto" in result 1 and "left" in result 2'],
      ['stackRoom', 8, 'stackRoom is null in result 1 and 8 in result 2'],
      ['holdPlies', 'all', 'holdPlies is "auto" in result 1 and "all" in result 2'],
      ['strength', 9, 'strength is 10 in result 1 and 9 in result 2'],
      ['playOuts', false, 'playOuts is true in result 1 and false in result 2'],
    ];
    for (const [field, value, message] of differing) {
      const parts = [cut(0, 3), { ...cut(3, 6), [field]: value }];
      expect(() => mergeGameResults(parts)).toThrow(StackRankError);
      expect(() => mergeGameResults(parts)).toThrow(
        expect.objectContaining({ code: 'RUN_MISMATCH', message: expect.stringContaining(message) }),
      );
    }
  });

  it('records what a given ai plays', async () => {
    const ai = await TetrisAI.create({
      table,
      rules: 'classic',
      lookahead: 1,
      randomizer: 'tgm1',
      well: 'left',
      strength: 6,
      playOuts: false,
    });
    const r = await playGame({ ...run, ai, games: 1 });
    expect([r.well, r.holdPlies, r.strength, r.playOuts]).toEqual(['left', 'auto', 6, false]);
    await expect(playGame({ ...run, ai, games: 1, playOuts: true })).rejects.toThrow(
      expect.objectContaining({ code: 'BAD_ARGUMENT', message: expect.stringContaining('without play-outs') }),
    );
  });

  it('reads a result recorded before those fields as one that played their defaults', () => {
    const old = (start: number, end: number) => {
      const { well, stackRoom, holdPlies, strength, playOuts, goal, garbage, ...rest } = cut(start, end);
      return rest as PlayGameResult;
    };
    expect(figures(mergeGameResults([old(0, 3), cut(3, 6)]))).toEqual(figures(whole));
    expect(figures(mergeGameResults([old(0, 3), old(3, 6)]))).toEqual(figures(whole));
    // A part that played another value is another run.
    expect(() => mergeGameResults([old(0, 3), { ...cut(3, 6), holdPlies: 'first' }])).toThrow(
      expect.objectContaining({ code: 'RUN_MISMATCH', message: expect.stringContaining('holdPlies is "auto"') }),
    );
    // A value outside the option's range is a damaged result.
    for (const [field, value] of [
      ['holdPlies', 'sometimes'],
      ['stackRoom', 99],
      ['strength', 0],
      ['playOuts', 'yes'],
      ['well', 'middle'],
      ['goal', 'attack'],
      ['garbage', { lines: 'nope' }],
      ['garbage', { lines: [1, 2] }],
      // classic has no time: its format is null, never an NES game's.
      ['format', { game: 0 }],
      ['format', { level: 18, timeline: 'X.', reaction: 18, timing: null, maxLevel: 49 }],
    ] as const)
      expect(() => mergeGameResults([{ ...cut(0, 6), [field]: value }])).toThrow(
        expect.objectContaining({ code: 'BAD_ARGUMENT', message: expect.stringContaining(field) }),
      );
  });

  it("checks a timed run's format: an NES game that preset could play", () => {
    const timed = { ...cut(0, 6), rules: 'nes' } as PlayGameResult;
    const format = { level: 18, timeline: 'X.', reaction: 18, timing: RULE_SETS.nes.timing, maxLevel: 49 };
    // Null, a missing field, a timeline that is not one, a cap at or below the start level.
    for (const bad of [
      null,
      { ...format, timing: undefined },
      { ...format, timeline: 'X' },
      { ...format, maxLevel: 18 },
      { game: 0 },
    ])
      expect(() => mergeGameResults([{ ...timed, format: bad as PlayGameResult['format'] }])).toThrow(
        expect.objectContaining({ code: 'BAD_ARGUMENT', message: expect.stringContaining('format') }),
      );
    expect(mergeGameResults([{ ...timed, format }]).format).toEqual(format);
  });
});
