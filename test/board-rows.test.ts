import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { columnHeights, countHoles, maxHeight, popcount, rowBits, rowStrings } from '../src/board-rows.js';

/** Random bit rows of a random width 4..10, 0..24 rows. */
const boards = fc.integer({ min: 4, max: 10 }).chain((width) =>
  fc.record({
    width: fc.constant(width),
    rows: fc.array(fc.integer({ min: 0, max: (1 << width) - 1 }), { maxLength: 24 }),
  }),
);

const cell = (rows: number[], x: number, y: number): boolean => ((rows[y] >> x) & 1) === 1;

describe('board-rows', () => {
  it('measures the rows as their cell-by-cell definitions do (property)', () => {
    fc.assert(
      fc.property(boards, ({ width, rows }) => {
        const heights: number[] = [];
        let holes = 0;
        let cells = 0;
        for (let x = 0; x < width; x++) {
          let top = 0;
          for (let y = 0; y < rows.length; y++) if (cell(rows, x, y)) top = y + 1;
          heights.push(top);
          for (let y = 0; y < top; y++) if (!cell(rows, x, y)) holes++;
          for (let y = 0; y < rows.length; y++) if (cell(rows, x, y)) cells++;
        }
        expect(columnHeights(rows, width)).toEqual(heights);
        expect(maxHeight(rows)).toBe(Math.max(0, ...heights));
        expect(countHoles(rows, width)).toBe(holes);
        expect(rows.reduce((n, m) => n + popcount(m), 0)).toBe(cells);
      }),
      { numRuns: 300 },
    );
  });

  it('writes rows top first as # and ., and reads them back (property)', () => {
    fc.assert(
      fc.property(boards, ({ width, rows }) => {
        const text = rowStrings(rows, width, rows.length);
        expect(text).toHaveLength(rows.length);
        text.forEach((s, i) => {
          const y = rows.length - 1 - i;
          expect(s).toBe(Array.from({ length: width }, (_, x) => (cell(rows, x, y) ? '#' : '.')).join(''));
          expect(rowBits(s, width)).toBe(rows[y]);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('reads any character but . as filled, and writes only the rows under top', () => {
    expect(rowBits('X.o#', 4)).toBe(0b1101);
    expect(rowBits(' ...', 4)).toBe(0b0001);
    expect(rowStrings([0b0011, 0b1000, 0b0100], 4, 2)).toEqual(['...#', '##..']);
    expect(rowStrings([0b0011], 4, 0)).toEqual([]);
  });
});
