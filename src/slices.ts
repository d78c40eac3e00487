/**
 * Long computations on the calling thread, written once as generators that yield where they may pause (docs/errors.md,
 * "What cancellation promises"): `runToEnd` runs one through at once (a synchronous API), `runInSlices` runs it in
 * slices of a few milliseconds with the event loop run between them, so a setup in a game or a page never keeps the
 * loop from timers, input and abort events for longer than a slice, reports how far it is, and stops at the next
 * slice once its signal aborts.
 */
import { StackRankError, yieldToEventLoop } from './errors.js';

/** A computation in steps: each `yield` is a point where it may pause, with the fraction done (0..1) if known. */
export type Steps<T> = Generator<number | undefined, T, void>;

/** Milliseconds of work between two turns of the event loop. */
export const SLICE_MS = 8;

/**
 * Longest stretch of moves a game loop (a simulated game, a versus match, `stackrank play`) plays without giving the
 * event loop a turn: a move can take milliseconds, so games check a sliceClock of this every move.
 */
export const YIELD_EVERY_MS = 20;

/** `steps` with the fractions it yields mapped from 0..1 to from..to: a part of a longer computation. */
export function* within<T>(steps: Steps<T>, from: number, to: number): Steps<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    yield step.value === undefined ? undefined : from + step.value * (to - from);
  }
}

/** Runs `steps` to its end without pausing. */
export function runToEnd<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

export interface SliceOptions {
  /** Stops the computation at its next pause: the promise rejects with ABORTED and `abortMessage`. */
  signal?: AbortSignal;
  abortMessage?: string;
  /** Called at most once per slice with the fraction done (0..1), when the computation says it. */
  onFraction?: (fraction: number) => void;
}

/** Runs `steps` in slices of about SLICE_MS with the event loop run between them. */
export async function runInSlices<T>(steps: Steps<T>, options: SliceOptions = {}): Promise<T> {
  const { signal, onFraction } = options;
  const aborted = () => new StackRankError('ABORTED', options.abortMessage ?? 'the setup was aborted');
  if (signal?.aborted) throw aborted();
  let fraction: number | undefined;
  let sliceStart = performance.now();
  try {
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      if (step.value !== undefined) fraction = step.value;
      if (performance.now() - sliceStart < SLICE_MS) continue;
      if (fraction !== undefined) onFraction?.(fraction);
      await yieldToEventLoop();
      if (signal?.aborted) throw aborted();
      sliceStart = performance.now();
    }
  } finally {
    // An abort or a failing callback leaves the generator where it paused: its `finally` blocks run now.
    steps.return(undefined as T);
  }
}
