/** How a run is cut into shards (src/runs.ts): every game in exactly one shard, in order, sizes within one. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StackRankError } from '../src/errors.js';
import { checkRange, joinRecords, shardRange } from '../src/runs.js';

describe('shardRange', () => {
  it('cuts games 0..G-1 into N contiguous ranges, in shard order, whose sizes differ by at most one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 400 }), (games, n) => {
        const count = Math.min(n, games);
        const ranges = Array.from({ length: count }, (_, i) => shardRange(i, count, games));
        expect(ranges[0].start).toBe(0);
        expect(ranges[count - 1].end).toBe(games);
        for (let i = 1; i < count; i++) expect(ranges[i].start).toBe(ranges[i - 1].end);
        const sizes = ranges.map((r) => r.end - r.start);
        expect(Math.min(...sizes)).toBeGreaterThanOrEqual(1);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('matches the documented formula on a small case', () => {
    expect([0, 1, 2, 3].map((i) => shardRange(i, 4, 10))).toEqual([
      { start: 0, end: 2 },
      { start: 2, end: 5 },
      { start: 5, end: 7 },
      { start: 7, end: 10 },
    ]);
  });

  it('refuses more shards than games and indices outside 0..N-1', () => {
    expect(() => shardRange(0, 11, 10)).toThrow(StackRankError);
    expect(() => shardRange(4, 4, 10)).toThrow(/shard index/);
    expect(() => shardRange(-1, 4, 10)).toThrow(/shard index/);
  });
});

describe('checkRange', () => {
  it('defaults to every game and refuses empty, reversed or out-of-run ranges', () => {
    expect(checkRange('range', undefined, 7)).toEqual({ start: 0, end: 7 });
    expect(checkRange('range', { start: 2, end: 3 }, 7)).toEqual({ start: 2, end: 3 });
    for (const bad of [
      { start: 3, end: 3 },
      { start: 4, end: 2 },
      { start: 0, end: 8 },
      { start: 1.5, end: 3 },
      [0, 2],
      null,
    ])
      expect(() => checkRange('range', bad, 7)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
  });
});

describe('joinRecords', () => {
  const part = (start: number, end: number) => ({
    range: { start, end },
    records: Array.from({ length: end - start }, (_, k) => ({ i: start + k })),
  });
  const index = (r: { i: number }) => r.i;

  it('puts parts given in any order back in game order', () => {
    const { range, records } = joinRecords([part(5, 9), part(0, 2), part(2, 5)], index);
    expect(range).toEqual({ start: 0, end: 9 });
    expect(records.map((r) => r.i)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('refuses overlaps, gaps, short parts and records out of place with RUN_MISMATCH', () => {
    const code = { code: 'RUN_MISMATCH' };
    expect(() => joinRecords([part(0, 3), part(2, 5)], index)).toThrow(expect.objectContaining(code));
    expect(() => joinRecords([part(0, 3), part(4, 5)], index)).toThrow(/games 3\.\.3 are missing/);
    expect(() => joinRecords([{ range: { start: 0, end: 3 }, records: [{ i: 0 }, { i: 1 }] }], index)).toThrow(
      expect.objectContaining(code),
    );
    expect(() => joinRecords([{ range: { start: 0, end: 2 }, records: [{ i: 1 }, { i: 0 }] }], index)).toThrow(
      /record 1 is game 1; expected game 0/,
    );
  });
});
