/**
 * Every error the library throws on purpose is a StackRankError with a stable `code`, so callers can branch on
 * the code and show the message (which says what was wrong and what is allowed) to a person. The codes and what
 * the library promises around them are listed in docs/errors.md.
 */
export type StackRankErrorCode =
  | 'BAD_ARGUMENT'
  | 'BAD_SURFACE'
  | 'BAD_PIECE'
  | 'BAD_BOARD'
  | 'BAD_RULES'
  | 'BAD_FUMEN'
  | 'BAD_MAGIC'
  | 'BAD_VERSION'
  | 'BAD_HEADER'
  | 'TRUNCATED'
  | 'CHECKSUM'
  | 'TABLE_MISMATCH'
  | 'RUN_MISMATCH'
  | 'ABORTED'
  | 'WORKER_FAILED'
  | 'WASM_FAILED'
  | 'IO';

export class StackRankError extends Error {
  readonly code: StackRankErrorCode;
  constructor(code: StackRankErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StackRankError';
    this.code = code;
  }
}

/** Throws BAD_ARGUMENT unless `value` is an integer in [min, max]. */
export function requireInt(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${name} must be an integer from ${min} to ${max}; got ${describe(value)}`,
    );
  }
  return value;
}

/**
 * A short printable form of any value for an error message. Never throws: objects without a prototype, symbols,
 * BigInts, revoked proxies and objects whose toString throws all describe themselves.
 */
export function describe(value: unknown, depth = 0): string {
  try {
    if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
    if (typeof value === 'bigint') return `${value}n`;
    if (typeof value === 'symbol' || typeof value === 'function')
      return typeof value === 'function' ? 'a function' : value.toString();
    if (value === null || typeof value !== 'object') return String(value);
    if (Array.isArray(value)) {
      if (depth > 1) return `[…${value.length}]`;
      const shown = Array.from({ length: Math.min(value.length, 16) }, (_, i) =>
        i in value ? describe(value[i], depth + 1) : '<hole>',
      );
      return `[${shown.join(', ')}${value.length > 16 ? ', …' : ''}]`;
    }
    if (Object.getPrototypeOf(value) === null) return 'an object without a prototype';
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name !== 'Object' ? `a ${name}` : 'an object';
  } catch {
    return 'an unprintable value';
  }
}

/**
 * Options objects: `undefined` means none (`{}`); anything else that is not an object (null, an array, a number, a
 * string, …) is a BAD_ARGUMENT naming the function. Objects without a prototype are accepted (their fields are read
 * normally). Returns a copy made by fieldsOnce, which the caller checks and then uses, so every field is read once.
 * With `known` (optionNames of the options type), a misspelt key or a null option is refused too
 * (refuseUnknownOptions).
 */
export function optionsObject<T extends object>(
  what: string,
  value: T | undefined | null,
  known?: readonly string[],
): Partial<T> {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || isArrayOrRevoked(value)) {
    throw new StackRankError('BAD_ARGUMENT', `${what}: options must be an object; got ${describe(value)}`);
  }
  const copy = fieldsOnce(what, value, known);
  if (known) refuseUnknownOptions(what, copy, known);
  return copy as Partial<T>;
}

/** Array.isArray, true also for a revoked Proxy (which it would throw a TypeError on): neither is an options object. */
export function isArrayOrRevoked(value: object): boolean {
  try {
    return Array.isArray(value);
  } catch {
    return true;
  }
}

/** Array.isArray, false for a revoked Proxy (which it would throw a TypeError on): where an array is wanted. */
export function isLiveArray<T = unknown>(value: unknown): value is T[] {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}

/**
 * A copy of an object a caller gave (options, a rule set, a game state, weights by name): a plain object holding each
 * of its own enumerable fields, and each field of `read` it has (also inherited: a class instance's getters), every
 * field read exactly once. A caller's object is read only through its copy: a getter (or Proxy) that answers one
 * value to the check and another to the use would otherwise slip an unchecked value past the check. A field named
 * `__proto__` stays a field of the copy. A getter or Proxy trap that throws is `code` (BAD_ARGUMENT unless given)
 * naming `what`, not the caller's own exception.
 */
export function fieldsOnce(
  what: string,
  value: object,
  read: readonly string[] = [],
  code: StackRankErrorCode = 'BAD_ARGUMENT',
): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  const put = (key: string, field: unknown) =>
    Object.defineProperty(copy, key, { value: field, enumerable: true, writable: true, configurable: true });
  try {
    const source = value as Record<string, unknown>;
    for (const key of Object.keys(value)) put(key, source[key]);
    for (const key of read) if (!Object.hasOwn(copy, key) && key in value) put(key, source[key]);
  } catch (e) {
    throw new StackRankError(code, `${what}: its fields could not be read (${errorText(e)})`, { cause: e });
  }
  return copy;
}

/** What a caller's exception says, for a message of ours; never throws. */
function errorText(e: unknown): string {
  try {
    return e instanceof Error && typeof e.message === 'string' ? e.message : describe(e);
  } catch {
    return 'an unprintable error';
  }
}

/** An AbortSignal or nothing; checked before any work or thread starts. */
export function checkSignal(signal: unknown, what = 'signal'): AbortSignal | undefined {
  if (signal === undefined) return undefined;
  const ok =
    signal !== null &&
    typeof signal === 'object' &&
    typeof (signal as AbortSignal).aborted === 'boolean' &&
    typeof (signal as AbortSignal).addEventListener === 'function' &&
    typeof (signal as AbortSignal).removeEventListener === 'function';
  if (!ok)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${what} must be an AbortSignal (from an AbortController); got ${describe(signal)}`,
    );
  return signal as AbortSignal;
}

/**
 * `work`'s result, or ABORTED as soon as `signal` aborts. The work itself runs on (it may be shared: a search image
 * other engines wait for), and its failure after an abort is swallowed, so nothing rejects unhandled. `onAbort`, if
 * given, runs on the abort too (from the same one listener): a shared setup's count of who still waits.
 */
export function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
  message: string,
  onAbort?: () => void,
): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      reject(new StackRankError('ABORTED', message));
      onAbort?.();
    };
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}

/**
 * A signal that aborts when `signal` does, for a setup that waits on several things at once: the caller's signal
 * then carries no listener of the setup's (where AbortSignal.any exists), else one per setup, not one per wait (Node
 * warns past 10 on one signal, and a server may share one signal among many setups). Call `done` when the setup ends.
 */
export function linkedSignal(signal: AbortSignal | undefined): { signal: AbortSignal | undefined; done(): void } {
  if (!signal) return { signal: undefined, done() {} };
  // AbortSignal.any (Node 20, current browsers) follows the caller's signal without a listener on it, so no number
  // of setups sharing one signal makes Node warn.
  if (typeof AbortSignal.any === 'function') return { signal: AbortSignal.any([signal]), done() {} };
  const inner = new AbortController();
  if (signal.aborted) {
    inner.abort();
    return { signal: inner.signal, done() {} };
  }
  const abort = () => inner.abort();
  signal.addEventListener('abort', abort, { once: true });
  return { signal: inner.signal, done: () => signal.removeEventListener('abort', abort) };
}

/** A callback or nothing. */
export function checkCallback<F>(name: string, value: unknown): F | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'function')
    throw new StackRankError('BAD_ARGUMENT', `${name} must be a function; got ${describe(value)}`);
  return value as F;
}

/**
 * A dense array (no holes: `[1, , 2]` and `new Array(3)` are rejected, holes read as undefined and would give
 * wrong answers further in). Returns the array.
 */
export function requireDenseArray<T>(code: StackRankErrorCode, name: string, value: readonly T[]): readonly T[] {
  const i = firstHole(value);
  if (i >= 0) throw new StackRankError(code, `${name} has a hole at index ${i}; give every entry`);
  return value;
}

/**
 * The index of an array's first hole, or -1 when it has none. Array.prototype.every and forEach skip holes, so a
 * check written with them (`a.every(isInteger)`) also needs `firstHole(a) < 0`.
 */
export function firstHole(value: readonly unknown[]): number {
  for (let i = 0; i < value.length; i++) if (!(i in value)) return i;
  return -1;
}

/** The first own key of an options object that `known` does not list (a misspelt option), or undefined. */
export function firstUnknownKey(value: object, known: readonly string[]): string | undefined {
  return Object.keys(value).find((k) => !known.includes(k));
}

/**
 * Every key of an options type, from an object literal the compiler checks against the type (a key missing or
 * misspelt there does not compile), so the list of known options cannot drift from the interface.
 */
export function optionNames<T>(keys: { [K in keyof Required<T>]: true }): readonly string[] {
  return Object.freeze(Object.keys(keys));
}

/**
 * Refuses a misspelt option (e.g. `maxPiece` for `maxPieces`, which would otherwise be ignored) with BAD_ARGUMENT,
 * and an option given as null unless `nullable` lists it: an option left out (or undefined) takes its default, and
 * null is not "left out" (the option types do not allow it), so `iterations: null` is refused, not built as 15.
 */
export function refuseUnknownOptions(
  what: string,
  value: object,
  known: readonly string[],
  nullable: readonly string[] = [],
): void {
  const unknown = firstUnknownKey(value, known);
  if (unknown !== undefined)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${what}: unknown option ${describe(unknown)}; options are ${known.join(', ')}`,
    );
  for (const [key, option] of Object.entries(value))
    if (option === null && !nullable.includes(key))
      throw new StackRankError('BAD_ARGUMENT', `${what}: ${key} is null; leave it out (or undefined) for its default`);
}

/**
 * Resolves after the event loop has run once (timers, I/O, abort events), so long loops can be cancelled. Node:
 * setImmediate. Browsers and web workers: a message to itself through a MessageChannel, which runs as a task
 * without the 4 ms a nested setTimeout(0) waits (a sliced setup yields every few ms: that wait would be a third of
 * its time).
 */
export function yieldToEventLoop(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (f: () => void) => unknown }).setImmediate;
  if (immediate) return new Promise<void>((resolve) => immediate(resolve));
  if (typeof MessageChannel === 'undefined') return new Promise<void>((resolve) => setTimeout(resolve, 0));
  return new Promise<void>((resolve) => {
    turns.push(resolve);
    channel ??= newChannel();
    channel.port2.postMessage(null);
  });
}

/** The channel yieldToEventLoop posts through (made on first use), and the turns waiting for its messages. */
let channel: MessageChannel | null = null;
const turns: (() => void)[] = [];

function newChannel(): MessageChannel {
  const c = new MessageChannel();
  c.port1.onmessage = () => turns.shift()?.();
  return c;
}

/**
 * A clock for sliced loops: `due()` is true once `ms` milliseconds have passed since the last time it was true,
 * so a loop can check it every few hundred steps and yield to the event loop about every `ms` whatever one step costs.
 */
export function sliceClock(ms = 16): () => boolean {
  let last = performance.now();
  return () => {
    const now = performance.now();
    if (now - last < ms) return false;
    last = now;
    return true;
  };
}
