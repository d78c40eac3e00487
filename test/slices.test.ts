/**
 * runInSlices (src/slices.ts) on a virtual clock: performance.now is stubbed and each step of the computation moves
 * it on, so where it yields to the event loop (setImmediate, counted) is exact, whatever the machine's speed. It
 * yields once per SLICE_MS of work (docs/errors.md: "slices of about 8 ms"), reports the fraction once per slice,
 * stops at the next yield after an abort without taking another step, runs the computation's `finally`, and takes no
 * step at all once its signal was aborted. runToEnd and within are checked on the same steps.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StackRankError } from '../src/errors.js';
import { SLICE_MS, runInSlices, runToEnd, type Steps, within } from '../src/slices.js';

/** The virtual clock, in ms. */
let now = 0;
/** Steps taken, and the turns of the event loop runInSlices asked for (setImmediate calls). */
let taken: number[] = [];
let yields: number[] = [];
let finished = 0;

/** `n` steps of `msEach` virtual ms each, yielding i / n after step i; returns 'done'; counts its `finally`. */
function* work(n: number, msEach = 1, onStep?: (i: number) => void): Steps<string> {
  try {
    for (let i = 1; i <= n; i++) {
      now += msEach;
      taken.push(i);
      onStep?.(i);
      yield i / n;
    }
    return 'done';
  } finally {
    finished++;
  }
}

beforeEach(() => {
  now = 0;
  taken = [];
  yields = [];
  finished = 0;
  vi.spyOn(performance, 'now').mockImplementation(() => now);
  const real = setImmediate;
  vi.spyOn(globalThis, 'setImmediate').mockImplementation(((f: () => void) => {
    yields.push(taken.length);
    return real(f);
  }) as typeof setImmediate);
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function rejection(p: Promise<unknown>): Promise<StackRankError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(StackRankError);
  return e as StackRankError;
}

describe('runInSlices on a virtual clock', () => {
  it('slices are about 8 ms, as docs/errors.md says', () => {
    expect(SLICE_MS).toBe(8);
  });

  it('yields once per 8 ms of work, after the step that filled the slice, and reports the fraction there', async () => {
    const fractions: number[] = [];
    await expect(runInSlices(work(100), { onFraction: (f) => fractions.push(f) })).resolves.toBe('done');
    expect(taken).toHaveLength(100);
    // 1 ms a step: a yield after steps 8, 16, …, 96; none after the last step (the result is returned at once).
    const expected = Array.from({ length: 12 }, (_, i) => 8 * (i + 1));
    expect(yields).toEqual(expected);
    expect(fractions).toEqual(expected.map((k) => k / 100));
    expect(finished).toBe(1);
  });

  it('a step longer than a slice yields after every step; work shorter than a slice never yields', async () => {
    await runInSlices(work(5, 20));
    expect(yields).toEqual([1, 2, 3, 4, 5]);
    taken = [];
    yields = [];
    now = 0;
    await expect(runInSlices(work(7, 1))).resolves.toBe('done');
    expect(yields).toEqual([]);
  });

  it('an abort stops it at the next yield: ABORTED with the message, no further step, its finally run', async () => {
    const controller = new AbortController();
    const steps = work(100);
    const p = runInSlices(steps, { signal: controller.signal, abortMessage: 'the test stopped it' });
    // The first slice runs synchronously up to its yield; the abort comes while the event loop has its turn.
    expect(taken).toHaveLength(8);
    controller.abort();
    const e = await rejection(p);
    expect(e.code).toBe('ABORTED');
    expect(e.message).toBe('the test stopped it');
    expect(taken).toHaveLength(8);
    expect(finished).toBe(1);
    expect(steps.next()).toEqual({ done: true, value: undefined });
  });

  it('an abort during a later slice: the steps of that slice, then nothing', async () => {
    const controller = new AbortController();
    // The abort comes in the third slice's first step: the computation finishes that slice and stops at its yield.
    const p = runInSlices(
      work(100, 1, (i) => i === 17 && controller.abort()),
      { signal: controller.signal },
    );
    const e = await rejection(p);
    expect(e.code).toBe('ABORTED');
    expect(e.message).toBe('the setup was aborted');
    expect(taken).toHaveLength(24);
    expect(yields).toEqual([8, 16, 24]);
    expect(finished).toBe(1);
  });

  it('an already-aborted signal takes no step and never yields', async () => {
    const steps = work(100);
    const e = await rejection(runInSlices(steps, { signal: AbortSignal.abort() }));
    expect(e.code).toBe('ABORTED');
    expect(taken).toEqual([]);
    expect(yields).toEqual([]);
  });

  it('a failing onFraction rejects with its error and runs the computation’s finally', async () => {
    const boom = new Error('callback failed');
    const p = runInSlices(work(100), {
      onFraction: () => {
        throw boom;
      },
    });
    await expect(p).rejects.toBe(boom);
    expect(taken).toHaveLength(8);
    expect(finished).toBe(1);
  });
});

describe('runToEnd and within', () => {
  it('runToEnd takes every step without yielding', () => {
    expect(runToEnd(work(50))).toBe('done');
    expect(taken).toHaveLength(50);
    expect(yields).toEqual([]);
    expect(finished).toBe(1);
  });

  it('within maps the fractions into from..to and passes the result through', () => {
    function* parts(): Steps<number> {
      yield 0;
      yield undefined;
      yield 0.5;
      yield 1;
      return 42;
    }
    const mapped = within(parts(), 0.2, 0.6);
    const seen: (number | undefined)[] = [];
    for (let s = mapped.next(); ; s = mapped.next()) {
      if (s.done) {
        expect(s.value).toBe(42);
        break;
      }
      seen.push(s.value);
    }
    expect(seen).toEqual([0.2, undefined, 0.4, 0.6]);
  });
});
