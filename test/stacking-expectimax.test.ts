import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { PIECES } from '../src/pieces.js';
import { computePieceMax } from '../src/rank/piece-max.js';
import { buildRankTable, type RankTable } from '../src/rank/table.js';
import { StackingAI } from '../src/stacking/ai.js';
import { StackingEngine, distributionWeights } from '../src/stacking/engine.js';
import type { StackingRules } from '../src/stacking/rules.js';
import { simulateStacking } from '../src/stacking/simulate.js';
import { referenceRanks, referenceSuccessors } from './reference/rank-reference.js';
import { referenceChildren, referenceIndexTruncated } from './reference/search-reference.js';

let table: RankTable;
let q: Uint16Array;
beforeAll(async () => {
  table = await buildRankTable({ width: 5, maxStep: 4, iterations: 5, threads: 1 });
  q = table.searchValues().values;
});

describe('best-placement values per piece', () => {
  it('equal the max of the table over each piece\'s rank-legal placements (every W=5 surface)', async () => {
    const pm = await computePieceMax(table);
    for (let s = 0; s < q.length; s++) {
      for (let p = 0; p < 7; p++) {
        const best = referenceSuccessors(s, p, 5, 4).reduce((m, t) => Math.max(m, q[t]), 0);
        expect(pm[s * 8 + p]).toBe(best);
      }
      expect(pm[s * 8 + 7]).toBe(q[s]);
    }
  });

  it('average to the next iteration under the uniform distribution', async () => {
    const f32 = await buildRankTable({ width: 5, iterations: 5, threads: 1, encoding: 'f32' });
    const pm = await computePieceMax(f32);
    const { scale } = f32.searchValues();
    const next = referenceRanks(5, 4, 6);
    for (let s = 0; s < q.length; s += 13) {
      let sum = 0;
      for (let p = 0; p < 7; p++) sum += pm[s * 8 + p] * scale;
      expect(sum / 7).toBeCloseTo(next[s], 3);
    }
  });
});

describe('expectimax leaves', () => {
  const rules: StackingRules = { boardHeight: 20, tetrisThreshold: 8, steep: 'truncate', tetris: 'forced' };
  it('score exactly the distribution-weighted best ranks (W = 5, property)', async () => {
    const engine = await StackingEngine.create(table, rules, { strategy: 'expectimax' });
    const M = (s: number, p: number) => referenceSuccessors(s, p, 5, 4).reduce((m, t) => Math.max(m, q[t]), 0);
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 14 }), { minLength: 5, maxLength: 5 }),
        fc.integer({ min: 0, max: 6 }),
        fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 7, maxLength: 7 }).filter((a) => a.some((x) => x > 0)),
        (heights, piece, raw) => {
          const total = raw.reduce((a, b) => a + b, 0);
          const dist = raw.map((x) => x / total);
          const w = distributionWeights(dist);
          const got = engine.search(heights, [piece], 0, w);
          let best = -1;
          for (const child of referenceChildren(heights, piece, rules)) {
            const s = referenceIndexTruncated(child.heights, 4);
            const tetris = Math.min(...child.heights) >= 4 && Math.max(...child.heights) >= 8;
            let score = 0;
            for (let p = 0; p < 7; p++) score += w[p] * (p === 0 && tetris ? q[s] : M(s, p));
            best = Math.max(best, score);
          }
          if (best < 0) expect(got.depth).toBe(0);
          else expect(got.leafScore).toBe(best);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('follows the distribution: a certain next piece decides the move', async () => {
    const ai = await StackingAI.create({ table, rules, strategy: 'expectimax' });
    // On [1,0,0,0,0] an O fits at columns 1..3 only; which one is best depends on what comes next.
    const oneHot = (p: number) => PIECES.map((_, i) => (i === p ? 1 : 0));
    const moves = new Set(PIECES.map((_, p) => JSON.stringify(ai.bestPlacement([1, 0, 0, 0, 0], 'O', 0, { next: oneHot(p) })?.column)));
    expect(moves.size).toBeGreaterThan(1);
    expect(() => ai.bestPlacement([1, 0, 0, 0, 0], 'O', 0, { next: [1, 0, 0] })).toThrow(/7 non-negative probabilities/);
  });

  it('plays games with the randomizer\'s exact distribution, deterministically', async () => {
    const big = await buildRankTable({ width: 8, iterations: 3 }); // 8 columns keep the 16-byte-per-surface values small
    const a = await simulateStacking({ table: big, lookahead: 0, games: 6, seed: 3, strategy: 'expectimax', threads: 1 });
    const b = await simulateStacking({ table: big, lookahead: 0, games: 6, seed: 3, strategy: 'expectimax', threads: 2 });
    expect(a.pieces).toBe(b.pieces);
    expect(a.strategy).toBe('expectimax');
    await expect(simulateStacking({ table: big, lookahead: 0, strategy: 'minimax' as never })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
  });
});
