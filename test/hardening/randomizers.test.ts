/** Regression tests for the randomizers: memory-bounded take, sound decay parameters, cancellable analysis. */
import { describe, expect, it, vi } from 'vitest';
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
    // Measured from when the abort was due, not from when its timer ran: an analysis that kept the event loop busy
    // delays the timer just as it delays its own look at the signal, and that wait is part of the latency (as in
    // cancellation.test.ts). The bound is loose for a loaded machine; one that ignored the signal runs for minutes.
    const due = performance.now() + 50;
    setTimeout(() => controller.abort(), 50);
    await expect(analyzeRandomizerAsync('tgm3', { pieces: 1e9, signal: controller.signal })).rejects.toEqual(
      typed('ABORTED'),
    );
    expect(controller.signal.aborted).toBe(true);
    expect(performance.now() - due).toBeLessThan(1000);
    expect(await analyzeRandomizerAsync('tgm1', { pieces: 70_000, seed: 4 })).toEqual(
      analyzeRandomizer('tgm1', { pieces: 70_000, seed: 4 }),
    );
  });

  it('an abort stops it at its next pause: no piece dealt after it', async () => {
    const controller = new AbortController();
    const events: number[] = [];
    const run = analyzeRandomizerAsync('tgm3', {
      pieces: 3_000_000,
      signal: controller.signal,
      onProgress: ({ pieces }) => {
        events.push(pieces);
        if (events.length === 3) controller.abort();
      },
    });
    await expect(run).rejects.toEqual(typed('ABORTED'));
    // The abort came with the third progress event, at a pause: nothing was dealt or reported after it.
    expect(events).toHaveLength(3);
    expect(events[2]).toBeLessThan(3_000_000);
  });

  it('on a virtual clock (1 ms per look at it), it pauses after every 16 ms of work: never a longer stretch', async () => {
    // performance.now advances 1 ms a call; the analysis looks at it every 256 pieces, so 16 ms are 4096 pieces.
    // Other callers of the clock only make the slices shorter, never longer.
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => ++now);
    const events: number[] = [];
    try {
      await analyzeRandomizerAsync('tgm1', {
        pieces: 100_000,
        seed: 2,
        onProgress: ({ pieces }) => events.push(pieces),
      });
    } finally {
      clock.mockRestore();
    }
    expect(events.at(-1)).toBe(100_000);
    const gaps = events.map((p, i) => p - (events[i - 1] ?? 0));
    expect(gaps.length).toBeGreaterThanOrEqual(Math.floor(100_000 / 4096));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(4096);
  });

  it('analyzeRandomizerAsync ends its progress events at the total', async () => {
    const events: { pieces: number; total: number }[] = [];
    await analyzeRandomizerAsync('tgm1', { pieces: 70_000, onProgress: (p) => events.push(p) });
    expect(events.at(-1)).toEqual({ pieces: 70_000, total: 70_000 });
  });
});
