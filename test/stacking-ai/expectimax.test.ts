import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ORIENTATIONS, PIECES, type Piece } from '../../src/pieces.js';
import { computePieceMax } from '../../src/rank/piece-max.js';
import { buildPreviewTable } from '../../src/rank/preview.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { StackingAI } from '../../src/stacking-ai/ai.js';
import { StackingEngine } from '../../src/kernels/search.js';
import { distributionWeights, pairWeights } from '../../src/kernels/search-format.js';
import { expectimaxStrategy } from '../../src/stacking-ai/strategy.js';
import type { StackingSettings } from '../../src/stacking-ai/rules.js';
import { simulateStacking } from '../../src/stacking-ai/simulate.js';
import { referenceRanks, referenceSuccessors } from '../reference/rank-reference.js';
import { referenceChildren, referenceIndexTruncated } from '../reference/search-reference.js';
import { stackArb } from '../helpers/stack-arb.js';

let table: RankTable;
let q: Uint16Array;
beforeAll(async () => {
  table = await buildRankTable({ width: 5, maxStep: 4, iterations: 5, threads: 1 });
  q = table.searchValues().values;
});

describe('best-placement values per piece', () => {
  it("equal the max of the table over each piece's rank-legal placements (every W=5 surface)", async () => {
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

// Under 'collapse' a threshold above 8 makes the Tetris rule on a collapsing child depend on its collapsed heights.
describe.each([
  ['truncate', 8],
  ['collapse', 11],
] as const)('expectimax leaves, steep %s, Tetris at %i', (steep, tetrisThreshold) => {
  const rules: StackingSettings = { boardHeight: 20, tetrisThreshold, steep, tetris: 'forced' };
  it('score exactly the distribution-weighted best ranks (W = 5, property)', async () => {
    const engine = await StackingEngine.create(table, rules, { unknownPieces: 1 });
    const M = (s: number, p: number) => referenceSuccessors(s, p, 5, 4).reduce((m, t) => Math.max(m, q[t]), 0);
    fc.assert(
      fc.property(
        stackArb(5, 4, 14),
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
            const tetris = Math.min(...child.heights) >= 4 && Math.max(...child.heights) >= rules.tetrisThreshold;
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

  it('two unknown pieces score exactly sum_p1 w1 * (best expectimax score after p1 >> 16) (W = 5, property)', async () => {
    const engine = await StackingEngine.create(table, rules, { unknownPieces: 2 });
    const M = (s: number, p: number) => referenceSuccessors(s, p, 5, 4).reduce((m, t) => Math.max(m, q[t]), 0);
    const tetrisFires = (h: number[]) => Math.min(...h) >= 4 && Math.max(...h) >= rules.tetrisThreshold;
    /** One unknown piece with integer weights w (8 from offset `at`): the expectimax leaf score of heights h. */
    const score1 = (h: number[], w: Int32Array, at: number) => {
      const s = referenceIndexTruncated(h, 4);
      let score = 0;
      for (let p = 0; p < 7; p++) score += w[at + p] * (p === 0 && tetrisFires(h) ? q[s] : M(s, p));
      return score;
    };
    const score2 = (h: number[], w: Int32Array) => {
      let total = 0;
      for (let p1 = 0; p1 < 7; p1++) {
        if (w[p1] === 0) continue;
        const best = referenceChildren(h, p1, rules).reduce((m, c) => Math.max(m, score1(c.heights, w, 8 + 8 * p1)), 0);
        total += w[p1] * Math.floor(best / 65536);
      }
      return total;
    };
    fc.assert(
      fc.property(
        stackArb(5, 4, 14),
        fc.integer({ min: 0, max: 6 }),
        fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 49, maxLength: 49 }).filter((a) => a.some((x) => x > 0)),
        fc.integer({ min: 0, max: 6 }),
        fc.boolean(),
        (heights, piece, raw, second, deeper) => {
          const total = raw.reduce((a, b) => a + b, 0);
          const w = pairWeights(raw.map((x) => x / total));
          if (!deeper) {
            const got = engine.search(heights, [piece], 0, w);
            const best = referenceChildren(heights, piece, rules).reduce(
              (m, c) => Math.max(m, score2(c.heights, w)),
              -1,
            );
            if (best < 0) expect(got.depth).toBe(0);
            else expect(got.leafScore).toBe(best);
            return;
          }
          // Lookahead 1: leaves two moves deep, rebuilt by the kernel from the root along their paths.
          const got = engine.search(heights, [piece, second], 1, w);
          let best = -1;
          for (const c of referenceChildren(heights, piece, rules)) {
            for (const g of referenceChildren(c.heights, second, rules)) best = Math.max(best, score2(g.heights, w));
          }
          if (best >= 0) {
            expect(got.depth).toBe(2);
            expect(got.leafScore).toBe(best);
          } else expect(got.depth).toBeLessThan(2);
        },
      ),
      { numRuns: 120 },
    );
  });
});

// The Tetris rule on a leaf the piece has just made (docs/rules.md): the I goes down the well when the lowest column
// is at least 4 and the highest at least the threshold. On each stack below the piece has one placement, and after
// it every column the piece leaves alone and the piece's own highest column reach 4 and one column reaches the
// threshold: only the piece's lowest new top, below 4, keeps the I from the well. Random stacks seldom draw this
// (a placement whose lowest column is the stack's lowest, just under 4, while the rest stands at 4 or more), so the
// cases are built by hand, the piece at the left wall, inside and at the right wall. The leaf's score tells which
// way the rule was read: its I term is the best rank after placing the I, where a Tetris would give the leaf's own
// rank (the same surface 4 rows down), and on each of these leaves the two differ.
describe('expectimax leaves whose lowest column is under the piece just placed', () => {
  const rules: StackingSettings = { boardHeight: 20, tetrisThreshold: 8, steep: 'truncate', tetris: 'forced' };
  const M = (s: number, p: number) => referenceSuccessors(s, p, 5, 4).reduce((m, t) => Math.max(m, q[t]), 0);
  /** One unknown piece with integer weights w (8 from offset `at`): the expectimax leaf score of heights h. */
  const score1 = (h: number[], w: Int32Array, at: number) => {
    const s = referenceIndexTruncated(h, 4);
    const tetris = Math.min(...h) >= 4 && Math.max(...h) >= rules.tetrisThreshold;
    let score = 0;
    for (let p = 0; p < 7; p++) score += w[at + p] * (p === 0 && tetris ? q[s] : M(s, p));
    return score;
  };
  /** The one placement of `piece` on `heights`, checked to be a leaf as described above. */
  const soleLeaf = (heights: number[], piece: number) => {
    const children = referenceChildren(heights, piece, rules);
    expect(children).toHaveLength(1);
    const [{ move, heights: leaf }] = children;
    const end = move.column + ORIENTATIONS[piece][move.rotation].width;
    const covered = leaf.slice(move.column, end);
    const beside = leaf.filter((_, x) => x < move.column || x >= end);
    expect(Math.min(...covered)).toBeLessThan(4);
    expect(Math.min(...beside, Math.max(...covered))).toBeGreaterThanOrEqual(4);
    expect(Math.max(...leaf)).toBeGreaterThanOrEqual(rules.tetrisThreshold);
    const s = referenceIndexTruncated(leaf, 4);
    expect(q[s]).not.toBe(M(s, 0));
    return leaf;
  };
  // Every orientation whose columns end at different heights but the flat L and J: on the columns they fit an upright
  // one fits too (below the top of the board), so they are not the one placement on a stack like these.
  const stacks: [number[], Piece][] = [
    [[1, 1, 4, 8, 4], 'J'], // upright J, left wall: leaf [2, 4, 4, 8, 4]
    [[4, 8, 4, 1, 1], 'L'], // upright L, right wall: leaf [4, 8, 4, 4, 2]
    [[4, 2, 2, 2, 8], 'T'], // flat T pointing up, inside: leaf [4, 3, 4, 3, 8]
    [[4, 4, 2, 1, 8], 'T'], // upright T pointing left, inside: leaf [4, 4, 3, 4, 8]
    [[4, 4, 8, 1, 2], 'T'], // upright T pointing right, right wall: leaf [4, 4, 8, 4, 3]
    [[4, 2, 1, 4, 8], 'S'], // upright S, inside: leaf [4, 4, 3, 4, 8]
    [[4, 8, 2, 2, 3], 'S'], // flat S, right wall: leaf [4, 8, 3, 4, 4]
    [[1, 2, 4, 4, 8], 'Z'], // upright Z, left wall: leaf [3, 4, 4, 4, 8]
    [[3, 2, 2, 4, 8], 'Z'], // flat Z, left wall: leaf [4, 4, 3, 4, 8]
  ];

  it('one unknown piece: the I is placed, not sent down the well (W = 5)', async () => {
    const engine = await StackingEngine.create(table, rules, { unknownPieces: 1 });
    const w = distributionWeights();
    for (const [heights, letter] of stacks) {
      const piece = PIECES.indexOf(letter);
      const leaf = soleLeaf(heights, piece);
      const got = engine.search(heights, [piece], 0, w);
      expect([heights, letter, got.depth, got.leafScore]).toEqual([heights, letter, 1, score1(leaf, w, 0)]);
    }
  });

  it('two unknown pieces: the same for the leaves of the first unknown piece (W = 5)', async () => {
    const engine = await StackingEngine.create(table, rules, { unknownPieces: 2 });
    // [stack, the piece placed on it (one placement), the first unknown piece, which then makes a leaf as above]
    const cases: [number[], Piece, Piece][] = [
      [[4, 0, 0, 2, 8], 'O', 'T'], // [4, 2, 2, 2, 8], then a flat T
      [[1, 3, 8, 1, 2], 'J', 'T'], // [4, 4, 8, 1, 2], then an upright T
      [[4, 8, 2, 0, 1], 'Z', 'S'], // [4, 8, 2, 2, 3], then a flat S
      [[1, 0, 2, 4, 8], 'S', 'Z'], // [3, 2, 2, 4, 8], then a flat Z
    ];
    for (const [heights, letter, firstLetter] of cases) {
      const [piece, first] = [PIECES.indexOf(letter), PIECES.indexOf(firstLetter)];
      // The first unknown piece is certainly `first` and the second certainly an I, so the score is the I term
      // of the one leaf: sum_p1 w1 * (best one-unknown-piece score after p1 >> 16) has one term.
      const pair = new Array<number>(49).fill(0);
      pair[first * 7] = 1;
      const w = pairWeights(pair);
      const placed = referenceChildren(heights, piece, rules);
      expect(placed).toHaveLength(1);
      const leaf = soleLeaf(placed[0].heights, first);
      const want = w[first] * Math.floor(score1(leaf, w, 8 + 8 * first) / 65536);
      const got = engine.search(heights, [piece], 0, w);
      expect([heights, letter, got.depth, got.leafScore]).toEqual([heights, letter, 1, want]);
    }
  });
});

describe('expectimax', () => {
  const rules: StackingSettings = { boardHeight: 20, tetrisThreshold: 8, steep: 'truncate', tetris: 'forced' };
  it('weights: sum to 65536 exactly; pairs condition on the first piece; depth 0, 1, 2 name the strategies', () => {
    fc.assert(
      fc.property(
        fc
          .array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 7, maxLength: 7 })
          .filter((a) => a.some((x) => x > 1e-3)),
        (raw) => {
          const total = raw.reduce((a, b) => a + b, 0);
          const w = distributionWeights(raw.map((x) => x / total));
          expect(w.slice(0, 7).reduce((a, b) => a + b, 0)).toBe(65536);
        },
      ),
    );
    // Each chance rounded to a multiple of 2^-16, the remainder to the likeliest piece (the first of equals):
    // uniform: round(65536 / 7) = 9362 seven times is 65534, so I gets 9362 + 2.
    const uniform = [9364, 9362, 9362, 9362, 9362, 9362, 9362, 0];
    expect(Array.from(distributionWeights())).toEqual(uniform);
    expect(Array.from(distributionWeights(new Array(7).fill(1 / 7)))).toEqual(uniform);
    // 1/6, 1/6, 2/3: 10922.67 -> 10923 twice and 43690.67 -> 43691 sum to 65537; the likeliest T gives 1 back.
    expect(Array.from(distributionWeights([1 / 6, 1 / 6, 2 / 3, 0, 0, 0, 0]))).toEqual([
      10923, 10923, 43690, 0, 0, 0, 0, 0,
    ]);
    // Uniform pairs: the first piece's weights and, after each first piece, the same again.
    expect(Array.from(pairWeights())).toEqual(new Array(8).fill(uniform).flat());
    // P(p1) = 1/2 for I and O; given I the next is certainly T, given O uniform over S and Z.
    const pair = new Array(49).fill(0);
    pair[0 * 7 + 2] = 0.5;
    pair[1 * 7 + 3] = 0.25;
    pair[1 * 7 + 4] = 0.25;
    const w = pairWeights(pair);
    expect(Array.from(w.slice(0, 8))).toEqual([32768, 32768, 0, 0, 0, 0, 0, 0]);
    expect(Array.from(w.slice(8, 16))).toEqual([0, 0, 65536, 0, 0, 0, 0, 0]);
    expect(Array.from(w.slice(16, 24))).toEqual([0, 0, 0, 32768, 32768, 0, 0, 0]);
    expect(Array.from(w.slice(24, 32))).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect([0, 1, 2].map(expectimaxStrategy)).toEqual([
      { strategy: 'rank', unknownPieces: 0 },
      { strategy: 'expectimax', unknownPieces: 1 },
      { strategy: 'expectimax', unknownPieces: 2 },
    ]);
    expect(() => expectimaxStrategy(3)).toThrow(/0, 1 or 2/);
  });

  it('two unknown pieces and preview leaves in games: deterministic across threads; leaf rows are checked', async () => {
    const preview = await buildPreviewTable({
      width: 5,
      maxStep: 4,
      iterations: 5,
      randomizer: 'tgm1',
      samples: 20_000,
      threads: 1,
    });
    const base = { table, lookahead: 0, games: 4, maxPieces: 3_000, seed: 11, randomizer: 'tgm1' as const };
    const two = { strategy: 'expectimax', unknownPieces: 2 } as const;
    const a = await simulateStacking({ ...base, ...two, previewTable: preview, threads: 1 });
    const b = await simulateStacking({ ...base, ...two, previewTable: preview, threads: 2 });
    expect([a.deaths, a.pieces, a.leaf, a.strategy, a.unknownPieces]).toEqual([
      b.deaths,
      b.pieces,
      'preview',
      'expectimax',
      2,
    ]);
    // Preview leaves change play against the table's own best-per-piece rows.
    const c = await simulateStacking({ ...base, ...two, threads: 1 });
    expect(c.leaf).toBe('piece-max');
    expect(c.deaths).not.toBe(a.deaths);
    await expect(simulateStacking({ ...base, strategy: 'rank', previewTable: preview })).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
    });
    const other = await buildPreviewTable({
      width: 4,
      maxStep: 4,
      iterations: 2,
      randomizer: 'memoryless',
      threads: 1,
    });
    await expect(StackingAI.create({ table, strategy: 'expectimax', previewTable: other })).rejects.toMatchObject({
      code: 'TABLE_MISMATCH',
    });
  });

  it('follows the distribution: a certain next piece decides the move', async () => {
    const ai = await StackingAI.create({ table, stacking: rules, strategy: 'expectimax' });
    // On [1,0,0,0,0] an O fits at columns 1..3 only; which one is best depends on what comes next.
    const oneHot = (p: number) => PIECES.map((_, i) => (i === p ? 1 : 0));
    const moves = new Set(
      PIECES.map((_, p) => JSON.stringify(ai.bestPlacement([1, 0, 0, 0, 0], 'O', 0, { next: oneHot(p) })?.column)),
    );
    expect(moves.size).toBeGreaterThan(1);
    expect(() => ai.bestPlacement([1, 0, 0, 0, 0], 'O', 0, { next: [1, 0, 0] })).toThrow(
      /7 non-negative probabilities/,
    );
  });

  it("plays games with the randomizer's exact distribution, deterministically", async () => {
    const big = await buildRankTable({ width: 8, iterations: 3 }); // 8 columns keep the 16-byte-per-surface values small
    const a = await simulateStacking({
      table: big,
      lookahead: 0,
      games: 6,
      seed: 3,
      strategy: 'expectimax',
      threads: 1,
    });
    const b = await simulateStacking({
      table: big,
      lookahead: 0,
      games: 6,
      seed: 3,
      strategy: 'expectimax',
      threads: 2,
    });
    expect(a.pieces).toBe(b.pieces);
    expect([a.strategy, a.unknownPieces]).toEqual(['expectimax', 1]);
    await expect(simulateStacking({ table: big, lookahead: 0, strategy: 'minimax' as never })).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
    });
  });
});
