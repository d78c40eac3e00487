/**
 * formatFrameInputs (src/rules/timing.ts): the one text of a timed placement's frame inputs, which `stackrank
 * analyze` and the demo print. Exact strings, a round trip back to the frames over random inputs, and its checks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StackRankError } from '../../src/errors.js';
import { formatFrameInputs } from '../../src/rules/timing.js';
import type { FrameInput } from '../../src/rules/types.js';

const TOKENS: readonly FrameInput[] = ['.', 'L', 'R', 'A', 'B', 'LA', 'LB', 'RA', 'RB'];

/** The frames back from the text, independently: each `frame:token`, '.' elsewhere, up to the lock frame. */
function frames(text: string): string[] {
  const m = /^(.*) \(locks on frame (\d+)\)$/.exec(text);
  if (!m) throw new Error(`not a frame-inputs text: ${text}`);
  const out = new Array<string>(Number(m[2]) + 1).fill('.');
  if (m[1] !== 'no input')
    for (const press of m[1].split(' ')) {
      const [frame, token] = press.split(':');
      out[Number(frame)] = token;
    }
  return out;
}

describe('formatFrameInputs', () => {
  it('writes each press with its frame, then the frame the piece locks on', () => {
    expect(formatFrameInputs(['R', '.', 'R', '.', '.', 'LA', '.'])).toBe('0:R 2:R 5:LA (locks on frame 6)');
    expect(formatFrameInputs(['.', '.', '.'])).toBe('no input (locks on frame 2)');
    expect(formatFrameInputs(['RB'])).toBe('0:RB (locks on frame 0)');
  });

  it('gives back every frame (random inputs)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS), { minLength: 1, maxLength: 120 }), (inputs) => {
        expect(frames(formatFrameInputs(inputs))).toEqual(inputs);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses what is not a placement’s frame inputs', () => {
    for (const bad of [[], ['left'], ['.', 'X'], 'R.R', null, undefined, [1], ['.', , '.']])
      expect(() => formatFrameInputs(bad as never)).toThrow(
        expect.objectContaining({ code: 'BAD_ARGUMENT', message: expect.stringMatching(/^frame inputs must be/) }),
      );
    expect(() => formatFrameInputs([] as never)).toThrow(StackRankError);
  });
});
