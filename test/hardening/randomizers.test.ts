/** Regression tests for the randomizers: memory-bounded take, sound decay parameters, cancellable analysis. */
import { describe, expect, it } from 'vitest';
import { analyzeRandomizer, analyzeRandomizerAsync, createRandomizer, restoreRandomizer } from '../helpers/api.js';

const typed = (code: string) => expect.objectContaining({ name: 'StackRankError', code });

describe('decay with a denominator below 1 (defect 12)', () => {
  it('is refused with BAD_ARGUMENT, as are snapshots whose weights do not sum to 7', () => {
    expect(() => createRandomizer('decay', { denominator: 0.5 })).toThrow(typed('BAD_ARGUMENT'));
    expect(() => analyzeRandomizer('decay', { params: { denominator: 0.9 }, pieces: 1000 })).toThrow(
      typed('BAD_ARGUMENT'),
    );
    const state = createRandomizer('decay', { seed: 1 }).state();
    expect(() => restoreRandomizer({ ...state, params: { denominator: 0.9 } })).toThrow(typed('BAD_ARGUMENT'));
    expect(() => restoreRandomizer({ ...state, weights: [70, 0, 0, 0, 0, 0, 0] })).toThrow(typed('BAD_ARGUMENT'));
    // A sound denominator keeps a proper distribution and a restorable state after many pieces.
    const d = createRandomizer('decay', { seed: 3, denominator: 1 });
    d.take(5000);
    const dist = Array.from(d.distribution());
    expect(dist.every((p) => Number.isFinite(p) && p >= 0)).toBe(true);
    expect(dist.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(restoreRandomizer(d.state()).take(50)).toBe(d.take(50));
  });
});

describe('requests that would exhaust memory (defect 7, randomizers)', () => {
  it('take(2e8) is refused with BAD_ARGUMENT, pointing at fillIds', () => {
    const r = createRandomizer('memoryless');
    expect(() => r.take(2e8)).toThrow(typed('BAD_ARGUMENT'));
    expect(() => r.take(2e8)).toThrow(/fillIds/);
    expect(r.take(3)).toHaveLength(3);
  });
});

describe('cancelling a long analysis (defect 8)', () => {
  it('analyzeRandomizerAsync stops soon after abort and otherwise equals analyzeRandomizer', async () => {
    const controller = new AbortController();
    let abortedAt = 0;
    let stoppedAt = 0;
    setTimeout(() => {
      abortedAt = performance.now();
      controller.abort();
    }, 50);
    await expect(
      analyzeRandomizerAsync('tgm3', { pieces: 1e9, signal: controller.signal }).finally(
        () => (stoppedAt = performance.now()),
      ),
    ).rejects.toEqual(typed('ABORTED'));
    // Measured from the abort itself, so a timer that fires late on a busy machine does not count; the bound is
    // loose for the same reason. An analysis that ignored the signal would run for minutes.
    expect(abortedAt).toBeGreaterThan(0);
    expect(stoppedAt - abortedAt).toBeLessThan(1000);
    expect(await analyzeRandomizerAsync('tgm1', { pieces: 70_000, seed: 4 })).toEqual(
      analyzeRandomizer('tgm1', { pieces: 70_000, seed: 4 }),
    );
  });

  it('analyzeRandomizerAsync ends its progress events at the total', async () => {
    const events: { pieces: number; total: number }[] = [];
    await analyzeRandomizerAsync('tgm1', { pieces: 70_000, onProgress: (p) => events.push(p) });
    expect(events.at(-1)).toEqual({ pieces: 70_000, total: 70_000 });
  });
});
