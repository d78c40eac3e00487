import { describe, expect, it } from 'vitest';
import { MIRROR_PIECE, ORIENTATIONS, PIECES, orientationCells, pieceId } from '../src/pieces.js';
import { StackRankError } from '../src/errors.js';

type Cell = [number, number];
const normalize = (cells: Cell[]): string => {
  const minX = Math.min(...cells.map((c) => c[0]));
  const minY = Math.min(...cells.map((c) => c[1]));
  return cells
    .map(([x, y]) => [x - minX, y - minY])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .map((c) => c.join(','))
    .join(' ');
};
const rotate = (cells: Cell[]): Cell[] => cells.map(([x, y]) => [y, -x]);
const mirror = (cells: Cell[]): Cell[] => cells.map(([x, y]) => [-x, y]);

describe('piece geometry (docs/rules.md)', () => {
  it('lists the pieces in canonical order', () => {
    expect(PIECES.join('')).toBe('IOTSZLJ');
    expect(PIECES.map(pieceId)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('gives every orientation four cells in contiguous columns', () => {
    for (const list of ORIENTATIONS)
      for (const o of list) {
        expect(orientationCells(o)).toHaveLength(4);
        expect(o.bot).toHaveLength(o.width);
        expect(o.top).toHaveLength(o.width);
        expect(Math.min(...o.bot)).toBe(0);
      }
  });

  it('has exactly the distinct rotations of each piece, each once', () => {
    ORIENTATIONS.forEach((list) => {
      const given = list.map((o) => normalize(orientationCells(o)));
      let cells = orientationCells(list[0]);
      const rotations = new Set<string>();
      for (let r = 0; r < 4; r++, cells = rotate(cells)) rotations.add(normalize(cells));
      expect(new Set(given).size).toBe(given.length);
      expect(new Set(given)).toEqual(rotations);
    });
  });

  it('maps each piece to its mirror image (L<->J, S<->Z)', () => {
    expect(MIRROR_PIECE.map((p) => PIECES[p]).join('')).toBe('IOTZSJL');
    ORIENTATIONS.forEach((list, p) => {
      const mirrored = new Set(list.map((o) => normalize(mirror(orientationCells(o)))));
      expect(mirrored).toEqual(new Set(ORIENTATIONS[MIRROR_PIECE[p]].map((o) => normalize(orientationCells(o)))));
    });
  });

  it('rejects unknown letters with a typed error', () => {
    expect(() => pieceId('X')).toThrow(StackRankError);
    expect(() => pieceId('i')).toThrow(/unknown piece "i"/);
  });
});
