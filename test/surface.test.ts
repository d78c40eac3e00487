import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  mirrorIndex,
  mirrorSurface,
  parseSurface,
  surfaceCount,
  surfaceDigits,
  surfaceFromHeights,
  surfaceFromIndex,
  surfaceFromSteps,
  surfaceHeights,
  surfaceIndex,
} from '../src/surface.js';

const code = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return 'no error';
};

describe('surfaces (docs/rules.md)', () => {
  it('encodes the seed example', () => {
    const s = surfaceFromSteps([0, 1, -2, 0, 0, -1, 0, 1]);
    expect(surfaceDigits(s)).toBe('45244345');
    expect(surfaceIndex(s)).toBe(parseInt('45244345', 9));
    expect(parseSurface('45244345').steps).toEqual([0, 1, -2, 0, 0, -1, 0, 1]);
    expect(surfaceCount(9, 4)).toBe(43_046_721);
    expect(surfaceIndex(parseSurface('44444444'))).toBe((43_046_721 - 1) / 2);
  });

  it('derives steps from heights and back', () => {
    const s = surfaceFromHeights([3, 3, 4, 2, 2, 2, 1, 1, 2]);
    expect(s.steps).toEqual([0, 1, -2, 0, 0, -1, 0, 1]);
    expect(surfaceHeights(s)).toEqual([2, 2, 3, 1, 1, 1, 0, 0, 1]);
  });

  it('round-trips index -> surface -> index for every geometry (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 9 }),
        fc.integer({ min: 1, max: 4 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (width, maxStep, u) => {
          const index = Math.min(surfaceCount(width, maxStep) - 1, Math.floor(u * surfaceCount(width, maxStep)));
          const s = surfaceFromIndex(index, { width, maxStep });
          expect(s.width).toBe(width);
          expect(surfaceIndex(s)).toBe(index);
          expect(surfaceIndex(parseSurface(surfaceDigits(s), { maxStep }))).toBe(index);
        },
      ),
    );
  });

  it('mirrors by reversing and negating steps; mirror is an involution (property)', () => {
    expect(mirrorSurface(surfaceFromSteps([0, 1, -2, 0, 0, -1, 0, 1])).steps).toEqual([-1, 0, 1, 0, 0, 2, -1, 0]);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -4, max: 4 }), { minLength: 3, maxLength: 8 }), (steps) => {
        const s = surfaceFromSteps(steps);
        const m = mirrorSurface(s);
        expect(mirrorSurface(m).steps).toEqual(s.steps);
        expect(surfaceIndex(m)).toBe(mirrorIndex(surfaceIndex(s), s.width, s.maxStep));
      }),
    );
  });

  it('truncates steep steps only when asked', () => {
    const steep = surfaceFromSteps([0, 7, -6, 0, 0, 0, 0, 0]);
    expect(code(() => surfaceIndex(steep))).toBe('BAD_SURFACE');
    expect(surfaceIndex(steep, { truncate: true })).toBe(surfaceIndex(parseSurface('48044444')));
  });

  it('rejects bad input with BAD_SURFACE / BAD_ARGUMENT', () => {
    expect(code(() => parseSurface('4524434'))).toBe('no error'); // 7 digits: an 8-column surface
    expect(code(() => parseSurface('45'))).toBe('BAD_SURFACE');
    expect(code(() => parseSurface('452443459'))).toBe('BAD_SURFACE'); // 10 columns
    expect(code(() => parseSurface('4524434a'))).toBe('BAD_SURFACE');
    expect(code(() => parseSurface('45244349'))).toBe('BAD_SURFACE'); // 9 is outside base 9
    expect(code(() => parseSurface('4524'.padEnd(8, '3'), { maxStep: 1 }))).toBe('BAD_SURFACE');
    expect(code(() => surfaceFromSteps([0, 1.5, 0]))).toBe('BAD_SURFACE');
    expect(code(() => surfaceFromHeights([0, -1, 0, 0]))).toBe('BAD_SURFACE');
    expect(code(() => surfaceFromHeights([0, 1, 2]))).toBe('BAD_SURFACE');
    expect(code(() => surfaceFromIndex(43_046_721))).toBe('BAD_ARGUMENT');
    expect(code(() => surfaceFromIndex(-1))).toBe('BAD_ARGUMENT');
    expect(code(() => surfaceFromIndex(0, { width: 10 }))).toBe('BAD_ARGUMENT');
    expect(code(() => surfaceFromIndex(0, { maxStep: 5 }))).toBe('BAD_ARGUMENT');
    expect(code(() => surfaceIndex({ width: 9, maxStep: 4, steps: [1] } as never))).toBe('BAD_SURFACE');
  });
});
