/**
 * StackingAI.rankPlacements (the surface game's ranking for a person): every legal first move, valued as the
 * independent pure-TS reference search (test/reference/search-reference.ts) values the best line after it, in
 * expected pieces; bestPlacement's move first.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { StackRankError } from '../../src/errors.js';
import { PIECES } from '../../src/pieces.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { StackingAI } from '../../src/stacking-ai/ai.js';
import { expectedPiecesFromRank } from '../../src/stacking-ai/rank-placements.js';
import { resolveStacking } from '../../src/stacking-ai/rules.js';
import {
  referenceChildren,
  referenceIndexTruncated,
  referenceSearch,
  type ReferenceRules,
} from '../reference/search-reference.js';
import { stackArb } from '../helpers/stack-arb.js';

const tables: Record<number, RankTable> = {};
beforeAll(async () => {
  for (const width of [6, 9])
    tables[width] = await buildRankTable({ width, iterations: width === 9 ? 3 : 6, threads: 1 });
}, 120_000);

/** The reference's value of each legal first move: pieces the best line after it places, plus the expected pieces
 * of its leaf when it places the whole window. */
function referenceValues(
  table: RankTable,
  heights: number[],
  queue: number[],
  lookahead: number,
  rules: ReferenceRules,
) {
  const { values, scale } = table.searchValues();
  const rankOf = (i: number) => values[i];
  const window = lookahead + 1;
  return referenceChildren(heights, queue[0], rules, table.maxStep).map(({ move, heights: child }) => {
    let survives = 1;
    let leaf = values[referenceIndexTruncated(child, table.maxStep)] * scale;
    if (lookahead > 0) {
      const ref = referenceSearch(child, queue.slice(1), lookahead - 1, table.maxStep, rules, rankOf);
      survives = 1 + (ref.move ? ref.value[0] : 0);
      leaf = ref.value[2] * scale;
    }
    const value = survives < window ? survives : survives + expectedPiecesFromRank(leaf, table.iterations);
    return { key: move.tetris ? 'tetris' : `${move.rotation}@${move.column}`, value, survives };
  });
}

describe('rankPlacements values every legal first move as the reference search does', () => {
  for (const width of [6, 9]) {
    for (const given of [
      { tetris: 'forced' },
      { tetris: 'choice' },
      { steep: 'truncate' },
      { steep: 'collapse' },
    ] as const) {
      it(`width ${width}, ${JSON.stringify(given)}`, async () => {
        const table = tables[width];
        const ruleSet = resolveStacking(given);
        const ai = await StackingAI.create({ table, stacking: given });
        const rules: ReferenceRules = { ...ruleSet, steep: ruleSet.steep as ReferenceRules['steep'] };
        fc.assert(
          fc.property(
            stackArb(width, 4, 9),
            fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 3 }),
            (heights, queue) => {
              const lookahead = queue.length - 1;
              const letters = queue.map((p) => PIECES[p]).join('');
              const ranking = ai.rankPlacements(heights, letters, lookahead);
              const expected = referenceValues(table, heights, queue, lookahead, rules);
              const got = ranking.placements.map((p) => ({
                key: p.tetris ? 'tetris' : `${p.rotation}@${p.column}`,
                value: p.value,
                survives: p.survives,
              }));
              const byKey = (a: { key: string }, b: { key: string }) => a.key.localeCompare(b.key);
              expect([...got].sort(byKey)).toEqual([...expected].sort(byKey));
              const best = ai.bestPlacement(heights, letters, lookahead);
              if (!best) {
                expect(ranking.placements).toEqual([]);
                expect(ranking.afterNextPiece).toBeNull();
                return;
              }
              const first = ranking.placements[0];
              expect([first.tetris, first.rotation, first.column]).toEqual([best.tetris, best.rotation, best.column]);
              expect(first.heights).toEqual(best.heights);
              const rest = ranking.placements.slice(1).map((p) => p.value);
              expect(rest).toEqual([...rest].sort((a, b) => b - a));
              for (const p of ranking.placements) {
                expect(Number.isFinite(p.value) && p.value >= 1).toBe(true);
                expect(p.loss).toBe(first.value - p.value);
              }
            },
          ),
          { numRuns: 50, seed: width * 7 + JSON.stringify(given).length },
        );
      });
    }
  }
});

describe('rankPlacements on small cases', () => {
  it('lists every hole-free place on a flat 9-column surface: O 8, T 7, I 15', async () => {
    const ai = await StackingAI.create({ table: tables[9] });
    const flat = [0, 0, 0, 0, 0, 0, 0, 0, 0];
    expect(ai.rankPlacements(flat, 'O').placements.length).toBe(8);
    expect(ai.rankPlacements(flat, 'T').placements.length).toBe(7);
    expect(ai.rankPlacements(flat, 'I').placements.length).toBe(15);
    expect(ai.rankPlacements(flat, 'I', 0, { limit: 4 }).placements.length).toBe(4);
  });

  it('at lookahead 0 the value is 1 + the expected pieces of the surface after the move: monotone in its rank', async () => {
    const table = tables[9];
    const ai = await StackingAI.create({ table });
    const ranking = ai.rankPlacements([2, 2, 3, 1, 1, 1, 0, 0, 1], 'L');
    for (const p of ranking.placements) {
      const rank = table.get(referenceIndexTruncated(p.heights, table.maxStep));
      expect(p.value).toBe(1 + expectedPiecesFromRank(rank, table.iterations));
      expect(p.survives).toBe(1);
    }
  });

  it('gives, for the best move, the expected pieces after each possible next piece', async () => {
    const table = tables[9];
    const ai = await StackingAI.create({ table });
    const ranking = ai.rankPlacements([2, 2, 3, 1, 1, 1, 0, 0, 1], 'LT', 1);
    const after = ranking.afterNextPiece!;
    expect(after.map((a) => a.piece)).toEqual([...PIECES]);
    // The best move (L on its surface, T next) by the reference search, then each next piece alone on the surface
    // it leaves: 1 + the expected pieces of the best rank that piece reaches there, 0 when it has no place.
    const rules = resolveStacking(undefined);
    const rankOf = (i: number) => table.get(i);
    const start = [2, 2, 3, 1, 1, 1, 0, 0, 1];
    const first = referenceSearch(start, [5, 2], 1, table.maxStep, rules, rankOf).move!;
    const child = referenceChildren(start, 5, rules, table.maxStep).find(
      (c) => JSON.stringify(c.move) === JSON.stringify(first),
    )!;
    expect(ranking.placements[0].heights).toEqual(child.heights);
    let empty = 0;
    for (const a of after) {
      const p = PIECES.indexOf(a.piece);
      const ref = referenceSearch(child.heights, [p], 0, table.maxStep, rules, rankOf);
      if (!ref.move) empty++;
      expect(a.value).toBe(ref.move ? 1 + expectedPiecesFromRank(ref.value[2], table.iterations) : 0);
    }
    expect(empty).toBeLessThan(7);
  });

  it('is empty when the piece has no hole-free place, and checks its input', async () => {
    const ai = await StackingAI.create({ table: tables[9] });
    const jagged = [0, 3, 0, 3, 0, 3, 0, 3, 0];
    const none = ai.rankPlacements(jagged, 'O');
    expect(none.placements).toEqual([]);
    expect(none.afterNextPiece).toBeNull();
    expect(ai.bestPlacement(jagged, 'O')).toBeNull();
    for (const bad of [0, 1.5, 'ten']) {
      expect(() => ai.rankPlacements(jagged, 'T', 0, { limit: bad as number })).toThrow(StackRankError);
    }
    expect(() => ai.rankPlacements([1, 2, 3], 'T')).toThrow(/column heights/);
    expect(() => ai.rankPlacements(jagged, 'TX')).toThrow(StackRankError);
    expect(() => ai.rankPlacements(jagged, 'T', 1)).toThrow(StackRankError);
  });
});
