import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CELLS_KEY_SHIFT,
  cellsKey,
  frameHeightsInto,
  lockCells,
  lockInPlace,
  fillsARow,
  rowsFilled,
} from '../../src/tetris-ai/grid.js';
import type { Cell } from '../../src/rules/types.js';

const W = 10;
const H = 24;

/** Locking by the book: set the cells, drop every full row, pad with empty rows on top. */
function refLock(rows: number[], cells: Cell[]) {
  const grid = rows.slice();
  for (const [x, y] of cells) grid[y] |= 1 << x;
  const full = (1 << W) - 1;
  const kept = grid.filter((m) => m !== full);
  const cleared = grid.map((m, y) => (m === full ? y : -1)).filter((y) => y >= 0);
  const ys = cells.map(([, y]) => y);
  return {
    rows: [...kept, ...new Array(rows.length - kept.length).fill(0)],
    lines: cleared.length,
    erodedCells: cells.filter(([, y]) => cleared.includes(y)).length,
    landingRow: Math.min(...ys),
    pieceHeight: Math.max(...ys) - Math.min(...ys) + 1,
  };
}

// Rows that are never full, and four distinct empty cells on them.
const boardAndCells = fc
  .array(fc.integer({ min: 0, max: (1 << W) - 1 }), { minLength: H, maxLength: H })
  .map((rows) => rows.map((m, y) => (m === (1 << W) - 1 ? m & ~(1 << (y % W)) : m)))
  .chain((rows) => {
    const empty: Cell[] = [];
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (!((rows[y] >> x) & 1)) empty.push([x, y]);
    return fc.tuple(fc.constant(rows), fc.shuffledSubarray(empty, { minLength: 4, maxLength: 4 }));
  });

describe('lockCells', () => {
  it('locks and clears exactly as the by-the-book version (property)', () => {
    fc.assert(
      fc.property(boardAndCells, ([rows, cells]) => {
        const got = lockCells(Uint32Array.from(rows), W, cells);
        expect({ ...got, rows: [...got.rows] }).toEqual(refLock(rows, cells));
      }),
      { numRuns: 500 },
    );
  });

  it('returns boards that share no cell with each other or the input, however many are made', () => {
    // Boards are cut from shared blocks: thousands of them span several blocks, and each keeps its own rows.
    const rows = Uint32Array.from({ length: 44 }, (_, y) => (y < 10 ? 0b1010101010 >> (y % 2) : 0));
    const boards = Array.from(
      { length: 3000 },
      (_, i) =>
        lockCells(rows, W, [
          [i % 10, 30],
          [i % 10, 31],
          [i % 10, 32],
          [i % 10, 33],
        ]).rows,
    );
    boards.forEach((b, i) => {
      b[40] = i + 1; // a mark in a row no lock touched
    });
    boards.forEach((b, i) => {
      expect(b.length).toBe(44);
      expect(b[40]).toBe(i + 1);
      expect([b[30], b[33]]).toEqual([1 << (i % 10), 1 << (i % 10)]);
      expect([...b.subarray(0, 10)]).toEqual([...rows.subarray(0, 10)]);
    });
    expect(rows[40]).toBe(0);
  });

  it('clears rows the piece completes, including non-adjacent ones', () => {
    const full = (1 << W) - 1;
    const rows = [full & ~1, full & ~3, full & ~1, 4, 0, 0];
    // An upright piece in column 0 fills rows 0..3: rows 0 and 2 become full; row 1 still misses column 1.
    const got = lockCells(Uint32Array.from(rows), W, [
      [0, 0],
      [0, 1],
      [0, 2],
      [0, 3],
    ]);
    expect([...got.rows]).toEqual([full & ~2, 5, 0, 0, 0, 0]);
    expect(got.lines).toBe(2);
    expect(got.erodedCells).toBe(2);
  });
});

describe('cellsKey', () => {
  it('is equal exactly for the same set of cells, in any order (property)', () => {
    const cell = fc.tuple(fc.integer({ min: 0, max: 15 }), fc.integer({ min: 0, max: 47 }));
    const four = fc.uniqueArray(cell, { minLength: 4, maxLength: 4, selector: ([x, y]) => y * 64 + x });
    fc.assert(
      fc.property(four, four, fc.integer(), (a, b, seed) => {
        const shuffled = [...a].sort(
          (p, q) => ((p[0] * 31 + p[1] * 7 + seed) % 5) - ((q[0] * 31 + q[1] * 7 + seed) % 5),
        );
        expect(cellsKey(shuffled as Cell[])).toBe(cellsKey(a as Cell[]));
        const same = new Set(a.map(([x, y]) => y * 64 + x));
        const equal = b.every(([x, y]) => same.has(y * 64 + x));
        expect(cellsKey(a as Cell[]) === cellsKey(b as Cell[])).toBe(equal);
      }),
      { numRuns: 500 },
    );
  });
});

/** Four distinct cells in the bottom rows, on rows that are either random or full but for the cells (often filled). */
const cellsOnNearFullRows = fc
  .tuple(
    fc.shuffledSubarray(
      Array.from({ length: 6 * W }, (_, i): Cell => [i % W, Math.floor(i / W)]),
      { minLength: 4, maxLength: 4 },
    ),
    fc.array(fc.integer({ min: 0, max: (1 << W) - 1 }), { minLength: H, maxLength: H }),
    fc.array(fc.boolean(), { minLength: H, maxLength: H }),
  )
  .map(([cells, random, nearFull]) => {
    const rows = random.map((m, y) => {
      const mine = cells.filter(([, cy]) => cy === y).reduce((a, [x]) => a | (1 << x), 0);
      const m2 = (nearFull[y] ? (1 << W) - 1 : m) & ~mine;
      // never full before the lock
      return m2 === (1 << W) - 1 ? m2 & ~(1 << (y % W)) : m2;
    });
    return [rows, cells] as [number[], Cell[]];
  });

describe('rowsFilled and fillsARow', () => {
  it('is the line count of locking the cells, and the same for the cells given as a shape and an offset; fillsARow whether it is above 0 (property)', () => {
    let some = 0;
    fc.assert(
      fc.property(
        fc.oneof(boardAndCells, cellsOnNearFullRows),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 3 }),
        ([rows, cells], dx, dy) => {
          const lines = refLock(rows, cells).lines;
          some += lines;
          expect(rowsFilled(Uint32Array.from(rows), W, cells)).toBe(lines);
          // the same cells as a shape moved by (dx, dy)
          const shape = cells.map(([x, y]): Cell => [x - dx, y - dy]);
          expect(rowsFilled(Uint32Array.from(rows), W, shape, dx, dy)).toBe(lines);
          // fillsARow reads the shape's row masks (cells left of or under the offset too), twice from its cache
          expect(fillsARow(Uint32Array.from(rows), W, shape, dx, dy)).toBe(lines > 0);
          expect(fillsARow(Uint32Array.from(rows), W, shape, dx, dy)).toBe(lines > 0);
        },
      ),
      { seed: 1, numRuns: 500 },
    );
    expect(some).toBeGreaterThan(0);
  });
});

describe('lockInPlace', () => {
  it('leaves the rows lockCells returns and returns its line count (property)', () => {
    fc.assert(
      fc.property(boardAndCells, ([rows, cells]) => {
        const board = Uint32Array.from(rows);
        const lines = lockInPlace(board, W, cells);
        const ref = refLock(rows, cells);
        expect([...board]).toEqual(ref.rows);
        expect(lines).toBe(ref.lines);
      }),
      { numRuns: 500 },
    );
  });
});

describe('frameHeightsInto', () => {
  it('is the column heights of the rows from the floor up, mirrored for a left well, the well left out (property)', () => {
    const rows = fc.array(fc.integer({ min: 0, max: (1 << W) - 1 }), { minLength: H, maxLength: H });
    fc.assert(
      fc.property(rows, fc.integer({ min: 0, max: H }), fc.boolean(), (r, floor, left) => {
        const expected: number[] = [];
        for (let c = 0; c < W - 1; c++) {
          const x = left ? W - 1 - c : c;
          let h = 0;
          for (let y = floor; y < H; y++) if ((r[y] >> x) & 1) h = y + 1 - floor;
          expected.push(h);
        }
        // The array is overwritten whatever it held.
        const out = new Array<number>(W - 1).fill(99);
        expect(frameHeightsInto(r, W, left ? 'left' : 'right', floor, out)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe('CELLS_KEY_SHIFT', () => {
  it('moving four cells by (x, y) adds (64 y + x) times it to their key (property)', () => {
    const cell = fc.tuple(fc.integer({ min: -3, max: 3 }), fc.integer({ min: -3, max: 3 }));
    const four = fc.uniqueArray(cell, { minLength: 4, maxLength: 4, selector: ([x, y]) => y * 64 + x });
    fc.assert(
      fc.property(four, fc.integer({ min: 3, max: 12 }), fc.integer({ min: 3, max: 40 }), (cells, x, y) => {
        const moved = cells.map(([dx, dy]) => [x + dx, y + dy] as Cell);
        expect(cellsKey(moved)).toBe(cellsKey(cells as Cell[]) + (64 * y + x) * CELLS_KEY_SHIFT);
      }),
      { numRuns: 500 },
    );
  });
});
