/**
 * Expectimax leaf rows folded by mirror symmetry (src/kernels/search-folded-rows.ts): the folded rows are the full rows
 * with each mirror pair stored once, the mirror-pair index finds the slot the fold layout (src/rank/fold.ts) gives,
 * and an AI over folded rows plays exactly as one over the full rows (the layout every expectimax AI used before).
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { foldIndex, foldShape, unfoldRows } from '../../src/rank/fold.js';
import { computeFoldedPieceMax, computePieceMax } from '../../src/rank/piece-max.js';
import { buildPreviewTable } from '../../src/rank/preview.js';
import { MIRROR_SLOT } from '../../src/kernels/search-format.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { StackingEngine } from '../../src/kernels/search.js';
import { distributionWeights, pairWeights } from '../../src/kernels/search-format.js';
import { mirrorPairIndex } from '../../src/kernels/search-folded-rows.js';
import { FOLD_LOW_BITS, FOLD_MIDDLE, FOLD_MIDDLE_BITS } from '../../assembly/search/layout.js';
import type { StackingSettings } from '../../src/stacking-ai/rules.js';
import { searchImage } from '../../src/kernels/search-image.js';
import { simulateStacking } from '../../src/stacking-ai/simulate.js';
import { surfaceCount } from '../../src/surface.js';
import { stackArb } from '../helpers/stack-arb.js';

const tables = new Map<number, RankTable>();
beforeAll(async () => {
  // W = 5: four step digits (two halves); W = 6: five (a middle digit between the halves).
  for (const width of [5, 6]) tables.set(width, await buildRankTable({ width, maxStep: 4, iterations: 5, threads: 1 }));
}, 60_000);

/** The step digits (0..2S, step 0 first) of surface `index` of a W x S table. */
function digitsOf(index: number, width: number, maxStep: number): number[] {
  const base = 2 * maxStep + 1;
  const digits: number[] = [];
  for (let i = 0; i < width - 1; i++) {
    digits.unshift(index % base);
    index = Math.floor(index / base);
  }
  return digits;
}

describe.each([5, 6])('W = %i', (width) => {
  const maxStep = 4;
  const rules: StackingSettings = { boardHeight: 20, tetrisThreshold: 8, steep: 'excessFirst', tetris: 'forced' };
  const shape = foldShape(width, maxStep);
  const size = surfaceCount(width, maxStep);

  it('the mirror-pair index of every surface leads to its folded slot, flagged when it is the mirror image', () => {
    const pair = mirrorPairIndex(shape)!;
    const middle = pair.block[FOLD_MIDDLE];
    const lowBits = pair.block[FOLD_LOW_BITS];
    const middleBits = pair.block[FOLD_MIDDLE_BITS];
    // The kernel's decoding (assembly/search/leaves.ts leafRow), written out independently.
    const rowOf = (key: number) => {
      const b = key & ((1 << lowBits) - 1);
      const c = (key >>> lowBits) & ((1 << middleBits) - 1);
      const a = key >>> (lowBits + middleBits);
      const cMirror = middle - 1 - c;
      const direct = a < b || (a === b && c <= cMirror);
      const [low, high, cc] = direct ? [a, b, c] : [b, a, cMirror];
      return { slot: ((high * (high + 1)) / 2 + low) * middle + cc, mirrored: !direct };
    };
    let mirrored = 0;
    for (let s = 0; s < size; s++) {
      const key = digitsOf(s, width, maxStep).reduce((sum, digit, i) => sum + pair.share(i, digit), 0);
      const row = rowOf(key);
      expect(row.slot).toBe(foldIndex(s, shape));
      // The mirror image (steps reversed and negated) of a mirrored surface is stored as itself.
      const mirror = digitsOf(s, width, maxStep)
        .map((d) => 2 * maxStep - d)
        .reverse()
        .reduce((index, d) => index * (2 * maxStep + 1) + d, 0);
      if (row.mirrored) {
        mirrored++;
        expect(mirror).not.toBe(s);
      }
      expect(foldIndex(mirror, shape)).toBe(row.slot);
    }
    // Every pair but the self-mirror surfaces has one mirrored member.
    expect(mirrored).toBeGreaterThan(size / 2 - shape.halfSize * shape.middle);
  });

  it('folded piece-max rows unfold to the full rows exactly (the rows are mirror-symmetric)', async () => {
    const table = tables.get(width)!;
    const full = await computePieceMax(table);
    const folded = new Uint16Array(shape.foldedSize * 8);
    await computeFoldedPieceMax(table, folded);
    expect(unfoldRows(folded, shape, size, 8, MIRROR_SLOT)).toEqual(full);
  });

  describe.each([
    ['truncate', 'forced'],
    ['collapse', 'choice'],
  ] as const)('steep %s, Tetris %s', (steep, tetris) => {
    const rules: StackingSettings = { boardHeight: 20, tetrisThreshold: 8, steep, tetris };
    it.each([1, 2] as const)(
      '%i unknown piece(s): the same move, plan and leaf score over folded and full rows',
      async (unknownPieces) => {
        const table = tables.get(width)!;
        const fullRows = { width, maxStep, rows: await computePieceMax(table) };
        const folded = await StackingEngine.create(table, rules, { unknownPieces });
        const full = await StackingEngine.create(table, rules, { unknownPieces, leafValues: fullRows });
        expect((await searchImage(table, 'pieceMax', false)).foldPtr).toBeGreaterThan(0);
        expect((await searchImage(table, fullRows, false)).foldPtr).toBe(0);
        // Chances of the unknown piece (7), or of the two (49, joint): any, so every slot's weight differs.
        const count = unknownPieces === 1 ? 7 : 49;
        const chances = fc
          .array(fc.integer({ min: 0, max: 100 }), { minLength: count, maxLength: count })
          .filter((a) => a.some((x) => x > 0));
        fc.assert(
          fc.property(
            stackArb(width, maxStep, 16),
            fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 2, maxLength: 2 }),
            fc.integer({ min: 0, max: 1 }),
            chances,
            (heights, queue, lookahead, raw) => {
              const total = raw.reduce((t, x) => t + x, 0);
              const dist = raw.map((x) => x / total);
              const weights = unknownPieces === 1 ? distributionWeights(dist) : pairWeights(dist);
              expect(folded.search(heights, queue, lookahead, weights)).toEqual(
                full.search(heights, queue, lookahead, weights),
              );
            },
          ),
          { numRuns: 300 },
        );
      },
    );
  });

  it("a preview table's rows are folded too, and search the same as the same rows given unfolded", async () => {
    const table = tables.get(width)!;
    const preview = await buildPreviewTable({
      width,
      maxStep,
      iterations: 4,
      randomizer: 'tgm1',
      samples: 20_000,
      threads: 1,
    });
    const plain = { width, maxStep, rows: preview.rows };
    expect((await searchImage(table, preview, false)).foldPtr).toBeGreaterThan(0);
    expect((await searchImage(table, plain, false)).foldPtr).toBe(0);
    for (const unknownPieces of [1, 2] as const) {
      const folded = await StackingEngine.create(table, rules, { unknownPieces, leafValues: preview });
      const full = await StackingEngine.create(table, rules, { unknownPieces, leafValues: plain });
      fc.assert(
        fc.property(
          stackArb(width, maxStep, 16),
          fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 2, maxLength: 2 }),
          fc.integer({ min: 0, max: 1 }),
          (heights, queue, lookahead) => {
            expect(folded.search(heights, queue, lookahead)).toEqual(full.search(heights, queue, lookahead));
          },
        ),
        { numRuns: 200 },
      );
    }
  });

  it('plays the same games over folded and full rows (weights from the randomizer, inside the kernel)', async () => {
    const table = tables.get(width)!;
    const fullRows = { width, maxStep, rows: await computePieceMax(table) };
    const base = {
      table,
      lookahead: 1,
      games: 3,
      maxPieces: 2_000,
      seed: 5,
      randomizer: 'tgm1' as const,
      strategy: 'expectimax' as const,
      unknownPieces: 2 as const,
      threads: 1,
    };
    const folded = await simulateStacking(base);
    const full = await simulateStacking({ ...base, previewTable: fullRows });
    // Everything but the clock and the leaf label ('piece-max' vs 'preview').
    const played = (r: object) => ({ ...r, leaf: null, seconds: null, piecesPerSecond: null });
    expect(played(folded)).toEqual(played(full));
    expect(folded.pieces).toBe(2_000);
  });
});
