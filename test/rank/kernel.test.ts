import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildRankValues } from '../../src/rank/build.js';
import { rankMoves } from '../../src/rank/moves.js';
import { mirrorIndex, surfaceCount } from '../../src/surface.js';
import { referenceRanks, referenceSuccessors } from '../reference/rank-reference.js';
import { expectProgressAndCancel } from '../helpers/table-builds.js';

const maxError = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
};

describe('rank moves (product sets and constant deltas)', () => {
  it.each([
    [4, 1],
    [5, 2],
    [6, 4],
  ])('W=%i S=%i: every move is legal exactly on its digit box and moves the index by its delta', (width, maxStep) => {
    const moves = rankMoves(width, maxStep);
    const base = 2 * maxStep + 1;
    for (let s = 0; s < surfaceCount(width, maxStep); s++) {
      const digits = [...s.toString(base).padStart(width - 1, '0')].map((c) => parseInt(c, base));
      for (let p = 0; p < 7; p++) {
        const fromMoves = moves
          .filter((m) => m.piece === p && digits.every((d, i) => d >= m.lo[i] && d <= m.hi[i]))
          .map((m) => s + m.delta)
          .sort((a, b) => a - b);
        expect(fromMoves).toEqual(referenceSuccessors(s, p, width, maxStep).sort((a, b) => a - b));
      }
    }
  });
});

describe('rank kernel (WebAssembly) against the pure-TS reference', () => {
  const cases: [number, number, number][] = [];
  for (const width of [4, 5, 6])
    for (let maxStep = 1; maxStep <= 4; maxStep++) cases.push([width, maxStep, width === 6 ? 4 : 7]);
  cases.push([5, 4, 1], [5, 4, 15], [4, 2, 30]);

  it.each(cases)('W=%i S=%i k=%i: every surface within 1e-6', async (width, maxStep, iterations) => {
    const ref = referenceRanks(width, maxStep, iterations);
    const got = await buildRankValues({ width, maxStep, iterations, threads: 1 });
    expect(got.length).toBe(ref.length);
    expect(maxError(got, ref)).toBeLessThan(1e-6);
  });

  it('gives r1(flat) = 5/7 and r2(flat) = 33/49 at W = 9', async () => {
    const flat = (43_046_721 - 1) / 2;
    const r1 = await buildRankValues({ iterations: 1, threads: 2 });
    expect(r1[flat]).toBeCloseTo(5 / 7, 6);
    const r2 = await buildRankValues({ iterations: 2, threads: 2 });
    expect(r2[flat]).toBeCloseTo(33 / 49, 6);
  });

  it('ranks a surface and its mirror identically, to the bit (property, W = 7)', async () => {
    const values = await buildRankValues({ width: 7, maxStep: 4, iterations: 6, threads: 1 });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: values.length - 1 }), (s) => {
        expect(values[mirrorIndex(s, 7, 4)]).toBe(values[s]);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('parallel build', () => {
  it.each([6, 7])('W=%i: 1, 2 and 3 threads give bit-identical values', async (width) => {
    const single = await buildRankValues({ width, iterations: 5, threads: 1 });
    for (const threads of [2, 3]) {
      const par = await buildRankValues({ width, iterations: 5, threads });
      expect(Buffer.from(par.buffer).equals(Buffer.from(single.buffer))).toBe(true);
    }
  });

  it('the scalar kernel agrees with the SIMD kernel bit for bit', async () => {
    const simd = await buildRankValues({ width: 7, iterations: 4, threads: 1, simd: true });
    const scalar = await buildRankValues({ width: 7, iterations: 4, threads: 1, simd: false });
    expect(Buffer.from(scalar.buffer).equals(Buffer.from(simd.buffer))).toBe(true);
  });

  it('reports progress with an ETA and cancels cleanly', () => expectProgressAndCancel(buildRankValues));

  it('rejects bad options before touching WebAssembly', async () => {
    await expect(buildRankValues({ width: 3 })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    await expect(buildRankValues({ maxStep: 0 })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    await expect(buildRankValues({ iterations: 0 })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    await expect(buildRankValues({ iterations: 2.5 })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    await expect(buildRankValues({ threads: 0 })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
  });
});

describe('worker pool failures', () => {
  it('turns a kernel trap in a worker into WORKER_FAILED and stops the pool', async () => {
    const { KernelPool, liveWorkerCount } = await import('../../src/kernels/pool.js');
    const { compileKernel, createMemory, pickVariant } = await import('../../src/kernels/wasm.js');
    const module = await compileKernel('rank', pickVariant(true));
    const pool = await KernelPool.create(module, createMemory(true), 2);
    // A plan pointer far outside memory: the kernel traps on its first load.
    await expect(pool.runEach([[{ fn: 'rankBlocks', args: [0x7fff0000, 0, 0, 0, 1, 0] }], []])).rejects.toMatchObject({
      code: 'WORKER_FAILED',
    });
    await expect(pool.run(0, [])).rejects.toMatchObject({ code: 'WORKER_FAILED' });
    for (let i = 0; i < 50 && liveWorkerCount() > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(liveWorkerCount()).toBe(0);
  });

  it('leaves no live worker after a cancelled parallel build', async () => {
    const { liveWorkerCount } = await import('../../src/kernels/pool.js');
    const controller = new AbortController();
    const build = buildRankValues({
      width: 9,
      iterations: 15,
      threads: 2,
      signal: controller.signal,
      onProgress: (p) => p.iteration >= 1 && controller.abort(),
    });
    await expect(build).rejects.toMatchObject({ code: 'ABORTED' });
    for (let i = 0; i < 50 && liveWorkerCount() > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(liveWorkerCount()).toBe(0);
  });
});
