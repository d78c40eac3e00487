/**
 * One piece of setup work every caller in the process shares: a table loaded from the cache, a search image made
 * over it. It starts at the first call; later calls wait for the same result. A caller's signal ends its own wait
 * at once (ABORTED). When no caller is waiting any more, the work is stopped and forgotten, so an aborted setup does
 * not run on and the next caller starts it again. A failure is forgotten too: the next caller tries again.
 */
import { StackRankError, untilAborted } from './errors.js';

interface Attempt<T> {
  result: Promise<T>;
  /** Stops the work (its `make` is given this controller's signal). */
  stop: AbortController;
  /** Callers whose signal has not aborted, plus every caller without a signal: they never leave. */
  waiting: number;
  settled: boolean;
}

export class SharedWork<T> {
  private attempt: Attempt<T> | null = null;

  /** `make` does the work and stops when its signal aborts; `abortedMessage` is a waiting caller's ABORTED message. */
  constructor(
    private readonly make: (stop: AbortSignal) => Promise<T>,
    private readonly abortedMessage: string,
  ) {}

  /** The shared result: made now, under way, or made before. */
  get(signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(new StackRankError('ABORTED', this.abortedMessage));
    const attempt = this.attempt ?? this.start();
    if (attempt.settled) return attempt.result;
    attempt.waiting++;
    if (!signal) return attempt.result;
    // One listener on the caller's signal: it ends this wait and, for the last caller waiting, the work. Once
    // settled, the result no longer needs the signal (nor should the signal keep the result alive).
    return untilAborted(attempt.result, signal, this.abortedMessage, () => {
      if (--attempt.waiting > 0 || attempt.settled) return;
      attempt.stop.abort();
      if (this.attempt === attempt) this.attempt = null;
    });
  }

  private start(): Attempt<T> {
    const stop = new AbortController();
    const attempt: Attempt<T> = { result: this.make(stop.signal), stop, waiting: 0, settled: false };
    attempt.result.then(
      () => {
        attempt.settled = true;
      },
      () => {
        attempt.settled = true;
        if (this.attempt === attempt) this.attempt = null;
      },
    );
    this.attempt = attempt;
    return attempt;
  }
}
