/**
 * The exported rotation systems' methods check their arguments (docs/errors.md): a bad piece is BAD_PIECE, a bad
 * width or rotation state BAD_ARGUMENT, and valid calls answer as before.
 */
import { describe, expect, it } from 'vitest';
import { ARS, CLASSIC, NRS, ROTATION_SYSTEMS, SRS, StackRankError } from '../helpers/api.js';

const SYSTEMS = [SRS, ARS, NRS, CLASSIC];
const BAD_PIECES: unknown[] = [undefined, null, -1, 'x', Number.NaN, 7, 1.5, '0', {}];

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(StackRankError);
    return (e as StackRankError).code;
  }
  return 'none';
}

describe('rotation systems check their arguments', () => {
  it('are the systems ROTATION_SYSTEMS lists', () => {
    expect(Object.values(ROTATION_SYSTEMS)).toEqual(expect.arrayContaining(SYSTEMS));
  });

  for (const system of SYSTEMS) {
    it(`${system.name}: a bad piece is BAD_PIECE in every method`, () => {
      for (const piece of BAD_PIECES) {
        expect(codeOf(() => system.spawnX(piece as never, 10))).toBe('BAD_PIECE');
        expect(codeOf(() => system.kicks(piece as never, 0, 1))).toBe('BAD_PIECE');
        expect(codeOf(() => system.centreColumnRule(piece as never, 0, 1))).toBe('BAD_PIECE');
      }
    });

    it(`${system.name}: a bad width or state is BAD_ARGUMENT, naming what is allowed`, () => {
      for (const width of [undefined, 3, 11, 9.5, Number.NaN, '10'])
        expect(codeOf(() => system.spawnX(0, width as never))).toBe('BAD_ARGUMENT');
      expect(() => system.spawnX(0, 11)).toThrow(/board width must be an integer from 4 to 10; got 11/);
      for (const [pieceId, states] of system.pieces.map((p, id) => [id, p.names.length] as const)) {
        for (const state of [-1, states, 0.5, undefined, '0']) {
          expect(codeOf(() => system.kicks(pieceId, state as never, 0))).toBe('BAD_ARGUMENT');
          expect(codeOf(() => system.kicks(pieceId, 0, state as never))).toBe('BAD_ARGUMENT');
          expect(codeOf(() => system.centreColumnRule(pieceId, state as never, 0))).toBe('BAD_ARGUMENT');
          expect(codeOf(() => system.centreColumnRule(pieceId, 0, state as never))).toBe('BAD_ARGUMENT');
        }
      }
    });
  }

  it('valid calls answer as the systems define them (docs/rules.md)', () => {
    expect(SRS.spawnX(0, 10)).toBe(3); // the I's 4-wide box centred
    expect(SRS.spawnX('T' as never, 10)).toBe(3);
    expect(ARS.spawnX(1, 10)).toBe(4);
    expect(NRS.spawnX(6, 10)).toBe(5);
    expect(SRS.kicks(2, 0, 1)).toEqual([
      [0, 0],
      [-1, 0],
      [-1, 1],
      [0, -2],
      [-1, -2],
    ]);
    expect(ARS.kicks(0, 0, 1)).toEqual([[0, 0]]);
    expect(ARS.centreColumnRule(2, 0, 1)).toBe(true);
    expect(ARS.centreColumnRule(3, 0, 1)).toBe(false);
    for (const system of SYSTEMS)
      for (const [id, p] of system.pieces.entries())
        for (let s = 0; s < p.names.length; s++) {
          expect(system.kicks(id, s, p.cw[s])[0]).toEqual([0, 0]);
          expect(typeof system.centreColumnRule(id, s, p.ccw[s])).toBe('boolean');
        }
  });
});
