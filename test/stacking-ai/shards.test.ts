/**
 * simulateStacking in parts: a range of streams, resumed streams and mergeSimulations give exactly the numbers of
 * one run over every stream (timing aside).
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { mergeSimulations, simulateStacking, type SimulationResult } from '../../src/stacking-ai/simulate.js';

let table: RankTable;
let whole: SimulationResult;
const run = { lookahead: 1, games: 12, maxPieces: 3000, seed: 9, threads: 1 } as const;
beforeAll(async () => {
  table = await buildRankTable({ width: 6, maxStep: 3, iterations: 2, threads: 1 });
  whole = await simulateStacking({ table, ...run });
}, 60_000);

/** Everything but the clock. */
function figures(r: SimulationResult) {
  const { seconds, piecesPerSecond, ...rest } = r;
  return rest;
}

/** A part of `whole` as a shard run over `start..end-1` would return it (records are pure functions of the seed). */
function cut(start: number, end: number): SimulationResult {
  return { ...whole, range: { start, end }, records: whole.records.slice(start, end), seconds: 1 };
}

describe('simulateStacking by parts', () => {
  it('a range plays exactly the streams it names, as the whole run played them', async () => {
    const part = await simulateStacking({ table, ...run, range: { start: 4, end: 9 }, threads: 2 });
    expect(part.range).toEqual({ start: 4, end: 9 });
    expect(part.records).toEqual(whole.records.slice(4, 9));
    expect(part.streamCount).toBe(12);
    expect(part.pieces).toBe(
      whole.records.slice(4, 9).reduce((a, s) => a + s.games.reduce((b, g) => b + g.length, 0), 0),
    );
  });

  it('shards played apart and merged equal the whole run bit for bit', async () => {
    const parts = [];
    for (const [start, end] of [
      [0, 3],
      [3, 6],
      [6, 9],
      [9, 12],
    ])
      parts.push(await simulateStacking({ table, ...run, range: { start, end } }));
    const merged = mergeSimulations(parts.reverse());
    expect(figures(merged)).toEqual(figures(whole));
    expect(Object.is(merged.meanPieces, whole.meanPieces) && Object.is(merged.ci95[0], whole.ci95[0])).toBe(true);
    expect(merged.seconds).toBeCloseTo(
      parts.reduce((a, p) => a + p.seconds, 0),
      9,
    );
  });

  it('any cut into contiguous parts merges back to the whole (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 11 }), { maxLength: 11 }), (cuts) => {
        const bounds = [0, ...cuts.sort((a, b) => a - b), 12];
        const parts = bounds.slice(1).map((end, i) => cut(bounds[i], end));
        expect(figures(mergeSimulations(parts))).toEqual(figures(whole));
      }),
      { numRuns: 50 },
    );
  });

  it('a run resumed from some finished streams equals the uninterrupted run', async () => {
    const seen: number[] = [];
    const resumed = await simulateStacking({
      table,
      ...run,
      resume: [whole.records[7], whole.records[2], whole.records[3]],
      onStream: (r) => seen.push(r.stream),
    });
    expect(figures(resumed)).toEqual(figures(whole));
    expect(seen.sort((a, b) => a - b)).toEqual([0, 1, 4, 5, 6, 8, 9, 10, 11]);
  });

  it('resumes from the empty records of streams whose share of a small budget is no piece', async () => {
    const small = { table, lookahead: 0, games: 4, maxPieces: 2, seed: 9, threads: 1 } as const;
    const first = await simulateStacking(small);
    expect(first.records.filter((r) => r.games.length === 0).length).toBeGreaterThan(0);
    const again = await simulateStacking({ ...small, resume: first.records });
    expect(figures(again)).toEqual(figures(first));
  });

  it('refuses parts of different runs, overlaps, gaps and damaged records', () => {
    expect(() => mergeSimulations([cut(0, 6), { ...cut(6, 12), seed: 10 }])).toThrow(
      expect.objectContaining({ code: 'RUN_MISMATCH', message: expect.stringMatching(/seed is 9 in result 1 and 10/) }),
    );
    expect(() => mergeSimulations([cut(0, 6), { ...cut(6, 12), lookahead: 2 }])).toThrow(/lookahead/);
    expect(() => mergeSimulations([cut(0, 7), cut(6, 12)])).toThrow(expect.objectContaining({ code: 'RUN_MISMATCH' }));
    expect(() => mergeSimulations([cut(0, 5), cut(6, 12)])).toThrow(/games 5\.\.5 are missing/);
    const damaged = cut(0, 12);
    damaged.records = damaged.records.map((s, i) => (i === 3 ? { ...s, games: [{ ...s.games[0], length: -1 }] } : s));
    expect(() => mergeSimulations([damaged])).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    expect(() => mergeSimulations([])).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
  });

  it('refuses resumed streams outside the range, twice, or that the budget could not have played', async () => {
    const base = { table, ...run, range: { start: 0, end: 6 } };
    await expect(simulateStacking({ ...base, resume: [whole.records[8]] })).rejects.toMatchObject({
      code: 'RUN_MISMATCH',
    });
    await expect(simulateStacking({ ...base, resume: [whole.records[1], whole.records[1]] })).rejects.toMatchObject({
      code: 'RUN_MISMATCH',
    });
    const over = { ...whole.records[1], games: [{ length: 5000, dead: false, deathPiece: 0, tetrises: 0 }] };
    await expect(simulateStacking({ ...base, resume: [over] })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    await expect(simulateStacking({ ...base, range: { start: 3, end: 3 } })).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
    });
  });
});
