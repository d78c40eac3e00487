/**
 * One piece of setup work every caller in the process shares: a table loaded from the cache, a search image made
 * over it. It starts at the first call; later calls wait for the same result. A caller's signal ends its own wait
 * at once (ABORTED). When no caller is waiting any more, the work is stopped and forgotten, so an aborted setup does
 * not run on and the next caller starts it again. A failure is forgotten too: the next caller tries again. What the
 * work reports while it runs (its progress) goes to every caller still waiting that asked for it.
 */
import { StackRankError } from './errors.js';

interface Attempt<T, P> {
  result: Promise<T>;
  /** Stops the work (its `make` is given this controller's signal). */
  stop: AbortController;
  /** Callers whose signal has not aborted, plus every caller without a signal: they never leave. */
  waiting: number;
  settled: boolean;
  /** The progress listeners of the callers waiting. */
  listeners: Set<(p: P) => void>;
  settle: { resolve(v: T): void; reject(e: unknown): void };
}

export class SharedWork<T, P = never> {
  private attempt: Attempt<T, P> | null = null;

  /**
   * `make` does the work, stops when its signal aborts and reports its progress through `report`;
   * `abortedMessage` is a waiting caller's ABORTED message.
   */
  constructor(
    private readonly make: (stop: AbortSignal, report: (p: P) => void) => Promise<T>,
    private readonly abortedMessage: string,
  ) {}

  /**
   * The shared result: made now, under way, or made before. `onProgress` hears the work's reports until the result
   * is there or this caller leaves; if it throws, this caller's wait ends with its error (the work goes on for the
   * others, as after an abort).
   */
  get(signal?: AbortSignal, onProgress?: (p: P) => void): Promise<T> {
    if (signal?.aborted) return Promise.reject(new StackRankError('ABORTED', this.abortedMessage));
    // The work starts after this caller's listener is in place, so it hears the work's first reports too.
    const starting = !this.attempt;
    const attempt = this.attempt ?? this.prepare();
    if (attempt.settled) return attempt.result;
    attempt.waiting++;
    if (!signal && !onProgress) {
      if (starting) this.start(attempt);
      return attempt.result;
    }
    const waiting = new Promise<T>((resolve, reject) => {
      let left = false;
      // This caller stops waiting: the last caller to leave stops the work, unless it is already done.
      const leave = (error: unknown) => {
        if (left) return;
        left = true;
        signal?.removeEventListener('abort', abort);
        if (listener) attempt.listeners.delete(listener);
        reject(error);
        if (--attempt.waiting > 0 || attempt.settled) return;
        attempt.stop.abort();
        if (this.attempt === attempt) this.attempt = null;
      };
      const abort = () => leave(new StackRankError('ABORTED', this.abortedMessage));
      const listener =
        onProgress &&
        ((p: P) => {
          try {
            onProgress(p);
          } catch (e) {
            leave(e);
          }
        });
      if (listener) attempt.listeners.add(listener);
      signal?.addEventListener('abort', abort, { once: true });
      // Once settled, the result no longer needs the signal (nor should the signal keep the result alive).
      attempt.result.then(
        (value) => {
          if (left) return;
          left = true;
          signal?.removeEventListener('abort', abort);
          resolve(value);
        },
        (error) => {
          if (left) return;
          left = true;
          signal?.removeEventListener('abort', abort);
          reject(error);
        },
      );
    });
    if (starting) this.start(attempt);
    return waiting;
  }

  /** A new attempt, not started yet: its result settles once start() has run `make`. */
  private prepare(): Attempt<T, P> {
    let settle!: { resolve(v: T): void; reject(e: unknown): void };
    const result = new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
    const attempt: Attempt<T, P> = {
      result,
      stop: new AbortController(),
      waiting: 0,
      settled: false,
      listeners: new Set(),
      settle,
    };
    this.attempt = attempt;
    return attempt;
  }

  private start(attempt: Attempt<T, P>): void {
    const { stop, listeners } = attempt;
    const report = (p: P) => {
      for (const listener of [...listeners]) listener(p);
    };
    let made: Promise<T>;
    try {
      made = this.make(stop.signal, report);
    } catch (e) {
      made = Promise.reject(e);
    }
    made.then(attempt.settle.resolve, attempt.settle.reject);
    attempt.result.then(
      () => {
        attempt.settled = true;
        listeners.clear();
      },
      () => {
        attempt.settled = true;
        listeners.clear();
        if (this.attempt === attempt) this.attempt = null;
      },
    );
  }
}
