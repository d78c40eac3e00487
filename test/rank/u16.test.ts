import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildFoldedRanks } from '../../src/rank/build.js';
import { type RankKernel, writePlan } from '../../src/kernels/rank.js';
import { U16_SCRATCH_ARRAYS, U16_SLACK_BYTES } from '../../assembly/rank/layout.js';
import { rankMoves } from '../../src/rank/moves.js';
import {
  buildIndex,
  makeMirrorPlan,
  mirrorMove,
  mirrorOrder,
  reorderMove,
} from '../../src/kernels/rank-mirror-plan.js';
import { foldShape } from '../../src/rank/fold.js';
import { RankTable, buildRankTable } from '../../src/rank/table.js';
import { mirrorIndex, surfaceCount } from '../../src/surface.js';
import { loadKernel } from '../../src/kernels/wasm.js';
import { allPositions, comparePlay } from '../helpers/play-compare.js';
import { expectProgressAndCancel } from '../helpers/table-builds.js';
import { referenceSuccessors } from '../reference/rank-reference.js';

const digitsOf = (s: number, base: number, count: number) =>
  [...s.toString(base).padStart(count, '0')].map((c) => parseInt(c, base));

/** Largest |u16 table value - f32 table value| over all surfaces, in units of the u16 table's scale. */
function errorUnits(u16: RankTable, f32: RankTable): number {
  const a = u16.toFloat32();
  const b = f32.toFloat32();
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst / u16.scale;
}

describe('mirror-folded build order (src/kernels/rank-mirror-plan.ts)', () => {
  it.each([
    [4, 1],
    [5, 2],
    [6, 4],
    [7, 1],
    [8, 2],
  ])(
    'W=%i S=%i: reordered and mirrored moves have the same legal surfaces and successors, and mirroring maps blocks to blocks',
    (width, maxStep) => {
      const order = mirrorOrder(width, maxStep);
      const base = 2 * maxStep + 1;
      const size = surfaceCount(width, maxStep);
      const moves = rankMoves(width, maxStep, 'collapse');
      const reordered = moves.map((m) => reorderMove(m, order));
      const mirroredMoves = reordered.map((m) => mirrorMove(m, order));
      const plan = makeMirrorPlan(moves, width, maxStep);
      const edge = Math.sqrt(order.lo);
      const mirrorOfBlock = new Map<number, number>();
      plan.blocks.forEach((b, i) => {
        mirrorOfBlock.set(b, plan.mirrorBlocks[i]);
        mirrorOfBlock.set(plan.mirrorBlocks[i], b);
      });
      expect(mirrorOfBlock.size).toBe(order.hi);
      fc.assert(
        fc.property(fc.integer({ min: 0, max: size - 1 }), (s) => {
          const std = digitsOf(s, base, width - 1);
          const at = buildIndex(s, order);
          const built = digitsOf(at, base, width - 1);
          moves.forEach((m, i) => {
            const legal = std.every((d, j) => d >= m.lo[j] && d <= m.hi[j]);
            const legalThere = built.every((d, j) => d >= reordered[i].lo[j] && d <= reordered[i].hi[j]);
            expect(legalThere).toBe(legal);
            if (legal) expect(at + reordered[i].delta).toBe(buildIndex(s + m.delta, order));
            // The mirror image of the move is legal exactly on the mirror image of s, and leads to the mirror
            // image of the move's successor.
            const image = mirrorIndex(s, width, maxStep);
            const imageAt = buildIndex(image, order);
            const imageDigits = digitsOf(imageAt, base, width - 1);
            const mirroredLegal = imageDigits.every(
              (d, j) => d >= mirroredMoves[i].lo[j] && d <= mirroredMoves[i].hi[j],
            );
            expect(mirroredLegal).toBe(legal);
            if (legal)
              expect(imageAt + mirroredMoves[i].delta).toBe(
                buildIndex(mirrorIndex(s + m.delta, width, maxStep), order),
              );
          });
          const block = Math.floor(at / order.lo);
          const offset = at % order.lo;
          const mirrored = mirrorOfBlock.get(block)! * order.lo + (offset % edge) * edge + Math.floor(offset / edge);
          expect(mirrored).toBe(buildIndex(mirrorIndex(s, width, maxStep), order));
        }),
        { numRuns: 100 },
      );
    },
  );
});

/** Round half to even, as f32 `nearest` does (Math.round rounds halves up). */
function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

describe('one u16 iteration of the kernel against the definition', () => {
  // Edge 3 (no SIMD tiles), 25, 27, 49 and 81 (the kernel's constant-size path), both kernels, random
  // mirror-symmetric previous values (so a stale or misplaced value shows), and the first iteration's form.
  it.each([
    [4, 1, 'forbid'],
    [5, 2, 'forbid'],
    [7, 1, 'forbid'],
    [6, 3, 'forbid'],
    [6, 3, 'collapse'],
    [6, 4, 'forbid'],
  ] as const)(
    'W=%i S=%i %s: every surface as the sum of the piece maxima, scaled and rounded',
    async (width, maxStep, steep) => {
      const size = surfaceCount(width, maxStep);
      const order = mirrorOrder(width, maxStep);
      const at = Int32Array.from({ length: size }, (_, s) => buildIndex(s, order));
      const successors = Array.from({ length: size }, (_, s) =>
        [0, 1, 2, 3, 4, 5, 6].map((p) => referenceSuccessors(s, p, width, maxStep, steep)),
      );
      let seed = 12345;
      const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) / 2 ** 24;
      const values = new Uint16Array(size);
      for (let s = 0; s < size; s++) values[s] = values[mirrorIndex(s, width, maxStep)] = Math.floor(random() * 65536);
      const expected = (ones: boolean, factor: number) => {
        let best = 0;
        const out = new Uint16Array(size);
        for (let s = 0; s < size; s++) {
          let sum = 0;
          for (const succ of successors[s]) sum += succ.reduce((m, t) => Math.max(m, ones ? 65535 : values[t]), 0);
          best = Math.max(best, sum);
          out[s] = Math.min(65535, roundHalfEven(Math.fround(sum * factor)));
        }
        return { out, best };
      };
      for (const simd of [true, false]) {
        const { exports: kernel, memory } = await loadKernel<RankKernel>('rank', { shared: false, simd });
        const plan = makeMirrorPlan(rankMoves(width, maxStep, steep), width, maxStep);
        const planPtr = writePlan(kernel, memory, plan);
        const bytes = Math.ceil((size * 2) / 16) * 16 + U16_SLACK_BYTES;
        const prev = kernel.alloc(bytes);
        const next = kernel.alloc(bytes);
        const scratch = kernel.alloc(plan.lo * 2 * U16_SCRATCH_ARRAYS + U16_SLACK_BYTES);
        const control = kernel.alloc(8);
        const input = new Uint16Array(memory.buffer, prev, size);
        for (let s = 0; s < size; s++) input[at[s]] = values[s];
        for (const [ones, factor] of [
          [false, Math.fround(0.1234)],
          [true, Math.fround(1 / 7)],
          [false, Math.fround(1 / 7)],
        ] as const) {
          new Int32Array(memory.buffer, control, 2).fill(0);
          const run = ones ? kernel.rankBlocksU16Ones : kernel.rankBlocksU16;
          const best = run(planPtr, prev, next, control, 4, plan.blocks.length, scratch, factor, control + 4);
          const want = expected(ones, factor);
          const got = new Uint16Array(memory.buffer, next, size);
          let wrong = 0;
          for (let s = 0; s < size; s++) if (got[at[s]] !== want.out[s]) wrong++;
          expect({ simd, ones, wrong, best }).toEqual({ simd, ones, wrong: 0, best: want.best });
        }
      }
    },
  );
});

describe('mirror-folded u16 build against the f32 iteration', () => {
  it.each([
    [4, 1, 2, 'forbid'],
    [5, 2, 8, 'forbid'],
    [6, 4, 6, 'forbid'],
    [7, 3, 6, 'forbid'],
    [8, 2, 5, 'forbid'],
    [6, 3, 5, 'collapse'],
    [7, 2, 4, 'collapse'],
  ] as const)(
    'W=%i S=%i k=%i %s: every surface within 1.5 units of the last stored digit',
    async (width, maxStep, iterations, steep) => {
      const u16 = await buildRankTable({ width, maxStep, iterations, steep, threads: 1 });
      const f32 = await buildRankTable({ width, maxStep, iterations, steep, threads: 1, encoding: 'f32' });
      expect(u16.encoding).toBe('u16');
      expect(u16.variant).toBe(f32.variant);
      expect(errorUnits(u16, f32)).toBeLessThan(1.5);
    },
  );

  it('1, 2 and 3 threads, SIMD and scalar give bit-identical folded values', async () => {
    for (const [width, maxStep] of [
      [7, 4],
      [8, 3],
    ]) {
      const single = await buildFoldedRanks({ width, maxStep, iterations: 4, threads: 1 });
      for (const threads of [2, 3]) {
        const par = await buildFoldedRanks({ width, maxStep, iterations: 4, threads });
        expect(par.scale).toBe(single.scale);
        expect(Buffer.from(par.folded.buffer).equals(Buffer.from(single.folded.buffer))).toBe(true);
      }
      const scalar = await buildFoldedRanks({ width, maxStep, iterations: 4, threads: 1, simd: false });
      expect(Buffer.from(scalar.folded.buffer).equals(Buffer.from(single.folded.buffer))).toBe(true);
    }
  });

  it('reports progress with an ETA and cancels cleanly; refuses a width without a u16 table', async () => {
    await expectProgressAndCancel(buildFoldedRanks);
    await expect(buildFoldedRanks({ width: 10 })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
  });

  it('writeSearchValues refuses an aborted signal before any work, on a small table too', async () => {
    const table = await buildRankTable({ width: 5, iterations: 2, threads: 1 });
    const target = new Uint16Array(table.size);
    await expect(table.writeSearchValues(target, AbortSignal.abort())).rejects.toMatchObject({ code: 'ABORTED' });
    expect(target.every((v) => v === 0)).toBe(true);
    expect(await table.writeSearchValues(target)).toBe(table.searchValues().scale);
  });
});

describe('the u16 build plays like the f32 build', () => {
  it('W=6 S=4, 15 iterations: the same pick at every (surface, piece) but for ties within the resolution', async () => {
    const f32 = await buildRankTable({ width: 6, maxStep: 4, iterations: 15, threads: 1, encoding: 'f32' });
    const u16 = await buildRankTable({ width: 6, maxStep: 4, iterations: 15, threads: 1 });
    const got = comparePlay(f32, u16, allPositions(f32.size));
    expect(got.positions).toBe(413_343);
    expect(got.maxValueError).toBeLessThan(1.5 * u16.scale);
    expect(got.decided).toBeGreaterThan(200_000);
    expect(got.ties).toBe(got.differences);
    expect(got.differences).toBeLessThan(got.decided / 10_000);
  }, 60_000);

  it('the comparison does catch a table that plays differently (3 iterations instead of 15)', async () => {
    const f32 = await buildRankTable({ width: 6, maxStep: 4, iterations: 15, threads: 1, encoding: 'f32' });
    const other = await buildRankTable({ width: 6, maxStep: 4, iterations: 3, threads: 1 });
    // With the tie bound the test above accepts (1.5 units each side), most differences are real.
    const got = comparePlay(f32, other, allPositions(f32.size), 3 * other.scale);
    expect(got.differences - got.ties).toBeGreaterThan(1000);
  }, 60_000);
});

describe('RankTable.fromFolded', () => {
  it('takes folded values of the mirror-symmetric variants only, and checks its arguments', () => {
    const size = foldShape(5, 2).foldedSize;
    const ok = RankTable.fromFolded(new Uint16Array(size).fill(7), 1e-4, { width: 5, maxStep: 2, iterations: 2 });
    expect(ok.variant).toBe('article');
    expect(ok.get(0)).toBeCloseTo(7e-4, 10);
    const refused = (args: unknown[]) => {
      try {
        (RankTable.fromFolded as (...a: unknown[]) => unknown)(...args);
      } catch (e) {
        return (e as { code?: string }).code;
      }
      return 'accepted';
    };
    const meta = { width: 5, maxStep: 2, iterations: 2 };
    expect(refused([new Uint16Array(size), 1e-4, { ...meta, variant: '20g' }])).toBe('BAD_ARGUMENT'); // not folded
    expect(refused([new Uint16Array(size), 1e-4, null])).toBe('BAD_ARGUMENT');
    expect(refused([null, 1e-4, meta])).toBe('BAD_ARGUMENT');
    expect(refused([new Uint16Array(size), 1e-4, { ...meta, width: 99 }])).toBe('BAD_ARGUMENT');
  });
});
