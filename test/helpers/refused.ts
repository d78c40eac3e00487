/** The library's refusal as tests expect it: a StackRankError with this code and a message matching `message`. */
import { expect } from 'vitest';

export const refused = (code: string, message: RegExp) =>
  expect.objectContaining({ name: 'StackRankError', code, message: expect.stringMatching(message) });

/** The error `f` throws, to read its fields; a test failure when it throws nothing. */
export function thrownBy(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('no error thrown');
}
