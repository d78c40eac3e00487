/** The library's refusal as tests expect it: a StackRankError with this code and a message matching `message`. */
import { expect } from 'vitest';

export const refused = (code: string, message: RegExp) =>
  expect.objectContaining({ name: 'StackRankError', code, message: expect.stringMatching(message) });
