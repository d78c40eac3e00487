import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Board } from '../../src/rules/index.js';
import { StackRankError } from '../../src/errors.js';
import type { BoardLike } from '../../src/rules/types.js';

const code = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof StackRankError ? e.code : `not a StackRankError: ${String(e)}`;
  }
  return 'no error';
};

describe('Board', () => {
  it('reads rows top first and bit rows bottom first into the same board', () => {
    const b = Board.fromRows(['..........', '#.........', '##.#######', '#########.']);
    expect(b.width).toBe(10);
    expect(b.height).toBe(4);
    expect([...b.rows]).toEqual([0b0111111111, 0b1111111011, 0b0000000001, 0]);
    expect(b.filled(0, 2)).toBe(true);
    expect(b.filled(1, 2)).toBe(false);
    expect(b.filled(9, 0)).toBe(false);
    expect(b.filled(-1, 0)).toBe(true); // wall
    expect(b.filled(3, -1)).toBe(true); // floor
    expect(b.filled(3, 4)).toBe(false); // open above
    expect(Board.fromBits([0b0111111111, 0b1111111011, 1], 10, 4).equals(b)).toBe(true);
    expect(Board.from({ width: 10, rows: [0b0111111111, 0b1111111011, 1, 0] }).equals(b)).toBe(true);
    // A height beside the bit rows is the board's, as nextMove reads it (not the row count).
    const padded = { width: 10, rows: [0b0111111111, 0b1111111011, 1], height: 22 } as BoardLike;
    expect(Board.from(padded).equals(b.withHeight(22))).toBe(true);
  });

  it('pads with empty rows on top when a height is given', () => {
    const b = Board.fromRows(['#...'], 6);
    expect(b.height).toBe(6);
    expect(b.toRows()).toEqual(['....', '....', '....', '....', '....', '#...']);
    expect(Board.fromBits([1], 4, 6).equals(b)).toBe(true);
  });

  it('counts heights and holes', () => {
    const b = Board.fromRows(['.#..', '....', '##.#', '.###'], 4);
    expect(b.heights()).toEqual([2, 4, 1, 2]);
    // holes: (0,0) under (0,1) and (1,2) under (1,3)
    expect(b.holes()).toBe(2);
  });

  it('places cells, clears full rows in place and reports how many', () => {
    const b = Board.fromRows(['....', '#..#', '##.#'], 4);
    const placed = b.withCells([
      [2, 0],
      [1, 1],
      [2, 1],
      [2, 2],
    ]);
    expect(b.toRows()).toEqual(['....', '....', '#..#', '##.#']); // unchanged
    expect(placed.clearLines()).toBe(2);
    expect(placed.toRows()).toEqual(['....', '....', '....', '..#.']);
    const { board, lines } = b.place([
      [2, 0],
      [1, 1],
      [2, 1],
      [2, 2],
    ]);
    expect(lines).toBe(2);
    expect(board.equals(placed)).toBe(true);
  });

  it('round-trips rows (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 4, max: 10 }), fc.integer({ min: 4, max: 40 }), fc.integer(), (w, h, seed) => {
        let s = seed >>> 0;
        const rows = Array.from({ length: h }, () => {
          s = (s * 1103515245 + 12345) >>> 0;
          return s & ((1 << w) - 1);
        });
        const b = Board.fromBits(rows, w);
        const back = Board.fromRows(b.toRows());
        // compared by value, not only by equals (which a test below checks on its own)
        expect([back.width, back.height, [...back.rows]]).toEqual([w, h, rows]);
        expect(back.equals(b)).toBe(true);
        // a cleared board keeps every non-full row in order
        const c = b.clone();
        const n = c.clearLines();
        const kept = rows.filter((r) => r !== (1 << w) - 1);
        expect(n).toBe(h - kept.length);
        expect([...c.rows]).toEqual([...kept, ...new Array(n).fill(0)]);
      }),
      { numRuns: 200 },
    );
  });

  it('equals is false for a board that differs in one cell, in height or in width', () => {
    const rows = ['....', '#..#', '##.#'];
    const b = Board.fromRows(rows, 4);
    expect(b.equals(Board.fromRows(rows, 4))).toBe(true);
    expect(b.equals(Board.fromRows(['....', '#..#', '####'], 4))).toBe(false); // the bottom row's hole filled
    expect(b.equals(Board.fromRows(['...#', '#..#', '##.#'], 4))).toBe(false); // a cell added in row 2
    expect(b.equals(Board.fromRows(['#...', '....', '#..#', '##.#'], 4))).toBe(false); // the top row differs
    expect(b.equals(Board.fromRows(rows, 5))).toBe(false); // one more empty row on top
    expect(Board.fromRows(rows, 5).equals(b)).toBe(false);
    // the same bit rows 4 and 5 wide
    expect(Board.fromBits([0b1011], 4, 4).equals(Board.fromBits([0b1011], 5, 4))).toBe(false);
    expect(Board.empty(4, 4).equals(Board.empty(4, 4))).toBe(true);
  });

  it('withHeight grows and shrinks over empty rows only', () => {
    const b = Board.fromRows(['#...'], 4);
    expect(b.withHeight(40).height).toBe(40);
    expect(b.withHeight(40).rows[0]).toBe(1);
    expect(code(() => Board.fromRows(['....', '#...', '....', '....']).withHeight(4))).toBe('no error');
    expect(code(() => Board.fromRows(['#...', '....', '....', '....', '....']).withHeight(4))).toBe('BAD_BOARD');
  });

  it('rejects bad boards and cells with typed errors', () => {
    expect(code(() => Board.fromRows(['....', '.....']))).toBe('BAD_BOARD'); // unequal width
    expect(code(() => Board.fromRows([]))).toBe('BAD_BOARD');
    expect(code(() => Board.fromRows(['...']))).toBe('BAD_BOARD'); // width 3
    expect(code(() => Board.fromRows(['...........']))).toBe('BAD_BOARD'); // width 11
    expect(code(() => Board.fromRows(['....'], 41))).toBe('BAD_BOARD');
    // fewer rows than a board has, and no height: the message says how to pad them
    expect(() => Board.fromRows(['#...#.....'])).toThrow(
      'a board has 4 to 40 rows; got 1 (give the height, e.g. fromRows(rows, 20), to pad the rows given with empty rows on top)',
    );
    expect(Board.fromRows(['#...#.....'], 20).height).toBe(20);
    expect(code(() => Board.fromBits([16], 4))).toBe('BAD_BOARD'); // bit beyond the width
    // Bits past 32 wrap in JavaScript's bit operators: 2^40 + 1 must not read as the row 1.
    expect(code(() => Board.fromBits([2 ** 40 + 1], 4, 4))).toBe('BAD_BOARD');
    expect(code(() => Board.fromBits([1.5], 4))).toBe('BAD_BOARD');
    expect(code(() => Board.from(42 as never))).toBe('BAD_BOARD');
    // A height that would drop given rows, or is no row count, is refused (it was once ignored).
    for (const height of [2, -5, 20.5, '24'])
      expect(code(() => Board.from({ width: 4, rows: [1, 2, 4], height } as BoardLike))).toBe('BAD_BOARD');
    const b = Board.empty(4, 4);
    expect(code(() => b.withCells([[4, 0]]))).toBe('BAD_ARGUMENT');
    expect(
      code(() =>
        b.withCells([
          [0, 0],
          [0, 0],
        ]),
      ),
    ).toBe('BAD_ARGUMENT');
    expect(code(() => b.withCells([[0, 0.5] as never]))).toBe('BAD_ARGUMENT');
  });
});
